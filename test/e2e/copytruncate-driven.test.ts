/**
 * copytruncate, with the race driven instead of hoped for: the test freezes the real sidecar
 * (SIGSTOP) at a known read position, then writes, copies and truncates while it cannot look,
 * and lets it go on (SIGCONT). Whatever the machine's load, the sidecar then finds the file
 * truncated with lines after its position that only the copy holds, every time: it must read
 * the copy's rest, then the file from 0, and deliver every line once, in order.
 * (test/e2e/truncation.test.ts's first test rotated while writing and caught a follower that
 * never read the copy in 3 runs of 8.)
 */
import test, { type ExecutionContext } from 'ava';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { NumberedWriter, sleep } from '../_helpers/numbered-writer.js';
import { SidecarProcess, followsPath, tempDir } from '../_helpers/sidecar-process.js';
import { LOGROTATE, testWithTool } from '../_helpers/system-tool.js';

/** The sidecar following an empty `mongodb.log`, polling often (a missed wake costs 250 ms, not 2 s). */
async function follow(name: string): Promise<{ dir: string; file: string; sidecar: SidecarProcess; writer: NumberedWriter }> {
  const dir = tempDir(name);
  const file = path.join(dir, 'mongodb.log');
  fs.writeFileSync(file, '');
  const sidecar = new SidecarProcess(['--log-dir', dir, '--poll-interval', '0.25', '--rotate-wait', '1', '--state-file', '']);
  await sidecar.waitForDiagnostic(followsPath(file));
  return { dir, file, sidecar, writer: new NumberedWriter(file, 'mongodb') };
}

/** Writes `count` lines and waits until the sidecar has delivered every line so far, then lets it settle. */
async function writeAndDeliver(sidecar: SidecarProcess, writer: NumberedWriter, count: number): Promise<void> {
  writer.write(count);
  await sidecar.waitForLines(writer.written);
  // Delivered is read: the turn that read them ends within this (nothing else is written).
  await sleep(150);
}

/** Every line 1..written delivered once, in order, and nothing else: compared whole. */
async function assertDeliveredOnce(t: ExecutionContext, sidecar: SidecarProcess, writer: NumberedWriter): Promise<void> {
  await sidecar.waitForLines(writer.written).catch(() => undefined);
  // Late repeats would come within a poll or two.
  await sleep(600);
  writer.close();
  await sidecar.stop();
  const expected = Array.from({ length: writer.written }, (_, i) => JSON.stringify({ logType: 'mongodb', contents: writer.line(i + 1) }));
  t.deepEqual(sidecar.lines(), expected);
}

test('copytruncate while the sidecar cannot look: the lines only in the copy are read from it, then the file from 0', async (t) => {
  const { file, sidecar, writer } = await follow('copytruncate-driven');
  await writeAndDeliver(sidecar, writer, 5);
  await sidecar.whileFrozen(() => {
    writer.write(5); // 6-10: after the sidecar's position, and after the truncate only in the copy
    fs.copyFileSync(file, `${file}.1`);
    fs.truncateSync(file, 0);
  });
  writer.write(2); // 11-12: in the file again, from 0
  await assertDeliveredOnce(t, sidecar, writer);
});

test('copytruncate, then written past the old position, while the sidecar cannot look: copy, then the regrown file', async (t) => {
  const { file, sidecar, writer } = await follow('copytruncate-regrown');
  await writeAndDeliver(sidecar, writer, 5);
  await sidecar.whileFrozen(() => {
    writer.write(5); // 6-10: only in the copy
    fs.copyFileSync(file, `${file}.1`);
    fs.truncateSync(file, 0);
    writer.write(20); // 11-30: the file is longer than the old position again
  });
  await assertDeliveredOnce(t, sidecar, writer);
});

test('copytruncate of lines already read: the copy gives nothing again', async (t) => {
  const { file, sidecar, writer } = await follow('copytruncate-read');
  await writeAndDeliver(sidecar, writer, 8);
  await sidecar.whileFrozen(() => {
    fs.copyFileSync(file, `${file}.1`);
    fs.truncateSync(file, 0);
  });
  writer.write(3); // 9-11
  await assertDeliveredOnce(t, sidecar, writer);
});

testWithTool(LOGROTATE, 'real logrotate copytruncate while the sidecar cannot look: nothing lost, nothing repeated', async (t, logrotate) => {
  const { dir, file, sidecar, writer } = await follow('copytruncate-logrotate');
  await writeAndDeliver(sidecar, writer, 5);
  const conf = path.join(dir, 'logrotate.conf');
  fs.writeFileSync(conf, `${file} {\n  rotate 5\n  copytruncate\n  missingok\n  nocompress\n}\n`);
  await sidecar.whileFrozen(() => {
    writer.write(5);
    execFileSync(logrotate, ['--state', path.join(dir, 'logrotate.state'), '--force', conf]);
  });
  writer.write(2);
  await assertDeliveredOnce(t, sidecar, writer);
  t.true(fs.existsSync(`${file}.1`), 'logrotate made its copy');
});

test('copytruncate of a file opened at 0 and not read yet (a rotated backlog first): its new lines are read once (torture seed 363544977)', async (t) => {
  const dir = tempDir('copytruncate-unread');
  const file = path.join(dir, 'mongodb.log');
  const args = ['--log-dir', dir, '--state-file', path.join(dir, 'state.json'), '--stats-interval', '0', '--rotate-wait', '1'];
  const writer = new NumberedWriter(file, 'mongodb');
  writer.write(10);
  const first = new SidecarProcess([...args, '--from-start']);
  await first.waitForLines(10);
  t.is((await first.stop()).code, 0);
  // While down: a backlog for the rotated file (read first, over many turns), then a new file
  // longer than the KiB whose first bytes tell a rewrite.
  writer.write(40_000); // 11-40010
  fs.renameSync(file, `${file}.1`);
  writer.reopen();
  writer.write(30); // 40011-40040: the new file, opened at 0 by the restart
  const second = new SidecarProcess(args);
  second.stallReader(); // the output fills on the backlog: nothing of the new file is read yet
  await second.waitForDiagnostic(followsPath(file));
  await second.whileFrozen(() => {
    // copytruncate (logrotate's order): older ones shift, the file is copied, then emptied.
    fs.renameSync(`${file}.1`, `${file}.2`);
    fs.copyFileSync(file, `${file}.1`);
    fs.truncateSync(file, 0);
    writer.write(10); // 40041-40050: the file again from 0
  });
  second.resumeReader();
  await second.waitForLines(writer.written - 10, 60_000);
  await sleep(600);
  writer.write(5); // 40051-40055: a read after the new lines
  await second.waitForLines(writer.written - 10).catch(() => undefined);
  await sleep(600);
  writer.close();
  await second.stop();
  // Before the fix: `unseen` .1 (the copy, read whole), then `truncated` at 590 with no copy (10 lines read again).
  for (const d of second.diagnostics()) if (['resumed', 'unseen', 'truncated'].includes(d['event'] as string)) t.log(d['event'], d['file'] ?? '', d['position'] ?? '');
  const expected = Array.from({ length: writer.written }, (_, i) => JSON.stringify({ logType: 'mongodb', contents: writer.line(i + 1) }));
  t.deepEqual([...first.lines(), ...second.lines()], expected);
});
