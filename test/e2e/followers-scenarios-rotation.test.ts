/**
 * Where the best followers still lose lines (their issue trackers, see docs/followers.md):
 * rotation, copytruncate, truncation and deletion, each against the real sidecar with numbered
 * lines. Each title names the scenario; the comment above each test names the issues it answers.
 */
import test from 'ava';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { NumberedWriter, sleep } from '../_helpers/numbered-writer.js';
import { SidecarProcess, followsPath, tempDir } from '../_helpers/sidecar-process.js';
import { checkNumbered } from '../_helpers/delivery.js';
import { START_BOUND_MS, entriesOf, followEmpty, openFiles, startSidecar } from '../_helpers/follower-scenario.js';

/** Waits (polling gently: outputs here are megabytes) until `count` lines came out. */
async function waitForLineCount(sidecar: SidecarProcess, count: number, timeoutMs: number): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (sidecar.lines().length < count && Date.now() < end) await sleep(200);
}

// Fluent Bit #375, #4839 (and its docs), Promtail PR #8096; torture scenario 1.
test('copytruncate while writing 10k lines/s: every line still on disk arrives once; only lines written between the copy and the truncate may be missing', async (t) => {
  const { file, sidecar } = await followEmpty(t, 'fs-copytruncate', 'mongodb', ['--rotate-wait', '1']);
  const writer = new NumberedWriter(file, 'mongodb', 80);
  const between = new Set<number>();
  for (let round = 1; round <= 5; round++) {
    for (let i = 0; i < 30; i++) {
      writer.write(100);
      await sleep(10);
    }
    fs.copyFileSync(file, `${file}.${round}`);
    const first = writer.written + 1;
    writer.write(5);
    for (let n = first; n <= writer.written; n++) between.add(n);
    fs.truncateSync(file, 0);
  }
  writer.write(100);
  writer.close();
  await waitForLineCount(sidecar, writer.written - between.size, 20_000);
  await sleep(500);
  await sidecar.stop();
  const result = checkNumbered(sidecar.lines(), 'mongodb', 'mongodb', writer.written);
  t.log(`written ${writer.written}; of the ${between.size} written between copy and truncate, ${between.size - result.lost.length} were read in time`);
  t.deepEqual(result.lost.filter((n) => !between.has(n)), []);
  t.is(result.duplicated, 0);
  t.is(result.outOfOrder, 0);
  t.is(result.invalidJson, 0);
});

// The other side of the copytruncate window: lines written between the copy and the truncate
// that the sidecar read in time are in neither the copy nor the file; the copy, shorter than
// what was read, must not be taken for a new file and read again.
test('copytruncate whose lines between the copy and the truncate were read in time: nothing read again from the copy', async (t) => {
  const { file, sidecar } = await followEmpty(t, 'fs-copytruncate-read-past', 'mongodb', ['--rotate-wait', '1']);
  const writer = new NumberedWriter(file, 'mongodb', 300);
  writer.write(400);
  await sidecar.waitForLines(400);
  fs.copyFileSync(file, `${file}.1`);
  writer.write(20);
  await sidecar.waitForLines(420); // read past the end of the copy
  fs.truncateSync(file, 0);
  writer.write(10);
  writer.close();
  await waitForLineCount(sidecar, 430, 5000);
  await sleep(1500);
  await sidecar.stop();
  const result = checkNumbered(sidecar.lines(), 'mongodb', 'mongodb', 430);
  t.deepEqual(result.lost, []);
  t.is(result.duplicated, 0);
  t.is(sidecar.lines().length, 430);
});

