import test from 'ava';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { NumberedWriter, sleep } from '../_helpers/numbered-writer.js';
import { FILTER_BIN, SidecarProcess, readState, tempDir, waitUntil } from '../_helpers/sidecar-process.js';
import { checkNumbered } from '../_helpers/delivery.js';
import { fnv1a64 } from '../../src/follow/fingerprint.js';

/** Starts the sidecar on `dir` and waits until it looked at mongodb.log. */
async function start(dir: string): Promise<SidecarProcess> {
  const sidecar = new SidecarProcess(['--log-dir', dir, '--rotate-wait', '1']);
  const file = path.join(dir, 'mongodb.log');
  await sidecar.waitForDiagnostic((d) => (d['event'] === 'opened' || d['event'] === 'resumed' || d['event'] === 'waiting') && d['path'] === file);
  return sidecar;
}

for (const signal of ['SIGTERM', 'SIGKILL'] as const) {
  test(`${signal} and a restart while the writer writes at 1000 lines/s: nothing lost${signal === 'SIGTERM' ? ', nothing repeated' : ''}`, async (t) => {
    const dir = tempDir(`resume-${signal}`);
    const file = path.join(dir, 'mongodb.log');
    fs.writeFileSync(file, '');
    const first = await start(dir);
    const writer = new NumberedWriter(file, 'mongodb');
    const writing = writer.writeFor(4000, 5);
    await sleep(1500);
    await first.stop(signal);
    // The state file as the stop left it: the restart reads from the position it holds.
    const saved = readState(path.join(dir, '.logtype-sidecar.state'))?.files[file]?.at(-1)?.position ?? 0;
    const writtenWhileDown = writer.written;
    await sleep(1000);
    const second = await start(dir);
    await writing;
    writer.close();
    await second.waitForLines(Math.max(0, writer.written - first.lines().length), 20_000).catch(() => undefined);
    await sleep(300);
    await second.stop();
    const result = checkNumbered([...first.lines(), ...second.lines()], 'mongodb', 'mongodb', writer.written, (n) => writer.line(n));
    t.log(`${signal}: written ${writer.written}, delivered ${result.delivered}, repeated ${result.duplicated} (down after line ${writtenWhileDown}, saved up to byte ${saved})`);
    t.deepEqual(result.lost, []);
    t.is(result.wrongContents, 0);
    t.is(result.invalidJson, 0);
    if (signal === 'SIGTERM') t.is(result.duplicated, 0);
    else {
      // SIGKILL: the lines the first run delivered after its last save come again, exactly those
      // (docs/design.md: nothing lost; the lines read after the last save come again).
      const savedLines = saved / (writer.line(1).length + 1);
      t.true(Number.isInteger(savedLines), `saved position ${saved} at a line's end`);
      const firstDelivered = first.lines().map((line) => Number(/^mongodb-(\d{8}) /.exec((JSON.parse(line) as { contents: string }).contents)?.[1]));
      t.deepEqual(result.repeats, firstDelivered.filter((n) => n > savedLines), `saved up to line ${savedLines}`);
    }
  });
}

test('rotated while the sidecar was down: the rest of the old file, then the new one', async (t) => {
  const dir = tempDir('resume-rotated');
  const file = path.join(dir, 'mongodb.log');
  fs.writeFileSync(file, '');
  const first = await start(dir);
  const writer = new NumberedWriter(file, 'mongodb');
  writer.write(100);
  await first.waitForLines(100);
  await first.stop();
  writer.write(50); // to the old file, read by nobody yet
  fs.renameSync(file, `${file}.2026-11-22T10-00-00`);
  writer.write(25); // still the old file: the writer has not reopened
  writer.reopen();
  writer.write(40); // the new file
  writer.close();
  const second = await start(dir);
  await second.waitForLines(115);
  await second.stop();
  const result = checkNumbered([...first.lines(), ...second.lines()], 'mongodb', 'mongodb', writer.written, (n) => writer.line(n));
  t.deepEqual(result.lost, []);
  t.is(result.wrongContents, 0);
  t.is(result.duplicated, 0);
  t.is(result.outOfOrder, 0);
  t.true(second.diagnostics().some((d) => d['event'] === 'resumed' && d['file'] === `${file}.2026-11-22T10-00-00`));
});

