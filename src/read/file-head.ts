import fs from 'node:fs';

/** A file's first `bytes` bytes (fewer when it is shorter); throws as opening or reading it does. */
export function fileHead(file: string, bytes: number): Buffer {
  const head = Buffer.alloc(bytes);
  const fd = fs.openSync(file, 'r');
  try {
    return head.subarray(0, fs.readSync(fd, head, 0, bytes, 0));
  } finally {
    fs.closeSync(fd);
  }
}
