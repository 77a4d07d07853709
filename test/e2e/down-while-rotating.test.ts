/**
 * What happens to a file while the sidecar is down must not lose or repeat a line at the
 * restart (issue #22: each test is one of the reproductions found by the random torture run).
 */
import test, { type ExecutionContext } from 'ava';
import fs from 'node:fs';
import path from 'node:path';
import { NumberedWriter, sleep } from '../_helpers/numbered-writer.js';
import { SidecarProcess, followsPath, readState, tempDir, waitUntil } from '../_helpers/sidecar-process.js';
import { checkNumbered } from '../_helpers/delivery.js';
import { runFilter } from '../_helpers/filter-process.js';

/** A sidecar on `dir` (default state file there), once it has looked at `file`. */
async function start(dir: string, file: string, args: readonly string[] = []): Promise<SidecarProcess> {
  const sidecar = new SidecarProcess(['--log-dir', dir, '--stats-interval', '0', '--rotate-wait', '1', ...args]);
  await sidecar.waitForDiagnostic((d) => ['opened', 'resumed', 'waiting'].includes(d['event'] as string) && d['path'] === file);
  return sidecar;
}


/** `mongodb.log` in a new directory, its first 10 lines delivered by a run that then stopped with exit 0. */
async function deliveredThenStopped(t: ExecutionContext, name: string): Promise<{ dir: string; file: string; writer: NumberedWriter; first: SidecarProcess }> {
  const dir = tempDir(name);
  const file = path.join(dir, 'mongodb.log');
  const writer = new NumberedWriter(file, 'mongodb');
  writer.write(10);
  const first = await start(dir, file, ['--from-start']);
  await first.waitForLines(10);
  t.is((await first.stop()).code, 0);
  return { dir, file, writer, first };
}

test('copytruncate while stopped: the lines only in the copy come first, then the file from 0 (repro-a)', async (t) => {
  const { dir, file, writer, first } = await deliveredThenStopped(t, 'down-copytruncate');
  writer.write(10); // 11-20: while down
  fs.copyFileSync(file, `${file}.1`);
  fs.truncateSync(file, 0);
  writer.write(10); // 21-30: the writer goes on at 0
  writer.close();
  const second = await start(dir, file);
  await second.waitForLines(20);
  await second.stop();
  const result = checkNumbered([...first.lines(), ...second.lines()], 'mongodb', 'mongodb', 30, (n) => writer.line(n));
  t.deepEqual(result.lost, []);
  t.is(result.duplicated, 0);
  t.is(result.outOfOrder, 0);
  t.is(result.wrongContents, 0);
  t.true(second.diagnostics().some((d) => d['event'] === 'resumed' && d['how'] === 'copy' && d['file'] === `${file}.1`));
  t.false(second.diagnostics().some((d) => d['event'] === 'resume-lost'));
});

test('two rename rotations while stopped: the middle file, made and rotated while down, is read too (repro-b)', async (t) => {
  const { dir, file, writer, first } = await deliveredThenStopped(t, 'down-renames');
  writer.write(10); // 11-20
  fs.renameSync(file, `${file}.1`);
  writer.reopen();
  writer.write(10); // 21-30: a new file...
  fs.renameSync(`${file}.1`, `${file}.2`);
  fs.renameSync(file, `${file}.1`); // ...rotated too while down
  writer.reopen();
  writer.write(10); // 31-40
  writer.close();
  const second = await start(dir, file);
  await second.waitForLines(30);
  await second.stop();
  const result = checkNumbered([...first.lines(), ...second.lines()], 'mongodb', 'mongodb', 40, (n) => writer.line(n));
  t.deepEqual(result.lost, []);
  t.is(result.duplicated, 0);
  t.is(result.outOfOrder, 0);
  t.is(result.wrongContents, 0);
  t.true(second.diagnostics().some((d) => d['event'] === 'resumed' && d['file'] === `${file}.2`));
  t.true(second.diagnostics().some((d) => d['event'] === 'unseen' && d['file'] === `${file}.1`));
});

test('deleted and made again while stopped, with the same inode and the same first KiB: a new file, read whole (repro-d)', async (t) => {
  const dir = tempDir('down-reused');
  const logs = path.join(dir, 'logs');
  fs.mkdirSync(logs);
  const file = path.join(logs, 'mongodb.log');
  // A banner longer than the fingerprint's KiB: both files start alike.
  const banner = `BANNER ${'x'.repeat(1100)}\n`;
  fs.writeFileSync(file, banner + Array.from({ length: 40 }, (_, i) => `old line ${i + 1}\n`).join(''));
  const oldInode = fs.statSync(file).ino;
  const first = new SidecarProcess(['--log-dir', logs, '--state-file', path.join(dir, 'state'), '--from-start']);
  await first.waitForLines(41);
  await first.stop();
  fs.unlinkSync(file);
  const reused = makeWithInode(logs, oldInode, file);
  t.log(reused ? 'the new file got the old inode' : 'this file system did not hand the inode out again: a new inode, the same first KiB');
  fs.appendFileSync(file, banner + Array.from({ length: 60 }, (_, i) => `new line ${i + 1}\n`).join(''));
  const second = new SidecarProcess(['--log-dir', logs, '--state-file', path.join(dir, 'state')]);
  await second.waitForLines(61);
  await sleep(300);
  await second.stop();
  const contents = second.lines().map((l) => (JSON.parse(l) as { contents: string }).contents);
  t.deepEqual(contents, [banner.trimEnd(), ...Array.from({ length: 60 }, (_, i) => `new line ${i + 1}`)]);
});

