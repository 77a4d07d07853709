/**
 * The bytes just before a place in a file, as they were read there: a truncation changes them
 * (told at the next read or look, without reading the file again from 0), and copytruncate's
 * copy holds them at the same place. Kept from the bytes read, never by reading the file a second
 * time: it may have been truncated in between, and the marker must be what was read.
 */
import fs from 'node:fs';

/** Several lines' worth, so repetitive lines do not look alike. */
export const MARKER_BYTES = 256;

/** Reads are synchronous: one scratch buffer serves every comparison. */
const scratch = Buffer.allocUnsafe(MARKER_BYTES);

export class ByteMarker {
  readonly #bytes = Buffer.allocUnsafe(MARKER_BYTES);
  #length = 0;

  /** Bytes held (fewer than MARKER_BYTES near a file's start; 0: nothing to compare). */
  get length(): number {
    return this.#length;
  }

  /** Takes the bytes just before `at` in the file open as `fd`. */
  readFrom(fd: number, at: number): void {
    this.#length = readInto(fd, at, this.#bytes);
  }

  clear(): void {
    this.#length = 0;
  }

  /** Follows the bytes just read: `bytes[start, end)` end at the new place. */
  advance(bytes: Buffer, start: number, end: number): void {
    const marker = this.#bytes;
    const length = end - start;
    if (length >= MARKER_BYTES) {
      bytes.copy(marker, 0, end - MARKER_BYTES, end);
      this.#length = MARKER_BYTES;
      return;
    }
    const keep = Math.min(this.#length, MARKER_BYTES - length);
    marker.copyWithin(0, this.#length - keep, this.#length);
    bytes.copy(marker, keep, start, end);
    this.#length = keep + length;
  }

  /** Whether `buffer` starts with these bytes (a read that began `length` bytes early). */
  leads(buffer: Buffer, available: number): boolean {
    return available >= this.#length && buffer.compare(this.#bytes, 0, this.#length, 0, this.#length) === 0;
  }

  /**
   * Whether a line starts within these bytes: a newline before their last byte. Then the last
   * line (finished or not) lies whole inside them, with the end of the line before it.
   */
  holdsLineStart(): boolean {
    return this.#length > 1 && this.#bytes.lastIndexOf(0x0a, this.#length - 2) !== -1;
  }

  /** Whether the file open as `fd` holds these bytes just before `at` (true when none are held). */
  foundIn(fd: number, at: number): boolean {
    const length = this.#length;
    if (length === 0) return true;
    return readInto(fd, at, scratch, length) === length && scratch.compare(this.#bytes, 0, length, 0, length) === 0;
  }
}

/** Reads the (up to `into.length`, or `length`) bytes just before `at` into `into`; returns how many. */
function readInto(fd: number, at: number, into: Buffer, length = into.length): number {
  const start = Math.max(0, at - length);
  if (at <= start) return 0;
  try {
    return fs.readSync(fd, into, 0, at - start, start);
  } catch {
    return 0;
  }
}
