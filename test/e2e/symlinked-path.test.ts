/**
 * A followed name that is a symbolic link to a file in another directory (`mongodb.log ->
 * /data/db/mongod.log`): the logger writes, and the rotator renames, the target, beside the
 * target and under its name. The rotations are found there, and the target's directory is
 * watched, as the link's own directory is.
 */
import test, { type ExecutionContext } from 'ava';
import fs from 'node:fs';
import path from 'node:path';
import { NumberedWriter, sleep } from '../_helpers/numbered-writer.js';
import { SidecarProcess, tempDir } from '../_helpers/sidecar-process.js';
import { assertDeliveredOnce, killAtTeardown } from '../_helpers/follower-scenario.js';

interface Linked {
  readonly logs: string;
  /** The followed name: a link to `target`. */
  readonly link: string;
  /** The file the logger writes, in another directory. */
  readonly target: string;
}

function linked(name: string): Linked {
  const dir = tempDir(name);
  const logs = path.join(dir, 'logs');
  const data = path.join(dir, 'data');
  fs.mkdirSync(logs, { recursive: true });
  fs.mkdirSync(data, { recursive: true });
  const target = path.join(data, 'mongod.log');
  const link = path.join(logs, 'mongodb.log');
  fs.writeFileSync(target, '');
  fs.symlinkSync(target, link);
  return { logs, link, target };
}

async function start(t: ExecutionContext, files: Linked, args: readonly string[] = []): Promise<SidecarProcess> {
  const sidecar = killAtTeardown(t, new SidecarProcess(['--log-dir', files.logs, '--stats-interval', '0', '--rotate-wait', '1', ...args]));
  await sidecar.waitForDiagnostic((d) => ['opened', 'resumed', 'waiting'].includes(d['event'] as string) && d['path'] === files.link);
  return sidecar;
}

/** The target renamed as logrotate's numbered rotation (`.1` shifted to `.2` first), the writer on a new target. */
function rotateTarget(files: Linked, writer: NumberedWriter): void {
  if (fs.existsSync(`${files.target}.1`)) fs.renameSync(`${files.target}.1`, `${files.target}.2`);
  fs.renameSync(files.target, `${files.target}.1`);
  writer.reopen();
}

/**
 * 10 lines read, the sidecar stopped, 10 more written while it is down, then `whileDown` (a
 * rotation, a link pointed elsewhere: the writer reopened), 10 more, and a restart: the 30
 * delivered once, none said lost. The restart's sidecar, for what it said.
 */
async function acrossAStop(t: ExecutionContext, files: Linked, writer: NumberedWriter, whileDown: () => void): Promise<SidecarProcess> {
  writer.write(10);
  const first = await start(t, files, ['--from-start']);
  await first.waitForLines(10);
  await first.stop();
  writer.write(10); // 11-20: while down, in the file it read
  whileDown();
  writer.write(10); // 21-30: the new file
  writer.close();
  const second = await start(t, files);
  await second.waitForLines(20);
  await sleep(500);
  await second.stop();
  assertDeliveredOnce(t, [...first.lines(), ...second.lines()], writer, 30);
  t.false(second.diagnostics().some((d) => d['event'] === 'resume-lost'));
  return second;
}

test('a followed symbolic link whose target is rotated while the sidecar is stopped: the rest of the rotated target, then the new one', async (t) => {
  const files = linked('symlink-down');
  const writer = new NumberedWriter(files.target, 'mongodb');
  const second = await acrossAStop(t, files, writer, () => rotateTarget(files, writer));
  t.true(second.diagnostics().some((d) => d['event'] === 'resumed' && d['file'] === `${files.target}.1`), 'the saved file, found beside the target');
});