test('truncated while the sidecar was down: read again from 0', async (t) => {
  const dir = tempDir('resume-truncated');
  const file = path.join(dir, 'mongodb.log');
  fs.writeFileSync(file, '');
  const first = await start(dir);
  fs.appendFileSync(file, 'one\ntwo\nthree\n');
  await first.waitForLines(3);
  await first.stop();
  fs.truncateSync(file, 0);
  fs.appendFileSync(file, 'four\n');
  const second = await start(dir);
  await second.waitForLines(1);
  await second.stop();
  t.deepEqual(second.lines(), ['{"logType":"mongodb","contents":"four"}']);
  // Said as what it is (a platform trial: it said the file was "not found", deleted or compressed).
  const said = second.diagnostics().find((d) => d['event'] === 'resume-lost');
  t.like(said, { level: 40, inPlace: true, size: 5, position: 14 });
  t.regex(said!['msg'] as string, /the file at the name is the one read before the restart \(its inode\), but it was truncated or rewritten while the sidecar was down/);
});

test('the same inode with other bytes (a reused inode) is a new file, read from its start', async (t) => {
  const dir = tempDir('resume-reused');
  const file = path.join(dir, 'mongodb.log');
  fs.writeFileSync(file, '');
  const first = await start(dir);
  fs.appendFileSync(file, 'old file line 1\nold file line 2\n');
  await first.waitForLines(2);
  await first.stop();
  const inode = fs.statSync(file).ino;
  // Same inode, new contents longer than the saved position: only the fingerprint tells.
  fs.writeFileSync(file, 'NEW file, first line is longer\nnew file line 2\n');
  t.is(fs.statSync(file).ino, inode);
  const second = await start(dir);
  await second.waitForLines(2);
  await second.stop();
  t.deepEqual(second.lines(), [
    '{"logType":"mongodb","contents":"NEW file, first line is longer"}',
    '{"logType":"mongodb","contents":"new file line 2"}',
  ]);
});

// A state file that cannot be used keeps its time (its mtime: the last save's): a file changed
// since has lines no save covers and is read again from its start (a trial found them skipped);
// a file unchanged since is read from its end, as at a first start.
test('a corrupt state file: a diagnostic; a file unchanged since it was written is read from its end, one changed since from its start', async (t) => {
  const dir = tempDir('resume-corrupt');
  const quiet = path.join(dir, 'mongodb.log');
  const changed = path.join(dir, 'backup-agent.log');
  fs.writeFileSync(quiet, 'quiet before\n');
  fs.writeFileSync(changed, 'delivered before the save\nwritten while down\n');
  const stateFile = path.join(dir, '.logtype-sidecar.state');
  fs.writeFileSync(stateFile, '{"version":1,"files":{"x":[{"dev":"nope"}]}');
  const savedAt = Date.now() / 1000 - 60;
  fs.utimesSync(stateFile, savedAt, savedAt);
  fs.utimesSync(quiet, savedAt - 10, savedAt - 10);
  const sidecar = await start(dir);
  fs.appendFileSync(quiet, 'after\n');
  await sidecar.waitForLines(3);
  const exit = await sidecar.stop();
  t.is(exit.code, 0);
  t.deepEqual(new Set(sidecar.lines()), new Set([
    '{"logType":"backup-agent","contents":"delivered before the save"}',
    '{"logType":"backup-agent","contents":"written while down"}',
    '{"logType":"mongodb","contents":"after"}',
  ]));
  t.true(sidecar.diagnostics().some((d) => d['event'] === 'state-unreadable'));
});

test('positions are saved while lines flow, not only at shutdown', async (t) => {
  const dir = tempDir('resume-periodic');
  const file = path.join(dir, 'mongodb.log');
  fs.writeFileSync(file, '');
  const sidecar = await start(dir);
  fs.appendFileSync(file, 'a line\n');
  const stateFile = path.join(dir, '.logtype-sidecar.state');
  // The first save may come before the line (the file was found): the line's is within a second.
  await waitUntil(() => readState(stateFile)?.files[file]?.at(-1)?.position === 7, 5000, 'state file written with the line');
  t.is(readState(stateFile)?.files[file]?.at(-1)?.position, 7);
  await sidecar.stop();
  t.false(fs.readdirSync(dir).some((name) => name.endsWith('.tmp')));
});

