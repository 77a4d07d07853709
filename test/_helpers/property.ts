/**
 * Property tests: a seeded generator of inputs, and a runner that names the seed when a case
 * fails. Each run draws a new seed unless KERNEL_SEED is set, so runs look at new inputs over
 * time, and any failure can be replayed: `KERNEL_SEED=N npx ava dist/test/unit/FILE.test.js`.
 */
import type { ExecutionContext } from 'ava';
import crypto from 'node:crypto';
import { inspect, isDeepStrictEqual } from 'node:util';

export const BASE_SEED = process.env['KERNEL_SEED'] === undefined ? crypto.randomInt(2 ** 31) : Number(process.env['KERNEL_SEED']);

export interface Random {
  /** A number in [0, 1). */
  (): number;
  /** An integer in [0, n). */
  below(n: number): number;
  /** An integer in [low, high]. */
  between(low: number, high: number): number;
  pick<T>(items: readonly T[]): T;
  chance(p: number): boolean;
}

/** mulberry32: small, fast, and the same on every machine. */
export function seededRandom(seed: number): Random {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
  const random = next as Random;
  random.below = (n) => Math.floor(next() * n);
  random.between = (low, high) => low + Math.floor(next() * (high - low + 1));
  random.pick = (items) => items[Math.floor(next() * items.length)]!;
  random.chance = (p) => next() < p;
  return random;
}

let lastInput: string | undefined;

/** Names the input a check is about to give a kernel: a failure that throws is shown with it. */
export function given(input: string): string {
  lastInput = input;
  return input;
}

const nameHash = (name: string): number => [...name].reduce((hash, c) => Math.imul(hash ^ c.charCodeAt(0), 16777619) >>> 0, 2166136261);

/** What one case found wrong: undefined when the kernel and its reference agree. */
export type Verdict = string | undefined;

/**
 * Runs `check` on `rounds` cases drawn from a generator seeded by the run's seed and the test's
 * name; the first case that fails fails the test, naming the seed, the round and what differed.
 */
export function property(t: ExecutionContext, rounds: number, check: (random: Random, round: number) => Verdict): void {
  const seed = (BASE_SEED ^ nameHash(t.title)) >>> 0;
  const random = seededRandom(seed);
  lastInput = undefined;
  for (let round = 0; round < rounds; round++) {
    let verdict: Verdict;
    try {
      verdict = check(random, round);
    } catch (error) {
      verdict = `${String(error)}${lastInput === undefined ? '' : ` on ${lastInput}`}`;
    }
    if (verdict !== undefined) {
      t.fail(`round ${round} of ${rounds}: ${verdict}\n(KERNEL_SEED=${BASE_SEED} replays this run)`);
      return;
    }
  }
  t.pass();
}

/** Undefined when equal; else both, shown short. */
export function differ(actual: unknown, expected: unknown, what: string): Verdict {
  if (isDeepStrictEqual(actual, expected)) return undefined;
  const show = (value: unknown) => inspect(value, { depth: 4, maxArrayLength: 40, maxStringLength: 400, breakLength: Infinity });
  return `${what}\n  kernel:    ${show(actual)}\n  reference: ${show(expected)}`;
}

/** Bytes shown for a failure: short ones whole, long ones by their length and ends. */
export function showBytes(bytes: Uint8Array): string {
  const buffer = Buffer.from(bytes);
  const text = (b: Buffer) => JSON.stringify(b.toString('latin1'));
  return buffer.length <= 200 ? `${buffer.length} bytes ${text(buffer)}` : `${buffer.length} bytes ${text(buffer.subarray(0, 80))} … ${text(buffer.subarray(-80))}`;
}

/**
 * Pieces the inputs are made of, each a few bytes the kernels must treat right: plain ASCII
 * (most of it, so the sixteen-byte windows see both clean runs and work), quotes and
 * backslashes, every control, DEL, valid UTF-8 of every length (C1 and bidirectional marks
 * among them), invalid UTF-8 (lone continuations, cut sequences, overlongs, surrogates,
 * bytes that never occur), and, for literals, escapes good and broken.
 */
