/**
 * Input chunks from a file or stdin, gunzipped when the bytes start with gzip's magic number
 * (rotated logs often are), whatever the name says.
 *
 * A regular file (named, or stdin redirected from one) is read synchronously into one buffer
 * reused for every chunk: no chunk is allocated, so none outlives its turn. With a fresh 1 MiB
 * Buffer per chunk, pretty output's many small allocations had the collector promote each chunk
 * while in use, and RSS grew with the input.
 */
import fs from 'node:fs';
import net from 'node:net';
import { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { KERNEL_INPUT_BYTES, leaseKernelInput, releaseKernelInput } from '../kernels/json-kernels.js';
import { GZIP_MAGIC } from './other-compression.js';

const READ_CHUNK = KERNEL_INPUT_BYTES;

/**
 * Bytes at a gzip input's end written to the decompressor one at a time: Node's zlib, meeting
 * bytes after a member that are no member, drops what it decompressed in that same write with
 * its error (the last lines before a few bytes of trailing garbage were lost, though `gzip -dc`
 * gives them). Garbage longer than this still costs the write it shares with the member's end.
 * A file's only: a pipe may stay open (a live gzip stream), and its last bytes would wait.
 */
const GZIP_TAIL_BYTES = 256;

/**
 * Where `-` is read from. A function: the caller's stream, made when first read (any Readable:
 * a library user's). `{ fd, stream }`: the process's own stdin, whose descriptor is read
 * directly when it is a file or a pipe (the commands': faster than a stream, and making
 * process.stdin turns a pipe non-blocking); `stream` makes it otherwise.
 */
export type StdinSource = (() => Readable) | { readonly fd: number; readonly stream: () => Readable };

/**
 * Chunks valid until the consumer asks for the next one (it must be done with them by then).
 * `interrupted` (summary, doctor and the filter's --summary, which write what was read at a
 * Ctrl-C): a pipe that may be quiet is then read so that the Ctrl-C is seen at once; the input
 * ends there. `waitsForPause`: true while the consumer holds a line until the input pauses (a
 * record that may go on); a pipe is then read so that a pause is seen, not waited out in a read.
 */
export async function* inputChunks(path: string, stdin: StdinSource, interrupted?: AbortSignal, waitsForPause?: () => boolean, leaving?: () => boolean): AsyncGenerator<Buffer> {
  const stream = typeof stdin === 'function' ? stdin : stdin.stream;
  let fd: number;
  let fifo: net.Socket | undefined;
  if (path !== '-') fd = fs.openSync(path, 'r');
  else if (typeof stdin !== 'function') fd = stdin.fd;
  else {
    // The caller's own stream (a library user's): the process's descriptor 0 may hold anything else.
    yield* streamChunks(stream(), true, interrupted);
    return;
  }
  try {
    // stdin a directory (`logtype < logs/`): its read fails as a file's would (EISDIR), not as an empty input.
    if (path === '-' && isDirectory(fd)) throw Object.assign(new Error('EISDIR: illegal operation on a directory, read'), { code: 'EISDIR', syscall: 'read' });
    if (isRegularFile(fd) && !startsWithGzip(fd)) {
      // Inside the JSON kernels' memory when it is free: raw output unescapes in place.
      const leased = leaseKernelInput();
      const buffer = leased ?? Buffer.allocUnsafe(READ_CHUNK);
      try {
        for (let read; (read = fs.readSync(fd, buffer, 0, buffer.length, null)) > 0; ) {
          yield buffer.subarray(0, read);
          // Let the event loop turn: write callbacks (on process.nextTick for a file stdout),
          // signals and EPIPE are handled between chunks, not after the whole input.
          await new Promise((resolve) => setImmediate(resolve));
        }
      } finally {
        if (leased) releaseKernelInput();
      }
      return;
    }
    if (path === '-' && isPipe(fd)) {
      yield* pipeChunks(fd, stream, interrupted, waitsForPause, leaving);
      return;
    }
    if (isPipe(fd)) {
      // A named pipe given as a file (`logtype summary /tmp/fifo`): read as stdin's pipe is. A
      // read of it in Node's thread pool would hold the process's exit after a Ctrl-C until
      // the writer writes again; its stream (made only to poll) makes the descriptor
      // non-blocking, and owns it from then on.
      yield* pipeChunks(fd, () => (fifo ??= unstartedPipeSocket(fd)), interrupted, waitsForPause, leaving);
      return;
    }
    const readable = path === '-' ? stream() : fs.createReadStream('', { fd, highWaterMark: READ_CHUNK, autoClose: false });
    // A file ends: its last bytes can be held back until then (a pipe may stay open: it could not).
    yield* streamChunks(readable, true, interrupted, isRegularFile(fd));
  } finally {
    if (fifo) fifo.destroy();
    else if (path !== '-') fs.closeSync(fd);
  }
}

/**
 * A stream over a pipe's descriptor that reads nothing until it is read (as Node makes
 * process.stdin: `manualStart`, which Node's own types leave out): making it turns the
 * descriptor non-blocking, and the reads of pipeChunks see every byte.
 */
function unstartedPipeSocket(fd: number): net.Socket {
  return new net.Socket({ fd, readable: true, writable: false, manualStart: true } as net.SocketConstructorOpts);
}

function isRegularFile(fd: number): boolean {
  try {
    return fs.fstatSync(fd).isFile();
  } catch {
    return false;
  }
}

function isDirectory(fd: number): boolean {
  try {
    return fs.fstatSync(fd).isDirectory();
  } catch {
    return false;
  }
}

function isPipe(fd: number): boolean {
  try {
    return fs.fstatSync(fd).isFIFO();
  } catch {
    return false;
  }
}

/**
 * stdin as a pipe (`kubectl logs POD | logtype`), read with blocking reads into one reused
 * buffer: through a stream, the same million entries cost 0.45 CPU-s more (measured). Blocking
 * is safe here: on Linux, Node writes stdout synchronously to pipes, files and terminals, so
 * no output waits behind a read. A gzip stream, or a pipe that was left non-blocking, is read
 * as a stream.
 *
 * A blocking read holds the main thread until the writer writes or ends, so nothing else can
 * happen while the writer is quiet (`kubectl logs -f` of a quiet pod). Where something must,
 * the pipe is made non-blocking (stdin's stream is made, not started: libuv makes its
 * descriptor so), and a read that finds it empty waits on a timer, polling, instead of in the
 * read:
 * - with `interrupted` (summary, doctor and the filter's --summary, which write what was read
 *   at a Ctrl-C), from the first read: a Ctrl-C is seen at once;
 * - once `waitsForPause` says a line is held until the input pauses (an agent's or the
 *   operator's record, which the next line may continue): the pause is seen and the line shown
 *   (a quiet pod's last agent line would otherwise wait for the pod's next line).
 * The wait starts at 1 ms and doubles to POLL_MAX_MS while the pipe stays empty (to
 * HELD_POLL_MAX_MS while a line is held): a few wakes a second on a quiet pipe, none while lines
 * flow.
 * `leaving`: the reader wants no more (a record it held was the one wanted): an empty pipe's
 * poll ends.
 */
async function* pipeChunks(fd: number, stdin: () => Readable, interrupted?: AbortSignal, waitsForPause?: () => boolean, leaving?: () => boolean): AsyncGenerator<Buffer> {
  // Made before the first read: from then on an empty pipe answers EAGAIN.
  let polling = interrupted !== undefined;
  if (polling) stdin();
  const leased = leaseKernelInput();
  const buffer = leased ?? Buffer.allocUnsafe(READ_CHUNK);
  try {
    for (let first = true, waitMs = 0; ; ) {
      if (!polling && waitsForPause?.()) {
        stdin();
        polling = true;
      }
      let read: number;
      try {
        read = fs.readSync(fd, buffer, 0, buffer.length, null);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') throw error;
        if (polling) {
          if (leaving?.()) return;
          // While a line is held, the pipe is looked at often enough that a line continuing it
          // within the pause (HELD_LINE_WAIT_MS) is read before the pause is called one.
          waitMs = Math.min(waitsForPause?.() ? HELD_POLL_MAX_MS : POLL_MAX_MS, Math.max(1, waitMs * 2));
          if (!(await waitUnlessInterrupted(waitMs, interrupted))) return;
          continue;
        }
        // Non-blocking (as the writer left it): the rest as a stream, nothing read is lost.
        yield* streamChunks(stdin(), first, interrupted);
        return;
      }
      waitMs = 0;
      if (read === 0) return;
      if (first && read >= 2 && buffer[0] === GZIP_MAGIC[0] && buffer[1] === GZIP_MAGIC[1]) {
        // The rest of the pipe behind what was read, through gunzip.
        yield* streamChunks(Readable.from(prepend(Buffer.from(buffer.subarray(0, read)), stdin())), true, interrupted);
        return;
      }
      first = false;
      yield buffer.subarray(0, read);
      await new Promise((resolve) => setImmediate(resolve));
    }
  } finally {
    if (leased) releaseKernelInput();
  }
}

/** The longest wait between two reads of an empty pipe, and so the most a line waits to be read. */
const POLL_MAX_MS = 100;
/** The same while a line is held until the input pauses: a tenth of that pause (read-entries.ts's HELD_LINE_WAIT_MS). */
const HELD_POLL_MAX_MS = 20;

/** True after `ms`; false at once when `interrupted` is aborted (or already was). */
function waitUnlessInterrupted(ms: number, interrupted: AbortSignal | undefined): Promise<boolean> {
  if (!interrupted) return new Promise((resolve) => setTimeout(() => resolve(true), ms));
  if (interrupted.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const onAbort = (): void => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      interrupted.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    interrupted.addEventListener('abort', onAbort, { once: true });
  });
}

