/**
 * Input chunks from a file or stdin, gunzipped when the bytes start with gzip's magic number
 * (rotated logs often are), whatever the name says.
 */
import fs from 'node:fs';
import type { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';

const READ_CHUNK = 1024 * 1024;

export function openInputStream(path: string, stdin: Readable): Readable {
  if (path !== '-') return fs.createReadStream(path, { highWaterMark: READ_CHUNK });
  // stdin redirected from a file: read it in large chunks, as a named file is.
  if (isRegularFile(0)) return fs.createReadStream('', { fd: 0, highWaterMark: READ_CHUNK, autoClose: false });
  return stdin;
}

function isRegularFile(fd: number): boolean {
  try {
    return fs.fstatSync(fd).isFile();
  } catch {
    return false;
  }
}

export async function* inputChunks(readable: Readable): AsyncGenerator<Buffer> {
  const iterator = readable[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  const first = await iterator.next();
  if (first.done) return;
  const head = first.value;
  async function* all(): AsyncGenerator<Buffer> {
    yield head;
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) yield next.value;
  }
  if (head.length >= 2 && head[0] === 0x1f && head[1] === 0x8b) {
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
