/**
 * What a terminal must never be handed from a log, stated here apart from the code that does
 * the escaping (src/render/escape-terminal.ts), so a test can hold that code to it: every code
 * point of every class a terminal acts on, the ordinary characters at the edges of each class,
 * escape sequences as attackers write them, lone surrogates, and a seeded generator that mixes
 * them into text.
 *
 * The contract: C0 controls but tab, DEL, C1 controls and the bidirectional controls (the
 * Arabic letter mark, LRM, RLM, the embeddings and overrides U+202A-202E, the isolates
 * U+2066-2069) are shown as visible escapes: `\n`, `\r`, `\e` for those three, `\xHH` for the
 * others up to U+00FF, `\u{hhhh}` above. Everything else is written as it is; a lone surrogate
 * leaves as UTF-8's replacement character, as Node writes it.
 */

const range = (from: number, to: number): number[] => Array.from({ length: to - from + 1 }, (_, i) => from + i);

/** Every code point of each class a terminal acts on. */
export const UNSAFE_CLASSES: Readonly<Record<string, readonly number[]>> = {
  c0: range(0x00, 0x1f).filter((c) => c !== 0x09),
  del: [0x7f],
  c1: range(0x80, 0x9f),
  bidiMarks: [0x061c, 0x200e, 0x200f],
  bidiEmbeddingsAndOverrides: range(0x202a, 0x202e),
  bidiIsolates: range(0x2066, 0x2069),
};

export const UNSAFE_CODE_POINTS: ReadonlySet<number> = new Set(Object.values(UNSAFE_CLASSES).flat());

/**
 * Ordinary characters, each beside a class edge (or a look-alike of one), that must pass
 * unchanged: tab, space and `~` around C0 and DEL, NBSP and Latin-1 after C1, the neighbours of
 * the bidi marks, the zero-width joiner, the line and paragraph separators before U+202A, the
 * invisible operators before the isolates, CJK, and an astral character (a surrogate pair).
 */
export const SAFE_NEIGHBOURS: readonly number[] = [
  0x09, 0x20, 0x7e, 0xa0, 0xa1, 0xe9, 0xff, 0x100, 0x061b, 0x061d, 0x200d, 0x2010, 0x2028, 0x2029, 0x202f, 0x2065, 0x206a, 0x4e2d,
  0xfeff, 0xfffd, 0x1f600,
];

/** Sequences as an attacker writes them: clear screen, set title, a hyperlink, 8-bit CSI, DCS, the alternate screen, blink, a cursor move. */
export const ESCAPE_SEQUENCES: readonly string[] = [
  '\u001b[2J',
  '\u001b]0;pwned\u0007',
  '\u001b]8;;http://evil.example/\u001b\\link\u001b]8;;\u001b\\',
  '\u009b31m',
  '\u001bP+q544e\u001b\\',
  '\u001b[?1049h',
  '\u001b[5m',
  '\u001b[10;10H',
  '\r\u001b[K',
];

/** Surrogates without their other half: JSON allows them (`\ud800`); UTF-8 has no bytes for them. */
export const LONE_SURROGATES: readonly string[] = ['\ud800', '\udfff', '\udc00\ud800'];

const NAMED: Readonly<Record<number, string>> = { 0x0a: '\\n', 0x0d: '\\r', 0x1b: '\\e' };

/**
 * `text` as the contract says a terminal must be shown it: as written to a stream (lone
 * surrogates become U+FFFD), or as the string escapeTerminal returns (`written: false`).
 */
export function terminalView(text: string, written = true): string {
  let out = '';
  for (const char of text) {
    const code = char.codePointAt(0)!;
    if (code >= 0xd800 && code <= 0xdfff) out += written ? '\ufffd' : char;
    else if (!UNSAFE_CODE_POINTS.has(code)) out += char;
    else out += NAMED[code] ?? (code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u{${code.toString(16)}}`);
  }
  return out;
}

/**
 * The code points of `text` (decoded output) a terminal would act on, but `allowed` (the line
 * feeds between output lines, say), as `U+XXXX at index` for an assertion message.
 */
export function unsafeCodePoints(text: string, allowed: ReadonlySet<number> = new Set([0x0a])): string[] {
  const found: string[] = [];
  let index = 0;
  for (const char of text) {
    const code = char.codePointAt(0)!;
    if (UNSAFE_CODE_POINTS.has(code) && !allowed.has(code)) {
      found.push(`U+${code.toString(16).padStart(4, '0')} at ${index}: ${JSON.stringify(text.slice(Math.max(0, index - 30), index + 30))}`);
    }
    index += char.length;
  }
  return found;
}

/** A small seeded generator (mulberry32): the same seed, the same inputs. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = ['conn42', 'éte', '中文', 'a b', '😀', 'x', '\\', '"', '/', '{', '}', ':', ','];

/**
 * The payloads a test embeds in every place of a line: each unsafe code point alone between
 * letters (alone, so no other character makes the line look unsafe and hides a gap in the
 * checks), each safe neighbour alone, each escape sequence, each lone surrogate, and `mixed`
 * seeded mixtures of all of them with ordinary words. Each starts and ends with a letter, so
 * no parser trims any of it.
 */
export function terminalPayloads(seed = 2026, mixed = 24): string[] {
  const payloads: string[] = [];
  for (const code of UNSAFE_CODE_POINTS) payloads.push(`b${String.fromCodePoint(code)}a`);
  for (const code of SAFE_NEIGHBOURS) payloads.push(`b${String.fromCodePoint(code)}a`);
  for (const sequence of ESCAPE_SEQUENCES) payloads.push(`b${sequence}a`);
  for (const lone of LONE_SURROGATES) payloads.push(`b${lone}a`);
  const random = seededRandom(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const unsafe = [...UNSAFE_CODE_POINTS];
  for (let i = 0; i < mixed; i++) {
    let text = 'm';
    const pieces = 2 + Math.floor(random() * 8);
    // At most ~100 UTF-16 units: pretty cuts attribute values at 120 characters.
    for (let p = 0; p < pieces && text.length < 50; p++) {
      const kind = Math.floor(random() * 5);
      if (kind === 0) text += String.fromCodePoint(pick(unsafe));
      else if (kind === 1) text += String.fromCodePoint(pick(SAFE_NEIGHBOURS));
      else if (kind === 2) text += pick(ESCAPE_SEQUENCES);
      else if (kind === 3) text += pick(LONE_SURROGATES);
      else text += pick(WORDS);
    }
    payloads.push(`${text}z`);
  }
  return payloads;
}

/** JSON text of `value` with every character outside printable ASCII as a `\uXXXX` escape (`upper`: hex digits in upper case). */
export function jsonAllEscaped(value: unknown, upper = false): string {
  return JSON.stringify(value).replace(/[^\u0020-\u007e]/g, (char) => {
    const hex = char.charCodeAt(0).toString(16).padStart(4, '0');
    return `\\u${upper ? hex.toUpperCase() : hex}`;
  });
}

/**
 * JSON text of `value` with the characters JSON requires escaped written raw instead (C0
 * controls, lone surrogates): not valid JSON, as a broken writer or a cut line gives it.
 */
export function jsonRawControls(value: unknown): string {
  return JSON.stringify(value).replace(/\\(?:u([0-9a-f]{4})|([bfnrt])|(["\\/]))/g, (escape, hex: string | undefined, short: string | undefined) => {
    if (hex !== undefined) return String.fromCharCode(parseInt(hex, 16));
    if (short !== undefined) return ({ b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' } as Record<string, string>)[short]!;
    return escape;
  });
}