// From a field trial: a log made again while down with the old file's inode and first lines,
// made and written at once (its birth time equal to its ctime), was taken for the old file: a
// birth time equal to ctime was read as "none kept", though the saved one said the file system
// keeps them. 3 of its 4 lines were never sent, in silence.
test('deleted and made again while stopped with the same inode and first lines, made and written at once: a new file, read whole', async (t) => {
  const dir = tempDir('down-reused-at-once');
  const logs = path.join(dir, 'logs');
  fs.mkdirSync(logs);
  const file = path.join(logs, 'agent-launcher-script.log');
  fs.writeFileSync(file, '');
  const oldInode = fs.statSync(file).ino;
  const first = new SidecarProcess(['--log-dir', logs, '--state-file', path.join(dir, 'state'), '--missing-warning', '0']);
  await first.waitForDiagnostic(followsPath(file));
  await sleep(50);
  const old = ['launcher: starting', 'launcher: agent found', 'launcher: exec agent'];
  fs.appendFileSync(file, old.map((line) => `${line}\n`).join(''));
  await first.waitForLines(3);
  await first.stop();
  const now = [...old, 'launcher: a new line after the restart'];
  // Made at the name in one write (a rename would set its ctime apart from its birth): ext4
  // hands the inode just freed out again, unless another process on the file system took it
  // first; tried again until it does and the birth time is the ctime (one tick of its clock).
  let stat = fs.statSync(file);
  for (let attempt = 0; attempt < 20; attempt++) {
    fs.unlinkSync(file);
    fs.writeFileSync(file, now.map((line) => `${line}\n`).join(''));
    stat = fs.statSync(file);
    if (stat.ino === oldInode && stat.birthtimeMs === stat.ctimeMs) break;
  }
  const bites = stat.ino === oldInode && stat.birthtimeMs === stat.ctimeMs;
  t.log(bites ? 'the old inode, its birth time its ctime' : 'skipped in part: this file system gave no such file in 20 tries (the delivery is still checked)');
  const second = new SidecarProcess(['--log-dir', logs, '--state-file', path.join(dir, 'state'), '--missing-warning', '0']);
  await second.waitForLines(4);
  await sleep(300);
  await second.stop();
  t.deepEqual(second.lines().map((l) => (JSON.parse(l) as { contents: string }).contents), now);
});

test('a save before every file was looked at keeps what the last run saved; SIGKILL then loses nothing (repro-e)', async (t) => {
  const dir = tempDir('down-early-save');
  const busy = ['automation-agent-verbose.log', 'automation-agent-stderr.log'].map((name) => path.join(dir, name));
  const quiet = path.join(dir, 'mongodb-audit.log');
  const stateFile = path.join(dir, '.logtype-sidecar.state');
  const audit = new NumberedWriter(quiet, 'audit');
  audit.write(10);
  for (const file of busy) fs.writeFileSync(file, 'first\n');
  const first = await start(dir, quiet, ['--from-start']);
  await first.waitForLines(12);
  await first.stop();
  // While down: the quiet file gets lines and is rotated; the busy ones get a backlog.
  audit.write(10);
  fs.renameSync(quiet, `${quiet}.1`);
  audit.reopen();
  audit.write(10);
  audit.close();
  const backlog = Array.from({ length: 5000 }, (_, i) => `backlog ${i} ${'y'.repeat(1000)}\n`).join('');
  for (const file of busy) fs.appendFileSync(file, backlog);
  // A slow reader: the output is full most of the time.
  const second = await start(dir, quiet);
  const slow = setInterval(() => {
    second.resumeReader();
    setTimeout(() => second.stallReader(), 5);
  }, 50);
  const emptied: string[] = [];
  const watch = setInterval(() => {
    const saved = readState(stateFile)?.files[quiet];
    if (!saved || saved.length === 0) emptied.push(JSON.stringify(saved));
  }, 20);
  // Killed once every audit line is delivered and saved (the fair turns deliver them early).
  const auditBytes = 10 * (audit.line(1).length + 1);
  const saved = (): boolean => {
    const files = readState(stateFile)?.files[quiet] ?? [];
    return files.some((f) => f.position === 2 * auditBytes) && files.at(-1)?.position === auditBytes;
  };
  await waitUntil(saved, 20_000, 'audit lines saved');
  clearInterval(watch);
  clearInterval(slow);
  await second.stop('SIGKILL');
  t.deepEqual(emptied, [], 'a save forgot the quiet file');
  const third = await start(dir, quiet);
  await sleep(1500);
  await third.stop();
  const result = checkNumbered([...first.lines(), ...second.lines(), ...third.lines()], 'mongodb-audit', 'audit', 30, (n) => audit.line(n));
  t.deepEqual(result.lost, []);
  t.is(result.duplicated, 0);
  t.is(result.wrongContents, 0);
});

