import test from 'ava';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { NumberedWriter, sleep } from '../_helpers/numbered-writer.js';
import { FILTER_BIN, SidecarProcess, followsPath, tempDir, waitUntil, waitsForPath, followEmptyFile } from '../_helpers/sidecar-process.js';
import { checkNumbered } from '../_helpers/delivery.js';

test('rename rotation, writer reopening 100 ms later: nothing lost, nothing repeated', async (t) => {
  const { dir, file, sidecar } = await followEmptyFile('rename', 'mongodb', ['--rotate-wait', '1']);
  const writer = new NumberedWriter(file, 'mongodb');
  const writing = writer.writeFor(2200, 10);
  for (let rotation = 1; rotation <= 6; rotation++) {
    await sleep(250);
    fs.renameSync(file, `${file}.${rotation}`);
    await sleep(100);
    writer.reopen();
  }
  await writing;
  writer.close();
  await sidecar.waitForLines(writer.written);
  // Every rotated file is closed once quiet for the grace period: none stays held open.
  const drained = () => sidecar.diagnostics().filter((d) => d['event'] === 'drained').length;
  await waitUntil(() => drained() === 6, 10_000, 'six rotated files closed');
  const exit = await sidecar.stop();
  const result = checkNumbered(sidecar.lines(), 'mongodb', 'mongodb', writer.written);
  t.is(exit.code, 0);
  t.deepEqual(result.lost, [], `lost of ${writer.written}`);
  t.is(result.duplicated, 0);
  t.is(result.outOfOrder, 0);
  t.is(result.invalidJson, 0);
  t.is(sidecar.diagnostics().filter((d) => d['event'] === 'rotated').length, 6);
  // Each closed file is named where it is now (the path is where it was), once.
  t.deepEqual(
    sidecar.diagnostics().filter((d) => d['event'] === 'drained').map((d) => d['file']).sort(),
    [1, 2, 3, 4, 5, 6].map((n) => `${file}.${n}`).sort(),
  );
});

test('a file renamed by hand to a name that is no rotation (mongodb.log.old): drained, and named there', async (t) => {
  const { file, sidecar } = await followEmptyFile('rename-by-hand', 'mongodb', ['--rotate-wait', '0.5', '--poll-interval', '0.1']);
  const writer = new NumberedWriter(file, 'mongodb');
  writer.write(10);
  fs.renameSync(file, `${file}.old`);
  writer.write(5); // 11-15: to the renamed file
  writer.reopen();
  writer.write(5); // 16-20
  writer.close();
  await sidecar.waitForDiagnostic((d) => d['event'] === 'drained', 5000);
  await sidecar.waitForLines(20);
  await sidecar.stop();
  t.deepEqual(checkNumbered(sidecar.lines(), 'mongodb', 'mongodb', 20).lost, []);
  t.deepEqual(sidecar.diagnostics().filter((d) => d['event'] === 'drained').map((d) => d['file']), [`${file}.old`]);
});

test('a file missing at start is waited for and read from its start', async (t) => {
  const dir = tempDir('missing');
  const file = path.join(dir, 'backup-agent.log');
  const sidecar = new SidecarProcess(['--log-dir', dir, '--poll-interval', '0.2']);
  await sidecar.waitForDiagnostic(waitsForPath(file));
  const writer = new NumberedWriter(file, 'backup');
  writer.write(25);
  await sidecar.waitForLines(25);
  writer.write(25);
  await sidecar.waitForLines(50);
  await sidecar.stop();
  const result = checkNumbered(sidecar.lines(), 'backup-agent', 'backup', 50);
  t.deepEqual(result.lost, []);
  t.is(result.duplicated, 0);
});

test('a file present at start is read from its end, as tail -n0 does', async (t) => {
  const dir = tempDir('present');
  const file = path.join(dir, 'automation-agent.log');
  fs.writeFileSync(file, 'written before the sidecar started\n');
  const sidecar = new SidecarProcess(['--log-dir', dir]);
  await sidecar.waitForDiagnostic(followsPath(file));
  fs.appendFileSync(file, 'written after\n');
  await sidecar.waitForLines(1);
  await sidecar.stop();
  t.deepEqual(sidecar.lines(), ['{"logType":"automation-agent","contents":"written after"}']);
});

