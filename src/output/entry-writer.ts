/**
 * The one writer that owns the sidecar's output stream. Entries are gathered into large
 * buffers (ASCII lines escaped straight from their bytes) and handed to the stream whole, so
 * no entry is ever cut or interleaved with another. `full` tells sources to stop reading until
 * `drain`.
 */
import type { Writable } from 'node:stream';
import { MAX_ESCAPE_BYTES, escapeAsciiJson, escapedBytesBound } from '../kernels/json-kernels.js';
import { utf8CutPoint } from '../follow/split-lines.js';
import { ByteOutput, CHUNK_BYTES } from './byte-output.js';

export interface EntryWriterOptions {
  /** Bytes queued in the stream above which sources pause. */
  readonly highWaterBytes?: number;
}

const WHOLE_SUFFIX = Buffer.from('}\n');
const PARTIAL_SUFFIX = Buffer.from(',"partial":true}\n');
/** Lines are escaped into the output buffer in segments of at most this many bytes. */
const SEGMENT_BYTES = Math.min(MAX_ESCAPE_BYTES, Math.floor(CHUNK_BYTES / 8));
const QUOTE = Buffer.from('"');

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

  /**
   * One entry whose contents are the UTF-8 line bytes[start, end). A short ASCII line is
   * escaped in one go; a long or non-ASCII one in segments cut at character boundaries, so no
   * large string is ever made (a 100 MB line without newline once took RSS to 104 MB). An
   * entry written in several pieces is still whole: nothing else writes between them.
   */
  writeLine(prefix: EntryPrefix, bytes: Buffer, start: number, end: number, partial: boolean): void {
    this.#lines++;
    const suffix = partial ? PARTIAL_SUFFIX : WHOLE_SUFFIX;
    const out = this.#out;
    if (end - start <= SEGMENT_BYTES) {
      const room = prefix.bytes.length + 2 + escapedBytesBound(end - start) + suffix.length;
      const done = out.direct(room, (target, at) => {
        let next = at + prefix.bytes.copy(target, at);
        target[next++] = 0x22;
        next = escapeAsciiJson(bytes, start, end, target, next);
        if (next < 0) return -1;
        target[next++] = 0x22;
        return next + suffix.copy(target, next);
      });
      if (done) return;
    }
    out.bytes(prefix.bytes);
    out.bytes(QUOTE);
    for (let at = start; at < end; ) {
      const cut = end - at > SEGMENT_BYTES ? utf8CutPoint(bytes, at, SEGMENT_BYTES) : end;
      const from = at;
      const escaped = out.direct(escapedBytesBound(cut - from), (target, offset) => escapeAsciiJson(bytes, from, cut, target, offset));
      // Not ASCII: decoded (invalid UTF-8 becomes U+FFFD) and escaped by JSON.stringify.
      if (!escaped) out.text(JSON.stringify(bytes.toString('utf8', from, cut)).slice(1, -1));
      at = cut;
    }
    out.bytes(QUOTE);
    out.bytes(suffix);
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
