/**
 * A string attribute read where it stands, found by its key's needle (key-needles.ts) as
 * AttributeReader.number finds a count: the connection lines summary reads a remote from
 * (a third of a busy server's lines) need neither the kernel's places nor JSON.parse. Only a
 * string with no escape of its own is read so; anything else is left to the full reading.
 */
import { keyNeedle } from './key-needles.js';
import { matchesAt } from './match-bytes.js';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * The string value of the first `"key":` in bytes[from, end) (a line, or escaped inside an
 * entry's contents literal); undefined when there is none, its value is no string, or the
 * string has an escape or a control character. The first: ask only for a key the lines it is
 * asked of write before any value that could hold the same key.
 */
export function stringAfterKey(bytes: Buffer, from: number, end: number, escaped: boolean, key: string): string | undefined {
  const needle = keyNeedle(key, escaped);
  const first = needle[0];
  const last = end - needle.length;
  let at = from;
  while (at <= last && !(bytes[at] === first && matchesAt(bytes, at, needle))) at++;
  if (at > last) return undefined;
  // The opening quote: `"`, or `\"` inside a literal.
  let i = at + needle.length;
  if (escaped) {
    if (bytes[i] !== BACKSLASH || bytes[i + 1] !== QUOTE) return undefined;
    i += 2;
  } else {
    if (bytes[i] !== QUOTE) return undefined;
    i++;
  }
  const start = i;
  for (; i < end; i++) {
    const byte = bytes[i]!;
    if (byte === BACKSLASH) {
      // Inside a literal, `\"` closes the string; any other backslash is an escape.
      return escaped && bytes[i + 1] === QUOTE && i + 1 < end ? bytes.toString('utf8', start, i) : undefined;
    }
    if (byte === QUOTE) return escaped ? undefined : bytes.toString('utf8', start, i);
    if (byte < 0x20) return undefined;
  }
  return undefined;
}