test('a file present at start with a line half written: read from where that line begins, so it leaves whole once finished', async (t) => {
  const dir = tempDir('present-half');
  const file = path.join(dir, 'automation-agent.log');
  const long = 'x'.repeat(100_000);
  fs.writeFileSync(file, `written before the sidecar started\nbegun before ${long.slice(0, 70_000)}`);
  const sidecar = new SidecarProcess(['--log-dir', dir, '--state-file', '']);
  await sidecar.waitForDiagnostic(followsPath(file));
  t.like(sidecar.diagnostics().find(followsPath(file)), { position: 'written before the sidecar started\n'.length });
  fs.appendFileSync(file, `${long.slice(70_000)} and finished after\nwritten after\n`);
  await sidecar.waitForLines(2);
  await sidecar.stop();
  t.deepEqual(
    sidecar.lines().map((line) => (JSON.parse(line) as { contents: string }).contents),
    [`begun before ${long} and finished after`, 'written after'],
  );
});

test('deleted while the writer still writes, then recreated: nothing lost', async (t) => {
  const { dir, file, sidecar } = await followEmptyFile('delete', 'monitoring-agent', ['--rotate-wait', '1']);
  const writer = new NumberedWriter(file, 'monitoring');
  const writing = writer.writeFor(2500, 4);
  await sleep(300);
  fs.unlinkSync(file);
  // The writer goes on writing into the unlinked file for 1.5 s before it reopens the name.
  await sleep(1500);
  writer.reopen();
  await writing;
  writer.close();
  await sidecar.waitForLines(writer.written);
  await sidecar.stop();
  const result = checkNumbered(sidecar.lines(), 'monitoring-agent', 'monitoring', writer.written);
  t.deepEqual(result.lost, []);
  t.is(result.duplicated, 0);
  t.is(result.outOfOrder, 0);
  t.true(sidecar.diagnostics().some((d) => d['event'] === 'deleted'));
  // The health line counts a deletion as what it is, not as a rotation.
  t.like(sidecar.diagnostics().filter((d) => d['event'] === 'stats' && d['source'] === 'monitoring-agent').at(-1), { deletions: 1, rotations: 0 });
});

test('a deleted file whose name never comes back is closed once read and quiet', async (t) => {
  const { dir, file, sidecar } = await followEmptyFile('gone', 'mongodb', ['--rotate-wait', '0.5', '--poll-interval', '0.1']);
  const writer = new NumberedWriter(file, 'mongodb');
  writer.write(10);
  fs.unlinkSync(file);
  writer.write(10);
  writer.close();
  await sidecar.waitForDiagnostic((d) => d['event'] === 'drained', 5000);
  // The sidecar holds no descriptor of the deleted file any more (the operator's issue #174).
  const fds = fs.readdirSync(`/proc/${sidecar.child.pid}/fd`).map((fd) => {
    try {
      return fs.readlinkSync(`/proc/${sidecar.child.pid}/fd/${fd}`);
    } catch {
      return '';
    }
  });
  t.false(fds.some((target) => target.includes('(deleted)')), fds.join(', '));
  await sidecar.stop();
  t.deepEqual(checkNumbered(sidecar.lines(), 'mongodb', 'mongodb', 20).lost, []);
});

/** The lines a reader joining pieces (`logtype -o raw`) reads from the sidecar's entries. */
const joined = (entries: readonly string[]): string[] =>
  spawnSync(process.execPath, [FILTER_BIN, '-o', 'raw'], { input: `${entries.join('\n')}\n`, encoding: 'utf8' }).stdout.split('\n').filter((l) => l !== '');

// From a field trial (pieces-interleaved-across-rotation.py): a line longer than --max-line-bytes
// had left in pieces when its file was renamed; the new file's lines came out between its pieces,
// and a reader joining pieces glued the new file's first line onto it.
test('a line in pieces when its file is renamed: the new file waits until the old writer ends the line; read back, every line is whole', async (t) => {
  const { file, sidecar } = await followEmptyFile('pieces-rename', 'mongodb', ['--max-line-bytes', '1000', '--rotate-wait', '2']);
  fs.appendFileSync(file, 'L 0\nL 1\n');
  const old = fs.openSync(file, 'a');
  fs.writeSync(old, `L 2 ${'y'.repeat(2500)}`);
  await sidecar.waitForLines(4); // two lines, two pieces
  fs.renameSync(file, `${file}.1`);
  fs.appendFileSync(file, 'L 10\nL 11\n');
  await sleep(500);
  fs.writeSync(old, `${'z'.repeat(10)}\n`);
  fs.closeSync(old);
  await waitUntil(() => sidecar.lines().some((l) => l.includes('"L 11"')), 10_000, 'the new file read');
  await sidecar.stop();
  t.deepEqual(joined(sidecar.lines()), ['L 0', 'L 1', `L 2 ${'y'.repeat(2500)}${'z'.repeat(10)}`, 'L 10', 'L 11']);
});

