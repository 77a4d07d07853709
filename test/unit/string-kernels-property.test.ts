/**
 * escape, unescape, literalInvalid and terminalUnsafe held to their references (reference-kernels.ts) on random
 * inputs: every kind of byte and escape, lengths at and around each multiple of the SIMD width
 * and at the limits, sources in ordinary buffers and in the module's input region (up to its
 * last byte), targets in ordinary buffers and in leased output chunks (up to their last byte).
 */
import test from 'ava';
import {
  KERNEL_INPUT_BYTES,
  MAX_ESCAPE_BYTES,
  MAX_UNESCAPE_BYTES,
  escapeAsciiJson,
  escapedBytesBound,
  leaseKernelInput,
  leaseKernelOutputChunk,
  literalTerminalSafe,
  literalValid,
  unescapeLiteral,
  unescapeLiteralToString,
} from '../../src/kernels/json-kernels.js';
import { referenceEscapeAsciiJson, referenceLiteralValid, referenceTerminalSafe, referenceUnescapeLiteral } from '../../src/kernels/reference-kernels.js';
import { unescapeJsonBytes } from '../../src/kernels/unescape-json.js';
import { differ, property, randomBytes, randomLength, showBytes, type BytesMix, type Random, type Verdict } from '../_helpers/property.js';

const input = leaseKernelInput()!;
const chunk = leaseKernelOutputChunk()!;
const SENTINEL = 0xa5;
const chunkSentinel = Buffer.alloc(chunk.length, SENTINEL);

interface Placed {
  readonly source: Buffer;
  readonly start: number;
  readonly end: number;
  readonly where: string;
}

/**
 * The bytes somewhere a kernel reads them from, with other bytes after them (which it must not
 * read): a buffer of their own, or the module's input region, where they are read in place.
 */
function placeSource(random: Random, bytes: Buffer): Placed {
  if (random.chance(0.5)) {
    const before = random.between(0, 31);
    const source = Buffer.concat([randomBytes(random, before), bytes, randomBytes(random, random.between(0, 31))]);
    return { source, start: before, end: before + bytes.length, where: `a buffer at ${before}` };
  }
  const start = random.chance(0.2) ? KERNEL_INPUT_BYTES - bytes.length : random.between(0, Math.min(4096, KERNEL_INPUT_BYTES - bytes.length));
  bytes.copy(input, start);
  randomBytes(random, Math.min(32, KERNEL_INPUT_BYTES - start - bytes.length)).copy(input, start + bytes.length);
  return { source: input, start, end: start + bytes.length, where: `the input region at ${start}` };
}

interface Target {
  readonly target: Buffer;
  readonly at: number;
  /** True when it lies in the module's memory (the kernel writes there directly). */
  readonly inChunk: boolean;
}

/** Room for `room` bytes: in a buffer of its own, or in an output chunk (sometimes up to its last byte). */
function placeTarget(random: Random, room: number): Target {
  if (room > chunk.length || random.chance(0.5)) {
    const at = random.between(0, 31);
    return { target: Buffer.alloc(at + room + 32, SENTINEL), at, inChunk: false };
  }
  const at = random.chance(0.2) ? chunk.length - room : random.between(0, Math.min(64, chunk.length - room));
  // Whatever a round before left in it (one that failed returns before it looks).
  chunk.fill(SENTINEL);
  return { target: chunk, at, inChunk: true };
}

/** Undefined when nothing outside target[from, to) was written. */
function untouchedOutside({ target, inChunk }: Target, from: number, to: number): Verdict {
  const sentinel = inChunk ? chunkSentinel : Buffer.alloc(target.length, SENTINEL);
  const firstWrite = target.compare(sentinel, 0, from, 0, from) === 0 ? -1 : from;
  const lastWrite = target.compare(sentinel, to, target.length, to, target.length) === 0 ? -1 : to;
  if (firstWrite >= 0) return `a byte before the target's room [${from}, ${to}) was written`;
  if (lastWrite >= 0) return `a byte after the target's room [${from}, ${to}) was written`;
  return undefined;
}

const escapeMix = (random: Random): BytesMix =>
  random.chance(0.75) ? { utf8: false, invalid: false, specials: random.pick([0.01, 0.08, 0.3]) } : { specials: random.pick([0.005, 0.08]) };

test('escape: escapeAsciiJson is referenceEscapeAsciiJson', (t) => {
  property(t, 3000, (random, round) => {
    const length = round === 0 ? MAX_ESCAPE_BYTES : randomLength(random, MAX_ESCAPE_BYTES);
    const bytes = randomBytes(random, length, escapeMix(random));
    const { source, start, end, where } = placeSource(random, bytes);
    const expected = referenceEscapeAsciiJson(source, start, end);
    const place = placeTarget(random, escapedBytesBound(length));
    const written = escapeAsciiJson(source, start, end, place.target, place.at);
    const input = `${showBytes(bytes)} from ${where}, to ${place.inChunk ? 'a chunk' : 'a buffer'} at ${place.at}`;
    const actual = written < 0 ? undefined : place.target.subarray(place.at, written);
    return (
      differ(actual && Buffer.from(actual).toString('latin1'), expected?.toString('latin1'), `escape of ${input}`) ??
      untouchedOutside(place, place.at, place.inChunk ? place.at + escapedBytesBound(length) : Math.max(written, place.at))
    );
  });
});

