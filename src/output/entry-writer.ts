/**
 * The one writer that owns the output stream. Entries are appended to a batch and handed to
 * the stream in large writes; a write is one string of whole lines, so no entry is ever cut
 * or interleaved with another. `full` tells sources to stop reading until `drain`.
 */
import type { Writable } from 'node:stream';

export interface EntryWriterOptions {
  /** Batch size in UTF-16 units after which the batch is written. */
  readonly batchChars?: number;
  /** Bytes queued in the stream above which sources pause. */
  readonly highWaterBytes?: number;
}

export class EntryWriter {
  readonly #stream: Writable;
  readonly #batchChars: number;
  readonly #highWaterBytes: number;
  #batch = '';
  #afterWritten: (() => void)[] = [];
  #drainListeners: (() => void)[] = [];
  #closed = false;
  #lines = 0;
  #bytes = 0;

  constructor(stream: Writable, options: EntryWriterOptions = {}) {
    this.#stream = stream;
    this.#batchChars = options.batchChars ?? 64 * 1024;
    this.#highWaterBytes = options.highWaterBytes ?? 1024 * 1024;
    stream.on('drain', () => this.#notifyDrain());
    stream.on('close', () => {
      this.#closed = true;
    });
  }

  /** Entries handed to the stream so far. */
  get lines(): number {
    return this.#lines;
  }

  /** Bytes (UTF-16 units) handed to the stream so far. */
  get chars(): number {
    return this.#bytes;
  }

  /** True while the stream holds more than the high-water mark: sources should pause. */
  get full(): boolean {
    return this.#stream.writableLength >= this.#highWaterBytes;
  }

  get closed(): boolean {
    return this.#closed || this.#stream.destroyed;
  }

  /** Appends one encoded entry (newline included). */
  write(line: string): void {
    this.#batch += line;
    this.#lines++;
    if (this.#batch.length >= this.#batchChars) this.flush();
  }

  /** Calls `callback` once everything written before this call has left the process. */
  afterWritten(callback: () => void): void {
    this.#afterWritten.push(callback);
  }

  /** Hands the batch to the stream. */
  flush(): void {
    const callbacks = this.#afterWritten;
    this.#afterWritten = [];
    if (this.closed) return;
    if (this.#batch.length === 0) {
      if (callbacks.length > 0) this.#stream.write('', () => callbacks.forEach((callback) => callback()));
      return;
    }
    const batch = this.#batch;
    this.#batch = '';
    this.#bytes += batch.length;
    if (callbacks.length === 0) this.#stream.write(batch);
    else this.#stream.write(batch, () => callbacks.forEach((callback) => callback()));
  }

  /** Calls `listener` once, when the stream has room again. */
  onDrain(listener: () => void): void {
    this.#drainListeners.push(listener);
  }

  /** Flushes and resolves when the stream holds nothing more, or after `timeoutMs`. */
  async settle(timeoutMs: number): Promise<boolean> {
    this.flush();
    const deadline = Date.now() + timeoutMs;
    while (!this.closed && this.#stream.writableLength > 0) {
      if (Date.now() >= deadline) return false;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(20, deadline - Date.now()));
        this.#stream.once('drain', () => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    return true;
  }

  #notifyDrain(): void {
    const listeners = this.#drainListeners;
    this.#drainListeners = [];
    for (const listener of listeners) listener();
  }
}
