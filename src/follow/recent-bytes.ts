/**
 * The last bytes read from a file, ending at its read position: a ring (a shift of the whole
 * buffer at every small read cost live mode a memmove of 32 KiB a line). copytruncate's copy
 * made while we were reading, and so shorter than what we read, is recognised by its last bytes
 * when it ends within them. Allocated at the first byte kept: only the file at the name needs it.
 */

/** How far back the bytes are kept. */
export const RECENT_BYTES = 32 * 1024;

export class RecentBytes {
  #ring: Buffer | undefined;
  /** Where the next byte goes. */
  #end = 0;
  #length = 0;

  /** Bytes held (at most RECENT_BYTES). */
  get length(): number {
    return this.#length;
  }

  clear(): void {
    this.#end = 0;
    this.#length = 0;
  }

  /** Keeps `bytes[start, end)`, just read. */
  keep(bytes: Buffer, start: number, end: number): void {
    const ring = (this.#ring ??= Buffer.allocUnsafe(RECENT_BYTES));
    const length = end - start;
    if (length >= RECENT_BYTES) {
      bytes.copy(ring, 0, end - RECENT_BYTES, end);
      this.#end = 0;
      this.#length = RECENT_BYTES;
      return;
    }
    const first = Math.min(length, RECENT_BYTES - this.#end);
    bytes.copy(ring, this.#end, start, start + first);
    if (first < length) bytes.copy(ring, 0, start + first, end);
    this.#end = (this.#end + length) % RECENT_BYTES;
    this.#length = Math.min(RECENT_BYTES, this.#length + length);
  }

  /** The `count` bytes that end `back` bytes before the read position (the caller keeps within `length`). */
  endingBefore(back: number, count: number): Buffer {
    const ring = this.#ring ?? Buffer.alloc(RECENT_BYTES);
    const end = (this.#end - back + 2 * RECENT_BYTES) % RECENT_BYTES;
    const start = (end - count + RECENT_BYTES) % RECENT_BYTES;
    return start < end || count === 0 ? ring.subarray(start, start + count) : Buffer.concat([ring.subarray(start), ring.subarray(0, end)]);
  }
}