test('escape: the reference is JSON.stringify for ASCII, and both take at most MAX_ESCAPE_BYTES', (t) => {
  property(t, 1000, (random) => {
    const bytes = randomBytes(random, randomLength(random, 4096), { utf8: false, invalid: false, specials: 0.2 });
    return differ(referenceEscapeAsciiJson(bytes, 0, bytes.length)?.toString('latin1'), JSON.stringify(bytes.toString('latin1')).slice(1, -1), `reference escape of ${showBytes(bytes)}`);
  });
  const long = Buffer.alloc(MAX_ESCAPE_BYTES + 1, 0x61);
  t.throws(() => escapeAsciiJson(long, 0, long.length, Buffer.alloc(long.length * 6), 0), { instanceOf: RangeError });
  t.throws(() => referenceEscapeAsciiJson(long, 0, long.length), { instanceOf: RangeError });
});

const unescapeMix = (random: Random): BytesMix =>
  random.pick<BytesMix>([
    { escapes: 'short', quotes: false, specials: random.pick([0.01, 0.1, 0.4]) },
    { escapes: 'short', quotes: false, invalid: false, controls: false, specials: 0.05 },
    { escapes: 'all', specials: random.pick([0.005, 0.05]) },
  ]);

test('unescape: unescapeLiteral and unescapeLiteralToString are referenceUnescapeLiteral', (t) => {
  property(t, 3000, (random, round) => {
    const length = round === 0 ? MAX_UNESCAPE_BYTES : randomLength(random, MAX_UNESCAPE_BYTES);
    const bytes = randomBytes(random, length, unescapeMix(random));
    const { source, start, end, where } = placeSource(random, bytes);
    const expected = referenceUnescapeLiteral(source, start, end);
    const place = placeTarget(random, length);
    const written = unescapeLiteral(source, start, end, place.target, place.at);
    const input = `${showBytes(bytes)} from ${where}, to ${place.inChunk ? 'a chunk' : 'a buffer'} at ${place.at}`;
    const actual = written < 0 ? written : Buffer.from(place.target.subarray(place.at, written)).toString('latin1');
    return (
      differ(actual, typeof expected === 'number' ? expected : expected.toString('latin1'), `unescape of ${input}`) ??
      untouchedOutside(place, place.at, place.inChunk ? place.at + length : Math.max(written, place.at)) ??
      differ(unescapeLiteralToString(source, start, end), typeof expected === 'number' ? undefined : expected.toString('utf8'), `unescape to a string of ${input}`)
    );
  });
  const long = Buffer.alloc(MAX_UNESCAPE_BYTES + 1, 0x61);
  t.throws(() => unescapeLiteral(long, 0, long.length, Buffer.alloc(long.length), 0), { instanceOf: RangeError });
  t.throws(() => referenceUnescapeLiteral(long, 0, long.length), { instanceOf: RangeError });
  t.is(unescapeLiteralToString(long, 0, long.length), undefined);
});

/** A string of every kind of character: controls, quotes, backslashes, non-ASCII, astral, lone surrogates. */
function randomString(random: Random, length: number): string {
  const kinds = ['"', '\\', '/', '\u0000', '\u001f', '\n', '\t', '\u007f', 'é', '✗', '😀', '\u2028', '\ud800', '\udc00', '\ud83d'];
  let text = '';
  while (text.length < length) text += random.chance(0.15) ? random.pick(kinds) : String.fromCharCode(random.between(0x20, 0x7e));
  return text;
}

/** The string's JSON literal, some characters written as \u escapes (either case of hex) or \/. */
function literalWithEscapes(random: Random, text: string): string {
  const rate = random.pick([0, 0.02, 0.3]);
  let literal = '';
  for (const c of JSON.stringify(text).slice(1, -1).match(/\\u[0-9a-f]{4}|\\.|[\s\S]/g) ?? []) {
    const code = c.charCodeAt(0);
    if (c.length === 1 && (code < 0xd800 || code > 0xdfff) && random.chance(rate)) {
      const hex = c.charCodeAt(0).toString(16).padStart(4, '0');
      literal += c === '/' && random.chance(0.5) ? '\\/' : `\\u${random.chance(0.5) ? hex : hex.toUpperCase()}`;
    } else literal += c;
  }
  return literal;
}