test('a followed symbolic link pointed at another file while the sidecar is stopped: the rest of the old target (found where the link led), then the new one', async (t) => {
  const files = linked('symlink-retargeted');
  // Writing through the link, as mongod writes to its log's name: a reopen follows the link.
  const writer = new NumberedWriter(files.link, 'mongodb');
  const second = await acrossAStop(t, files, writer, () => {
    // The link now leads to another file (a new data directory, say), where the writer goes on.
    const next = path.join(path.dirname(files.target), 'mongod2.log');
    fs.writeFileSync(next, '');
    fs.rmSync(files.link);
    fs.symlinkSync(next, files.link);
    writer.reopen();
  });
  t.true(second.diagnostics().some((d) => d['event'] === 'resumed' && d['file'] === files.target), 'the saved file, found where the link led');
});

test('a followed symbolic link whose target is rotated twice between two looks: the file made and rotated between is read', async (t) => {
  const files = linked('symlink-twice');
  const writer = new NumberedWriter(files.target, 'mongodb');
  const sidecar = await start(t, files);
  writer.write(10);
  await sidecar.waitForLines(10);
  await sidecar.whileFrozen(() => {
    writer.write(10); // 11-20
    rotateTarget(files, writer);
    writer.write(10); // 21-30: a file only ever seen under its rotated name
    rotateTarget(files, writer);
    writer.write(10); // 31-40
  });
  writer.close();
  await sidecar.waitForLines(40, 10_000);
  await sleep(500);
  await sidecar.stop();
  assertDeliveredOnce(t, sidecar.lines(), writer, 40);
  t.true(sidecar.diagnostics().some((d) => d['event'] === 'unseen' && d['file'] === `${files.target}.1`), 'the middle file, found beside the target');
});

test("a line written to a followed symbolic link's target arrives without waiting for the poll", async (t) => {
  const files = linked('symlink-latency');
  const writer = new NumberedWriter(files.target, 'mongodb');
  const sidecar = await start(t, files, ['--poll-interval', '30']);
  await sleep(300);
  writer.write(1);
  writer.close();
  // inotify on the target's directory wakes it; the 30 s poll would not before the test ends.
  await sidecar.waitForLines(1, 5000);
  await sidecar.stop();
  assertDeliveredOnce(t, sidecar.lines(), writer, 1);
});

test('a file read to its end and closed that comes back at the name (the link pointed at it again, mv f.1 f): read on from where it was read, not from 0', async (t) => {
  const dir = tempDir('link-back');
  const logs = path.join(dir, 'logs');
  const data = path.join(dir, 'data');
  fs.mkdirSync(logs);
  fs.mkdirSync(data);
  const a = path.join(data, 'a.log');
  const b = path.join(data, 'b.log');
  const link = path.join(logs, 'mongodb.log');
  fs.writeFileSync(a, '');
  fs.symlinkSync(a, link);
  const sidecar = new SidecarProcess(['--log-dir', logs, '--state-file', path.join(dir, 'state'), '--rotate-wait', '1', '--missing-warning', '0']);
  killAtTeardown(t, sidecar);
  await sidecar.waitForDiagnostic((d) => d['event'] === 'opened' && d['path'] === link);
  const line = (name: string, i: number): string => `${name} ${i}\n`;
  for (let i = 1; i <= 100; i++) fs.appendFileSync(a, line('a', i));
  await sidecar.waitForLines(100);
  fs.writeFileSync(b, '');
  fs.symlinkSync(b, `${link}.new`);
  fs.renameSync(`${link}.new`, link);
  for (let i = 1; i <= 100; i++) fs.appendFileSync(b, line('b', i));
  await sidecar.waitForLines(200);
  // a.log is drained and closed (rotate-wait 1 s) before the link points at it again.
  await sidecar.waitForDiagnostic((d) => d['event'] === 'drained', 10_000);
  fs.symlinkSync(a, `${link}.new`);
  fs.renameSync(`${link}.new`, link);
  for (let i = 101; i <= 110; i++) fs.appendFileSync(a, line('a', i));
  await sidecar.waitForLines(210);
  await sleep(1500);
  await sidecar.stop();
  const contents = sidecar.lines().map((l) => (JSON.parse(l) as { contents: string }).contents);
  t.is(contents.length, 210, 'nothing sent again');
  t.is(new Set(contents).size, 210);
  t.deepEqual(contents.slice(-10), Array.from({ length: 10 }, (_, i) => `a ${101 + i}`));
});