/** Makes `target` with inode `inode` if the file system hands it out again soon; true when it did. */
function makeWithInode(dir: string, inode: number, target: string, contents = ''): boolean {
  const spare: string[] = [];
  try {
    for (let n = 0; n < 2000; n++) {
      const name = path.join(dir, `spare-${n}`);
      fs.writeFileSync(name, contents);
      if (fs.statSync(name).ino === inode) {
        fs.renameSync(name, target);
        return true;
      }
      spare.push(name);
    }
    fs.writeFileSync(target, contents);
    return false;
  } finally {
    for (const name of spare) fs.rmSync(name, { force: true });
  }
}

// From a platform trial: a rotation compressed while the sidecar was down (logrotate's compress
// without delaycompress) loses its unread lines, as docs/following.md says; the warning named
// neither where they went nor what to do.
test('a file rotated and compressed while stopped: the warning names the compressed file, the command that reads it, and delaycompress', async (t) => {
  const { dir, file, writer, first } = await deliveredThenStopped(t, 'down-compressed');
  writer.write(10); // 11-20: while down, then rotated and compressed
  writer.close();
  const { gzipSync } = await import('node:zlib');
  fs.writeFileSync(`${file}.1.gz`, gzipSync(fs.readFileSync(file)));
  fs.rmSync(file);
  fs.writeFileSync(file, 'after 1\nafter 2\nafter 3\nafter 4\nafter 5\n');
  // Still long enough to be whole (gzip writes its size last): its size is taken.
  await new Promise((resolve) => setTimeout(resolve, 2100));
  const second = await start(dir, file);
  await second.waitForLines(5);
  await second.stop();
  const lost = second.diagnostics().find((d) => d['event'] === 'resume-lost');
  t.truthy(lost);
  t.deepEqual(lost!['compressed'], [`${file}.1.gz`]);
  // Its compression, told by its first KiB: the bytes past the position delivered are its last.
  t.is(lost!['unreadBytes'], 10 * (writer.line(11).length + 1));
  t.regex(lost!['msg'] as string, new RegExp(`they are the last ${lost!['unreadBytes'] as number} bytes of ${file.replaceAll('.', '\\.')}\\.1\\.gz, its compression, made while the sidecar was down \\(never read: logtype --as mongodb ${file.replaceAll('.', '\\.')}\\.1\\.gz reads it; logrotate's delaycompress`));
  t.false(second.diagnostics().some((d) => d['event'] === 'compressed-unread'), 'said once');
});

// From a review: a rotated file still held at the stop (within --rotate-wait), every line of it
// delivered, then removed while down (logrotate's rotate count): the restart warned that lines of
// it "cannot be delivered", and doctor counted lines lost where maybe none were. Its writer may
// still have added lines after the stop (a second review: said as nothing lost, three were), so
// it is a maybe: a warning with readToEnd, doctor's sidecar-lines-maybe-lost.
for (const late of [0, 3]) {
  test(`a rotated file read to its end at the stop, removed while down${late ? ', its writer adding 3 lines first' : ''}: a maybe-lost warning with readToEnd, not a certain loss`, async (t) => {
    const dir = tempDir('down-gone-read');
    const file = path.join(dir, 'mongodb.log');
    const stateFile = path.join(dir, '.logtype-sidecar.state');
    const writer = new NumberedWriter(file, 'mongodb');
    const first = new SidecarProcess(['--log-dir', dir, '--stats-interval', '0', '--rotate-wait', '60', '--from-start']);
    writer.write(10);
    await first.waitForLines(10);
    fs.renameSync(file, `${file}.1`);
    t.is((await first.stop()).code, 0);
    const saved = readState(stateFile)?.files[file] ?? [];
    t.true(saved.some((f) => f.readToEnd === true && !f.retired), 'the rotated file is saved held, read to its end');
    writer.write(late); // the logger's last lines into its old file, before it reopens
    writer.reopen();
    writer.write(5);
    writer.close();
    fs.unlinkSync(`${file}.1`);
    const second = await start(dir, file);
    await second.waitForLines(5);
    await second.stop();
    const result = checkNumbered([...first.lines(), ...second.lines()], 'mongodb', 'mongodb', writer.written, (n) => writer.line(n));
    t.deepEqual(result.lost, Array.from({ length: late }, (_, i) => 11 + i));
    t.is(result.duplicated, 0);
    const warning = second.diagnostics().find((d) => d['event'] === 'resume-lost');
    t.like(warning, { level: 40, readToEnd: true });
    t.regex(String(warning?.['msg']), /every line it held when the last run stopped delivered; its writer may have added lines after that.*may not have been delivered/);
    const json = JSON.parse(runFilter(['doctor', '--json'], first.stderr + second.stderr).stdout) as { problems: { id: string }[] };
    t.deepEqual(json.problems.map((p) => p.id), ['sidecar-lines-maybe-lost']);
  });
}