test('a changed device number (the volume attached elsewhere) resumes: inode and bytes decide', async (t) => {
  const dir = tempDir('resume-dev');
  const file = path.join(dir, 'mongodb.log');
  const stateFile = path.join(dir, '.logtype-sidecar.state');
  fs.writeFileSync(file, '');
  const first = await start(dir);
  const writer = new NumberedWriter(file, 'mongodb');
  writer.write(6);
  await first.waitForLines(6);
  await first.stop();
  const state = readState(stateFile)!;
  for (const saved of state.files[file]!) saved.dev += 1;
  fs.writeFileSync(stateFile, JSON.stringify(state));
  writer.write(4);
  writer.close();
  const second = await start(dir);
  await second.waitForLines(4);
  await sleep(300);
  await second.stop();
  const result = checkNumbered([...first.lines(), ...second.lines()], 'mongodb', 'mongodb', 10, (n) => writer.line(n));
  t.deepEqual(result.lost, []);
  t.is(result.duplicated, 0);
  t.true(second.diagnostics().some((d) => d['event'] === 'resumed' && d['path'] === file));
  t.false(second.diagnostics().some((d) => d['event'] === 'resume-lost'));
});

test('the log directory renamed while down (same files, same state file): each file resumes where it was, found by its inode; nothing read again', async (t) => {
  const root = tempDir('resume-moved');
  const dir = path.join(root, 'logs');
  fs.mkdirSync(dir);
  const stateFile = path.join(root, 'state');
  const file = path.join(dir, 'mongodb.log');
  fs.writeFileSync(file, '');
  const first = new SidecarProcess(['--log-dir', dir, '--state-file', stateFile, '--stats-interval', '0']);
  await first.waitForDiagnostic((d) => d['event'] === 'opened' && d['path'] === file);
  fs.appendFileSync(file, 'one\ntwo\n');
  await first.waitForLines(2);
  await first.stop();
  const moved = path.join(root, 'logs-moved');
  fs.renameSync(dir, moved);
  fs.appendFileSync(path.join(moved, 'mongodb.log'), 'three\n');
  const second = new SidecarProcess(['--log-dir', moved, '--state-file', stateFile, '--stats-interval', '0']);
  await second.waitForLines(1);
  await sleep(300);
  await second.stop();
  t.deepEqual(second.lines(), ['{"logType":"mongodb","contents":"three"}']);
  t.like(second.diagnostics().find((d) => d['event'] === 'state-path-moved'), { level: 40, path: path.join(moved, 'mongodb.log'), savedAs: file });
});

test('a state file saved for another --log-dir: said, and files changed since its save are read from their start (a repeat, never a skip)', async (t) => {
  const root = tempDir('resume-other-dir');
  const stateFile = path.join(root, 'state');
  const a = path.join(root, 'a');
  const b = path.join(root, 'b');
  fs.mkdirSync(a);
  fs.mkdirSync(b);
  fs.writeFileSync(path.join(a, 'mongodb.log'), '');
  const first = new SidecarProcess(['--log-dir', a, '--state-file', stateFile, '--stats-interval', '0']);
  await first.waitForDiagnostic((d) => d['event'] === 'opened');
  await first.stop();
  fs.writeFileSync(path.join(b, 'mongodb.log'), 'b line\n');
  const second = new SidecarProcess(['--log-dir', b, '--state-file', stateFile, '--stats-interval', '0']);
  await second.waitForLines(1);
  await second.stop();
  t.deepEqual(second.lines(), ['{"logType":"mongodb","contents":"b line"}']);
  const said = second.diagnostics().find((d) => d['event'] === 'state-paths-unknown');
  t.like(said, { level: 40, path: stateFile });
  t.regex(said!['msg'] as string, /saved for another --log-dir\?/);
});