// Fluent Bit #4839 (lines lost under backpressure), and our issue #22 (item 3): two copytruncates while
// the reader is stalled.
test('two copytruncates while the reader is stalled: the lines only in the copies arrive once the reader is back', async (t) => {
  const { file, sidecar } = await followEmpty(t, 'fs-copytruncate-stalled', 'mongodb', ['--rotate-wait', '1']);
  const writer = new NumberedWriter(file, 'mongodb', 1000);
  writer.write(10);
  await sidecar.waitForLines(10);
  sidecar.child.stdout!.pause();
  writer.write(2000); // 2 MB: more than the pipe and the sidecar's output buffer hold
  await sleep(500);
  fs.copyFileSync(file, `${file}.1`);
  fs.truncateSync(file, 0);
  writer.write(100);
  fs.renameSync(`${file}.1`, `${file}.2`);
  fs.copyFileSync(file, `${file}.1`);
  fs.truncateSync(file, 0);
  writer.write(100);
  writer.close();
  await sleep(1500);
  sidecar.child.stdout!.resume();
  await waitForLineCount(sidecar, writer.written, 20_000);
  await sleep(300);
  await sidecar.stop();
  const result = checkNumbered(sidecar.lines(), 'mongodb', 'mongodb', writer.written);
  t.deepEqual(result.lost, []);
  t.is(result.duplicated, 0);
  t.is(result.outOfOrder, 0);
});

// Fluent Bit #10414 (Rotate_Wait expiry with unread bytes) and #1108 (no line of the new file);
// torture scenario 2.
test('rename, then a backlog larger than --rotate-wait can drain: the rotated file is read to its end, then the new one', async (t) => {
  const { file, sidecar } = await followEmpty(t, 'fs-rotate-wait', 'mongodb', ['--rotate-wait', '0.5']);
  const writer = new NumberedWriter(file, 'mongodb', 80);
  sidecar.child.stdout!.pause();
  writer.write(50_000); // 4 MB behind a stalled reader
  fs.renameSync(file, `${file}.1`);
  for (let i = 0; i < 10; i++) {
    writer.write(1000); // the logger still writes to the renamed file for a moment
    await sleep(10);
  }
  writer.reopen();
  writer.write(1000);
  writer.close();
  await sleep(2500); // far longer than --rotate-wait, with all of it unread
  sidecar.child.stdout!.resume();
  await waitForLineCount(sidecar, writer.written, 30_000);
  await sleep(300);
  await sidecar.stop();
  const result = checkNumbered(sidecar.lines(), 'mongodb', 'mongodb', writer.written);
  t.is(result.delivered, 61_000);
  t.deepEqual(result.lost, []);
  t.is(result.duplicated, 0);
  t.is(result.outOfOrder, 0);
});

// Fluent Bit #1108 (inotify overflow at a high rotation rate), #2110 and #2847 (rotation under load).
test('20 rename rotations 50 ms apart at 20k lines/s: every line, the newest file\'s too', async (t) => {
  const { file, sidecar } = await followEmpty(t, 'fs-rotation-rate', 'mongodb', ['--rotate-wait', '1']);
  const writer = new NumberedWriter(file, 'mongodb', 80);
  for (let rotation = 1; rotation <= 20; rotation++) {
    for (let i = 0; i < 5; i++) {
      writer.write(200);
      await sleep(10);
    }
    fs.renameSync(file, `${file}.2026-11-23T10-00-${String(rotation).padStart(2, '0')}`);
    writer.write(50);
    writer.reopen();
  }
  writer.write(500);
  writer.close();
  await waitForLineCount(sidecar, writer.written, 20_000);
  await sleep(300);
  await sidecar.stop();
  const result = checkNumbered(sidecar.lines(), 'mongodb', 'mongodb', writer.written);
  t.deepEqual(result.lost, []);
  t.is(result.duplicated, 0);
  t.is(result.outOfOrder, 0);
});

