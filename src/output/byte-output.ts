/**
 * The filter's output: bytes and strings gathered into large writes. `flush()` returns false
 * when the stream asks the producer to wait for 'drain'.
 */
import type { Writable } from 'node:stream';
import { leaseKernelOutputChunk } from '../kernels/json-kernels.js';
import { OUTPUT_CHUNK_BYTES } from '../kernels/kernel-layout.js';
import { unescapeJsonBytes } from '../kernels/unescape-json.js';

export const CHUNK_BYTES = OUTPUT_CHUNK_BYTES;

/** Chunks inside the JSON kernels' memory while there are some: escapes land there directly. */
const newChunk = (): Buffer => leaseKernelOutputChunk() ?? Buffer.allocUnsafe(CHUNK_BYTES);

export class ByteOutput {
  readonly #stream: Writable;
  #buffer: Buffer = newChunk();
  #used = 0;
  /** Buffers the stream has finished with, reused so memory stays flat. */
  readonly #free: Buffer[] = [];
  /** A run of input bytes to copy in one go: consecutive lines written as they came. */
  #run: Buffer | undefined;
  #runStart = 0;
  #runEnd = 0;

  constructor(stream: Writable) {
    this.#stream = stream;
  }

  /**
   * `source[start, end)` and a newline. When the input has that newline right there, the bytes
   * are not copied yet: consecutive such lines become one copy.
   */
  line(source: Buffer, start: number, end: number): void {
    if (source[end] !== 0x0a) {
      this.bytes(source, start, end);
      this.newline();
    } else if (this.#run === source && this.#runEnd === start) {
      this.#runEnd = end + 1;
    } else {
      this.#commitRun();
      this.#run = source;
      this.#runStart = start;
      this.#runEnd = end + 1;
    }
  }

  /**
   * The decoded contents of the JSON string literal inside `source[start, end)` (quotes
   * excluded). Returns false, writing nothing, when the literal is not valid.
   */
  jsonString(source: Buffer, start: number, end: number): boolean {
    this.#commitRun();
    if (end - start > CHUNK_BYTES - this.#used) {
      this.flush();
      if (end - start > CHUNK_BYTES) return false;
    }
    const written = unescapeJsonBytes(source, start, end, this.#buffer, this.#used);
    if (written < 0) return false;
    this.#used = written;
    return true;
  }

  /**
   * Lets `write` put up to `room` bytes straight into the buffer (room <= CHUNK_BYTES);
   * `write` returns where it stopped, or -1 to write nothing. Returns false on -1.
   */
  direct(room: number, write: (target: Buffer, at: number) => number): boolean {
    this.#commitRun();
    if (room > CHUNK_BYTES - this.#used) this.flush();
    const end = write(this.#buffer, this.#used);
    if (end < 0) return false;
    this.#used = end;
    return true;
  }

  bytes(source: Buffer, start = 0, end = source.length): void {
    this.#commitRun();
    const length = end - start;
    let at = start;
    if (length > CHUNK_BYTES - this.#used) {
      this.flush();
      // Longer than a chunk (a run of lines as they came: most of an input chunk): copied a
      // chunk at a time into the chunks the stream gives back, not into a new buffer its size,
      // whose fresh memory the system maps and zeroes for every input chunk.
      while (end - at > CHUNK_BYTES) {
        source.copy(this.#buffer, 0, at, at + CHUNK_BYTES);
        this.#used = CHUNK_BYTES;
        this.flush();
        at += CHUNK_BYTES;
      }
    }
    source.copy(this.#buffer, this.#used, at, end);
    this.#used += end - at;
  }

  text(text: string): void {
    this.#commitRun();
    // A UTF-16 unit is at most 3 UTF-8 bytes.
    if (text.length * 3 > CHUNK_BYTES - this.#used) {
      this.flush();
      if (text.length * 3 > CHUNK_BYTES) {
        if (!this.gone) this.#stream.write(text);
        return;
      }
    }
    this.#used += this.#buffer.write(text, this.#used);
  }

  newline(): void {
    this.#commitRun();
    if (this.#used === CHUNK_BYTES) this.flush();
    this.#buffer[this.#used++] = 0x0a;
  }

  /** Bytes gathered and not yet handed to the stream. */
  get pending(): number {
    return this.#used + (this.#run ? this.#runEnd - this.#runStart : 0);
  }

  /** Hands what is gathered to the stream; `onWritten` runs once the stream has sent it. */
  flush(onWritten?: () => void): boolean {
    this.#commitRun();
    if (this.gone) {
      // Its reader ended or destroyed it (a library caller's stream): what is gathered has nowhere to go.
      this.#used = 0;
      onWritten?.();
      return true;
    }
    if (this.#used === 0) {
      if (onWritten) this.#stream.write(Buffer.alloc(0), onWritten);
      return !this.#stream.writableNeedDrain;
    }
    const written = this.#buffer;
    const length = this.#used;
    // The stream holds the buffer until it is sent: it is reused only after that.
    this.#buffer = this.#free.pop() ?? newChunk();
    this.#used = 0;
    return this.#stream.write(written.subarray(0, length), () => {
      this.#free.push(written);
      onWritten?.();
    });
  }

  /** The stream is ended or destroyed (its reader went away): nothing is written to it, as a write would emit an error nobody may be listening for (ERR_STREAM_WRITE_AFTER_END). */
  get gone(): boolean {
    return this.#stream.writableEnded || this.#stream.destroyed;
  }

  #commitRun(): void {
    const run = this.#run;
    if (!run) return;
    this.#run = undefined;
    this.bytes(run, this.#runStart, this.#runEnd);
  }
}
