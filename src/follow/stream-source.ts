/**
 * A source that is a stream, not a file: stdin (`--stdin-type`) or a named pipe the launcher
 * points the agent's output at. A FIFO is opened read-write and non-blocking, so the open never
 * waits for a writer and writers may come and go without an end-of-file between them.
 */
import fs from 'node:fs';
import net from 'node:net';
import type { Readable } from 'node:stream';
import { LineSplitter, type LineSink } from './split-lines.js';

export interface StreamSourceOptions {
  readonly readable: Readable;
  /** The descriptor behind `readable`, when it can be drained synchronously at shutdown. */
  readonly fd?: number;
  /**
   * At a stop, read on until the stream ends (its writers closed it) rather than only what it
   * holds: stdin fed by the agent, which gets its own SIGTERM and closes its end as it exits.
   */
  readonly readsToEnd?: boolean;
  readonly maxLineBytes: number;
  readonly sink: LineSink;
  /** Called after each chunk's lines reached the sink, and at the end. */
  readonly onProgress: () => void;
  readonly onError: (message: string) => void;
}

export class StreamSource {
  readonly #options: StreamSourceOptions;
  readonly #splitter: LineSplitter;
  #ended = false;

  constructor(options: StreamSourceOptions) {
    this.#options = options;
    this.#splitter = new LineSplitter(options.maxLineBytes, options.sink);
    const { readable } = options;
    readable.on('data', (chunk: Buffer) => {
      this.#splitter.push(chunk);
      options.onProgress();
    });
    readable.on('end', () => {
      this.#end();
    });
    readable.on('error', (error: Error) => {
      options.onError(error.message);
      this.#end();
    });
  }

  get ended(): boolean {
    return this.#ended;
  }

  /** A stop waits for its end (see `readsToEnd`), within the stop timeout. */
  get readsToEnd(): boolean {
    return this.#options.readsToEnd === true;
  }

  pause(): void {
    this.#options.readable.pause();
  }

  resume(): void {
    if (!this.#ended) this.#options.readable.resume();
  }

  /** Takes in what the stream already holds, then stops it and emits a held last line. */
  finish(): void {
    if (this.#ended) return;
    const { readable, fd } = this.#options;
    readable.pause();
    for (let chunk: Buffer | null; (chunk = readable.read() as Buffer | null) !== null; ) this.#splitter.push(chunk);
    if (fd !== undefined) drainDescriptor(fd, (bytes, length) => this.#splitter.push(bytes, 0, length));
    readable.destroy();
    this.#end();
  }

  #end(): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#splitter.flush();
    this.#options.onProgress();
  }
}

export function isFifo(path: string): boolean {
  try {
    return fs.statSync(path).isFIFO();
  } catch {
    return false;
  }
}

export function openFifo(path: string): { readonly readable: Readable; readonly fd: number } {
  const fd = fs.openSync(path, fs.constants.O_RDWR | fs.constants.O_NONBLOCK);
  return { readable: new net.Socket({ fd, readable: true, writable: false }), fd };
}

/**
 * Whether descriptor `fd` is a FIFO this process holds open for reading and writing, as the
 * pod's `logtype-pod sidecar` gives the agent's stdout pipe (`0<>PIPE`): the process is then one
 * of its writers, so it never ends, and a stop must take what it holds rather than wait for an
 * end. `drainable`: the descriptor is non-blocking (libuv makes a pipe it reads so), so a
 * synchronous drain at the stop cannot wait. Read from /proc/self/fdinfo (Linux, where the
 * sidecar runs); false where that is missing.
 */
export function fifoHeldReadWrite(fd: number): { readonly readWrite: boolean; readonly drainable: boolean } {
  try {
    if (!fs.fstatSync(fd).isFIFO()) return { readWrite: false, drainable: false };
    const flags = /^flags:\s*([0-7]+)$/m.exec(fs.readFileSync(`/proc/self/fdinfo/${fd}`, 'utf8'));
    if (!flags) return { readWrite: false, drainable: false };
    const value = Number.parseInt(flags[1]!, 8);
    // The access mode is the flags' two low bits (O_ACCMODE).
    return { readWrite: (value & 3) === fs.constants.O_RDWR, drainable: (value & fs.constants.O_NONBLOCK) !== 0 };
  } catch {
    return { readWrite: false, drainable: false };
  }
}

function drainDescriptor(fd: number, onBytes: (bytes: Buffer, length: number) => void): void {
  const buffer = Buffer.allocUnsafe(64 * 1024);
  for (;;) {
    let read: number;
    try {
      read = fs.readSync(fd, buffer, 0, buffer.length, null);
    } catch {
      return; // EAGAIN: nothing more is waiting
    }
    if (read === 0) return;
    onBytes(buffer, read);
  }
}