// Fluent Bit #2110, #7709, #794; Vector #7990, #13193; Filebeat PR #25002; torture scenario 9.
test('rotated, gzipped and deleted while the sidecar is behind: every line once, the .gz never read, no deleted file held after the rotate wait', async (t) => {
  const { file, sidecar } = await followEmpty(t, 'fs-gzip', 'mongodb', ['--rotate-wait', '1', '--poll-interval', '0.25']);
  const writer = new NumberedWriter(file, 'mongodb', 100);
  writer.write(100);
  await sidecar.waitForLines(100);
  sidecar.child.stdout!.pause();
  writer.write(20_000); // 2 MB unread when the rotated file is compressed and deleted
  fs.renameSync(file, `${file}.1`);
  writer.reopen();
  writer.write(100);
  fs.writeFileSync(`${file}.1.gz`, zlib.gzipSync(fs.readFileSync(`${file}.1`)));
  fs.unlinkSync(`${file}.1`);
  await sleep(300);
  sidecar.child.stdout!.resume();
  await waitForLineCount(sidecar, writer.written, 20_000);
  await sleep(2000); // the rotate wait and a poll, then the deleted file must be let go
  const deletedHeld = openFiles(sidecar.child.pid!).filter((target) => target.endsWith('(deleted)'));
  writer.close();
  await sidecar.stop();
  const result = checkNumbered(sidecar.lines(), 'mongodb', 'mongodb', writer.written);
  t.is(sidecar.lines().length, writer.written, 'no entry but the numbered lines (nothing read from the .gz)');
  t.deepEqual(result.lost, []);
  t.is(result.duplicated, 0);
  t.deepEqual(deletedHeld, []);
});

// Fluent Bit #9580: a script overwrites the file (`>`) every tenth line; numbers around each
// overwrite went missing. Here the overwrite also makes the file longer than what was read.
test('overwritten with `>` between two looks, longer than what was read: read again from 0, no line missing or twice', async (t) => {
  const { file, sidecar } = await followEmpty(t, 'fs-overwrite', 'mongodb', ['--poll-interval', '10']);
  const expected: string[] = [];
  for (let block = 0; block < 5; block++) {
    for (let i = 1; i <= 9; i++) {
      const line = `line ${block * 10 + i}`;
      fs.appendFileSync(file, `${line}\n`);
      expected.push(line);
    }
    await sidecar.waitForLines(expected.length);
    // One write with O_TRUNC: truncated and regrown past the read position before any look.
    const long = `line ${block * 10 + 10} ${'x'.repeat(fs.statSync(file).size + 10)}`;
    fs.writeFileSync(file, `${long}\n`);
    expected.push(long);
    await sidecar.waitForLines(expected.length);
  }
  await sidecar.stop();
  t.deepEqual(entriesOf(sidecar).map((e) => e.contents), expected);
});

// Fluent Bit #9580 again: copytruncate, then the logger writes exactly as many bytes as had
// been read (lines of one length make it likely): the size says nothing changed.
test('truncated and written again to exactly the size that was read: the new lines arrive without waiting for more', async (t) => {
  const { file, sidecar } = await followEmpty(t, 'fs-same-size', 'mongodb');
  const writer = new NumberedWriter(file, 'mongodb', 60);
  writer.write(20);
  await sidecar.waitForLines(20);
  fs.copyFileSync(file, `${file}.1`);
  fs.truncateSync(file, 0);
  writer.write(20); // the same 20 line lengths: the file is as long as before
  writer.close();
  await waitForLineCount(sidecar, 40, 3000);
  await sidecar.stop();
  const result = checkNumbered(sidecar.lines(), 'mongodb', 'mongodb', 40);
  t.deepEqual(result.lost, []);
  t.is(result.duplicated, 0);
});

// Vector #23619 (truncate and rewrite: duplicates), Fluent Bit #11455 (offset past the size);
// torture scenario 8.
test('truncated to 0 and rewritten with fewer bytes than were read: the new lines from 0, none of the old again', async (t) => {
  const { file, sidecar } = await followEmpty(t, 'fs-truncate-shorter', 'mongodb');
  fs.appendFileSync(file, Array.from({ length: 50 }, (_, i) => `old line ${i + 1} ${'o'.repeat(40)}\n`).join(''));
  await sidecar.waitForLines(50);
  const fd = fs.openSync(file, 'r+');
  fs.ftruncateSync(fd, 0);
  fs.writeSync(fd, 'new 1\nnew 2\nnew 3\n', 0);
  fs.closeSync(fd);
  await sidecar.waitForLines(53);
  await sleep(300);
  await sidecar.stop();
  const contents = entriesOf(sidecar).map((e) => e.contents);
  t.is(contents.length, 53);
  t.deepEqual(contents.slice(50), ['new 1', 'new 2', 'new 3']);
});

