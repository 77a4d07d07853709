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
import { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { KERNEL_INPUT_BYTES, leaseKernelInput, releaseKernelInput } from '../kernels/json-kernels.js';

const READ_CHUNK = KERNEL_INPUT_BYTES;
const GZIP_MAGIC = [0x1f, 0x8b];

/** Chunks valid until the consumer asks for the next one (it must be done with them by then). */
export async function* inputChunks(path: string, stdin: () => Readable): AsyncGenerator<Buffer> {
  const fd = path === '-' ? 0 : fs.openSync(path, 'r');
  try {
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
    if (fd === 0 && isPipe(fd)) {
      yield* pipeChunks(fd, stdin);
      return;
    }
    const readable = path === '-' ? stdin() : fs.createReadStream('', { fd, highWaterMark: READ_CHUNK, autoClose: false });
    yield* streamChunks(readable);
  } finally {
    if (fd !== 0) fs.closeSync(fd);
  }
}

function isRegularFile(fd: number): boolean {
  try {
    return fs.fstatSync(fd).isFile();
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
 */
async function* pipeChunks(fd: number, stdin: () => Readable): AsyncGenerator<Buffer> {
  const leased = leaseKernelInput();
  const buffer = leased ?? Buffer.allocUnsafe(READ_CHUNK);
  try {
    for (let first = true; ; first = false) {
      let read: number;
      try {
        read = fs.readSync(fd, buffer, 0, buffer.length, null);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') throw error;
        // Non-blocking (as the writer left it): the rest as a stream, nothing read is lost.
        yield* streamChunks(stdin(), first);
        return;
      }
      if (read === 0) return;
      if (first && read >= 2 && buffer[0] === GZIP_MAGIC[0] && buffer[1] === GZIP_MAGIC[1]) {
        // The rest of the pipe behind what was read, through gunzip.
        yield* streamChunks(Readable.from(prepend(Buffer.from(buffer.subarray(0, read)), stdin())), true);
        return;
      }
      yield buffer.subarray(0, read);
      await new Promise((resolve) => setImmediate(resolve));
    }
  } finally {
    if (leased) releaseKernelInput();
  }
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

/** `mayBeGzip`: the stream starts at the input's start, where gzip's magic number would be. */
async function* streamChunks(readable: Readable, mayBeGzip = true): AsyncGenerator<Buffer> {
  const iterator = readable[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  const first = await iterator.next();
  if (first.done) return;
  const head = first.value;
  async function* all(): AsyncGenerator<Buffer> {
    yield head;
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) yield next.value;
  }
  if (mayBeGzip && head.length >= 2 && head[0] === GZIP_MAGIC[0] && head[1] === GZIP_MAGIC[1]) {
    const gunzip = createGunzip();
    const feeding = (async () => {
      try {
        for await (const chunk of all()) if (!gunzip.write(chunk)) await new Promise((resolve) => gunzip.once('drain', resolve));
        gunzip.end();
      } catch (error) {
        gunzip.destroy(error as Error);
      }
    })();
    yield* gunzip as AsyncIterable<Buffer>;
    await feeding;
  } else {
    yield* all();
  }
}