test('a version 1 state file (an earlier sidecar) still loads: positions kept across the upgrade', async (t) => {
  const dir = tempDir('resume-v1');
  const file = path.join(dir, 'mongodb.log');
  const writer = new NumberedWriter(file, 'mongodb');
  writer.write(5);
  const stat = fs.statSync(file);
  // What the version 1 sidecar saved: device, inode, position, and the FNV-1a of the first bytes.
  const head = fs.readFileSync(file);
  fs.writeFileSync(
    path.join(dir, '.logtype-sidecar.state'),
    JSON.stringify({ version: 1, files: { [file]: [{ dev: stat.dev, ino: stat.ino, position: head.length, fingerprint: fnv1a64(head, 0, head.length), fingerprintBytes: head.length }] } }),
  );
  writer.write(3);
  writer.close();
  const sidecar = await start(dir);
  await sidecar.waitForLines(3);
  await sleep(300);
  await sidecar.stop();
  t.deepEqual(checkNumbered(sidecar.lines(), 'mongodb', 'mongodb', 8, (n) => writer.line(n)).lost, [1, 2, 3, 4, 5]);
  t.is(sidecar.lines().length, 3);
  t.true(sidecar.diagnostics().some((d) => d['event'] === 'state-upgraded'));
  t.is(readState(path.join(dir, '.logtype-sidecar.state'))?.version, 2);
});

test('positions are saved once things go quiet: a SIGKILL after a quiet spell repeats nothing', async (t) => {
  const dir = tempDir('resume-quiet');
  const file = path.join(dir, 'mongodb.log');
  const stateFile = path.join(dir, '.logtype-sidecar.state');
  fs.writeFileSync(file, '');
  const first = await start(dir);
  const writer = new NumberedWriter(file, 'mongodb');
  // Lines in bursts closer together than a second, then nothing: the last burst's save trails it.
  for (let burst = 0; burst < 5; burst++) {
    writer.write(200);
    await sleep(150);
  }
  await first.waitForLines(1000);
  const size = fs.statSync(file).size;
  await waitUntil(() => readState(stateFile)?.files[file]?.at(-1)?.position === size, 3000, 'the last batch saved');
  await first.stop('SIGKILL');
  writer.write(10);
  writer.close();
  const second = await start(dir);
  await second.waitForLines(10);
  await sleep(300);
  await second.stop();
  const result = checkNumbered([...first.lines(), ...second.lines()], 'mongodb', 'mongodb', writer.written, (n) => writer.line(n));
  t.deepEqual(result.lost, []);
  t.is(result.duplicated, 0);
});

test('the state file removed while the pod is quiet (a cleanup): said and saved again within seconds, so a SIGKILL then loses nothing', async (t) => {
  const dir = tempDir('resume-state-removed');
  const file = path.join(dir, 'mongodb.log');
  const stateFile = path.join(dir, '.logtype-sidecar.state');
  fs.writeFileSync(file, '');
  const first = await start(dir);
  const writer = new NumberedWriter(file, 'mongodb');
  writer.write(20);
  await first.waitForLines(20);
  const size = fs.statSync(file).size;
  await waitUntil(() => readState(stateFile)?.files[file]?.at(-1)?.position === size, 3000, 'the last batch saved');
  fs.rmSync(stateFile);
  await first.waitForDiagnostic((d) => d['event'] === 'state-missing', 10_000);
  await waitUntil(() => readState(stateFile)?.files[file]?.at(-1)?.position === size, 3000, 'saved again, as it was');
  await first.stop('SIGKILL');
  writer.write(20);
  writer.close();
  const second = await start(dir);
  await second.waitForLines(20);
  await sleep(300);
  await second.stop();
  const result = checkNumbered([...first.lines(), ...second.lines()], 'mongodb', 'mongodb', writer.written, (n) => writer.line(n));
  t.deepEqual(result.lost, []);
  t.is(result.duplicated, 0);
});

