/**
 * The torture test's lines: numbered, checksummed, and hard to encode. Every line's bytes are
 * a pure function of (seed, file, sequence number, size class, banner), so the oracle knows
 * each line without storing it, and a replayed seed writes the same bytes.
 *
 *   @<file>.<seq base 36>.<crc> <payload> =<file>.<seq base 36>
 *
 * The header names the line from its start, the trailer from its end (so a piece cut from
 * either end still says whose it is); the crc is a hash of the payload as the sidecar must
 * deliver it (invalid UTF-8 as U+FFFD). Payloads never hold `@`, `=` or a newline: a piece
 * that starts with `@` is a line's start, and a trailer cannot occur inside a payload.
 * Banner lines start with the same 1100 bytes in every file and every generation (as mongod's
 * startup lines would if they carried no time), and are named by their trailer only.
 * Lines under 24 bytes have no trailer.
 */
import { Random } from './random.js';

export type SizeClass = 'tiny' | 'short' | 'medium' | 'long' | 'huge';

/** Bytes of a line (newline excluded) by class: 12 B to 70 KB. */
export const SIZE_RANGES: Readonly<Record<SizeClass, readonly [number, number]>> = {
  tiny: [12, 40],
  short: [40, 300],
  medium: [300, 4000],
  long: [4000, 20000],
  huge: [20000, 70000],
};

export interface LineSpec {
  readonly seed: number;
  readonly file: number;
  readonly seq: number;
  readonly size: SizeClass;
  readonly banner: boolean;
}

/** 64 printable ASCII bytes, none of them `@` or `=`. */
const ALPHABET = Buffer.from('abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 .');

type Flavor = 'plain' | 'json' | 'utf8' | 'control' | 'invalid';

const FLAVORS: readonly (readonly [Flavor, number])[] = [
  ['plain', 55],
  ['json', 15],
  ['utf8', 12],
  ['control', 8],
  ['invalid', 10],
];

const bytes = (...values: number[]): Buffer => Buffer.from(values);
const SPECIALS: Readonly<Record<Exclude<Flavor, 'plain'>, readonly Buffer[]>> = {
  json: ['"', '\\', '/', '\t', '\\"', '{"a":"b\\n"}', "'", '\\u0041'].map((s) => Buffer.from(s)),
  utf8: ['é', '€', '😀', '\u2028', '\u2029', '中文', 'ü', '\u00a0'].map((s) => Buffer.from(s)),
  control: [bytes(0x00), bytes(0x01), bytes(0x1b, 0x5b, 0x33, 0x31, 0x6d), bytes(0x7f), bytes(0x0d), bytes(0x08), bytes(0x0c), bytes(0x1f)],
  invalid: [
    bytes(0x80),
    bytes(0xff),
    bytes(0xc3, 0x28),
    bytes(0xe0, 0x80),
    bytes(0xed, 0xa0, 0x80),
    bytes(0xf4, 0x90, 0x80, 0x80),
    bytes(0xf0, 0x9f),
    bytes(0xc0, 0xaf),
    bytes(0xfe, 0xfe),
  ],
};

/** The banner's first 1100 bytes, the same in every file and generation. */
export const BANNER_HEAD = Buffer.from(
  '@@ ' + 'mongod startup: build info {version 8.0.4, gitVersion 0123456789abcdef, modules [enterprise]} '.repeat(12),
).subarray(0, 1100);

const seqText = (seq: number): string => seq.toString(36);

/** The line's bytes, without its newline. */
export function lineBytes(spec: LineSpec): Buffer {
  const random = new Random(spec.seed, spec.file, spec.seq, 0x11e);
  const [min, max] = SIZE_RANGES[spec.size];
  const length = random.int(min, max);
  const trailer = Buffer.from(` =${spec.file}.${seqText(spec.seq)}`);
  if (spec.banner) return Buffer.concat([BANNER_HEAD, trailer]);
  const withTrailer = length >= 24;
  const crcHex = spec.size === 'tiny' ? 4 : 8;
  const headerLength = `@${spec.file}.${seqText(spec.seq)}.`.length + crcHex + 1;
  const payloadLength = Math.max(1, length - headerLength - (withTrailer ? trailer.length : 0));
  const payload = makePayload(random, payloadLength, random.weighted(FLAVORS));
  const crc = hashText(payload.toString('utf8')).slice(0, crcHex);
  const header = Buffer.from(`@${spec.file}.${seqText(spec.seq)}.${crc} `);
  return Buffer.concat(withTrailer ? [header, payload, trailer] : [header, payload]);
}

function makePayload(random: Random, length: number, flavor: Flavor): Buffer {
  const payload = Buffer.allocUnsafe(length);
  for (let i = 0; i < length; i += 4) {
    const word = random.uint32();
    for (let k = 0; k < 4 && i + k < length; k++) payload[i + k] = ALPHABET[(word >>> (k * 8)) & 63]!;
  }
  if (flavor === 'plain') return payload;
  const specials = SPECIALS[flavor];
  const count = Math.max(1, Math.floor(length / 40));
  for (let n = 0; n < count; n++) {
    const special = random.pick(specials);
    if (special.length > length) continue;
    special.copy(payload, random.int(0, length - special.length));
  }
  return payload;
}

export interface LineIdentity {
  readonly file: number;
  readonly seq: number;
  /** Named by the line's start (header) or by its end (trailer). */
  readonly by: 'header' | 'trailer';
}

const HEADER = /^@(\d)\.([0-9a-z]+)\./;
const TRAILER = / =(\d)\.([0-9a-z]+)$/;

/** Whose line (or piece of a line) these delivered contents are, if they say. */
export function identifyContents(contents: string): LineIdentity | undefined {
  const head = HEADER.exec(contents);
  if (head) return { file: Number(head[1]), seq: parseInt(head[2]!, 36), by: 'header' };
  const tail = TRAILER.exec(contents);
  if (tail) return { file: Number(tail[1]), seq: parseInt(tail[2]!, 36), by: 'trailer' };
  return undefined;
}

/** True when delivered contents begin a line (a piece that does not is a continuation). */
export function startsALine(contents: string): boolean {
  return contents.startsWith('@');
}

/** What the sidecar must deliver for these line bytes: invalid UTF-8 as U+FFFD, as Node decodes. */
export function expectedContents(line: Buffer): string {
  return line.toString('utf8');
}

/** FNV-1a over UTF-16 units in two lanes: 16 hex digits. Tells delivered text from expected. */
export function hashText(text: string): string {
  let low = 0x811c9dc5;
  let high = 0x050c5d1f;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    low = Math.imul(low ^ unit, 0x01000193);
    high = Math.imul(high ^ unit, 0x01000193) ^ (low >>> 15);
  }
  return (high >>> 0).toString(16).padStart(8, '0') + (low >>> 0).toString(16).padStart(8, '0');
}
