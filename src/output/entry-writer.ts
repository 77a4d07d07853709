/**
 * The one writer that owns the sidecar's output stream. Entries are gathered into large
 * buffers (ASCII lines escaped straight from their bytes) and handed to the stream whole, so
 * no entry is ever cut or interleaved with another. `full` tells sources to stop reading until
 * `drain`.
 */
import type { Writable } from 'node:stream';
import { escapeAsciiJson, escapedBytesBound } from '../encode/encode-bytes.js';
import { encodeWithPrefix } from '../encode/encode-entry.js';
import { ByteOutput, CHUNK_BYTES } from './byte-output.js';

export interface EntryWriterOptions {
  /** Bytes queued in the stream above which sources pause. */
  readonly highWaterBytes?: number;
}

const WHOLE_SUFFIX = Buffer.from('}\n');
const PARTIAL_SUFFIX = Buffer.from(',"partial":true}\n');
/** Lines up to this long are escaped straight into the output buffer. */
const DIRECT_MAX_BYTES = Math.floor(CHUNK_BYTES / 8);

/** An entry's fixed start for one type, as bytes and as a string. */
export interface EntryPrefix {
  readonly text: string;
  readonly bytes: Buffer;
}

export class EntryWriter {
  readonly #stream: Writable;
  readonly #out: ByteOutput;
  readonly #highWaterBytes: number;
  #afterWritten: (() => void)[] = [];
  #drainListeners: (() => void)[] = [];
  #closed = false;
  #lines = 0;

  constructor(stream: Writable, options: EntryWriterOptions = {}) {
    this.#stream = stream;
    this.#out = new ByteOutput(stream);
    this.#highWaterBytes = options.highWaterBytes ?? 1024 * 1024;
    stream.on('drain', () => this.#notifyDrain());
    stream.on('close', () => {
      this.#closed = true;
    });
  }

  /** Entries handed to the writer so far. */
  get lines(): number {
    return this.#lines;
  }

  /** True while the stream holds more than the high-water mark: sources should pause. */
  get full(): boolean {
    return this.#stream.writableLength >= this.#highWaterBytes;
  }

  get closed(): boolean {
    return this.#closed || this.#stream.destroyed;
  }

  /** One entry whose contents are the UTF-8 line bytes[start, end). */
  writeLine(prefix: EntryPrefix, bytes: Buffer, start: number, end: number, partial: boolean): void {
    this.#lines++;
    const suffix = partial ? PARTIAL_SUFFIX : WHOLE_SUFFIX;
    const length = end - start;
    if (length <= DIRECT_MAX_BYTES) {
      const room = prefix.bytes.length + 2 + escapedBytesBound(length) + suffix.length;
      const done = this.#out.direct(room, (target, at) => {
        let out = at + prefix.bytes.copy(target, at);
        target[out++] = 0x22;
        out = escapeAsciiJson(bytes, start, end, target, out);
        if (out < 0) return -1;
        target[out++] = 0x22;
        return out + suffix.copy(target, out);
      });
      if (done) return;
    }
    this.#out.text(encodeWithPrefix(prefix.text, bytes.toString('utf8', start, end), partial));
  }

  /** A line that already is an entry (newline included). */
  writeEntry(line: string): void {
    this.#lines++;
    this.#out.text(line);
  }

  /** Calls `callback` once everything written before this call has left the process. */
  afterWritten(callback: () => void): void {
    this.#afterWritten.push(callback);
  }

  /** Hands what is gathered to the stream. */
  flush(): void {
    const callbacks = this.#afterWritten;
    this.#afterWritten = [];
    if (this.closed) return;
    this.#out.flush(callbacks.length === 0 ? undefined : () => callbacks.forEach((callback) => callback()));
  }

  /** Calls `listener` once, when the stream has room again. */
  onDrain(listener: () => void): void {
    this.#drainListeners.push(listener);
  }

  /** Flushes and resolves when the stream holds nothing more (true), or after `timeoutMs`. */
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