test('runs under two spellings of the log directory (a symbolic link to it), then the first again: each resumes where the last stopped, nothing sent twice', async (t) => {
  const root = tempDir('resume-alias');
  const dir = path.join(root, 'logs');
  const alias = path.join(root, 'alias');
  fs.mkdirSync(dir);
  fs.symlinkSync(dir, alias);
  const stateFile = path.join(root, 'state');
  const file = path.join(dir, 'mongodb.log');
  fs.writeFileSync(file, '');
  const writer = new NumberedWriter(file, 'mongodb');
  const runs: SidecarProcess[] = [];
  for (const [round, logDir] of [dir, alias, dir, alias].entries()) {
    const sidecar = new SidecarProcess(['--log-dir', logDir, '--state-file', stateFile, '--missing-warning', '0']);
    await sidecar.waitForDiagnostic((d) => (d['event'] === 'opened' || d['event'] === 'resumed') && d['path'] === path.join(logDir, 'mongodb.log'));
    if (round > 0) await sidecar.waitForLines(10);
    await sleep(300);
    await sidecar.stop();
    runs.push(sidecar);
    writer.write(10);
  }
  writer.close();
  const last = new SidecarProcess(['--log-dir', dir, '--state-file', stateFile, '--missing-warning', '0']);
  await last.waitForLines(10);
  await sleep(300);
  await last.stop();
  const result = checkNumbered([...runs, last].flatMap((run) => run.lines()), 'mongodb', 'mongodb', writer.written, (n) => writer.line(n));
  t.deepEqual(result.lost, []);
  t.is(result.duplicated, 0);
});

test('SIGKILL right after a restart, before any line left: the state still knows every file it found', async (t) => {
  const dir = tempDir('resume-early-kill');
  const file = path.join(dir, 'mongodb.log');
  const stateFile = path.join(dir, '.logtype-sidecar.state');
  fs.writeFileSync(file, '');
  const first = await start(dir);
  const writer = new NumberedWriter(file, 'mongodb');
  writer.write(500);
  await first.waitForLines(500);
  await first.stop();
  const savedBefore = readState(stateFile)?.savedAt ?? 0;
  writer.write(200);
  // The reader is stalled from the start: nothing leaves, only the restart's first save happens.
  const second = new SidecarProcess(['--log-dir', dir, '--rotate-wait', '1']);
  second.stallReader();
  await waitUntil(() => (readState(stateFile)?.savedAt ?? 0) > savedBefore, 10_000, 'the restart saved');
  // The file it resumed is in the save (the pipe may have taken some lines already).
  const saved = readState(stateFile)?.files[file] ?? [];
  t.is(saved.length, 1);
  t.true((saved[0]?.position ?? 0) >= 500 * (writer.line(1).length + 1));
  second.child.kill('SIGKILL');
  // What the pipe took before the kill is delivered: the reader reads it now.
  second.resumeReader();
  await second.exited;
  writer.close();
  const third = await start(dir);
  await third.waitForLines(200 - second.lines().length);
  await sleep(300);
  await third.stop();
  const result = checkNumbered([...first.lines(), ...second.lines(), ...third.lines()], 'mongodb', 'mongodb', writer.written, (n) => writer.line(n));
  t.deepEqual(result.lost, []);
  t.is(result.duplicated, 0);
});

test('a line left open by a stop whose file is gone at the restart is closed: the next line is not joined to it', async (t) => {
  const dir = tempDir('resume-open-line');
  const file = path.join(dir, 'mongodb.log');
  fs.writeFileSync(file, '');
  const first = await start(dir);
  fs.appendFileSync(file, 'whole\nhalf a li');
  await first.waitForLines(1);
  await first.stop();
  t.is(first.lines().at(-1), '{"logType":"mongodb","contents":"half a li","partial":true}');
  fs.unlinkSync(file); // the rest of the line is gone with its file
  fs.writeFileSync(file, 'a new file\n');
  const second = await start(dir);
  await second.waitForLines(2);
  await second.stop();
  t.deepEqual(second.lines(), ['{"logType":"mongodb","contents":""}', '{"logType":"mongodb","contents":"a new file"}']);
  const joined = spawnSync(process.execPath, [FILTER_BIN, '-o', 'raw'], { input: [...first.lines(), ...second.lines()].join('\n') + '\n', encoding: 'utf8' });
  t.is(joined.stdout, 'whole\nhalf a li\na new file\n');
});