async function* prepend(head: Buffer, rest: Readable): AsyncGenerator<Buffer> {
  yield head;
  for await (const chunk of rest) yield chunk as Buffer;
}

function startsWithGzip(fd: number): boolean {
  const head = Buffer.alloc(2);
  const read = fs.readSync(fd, head, 0, 2, 0);
  return read === 2 && head[0] === GZIP_MAGIC[0] && head[1] === GZIP_MAGIC[1];
}

/**
 * `mayBeGzip`: the stream starts at the input's start, where gzip's magic number would be.
 * `interrupted`: the stream ends there, as at its end (one that never ends: a pipe, `kubectl
 * logs -f`); the stream itself is left to its owner.
 */
/** `holdsTail`: the input is a file, whose gzip data's last bytes are fed one at a time (GZIP_TAIL_BYTES). */
async function* streamChunks(readable: Readable, mayBeGzip = true, interrupted?: AbortSignal, holdsTail = false): AsyncGenerator<Buffer> {
  const iterator = readable[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  const first = await nextUnlessInterrupted(iterator, interrupted);
  if (first.done) return;
  const head = first.value;
  async function* all(): AsyncGenerator<Buffer> {
    yield head;
    for (let next = await nextUnlessInterrupted(iterator, interrupted); !next.done; next = await nextUnlessInterrupted(iterator, interrupted)) yield next.value;
  }
  if (mayBeGzip && head.length >= 2 && head[0] === GZIP_MAGIC[0] && head[1] === GZIP_MAGIC[1]) {
    const gunzip = createGunzip();
    const feeding = (async () => {
      const write = async (bytes: Buffer): Promise<void> => {
        if (!gunzip.write(bytes)) await new Promise((resolve) => gunzip.once('drain', resolve));
      };
      try {
        // The input's last bytes are written one at a time: bytes after the last member that
        // are no member (a file's trailing garbage) then come in writes of their own, and
        // zlib's error for them no longer takes with it what it decompressed in the same write.
        let tail = Buffer.alloc(0);
        for await (const chunk of all()) {
          if (!holdsTail) {
            await write(chunk);
            continue;
          }
          if (chunk.length < GZIP_TAIL_BYTES) {
            const bytes = Buffer.concat([tail, chunk]);
            const cut = Math.max(0, bytes.length - GZIP_TAIL_BYTES);
            if (cut > 0) await write(bytes.subarray(0, cut));
            tail = bytes.subarray(cut);
            continue;
          }
          // The tail held back goes first, then all of this chunk but its own last bytes (copied:
          // the chunk's buffer is reused for the next read).
          if (tail.length > 0) await write(tail);
          await write(chunk.subarray(0, chunk.length - GZIP_TAIL_BYTES));
          tail = Buffer.from(chunk.subarray(chunk.length - GZIP_TAIL_BYTES));
        }
        for (let at = 0; at < tail.length; at++) await write(tail.subarray(at, at + 1));
        gunzip.end();
      } catch (error) {
        gunzip.destroy(error as Error);
      }
    })();
    try {
      yield* gunzip as AsyncIterable<Buffer>;
    } catch (error) {
      // Cut short by the interruption, the compressed stream ends mid-block: not an input error.
      if (!interrupted?.aborted) throw error;
    }
    await feeding;
  } else {
    yield* all();
  }
}

const ENDED: IteratorResult<Buffer> = { done: true, value: undefined };

/** The iterator's next chunk; its end at once when `interrupted` is aborted before the chunk comes. */
function nextUnlessInterrupted(iterator: AsyncIterator<Buffer>, interrupted?: AbortSignal): Promise<IteratorResult<Buffer>> {
  if (!interrupted) return iterator.next();
  if (interrupted.aborted) return Promise.resolve(ENDED);
  const next = iterator.next();
  return new Promise((resolve, reject) => {
    const onAbort = (): void => resolve(ENDED);
    interrupted.addEventListener('abort', onAbort, { once: true });
    next.then(
      (result) => {
        interrupted.removeEventListener('abort', onAbort);
        resolve(result);
      },
      (error: unknown) => {
        interrupted.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
