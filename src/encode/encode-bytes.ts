/**
 * The sidecar's hot path: an ASCII line's bytes escaped as a JSON string straight into the
 * output buffer, with no string made on the way (a million lines of JSON.stringify and
 * concatenation were a third of catch-up time, and their garbage another sixth). The escape
 * itself is a small WebAssembly module using 128-bit SIMD (escape-ascii-json.wat): a byte loop
 * in JavaScript took 2.6-3.5 ns a byte here, the module 1.0-1.8 with the copies in and out
 * (measured on the catch-up input). Lines with bytes >= 0x80 may be invalid UTF-8, which must
 * become U+FFFD: those take the string path. Escapes are jq's: the short forms for
 * \b \t \n \f \r, \u00XX for other C0 controls.
 */
import { WASM_BASE64 } from './escape-ascii-json-wasm.js';

/** Where the module reads its source and writes its output (escape-ascii-json.wat). */
const SOURCE_AT = 1024;
const TARGET_AT = 40960;
/** The longest source one call takes: the writer escapes longer lines in segments this long. */
export const MAX_ESCAPE_BYTES = 32 * 1024;

/** The little of the WebAssembly global used here (the compiler's libraries leave it out). */
declare const WebAssembly: {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object) => { exports: Record<string, unknown> };
};

const { memory, escape } = new WebAssembly.Instance(new WebAssembly.Module(Buffer.from(WASM_BASE64, 'base64'))).exports as {
  memory: { buffer: ArrayBuffer };
  escape: (source: number, end: number, target: number) => number;
};
const heap = Buffer.from(memory.buffer);

/** Worst case: every byte becomes \u00XX. */
export const escapedBytesBound = (length: number): number => length * 6;

/**
 * Writes the escaped bytes of source[start, end) (at most MAX_ESCAPE_BYTES) at target[at];
 * returns the end of what was written, or -1 (nothing usable written) when the line has a
 * byte >= 0x80.
 */
export function escapeAsciiJson(source: Buffer, start: number, end: number, target: Buffer, at: number): number {
  if (end - start > MAX_ESCAPE_BYTES) throw new RangeError(`escapeAsciiJson takes at most ${MAX_ESCAPE_BYTES} bytes a call`);
  source.copy(heap, SOURCE_AT, start, end);
  const written = escape(SOURCE_AT, SOURCE_AT + end - start, TARGET_AT);
  if (written < 0) return -1;
  return at + heap.copy(target, at, TARGET_AT, written);
}
