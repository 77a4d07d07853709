/**
 * Decodes the inside of a JSON string literal from bytes to UTF-8 bytes, without building a
 * string: the raw output's hot path (server lines are full of `\"`). Gives the bytes that
 * `Buffer.from(JSON.parse('"' + literal + '"'))` gives, including U+FFFD for a lone surrogate.
 * Returns the end of what was written in `target`, or -1 if the literal is not valid.
 *
 * The SIMD kernel (json-kernels.ts) decodes literals without \u escapes, nearly all of them;
 * the byte loop here decodes the others.
 */
import { HAS_UNICODE_ESCAPE, MAX_UNESCAPE_BYTES, unescapeLiteral } from './json-kernels.js';

const BACKSLASH = 0x5c;
const QUOTE = 0x22;

const SIMPLE: Int16Array = (() => {
  const table = new Int16Array(128).fill(-1);
  table[0x22] = 0x22; // "
  table[0x5c] = 0x5c; // \
  table[0x2f] = 0x2f; // /
  table[0x62] = 0x08; // b
  table[0x66] = 0x0c; // f
  table[0x6e] = 0x0a; // n
  table[0x72] = 0x0d; // r
  table[0x74] = 0x09; // t
  return table;
})();

function hex4(source: Buffer, at: number): number {
  let value = 0;
  for (let i = at; i < at + 4; i++) {
    const c = source[i]!;
    const digit = c >= 0x30 && c <= 0x39 ? c - 0x30 : c >= 0x61 && c <= 0x66 ? c - 0x57 : c >= 0x41 && c <= 0x46 ? c - 0x37 : -1;
    if (digit < 0) return -1;
    value = (value << 4) | digit;
  }
  return value;
}

function writeCodePoint(target: Buffer, at: number, code: number): number {
  if (code < 0x80) {
    target[at] = code;
    return at + 1;
  }
  if (code < 0x800) {
    target[at] = 0xc0 | (code >> 6);
    target[at + 1] = 0x80 | (code & 0x3f);
    return at + 2;
  }
  if (code < 0x10000) {
    target[at] = 0xe0 | (code >> 12);
    target[at + 1] = 0x80 | ((code >> 6) & 0x3f);
    target[at + 2] = 0x80 | (code & 0x3f);
    return at + 3;
  }
  target[at] = 0xf0 | (code >> 18);
  target[at + 1] = 0x80 | ((code >> 12) & 0x3f);
  target[at + 2] = 0x80 | ((code >> 6) & 0x3f);
  target[at + 3] = 0x80 | (code & 0x3f);
  return at + 4;
}

/** Needs `end - start` bytes of room in `target` from `at`: decoding never grows. */
export function unescapeJsonBytes(source: Buffer, start: number, end: number, target: Buffer, at: number): number {
  if (end - start <= MAX_UNESCAPE_BYTES) {
    const written = unescapeLiteral(source, start, end, target, at);
    if (written !== HAS_UNICODE_ESCAPE) return written;
  }
  return unescapeByteLoop(source, start, end, target, at);
}

/** Every escape, \u and surrogate pairs too, one byte at a time. */
function unescapeByteLoop(source: Buffer, start: number, end: number, target: Buffer, at: number): number {
  let out = at;
  let i = start;
  while (i < end) {
    const byte = source[i]!;
    // A quote not escaped: the literal ended before it (JSON.parse would say so too).
    if (byte === QUOTE) return -1;
    if (byte !== BACKSLASH) {
      target[out++] = byte;
      i++;
      continue;
    }
    if (i + 1 >= end) return -1;
    const escaped = source[i + 1]!;
    const simple = escaped < 128 ? SIMPLE[escaped]! : -1;
    if (simple >= 0) {
      target[out++] = simple;
      i += 2;
      continue;
    }
    if (escaped !== 0x75 || i + 6 > end) return -1;
    let code = hex4(source, i + 2);
    if (code < 0) return -1;
    i += 6;
    if (code >= 0xd800 && code <= 0xdbff) {
      const low = i + 6 <= end && source[i] === BACKSLASH && source[i + 1] === 0x75 ? hex4(source, i + 2) : -1;
      if (low >= 0xdc00 && low <= 0xdfff) {
        code = 0x10000 + ((code - 0xd800) << 10) + (low - 0xdc00);
        i += 6;
      } else {
        code = 0xfffd;
      }
    } else if (code >= 0xdc00 && code <= 0xdfff) {
      code = 0xfffd;
    }
    out = writeCodePoint(target, out, code);
  }
  return out;
}
