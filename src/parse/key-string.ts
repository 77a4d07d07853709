/**
 * A string attribute read where it stands, found by its key's needle (key-needles.ts) as
 * AttributeReader.number finds a count: the connection lines summary reads a remote from
 * (a third of a busy server's lines) need neither the kernel's places nor JSON.parse. Only a
 * string with no escape of its own is read so; anything else is left to the full reading.
 */
import { keyNeedle } from './key-needles.js';
import { matchesAt } from './match-bytes.js';
import type { TextPlace } from './text-place.js';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * The string value of the first `"key":` in bytes[from, end) (a line, or escaped inside an
 * entry's contents literal); undefined when there is none, its value is no string, or the
 * string has an escape or a control character. The first: ask only for a key the lines it is
 * asked of write before any value that could hold the same key.
 */
export function stringAfterKey(bytes: Buffer, from: number, end: number, escaped: boolean, key: string): string | undefined {
  const start = stringStartAfterKey(bytes, from, end, escaped, key);
  return start < 0 ? undefined : bytes.toString('utf8', start, stringEnd);
}

/**
 * Where stringAfterKey's string stands, without making it: true, and `into` set to its place,
 * when stringAfterKey would read it; false when it would be undefined.
 */
export function stringPlaceAfterKey(bytes: Buffer, from: number, end: number, escaped: boolean, key: string, into: TextPlace): boolean {
  const start = stringStartAfterKey(bytes, from, end, escaped, key);
  if (start < 0) return false;
  into.set(bytes, start, stringEnd);
  return true;
}

/** Where the last string found ends (set by stringStartAfterKey). */
let stringEnd = 0;

/** Where the string stringAfterKey reads starts (its end in stringEnd), or -1. */
function stringStartAfterKey(bytes: Buffer, from: number, end: number, escaped: boolean, key: string): number {
  const needle = keyNeedle(key, escaped);
  const first = needle[0];
  const last = end - needle.length;
  let at = from;
  while (at <= last && !(bytes[at] === first && matchesAt(bytes, at, needle))) at++;
  if (at > last) return -1;
  // The opening quote: `"`, or `\"` inside a literal.
  let i = at + needle.length;
  if (escaped) {
    if (bytes[i] !== BACKSLASH || bytes[i + 1] !== QUOTE) return -1;
    i += 2;
  } else {
    if (bytes[i] !== QUOTE) return -1;
    i++;
  }
  const start = i;
  for (; i < end; i++) {
    const byte = bytes[i]!;
    if (byte === BACKSLASH) {
      // Inside a literal, `\"` closes the string; any other backslash is an escape.
      if (!(escaped && bytes[i + 1] === QUOTE && i + 1 < end)) return -1;
      stringEnd = i;
      return start;
    }
    if (byte === QUOTE) {
      if (escaped) return -1;
      stringEnd = i;
      return start;
    }
    if (byte < 0x20) return -1;
  }
  return -1;
}
