/**
 * Every byte of log contents that reaches a terminal passes here: C0 controls (but tab), DEL,
 * C1 controls (8-bit CSI on some terminals) and the bidirectional overrides that reorder what
 * a line shows are written as visible escapes, so a crafted line cannot move the cursor, clear
 * the screen, set the title or hide text. `\n` and `\r` are escaped too: one entry, one line.
 */
const UNSAFE = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
const UNSAFE_TEST = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

const NAMED: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\u001b': '\\e' };

function visible(char: string): string {
  const named = NAMED[char];
  if (named) return named;
  const code = char.charCodeAt(0);
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u{${code.toString(16)}}`;
}

export function escapeTerminal(text: string): string {
  return UNSAFE_TEST.test(text) ? text.replace(UNSAFE, visible) : text;
}

/**
 * JSON text (JSON.stringify's) safe for a terminal and still the same JSON: the characters a
 * terminal acts on that JSON leaves raw (DEL, C1, the bidirectional controls) written as
 * `\u` escapes, which JSON.parse reads back as they were.
 */
export function terminalSafeJson(json: string): string {
  return UNSAFE_TEST.test(json) ? json.replace(UNSAFE, jsonEscape) : json;
}

const jsonEscape = (char: string): string => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`;

/**
 * True when nothing in `text`, nor anything JSON.parse makes of it, needs escaping for a
 * terminal: then the fields of a line parsed from it can be shown without escaping each one.
 * (A character class and native searches: one regex with an alternation scanned slower.)
 */
export function isTerminalSafe(text: string): boolean {
  if (UNSAFE_TEST.test(text)) return false;
  for (const escape of JSON_ESCAPES_TO_UNSAFE) if (text.includes(escape)) return false;
  return true;
}

/** JSON escapes that decode to characters a terminal would act on. */
const JSON_ESCAPES_TO_UNSAFE = ['\\u', '\\n', '\\r', '\\b', '\\f'];