test('unescape with \\u: unescapeJsonBytes gives the bytes of JSON.parse, lone surrogates as U+FFFD, at every length', (t) => {
  property(t, 2000, (random, round) => {
    // A few beyond the kernel's limit, which the byte loop decodes.
    const length = round < 3 ? MAX_UNESCAPE_BYTES + random.between(-8, 8) : randomLength(random, 3000);
    const text = randomString(random, length);
    const literal = Buffer.from(literalWithEscapes(random, text));
    const { source, start, end, where } = placeSource(random, literal);
    const place = placeTarget(random, literal.length);
    const written = unescapeJsonBytes(source, start, end, place.target, place.at);
    const expected = Buffer.from(JSON.parse(`"${literal.toString('utf8')}"`) as string).toString('latin1');
    return differ(written < 0 ? written : Buffer.from(place.target.subarray(place.at, written)).toString('latin1'), expected, `unescapeJsonBytes of ${showBytes(literal)} from ${where}`) ?? untouchedOutside(place, place.at, place.inChunk ? place.at + literal.length : Math.max(written, place.at));
  });
});

test('unescape with \\u: unescapeJsonBytes agrees with the kernel\'s reference wherever that decodes or refuses', (t) => {
  property(t, 2000, (random) => {
    const bytes = randomBytes(random, randomLength(random, 4096), unescapeMix(random));
    const expected = referenceUnescapeLiteral(bytes, 0, bytes.length);
    if (expected === -2) return undefined;
    const target = Buffer.alloc(bytes.length);
    const written = unescapeJsonBytes(bytes, 0, bytes.length, target, 0);
    return differ(written < 0 ? written : target.toString('latin1', 0, written), typeof expected === 'number' ? expected : expected.toString('latin1'), `unescapeJsonBytes of ${showBytes(bytes)}`);
  });
});

test('literalInvalid: literalValid is referenceLiteralValid', (t) => {
  property(t, 3000, (random, round) => {
    const length = round === 0 ? MAX_UNESCAPE_BYTES : randomLength(random, MAX_UNESCAPE_BYTES);
    const mix = random.pick<BytesMix>([{ specials: 0.001 }, { specials: 0.05 }, { quotes: false, controls: false, specials: 0.02 }, { quotes: false, controls: false, escapes: 'short', specials: 0.2 }, { utf8: false, invalid: false, escapes: 'short', specials: 0.1 }]);
    const bytes = randomBytes(random, length, mix);
    const { source, start, end, where } = placeSource(random, bytes);
    return differ(literalValid(source, start, end), referenceLiteralValid(source, start, end), `validity of ${showBytes(bytes)} from ${where}`);
  });
  // Longer than the kernel takes: the reference's loop answers.
  const long = Buffer.alloc(MAX_UNESCAPE_BYTES + 1, 0x61);
  t.true(literalValid(long, 0, long.length));
  long[MAX_UNESCAPE_BYTES] = 0x09;
  t.false(literalValid(long, 0, long.length));
});

test('literalInvalid: the reference says valid exactly where JSON.parse reads the literal', (t) => {
  property(t, 3000, (random) => {
    const bytes = randomBytes(random, randomLength(random, 300), random.pick<BytesMix>([{ specials: 0.1 }, { quotes: false, controls: false, specials: 0.1 }]));
    let parses = true;
    try {
      JSON.parse(`"${bytes.toString('latin1')}"`);
    } catch {
      parses = false;
    }
    return differ(referenceLiteralValid(bytes, 0, bytes.length), parses, `validity of ${showBytes(bytes)}`);
  });
});

test('terminalUnsafe: literalTerminalSafe is referenceTerminalSafe', (t) => {
  property(t, 3000, (random, round) => {
    const length = round === 0 ? MAX_UNESCAPE_BYTES : randomLength(random, MAX_UNESCAPE_BYTES);
    const mix = random.pick<BytesMix>([{ specials: 0.001 }, { specials: 0.05 }, { utf8: false, invalid: false, controls: false, specials: 0.02 }]);
    const bytes = randomBytes(random, length, mix);
    const { source, start, end, where } = placeSource(random, bytes);
    return differ(literalTerminalSafe(source, start, end), referenceTerminalSafe(source, start, end), `terminal safety of ${showBytes(bytes)} from ${where}`);
  });
  const long = Buffer.alloc(MAX_UNESCAPE_BYTES + 1, 0x61);
  t.false(literalTerminalSafe(long, 0, long.length));
  t.false(referenceTerminalSafe(long, 0, long.length));
});

test('terminalUnsafe: a literal the reference calls safe decodes to printable ASCII and tabs only', (t) => {
  property(t, 3000, (random) => {
    const bytes = randomBytes(random, randomLength(random, 300), { utf8: false, invalid: false, controls: false, specials: 0.1 });
    if (!referenceTerminalSafe(bytes, 0, bytes.length)) return undefined;
    let decoded: string;
    try {
      decoded = JSON.parse(`"${bytes.toString('latin1')}"`) as string;
    } catch {
      return undefined;
    }
    return /^[\t\x20-\x7e]*$/.test(decoded) ? undefined : `${showBytes(bytes)} is called safe and decodes to ${JSON.stringify(decoded)}`;
  });
});