test('a last line left as a piece at SIGTERM, renamed away unfinished while down: closed before the new file is read', async (t) => {
  const { dir, file, sidecar } = await followEmptyFile('pieces-down', 'mongodb', ['--rotate-wait', '1']);
  fs.appendFileSync(file, 'L 0\nL 5 first-half');
  await sidecar.waitForLines(1);
  await sidecar.stop();
  fs.renameSync(file, `${file}.1`);
  fs.appendFileSync(file, 'L 10\nL 11\n');
  const second = new SidecarProcess(['--log-dir', dir, '--rotate-wait', '1']);
  await waitUntil(() => second.lines().some((l) => l.includes('"L 11"')), 15_000, 'the new file read');
  await second.stop();
  t.deepEqual(joined([...sidecar.lines(), ...second.lines()]), ['L 0', 'L 5 first-half', 'L 10', 'L 11']);
});

test('deleted and made again at once (before a look): said and counted as a deletion, not a rotation; nothing lost', async (t) => {
  const { file, sidecar } = await followEmptyFile('delete-recreate', 'mongodb', ['--state-file', '']);
  fs.appendFileSync(file, 'a\n');
  await sidecar.waitForLines(1);
  await sidecar.whileFrozen(() => {
    fs.unlinkSync(file);
    fs.writeFileSync(file, 'b\n');
  });
  await sidecar.waitForLines(2);
  await sidecar.stop();
  t.deepEqual(sidecar.lines(), ['{"logType":"mongodb","contents":"a"}', '{"logType":"mongodb","contents":"b"}']);
  t.true(sidecar.diagnostics().some((d) => d['event'] === 'deleted'));
  t.false(sidecar.diagnostics().some((d) => d['event'] === 'rotated'));
  t.like(sidecar.diagnostics().filter((d) => d['event'] === 'stats' && d['source'] === 'mongodb').at(-1), { deletions: 1, rotations: 0 });
});

test('a copy of the log made by hand beside it (cp mongodb.log mongodb.log.bak), then a rename rotation: the copy\'s lines, all delivered, are not sent again', async (t) => {
  const { file, sidecar } = await followEmptyFile('copy-by-hand', 'mongodb', ['--rotate-wait', '1']);
  const writer = new NumberedWriter(file, 'mongodb');
  writer.write(100);
  await sidecar.waitForLines(100);
  fs.copyFileSync(file, `${file}.bak`);
  await sleep(2000);
  fs.renameSync(file, `${file}.1`);
  writer.reopen();
  writer.write(5);
  writer.close();
  await sidecar.waitForLines(105);
  await sleep(3000);
  await sidecar.stop();
  const result = checkNumbered(sidecar.lines(), 'mongodb', 'mongodb', writer.written, (n) => writer.line(n));
  t.deepEqual(result.lost, []);
  t.is(result.duplicated, 0);
});

// From a field trial: a rotated file whose writer stopped in the middle of a line was closed
// after --rotate-wait, its last bytes sent as a whole line, and nothing said.
test('a rotated file closed with its last line unfinished: the piece leaves as a line, and that is said', async (t) => {
  const { file, sidecar } = await followEmptyFile('rename-unfinished', 'mongodb', ['--rotate-wait', '0.5', '--poll-interval', '0.1']);
  const writer = new NumberedWriter(file, 'mongodb');
  writer.write(10);
  fs.appendFileSync(file, 'half-');
  fs.renameSync(file, `${file}.1`);
  writer.reopen();
  writer.write(5); // 11-15: the new file
  writer.close();
  await sidecar.waitForDiagnostic((d) => d['event'] === 'drained', 5000);
  await sidecar.waitForLines(16);
  await sidecar.stop();
  t.true(sidecar.lines().includes(JSON.stringify({ logType: 'mongodb', contents: 'half-' })));
  t.like(sidecar.diagnostics().find((d) => d['event'] === 'unterminated-line'), { level: 40, file: `${file}.1`, bytes: 5 });
});
