import test from 'ava';
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { Writable } from 'node:stream';
import { EntryWriter } from '../../src/output/entry-writer.js';
import { FileCheckpoint } from '../../src/follow/file-checkpoint.js';
import { tempDir, waitUntil } from '../_helpers/sidecar-process.js';

const text = '{"logType":"mongodb","contents":';
const prefix = { text, bytes: Buffer.from(text) };

/** A stream whose writes complete only when the test says so. */
class HeldStream extends Writable {
  readonly writes: { bytes: Buffer; done: () => void }[] = [];
  override _write(chunk: Buffer, _encoding: string, callback: () => void): void {
    this.writes.push({ bytes: chunk, done: callback });
  }
}

/** `count` lines of `length` bytes, as one file's bytes. */
function lines(count: number, length: number): Buffer {
  return Buffer.from(Array.from({ length: count }, (_, i) => `${String(i).padStart(8, '0')}${'z'.repeat(length - 8)}\n`).join(''));
}

function writeLines(writer: EntryWriter, bytes: Buffer, checkpoint: FileCheckpoint): void {
  for (let start = 0; start < bytes.length; ) {
    const end = bytes.indexOf(0x0a, start);
    writer.writeLine(prefix, bytes, start, end, false, checkpoint, end + 1);
    start = end + 1;
  }
}

test('one chunk out at a time; a file\'s checkpoint moves only once its lines were taken', async (t) => {
  const stream = new HeldStream();
  const writer = new EntryWriter(stream);
  const checkpoint = new FileCheckpoint(0);
  const bytes = lines(4000, 100); // 400 KB of lines: several chunks
  writeLines(writer, bytes, checkpoint);
  t.true(writer.full);
  writer.flush();
  await new Promise((resolve) => setImmediate(resolve));
  t.is(stream.writes.length, 1, 'the next chunk waits for the first');
  t.is(checkpoint.delivered, 0);
  let room = false;
  writer.onRoom(() => (room = true));
  let taken = 0;
  while (stream.writes.length > taken) {
    const write = stream.writes[taken++]!;
    t.is(write.bytes.at(-1), 0x0a, 'a chunk ends with a whole entry');
    write.done();
    await new Promise((resolve) => setImmediate(resolve));
    const entries = Buffer.concat(stream.writes.slice(0, taken).map((w) => w.bytes)).toString().split('\n').length - 1;
    t.is(checkpoint.delivered, entries * 101, 'the checkpoint is the end of the last line taken');
  }
  t.true(room);
  t.true(writer.idle);
  t.is(checkpoint.delivered, bytes.length);
});

test('the stop deadline with the reader away: the entry the pipe took part of is finished, nothing after it', async (t) => {
  const dir = tempDir('writer-deadline');
  const out = path.join(dir, 'out');
  // A real pipe (a FIFO), as the sidecar's stdout is in a pod: the kernel takes 64 KiB of a
  // write and no more. A child's 'pipe' stdio would be a socketpair, whose buffer (and so where
  // the first write ends) depends on the host and the Node version.
  const fifo = path.join(dir, 'fifo');
  execFileSync('mkfifo', [fifo]);
  // A reader that comes back after a second.
  const reader = spawn('sh', ['-c', `sleep 1; cat < "${fifo}" > "${out}"`], { stdio: 'ignore' });
  // O_RDWR: opening does not wait for the reader; the only write end is this one.
  const fd = fs.openSync(fifo, fs.constants.O_RDWR | fs.constants.O_NONBLOCK);
  const stream = new net.Socket({ fd, readable: false, writable: true });
  const writer = new EntryWriter(stream);
  const checkpoint = new FileCheckpoint(0);
  // Lines of 1000 bytes: the pipe's 64 KiB end inside an entry.
  const bytes = lines(300, 1000);
  writeLines(writer, bytes, checkpoint);
  writer.flush();
  await new Promise((resolve) => setTimeout(resolve, 100));
  const cut = writer.stopAtDeadline();
  t.is(cut.kind, 'cut');
  const before = checkpoint.delivered;
  if (cut.kind === 'cut') cut.finish();
  stream.destroy();
  await new Promise((resolve) => reader.on('close', resolve));
  await waitUntil(() => fs.existsSync(out), 1000, 'output');
  const delivered = fs.readFileSync(out, 'utf8');
  t.true(delivered.endsWith('\n'), 'whole entries only');
  const entries = delivered.split('\n').slice(0, -1);
  for (const entry of entries) JSON.parse(entry);
  t.is(checkpoint.delivered, entries.length * 1001);
  t.is(before, (entries.length - 1) * 1001, 'before the finish, the positions before the cut entry');
});

test('diagnostics on the entries\' stream: they join the chunk being gathered (no chunk each), and while the reader stalls at most a bounded amount waits; the rest is counted as dropped', (t) => {
  const writes: Buffer[] = [];
  // A reader that takes the first write and never calls back: every later byte waits here.
  const stalled = new Writable({ write: (chunk: Buffer) => void writes.push(Buffer.from(chunk)) });
  const writer = new EntryWriter(stalled, { highWaterBytes: 64 * 1024 });
  const entry = Buffer.from('x'.repeat(1000));
  for (let i = 0; i < 100; i++) writer.writeLine(prefix, entry, 0, entry.length, false);
  writer.flush();
  const line = `{"level":30,"logType":"logtype-sidecar","event":"stats","msg":"${'s'.repeat(200)}"}\n`;
  let taken = 0;
  for (let i = 0; i < 5000; i++) if (writer.writeDiagnostic(line)) taken++;
  t.true(taken > 0 && taken < 5000, `${taken} taken`);
  t.is(writer.droppedDiagnostics, 5000 - taken);
  // What waits is the high-water mark and the diagnostics' room, not 5,000 chunks.
  t.true(taken * line.length <= 64 * 1024 + 64 * 1024, `${taken * line.length} bytes of diagnostics held`);
  t.is(writer.lines, 100);
});
