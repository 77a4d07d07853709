/**
 * The sidecar's hot path: an ASCII line's bytes escaped as a JSON string straight into the
 * output buffer, with no string made on the way (a million lines of JSON.stringify and
 * concatenation were a third of catch-up time, and their garbage another sixth). Lines with
 * bytes >= 0x80 may be invalid UTF-8, which must become U+FFFD: those take the string path.
 * Escapes are jq's: the short forms for \b \t \n \f \r, \u00XX for other C0 controls.
 */
const HEX = '0123456789abcdef';

/** 0: copy; 1: needs `\` + the byte's short form; 2: \u00XX; 3: not ASCII. */
const CLASS: Uint8Array = (() => {
  const table = new Uint8Array(256);
  for (let b = 0; b < 0x20; b++) table[b] = 2;
  for (const b of [0x08, 0x09, 0x0a, 0x0c, 0x0d, 0x22, 0x5c]) table[b] = 1;
  for (let b = 0x80; b < 0x100; b++) table[b] = 3;
  return table;
})();

const SHORT: Uint8Array = (() => {
  const table = new Uint8Array(128);
  table[0x08] = 0x62; // b
  table[0x09] = 0x74; // t
  table[0x0a] = 0x6e; // n
  table[0x0c] = 0x66; // f
  table[0x0d] = 0x72; // r
  table[0x22] = 0x22; // "
  table[0x5c] = 0x5c; // \
  return table;
})();

/** Worst case: every byte becomes \u00XX. */
export const escapedBytesBound = (length: number): number => length * 6;

/**
 * Writes the escaped bytes of source[start, end) at target[at]; returns the end of what was
 * written, or -1 (nothing usable written) when the line has a byte >= 0x80.
 */
export function escapeAsciiJson(source: Buffer, start: number, end: number, target: Buffer, at: number): number {
  let out = at;
  for (let i = start; i < end; i++) {
    const byte = source[i]!;
    const kind = CLASS[byte]!;
    if (kind === 0) {
      target[out++] = byte;
    } else if (kind === 1) {
      target[out++] = 0x5c;
      target[out++] = SHORT[byte]!;
    } else if (kind === 2) {
      target[out++] = 0x5c;
      target[out++] = 0x75;
      target[out++] = 0x30;
      target[out++] = 0x30;
      target[out++] = HEX.charCodeAt(byte >> 4);
      target[out++] = HEX.charCodeAt(byte & 15);
    } else {
      return -1;
    }
  }
  return out;
}