const UTF8 = ['é', 'ß', '✗', '€', '😀', '\u2028', '\u202e', '\u0085', '\u00a0', '\u200b'].map((c) => Buffer.from(c));
const INVALID_UTF8 = [[0x80], [0xbf], [0xc3], [0xe2, 0x82], [0xf0, 0x9f, 0x98], [0xc0, 0xaf], [0xed, 0xa0, 0x80], [0xff], [0xfe], [0xf5, 0x80, 0x80, 0x80]].map((b) => Buffer.from(b));
const SHORT_ESCAPES = ['\\n', '\\"', '\\\\', '\\/', '\\b', '\\f', '\\r', '\\t'].map((e) => Buffer.from(e));
const ESCAPES = SHORT_ESCAPES.concat(['\\u00e9', '\\u0000', '\\u001B', '\\ud83d\\ude00', '\\ud800', '\\udc00', '\\x', '\\u12', '\\U0041', '\\'].map((e) => Buffer.from(e)));
const CONTROLS = Array.from({ length: 0x20 }, (_, byte) => Buffer.from([byte])).concat([Buffer.from([0x7f])]);

export interface BytesMix {
  readonly specials?: number;
  readonly utf8?: boolean;
  readonly invalid?: boolean;
  /** Escapes: none, the eight short ones, or those and \\u ones and broken ones too. */
  readonly escapes?: 'none' | 'short' | 'all';
  readonly controls?: boolean;
  readonly quotes?: boolean;
}

/** `length` bytes from the pieces `mix` allows; a piece cut by the end is cut (one more way to be broken). */
export function randomBytes(random: Random, length: number, mix: BytesMix = {}): Buffer {
  const specials = mix.specials ?? 0.08;
  const kinds: Buffer[][] = [];
  if (mix.quotes ?? true) kinds.push([Buffer.from('"'), Buffer.from('\\')]);
  if (mix.controls ?? true) kinds.push(CONTROLS);
  if (mix.utf8 ?? true) kinds.push(UTF8);
  if (mix.invalid ?? true) kinds.push(INVALID_UTF8);
  const escapes = mix.escapes ?? 'all';
  if (escapes !== 'none') kinds.push(escapes === 'short' ? SHORT_ESCAPES : ESCAPES);
  const out = Buffer.alloc(length);
  let at = 0;
  while (at < length) {
    if (kinds.length > 0 && random.chance(specials)) {
      at += random.pick(random.pick(kinds)).copy(out, at);
    } else {
      // A run of printable ASCII: long runs test the sixteen-byte windows, short ones their edges.
      const run = Math.min(length - at, random.chance(0.5) ? random.between(1, 4) : random.between(5, 40));
      for (let i = 0; i < run; i++) out[at + i] = random.between(0x20, 0x7e);
      at += run;
    }
  }
  return out;
}

/**
 * A length for an input of at most `limit` bytes: mostly short, often at or around a multiple
 * of the SIMD width, sometimes long, and sometimes at the limit itself.
 */
export function randomLength(random: Random, limit: number): number {
  const roll = random();
  let length: number;
  if (roll < 0.35) length = random.between(0, 40);
  else if (roll < 0.6) length = 16 * random.between(1, 16) + random.between(-1, 1);
  else if (roll < 0.95) length = random.between(0, 3000);
  else if (roll < 0.98) length = random.between(0, limit);
  else length = limit - random.between(0, 17);
  return Math.max(0, Math.min(limit, length));
}

/** A line's bytes as an entry's contents literal holds them (the sidecar's escapes; bytes from 0x80 kept as they are). */
export function literalOf(line: Uint8Array): Buffer {
  const parts: string[] = [];
  for (const byte of line) {
    if (byte === 0x22) parts.push('\\"');
    else if (byte === 0x5c) parts.push('\\\\');
    else if (byte < 0x20) parts.push(JSON.stringify(String.fromCharCode(byte)).slice(1, -1));
    else parts.push(String.fromCharCode(byte));
  }
  return Buffer.from(parts.join(''), 'latin1');
}