// Vector #15885: a deleted file held open, the new file at the same path never read.
test('deleted and created again within a millisecond: the old file\'s last lines and all of the new one', async (t) => {
  const { file, sidecar } = await followEmpty(t, 'fs-delete-recreate', 'mongodb', ['--rotate-wait', '1']);
  const old = new NumberedWriter(file, 'old', 60);
  old.write(100);
  fs.unlinkSync(file);
  const fresh = new NumberedWriter(file, 'new', 60);
  fresh.write(100);
  old.write(10); // the old logger has not noticed yet
  old.close();
  fresh.close();
  await sidecar.waitForLines(210);
  await sleep(300);
  await sidecar.stop();
  const lines = sidecar.lines();
  const oldResult = checkNumbered(lines, 'mongodb', 'old', 110);
  const newResult = checkNumbered(lines, 'mongodb', 'new', 100);
  t.deepEqual([oldResult.lost, oldResult.duplicated, oldResult.outOfOrder], [[], 0, 0]);
  t.deepEqual([newResult.lost, newResult.duplicated, newResult.outOfOrder], [[], 0, 0]);
});

// Promtail #394, #9699, #8519, #3108, #6503: the tailer stops after a truncation or rotation.
test('after 30 rotations, copytruncates and deletions the next line still arrives within 2 s', async (t) => {
  const { file, sidecar } = await followEmpty(t, 'fs-keeps-following', 'mongodb', ['--rotate-wait', '0.5']);
  const writer = new NumberedWriter(file, 'mongodb', 60);
  for (let i = 0; i < 30; i++) {
    writer.write(20);
    // Its chance to read them: a copy taken before any of a file's bytes were read leaves
    // nothing to recognise it by (the race every follower has).
    await waitForLineCount(sidecar, writer.written, 3000);
    if (sidecar.lines().length < writer.written) break; // judged below: no use going on
    if (i % 3 === 0) {
      fs.renameSync(file, `${file}.${i}`);
      writer.reopen();
    } else if (i % 3 === 1) {
      fs.copyFileSync(file, `${file}.${i}`);
      fs.truncateSync(file, 0);
    } else {
      fs.unlinkSync(file);
      writer.reopen();
    }
  }
  const before = sidecar.lines().length;
  const sent = Date.now();
  writer.write(1);
  writer.close();
  await waitForLineCount(sidecar, before + 1, 2000);
  t.log(`the last line arrived after ${Date.now() - sent} ms`);
  t.true(sidecar.lines().length > before, 'the last line within 2 s');
  await sidecar.stop();
  const result = checkNumbered(sidecar.lines(), 'mongodb', 'mongodb', writer.written);
  t.deepEqual(result.lost, []);
  t.is(result.duplicated, 0);
});

// Fluent Bit's docs: a path pattern that matches the rotated files reads them again (duplicates).
test('a rotated file beside the followed one is not a source of its own: nothing of it is read again', async (t) => {
  const dir = tempDir('fs-names');
  const file = path.join(dir, 'mongodb.log');
  fs.writeFileSync(`${file}.1`, 'old rotation\n');
  const sidecar = startSidecar(t, ['--log-dir', dir, '--from-start']);
  await sidecar.waitForDiagnostic((d) => d['event'] === 'waiting' && d['path'] === file, START_BOUND_MS);
  fs.appendFileSync(file, 'current\n');
  await sidecar.waitForDiagnostic(followsPath(file), START_BOUND_MS);
  await sidecar.waitForLines(1);
  await sleep(300);
  await sidecar.stop();
  t.deepEqual(entriesOf(sidecar).map((e) => e.contents), ['current']);
});
