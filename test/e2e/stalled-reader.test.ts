/**
 * A reader of our stdout that stops reading (a paused log shipper, a full pipe): reading waits,
 * following does not, and a stop while it waits still ends with whole entries and saved
 * positions (issues #15 and #22).
 */
import test, { type ExecutionContext } from 'ava';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { NumberedWriter, sleep } from '../_helpers/numbered-writer.js';
import { SIDECAR_BIN, SidecarProcess, cleanEnv, followsPath, readState, tempDir, waitUntil } from '../_helpers/sidecar-process.js';
import { checkNumbered } from '../_helpers/delivery.js';
import { killAtTeardown } from '../_helpers/follower-scenario.js';

/** `count` numbered lines of `tag` as one file. */
function numberedFile(file: string, tag: string, count: number): NumberedWriter {
  const writer = new NumberedWriter(file, tag);
  for (let done = 0; done < count; done += 10_000) writer.write(Math.min(10_000, count - done));
  writer.close();
  return writer;
}

/**
 * A second run with `args` after `first`: it delivers the rest of what `writer` wrote, and the
 * two runs' lines together are every line once, whole and valid.
 */
async function restartDeliversTheRest(t: ExecutionContext, first: SidecarProcess, args: readonly string[], writer: NumberedWriter, tag: string): Promise<void> {
  const second = new SidecarProcess([...args]);
  await second.waitForLines(writer.written - first.lines().length, 30_000);
  await sleep(200);
  await second.stop();
  const result = checkNumbered([...first.lines(), ...second.lines()], 'mongodb', tag, writer.written, (n) => writer.line(n));
  t.deepEqual(result.lost, []);
  t.is(result.duplicated, 0);
  t.is(result.invalidJson, 0);
  t.is(result.wrongContents, 0);
}

for (const back of ['within', 'after'] as const) {
  test(`SIGTERM while the reader is stalled, the reader back ${back} --stop-timeout: entries whole, positions saved, the restart sends exactly the rest`, async (t) => {
    const dir = tempDir(`stalled-sigterm-${back}`);
    const file = path.join(dir, 'big.log');
    const stateFile = path.join(dir, 'st.json');
    const writer = numberedFile(file, 'big', 100_000);
    const args = ['--log-dir', dir, '--file', `mongodb=${file}`, '--state-file', stateFile, '--stats-interval', '0'];
    const first = killAtTeardown(t, new SidecarProcess([...args, '--from-start', '--stop-timeout', back === 'within' ? '30' : '1']));
    first.stallReader();
    await sleep(1500);
    const stopped = Date.now();
    await first.signal('SIGTERM');
    // Back after 3 s: within a 30 s timeout, after a 1 s one.
    await sleep(3000);
    first.resumeReader();
    const exit = await first.exited;
    t.log(`exit ${Date.now() - stopped} ms after SIGTERM, ${first.lines().length} entries`);
    t.deepEqual(exit, { code: 0, signal: null });
    t.deepEqual(first.nonJsonStderr(), [], 'no MaxListenersExceededWarning, nothing but our diagnostics');
    t.true(first.stdout().endsWith('\n'), 'the last entry is whole');
    if (back === 'within') t.is(first.lines().length, 100_000);
    else t.true(first.diagnostics().some((d) => d['event'] === 'stop-timeout'));
    const saved = readState(stateFile)?.files[file]?.at(-1)?.position;
    t.is(saved, first.lines().length * (writer.line(1).length + 1), 'the saved position is the end of the last entry delivered');
    await restartDeliversTheRest(t, first, args, writer, 'big');
  });
}

test('two rename rotations while the reader is stalled: the file made and rotated during the stall is read (repro-b2)', async (t) => {
  const dir = tempDir('stalled-renames');
  const file = path.join(dir, 'mongodb.log');
  const writer = new NumberedWriter(file, 'mongodb', 1000);
  writer.write(10);
  const sidecar = killAtTeardown(t, new SidecarProcess(['--log-dir', dir, '--from-start', '--stats-interval', '0']));
  await sidecar.waitForLines(10);
  sidecar.stallReader();
  writer.write(289); // 11-299: fills the pipe and the writer
  await sleep(500);
  fs.renameSync(file, `${file}.1`);
  writer.reopen();
  writer.write(100); // 300-399
  fs.renameSync(`${file}.1`, `${file}.2`);
  fs.renameSync(file, `${file}.1`);
  writer.reopen();
  writer.write(100); // 400-499
  writer.close();
  await sleep(1000);
  sidecar.resumeReader();
  await sidecar.waitForLines(499);
  await sidecar.stop();
  const result = checkNumbered(sidecar.lines(), 'mongodb', 'mongodb', 499, (n) => writer.line(n));
  t.deepEqual(result.lost, []);
  t.is(result.duplicated, 0);
  t.is(result.outOfOrder, 0);
  t.is(result.wrongContents, 0);
});

test('two copytruncates while the reader is stalled: the middle part, only in the second copy, is read (repro-b3)', async (t) => {
  const dir = tempDir('stalled-copytruncate');
  const file = path.join(dir, 'mongodb.log');
  const writer = new NumberedWriter(file, 'mongodb', 1000);
  const copytruncate = (): void => {
    if (fs.existsSync(`${file}.1`)) fs.renameSync(`${file}.1`, `${file}.2`);
    fs.copyFileSync(file, `${file}.1`);
    fs.truncateSync(file, 0);
  };
  const sidecar = killAtTeardown(t, new SidecarProcess(['--log-dir', dir, '--from-start', '--stats-interval', '0']));
  await sidecar.waitForDiagnostic(followsPath(file));
  writer.write(9); // 1-9
  await sidecar.waitForLines(9);
  sidecar.stallReader();
  writer.write(290); // 10-299: the output fills, reading waits
  await sleep(500);
  copytruncate(); // copy 1: 1-299
  writer.write(100); // 300-399
  copytruncate(); // copy 2: 300-399
  writer.write(100); // 400-499
  writer.close();
  await sleep(1000);
  sidecar.resumeReader();
  await sidecar.waitForLines(499);
  await sidecar.stop();
  const result = checkNumbered(sidecar.lines(), 'mongodb', 'mongodb', 499, (n) => writer.line(n));
  if (result.lost.length + result.duplicated + result.outOfOrder + result.wrongContents > 0) t.log(JSON.stringify({ ...result, lost: result.lost.length, firstLost: result.lost[0], lastLost: result.lost.at(-1) }), sidecar.stderr);
  t.deepEqual(result.lost, []);
  t.is(result.duplicated, 0);
  t.is(result.outOfOrder, 0);
  t.is(result.wrongContents, 0);
  // Nothing was lost, and nothing is said lost (a field trial: the second cut, of a file nothing
  // of which was read yet, said its bytes lost while its copy was read a moment later).
  t.deepEqual(sidecar.diagnostics().filter((d) => d['lostBytes'] !== undefined || d['event'] === 'gave-up'), []);
});

test('one copytruncate while the reader is stalled, the reader back later: every line once, and no loss said (a second truncation was said of the file before the cut)', async (t) => {
  const dir = tempDir('stalled-one-copytruncate');
  const file = path.join(dir, 'mongodb.log');
  const writer = new NumberedWriter(file, 'mongodb', 300);
  const sidecar = killAtTeardown(t, new SidecarProcess(['--log-dir', dir, '--from-start', '--stats-interval', '0', '--poll-interval', '0.25', '--rotate-wait', '1']));
  await sidecar.waitForDiagnostic(followsPath(file));
  sidecar.stallReader();
  writer.write(3000); // 900 KB: the output fills, reading waits
  await sleep(1000);
  fs.copyFileSync(file, `${file}.1`);
  fs.truncateSync(file, 0);
  writer.write(100);
  writer.close();
  await sleep(1500);
  sidecar.resumeReader();
  await sidecar.waitForLines(3100, 30_000);
  await sleep(500);
  await sidecar.stop();
  const result = checkNumbered(sidecar.lines(), 'mongodb', 'mongodb', 3100, (n) => writer.line(n));
  t.deepEqual(result.lost, []);
  t.is(result.duplicated, 0);
  t.is(result.outOfOrder, 0);
  t.deepEqual(sidecar.diagnostics().filter((d) => d['lostBytes'] !== undefined), []);
  t.is(sidecar.diagnostics().filter((d) => d['event'] === 'truncated').length, 1);
});

test('a backlog in one file does not starve the others: a quiet file\'s line reaches a slow reader behind less than half a second of it (repro-h)', async (t) => {
  const dir = tempDir('fair');
  const backlog = path.join(dir, 'automation-agent-verbose.log');
  const quiet = path.join(dir, 'mongodb.log');
  // 10 MB waiting in a file read before mongodb.log in the list.
  fs.writeFileSync(backlog, Array.from({ length: 100_000 }, (_, i) => `A ${i} ${'y'.repeat(90)}\n`).join(''));
  fs.writeFileSync(quiet, '');
  const child = spawn(process.execPath, [SIDECAR_BIN, '--log-dir', dir, '--state-file', '', '--from-start', '--stats-interval', '0'], {
    env: cleanEnv(),
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  // A reader that takes 64 KiB every 50 ms (about 1.3 MB/s: a slow shipper), noting for each
  // mongodb line how many bytes came before it since it was written, and when it came.
  const PACE_BYTES_PER_S = 64 * 1024 * 20;
  let received = 0;
  const arrived = new Map<number, { bytes: number; at: number }>();
  let text = '';
  const reader = setInterval(() => {
    const chunk = (child.stdout.read(64 * 1024) as Buffer | null) ?? (child.stdout.read() as Buffer | null);
    if (!chunk) return;
    text += chunk.toString('latin1');
    const lines = text.split('\n');
    text = lines.pop()!;
    for (const line of lines) {
      received += line.length + 1;
      const match = /^\{"logType":"mongodb","contents":"B (\d+)"\}$/.exec(line);
      if (match) arrived.set(Number(match[1]), { bytes: received, at: Date.now() });
    }
  }, 50);
  await sleep(500);
  const sent = new Map<number, { bytes: number; at: number }>();
  for (let k = 0; k < 10; k++) {
    fs.appendFileSync(quiet, `B ${k}\n`);
    sent.set(k, { bytes: received, at: Date.now() });
    await sleep(500);
  }
  await waitUntil(() => arrived.size === 10, 20_000, 'every mongodb line arrived');
  clearInterval(reader);
  child.kill('SIGKILL');
  const behind = [...sent].map(([k, at]) => arrived.get(k)!.bytes - at.bytes);
  t.log(`bytes before each mongodb line since it was written: ${behind.join(', ')}`);
  t.log(`latency, ms (this machine's load included): ${[...sent].map(([k, at]) => arrived.get(k)!.at - at.at).join(', ')}`);
  // The sidecar's share of the wait, free of the machine's load: what it let pass first.
  t.true(Math.max(...behind) < PACE_BYTES_PER_S / 2, `up to ${Math.max(...behind)} bytes before a line: more than half a second at 1.3 MB/s`);
});

/**
 * A stall over more rotations than files are held open: 18 rotations, each file with 5 lines,
 * 19 files behind the name, 16 held at most. `deleted`: each rotated file is deleted at once
 * (no name to wait by).
 */
async function rotationsDuringStall(t: ExecutionContext, name: string, deleted: boolean) {
  const dir = tempDir(name);
  const file = path.join(dir, 'mongodb.log');
  const writer = new NumberedWriter(file, 'mongodb', 1000);
  const sidecar = killAtTeardown(t, new SidecarProcess(['--log-dir', dir, '--stats-interval', '0', '--rotate-wait', '0.5', '--poll-interval', '0.1']));
  await sidecar.waitForDiagnostic(followsPath(file));
  sidecar.stallReader();
  writer.write(2000); // 2 MB: fills the pipe and the writer, the first file is left mostly unread
  await sleep(300);
  // Named as mongod's own rename names them (the time of the rotation), the first the oldest.
  const rotated = (n: number): string => `${file}.2026-11-28T01-00-${String(n).padStart(2, '0')}`;
  const fileOf = new Map<number, string>();
  for (let n = 1; n <= 2000; n++) fileOf.set(n, rotated(0));
  for (let rotation = 1; rotation <= 18; rotation++) {
    const name = rotated(rotation);
    fs.renameSync(file, rotated(rotation - 1));
    // Seen by the sidecar (held by descriptor) before it goes.
    if (deleted && rotation > 1) fs.unlinkSync(rotated(rotation - 2));
    writer.reopen();
    writer.write(5);
    for (let n = writer.written - 4; n <= writer.written; n++) fileOf.set(n, name);
    await sleep(120);
  }
  writer.close();
  await sleep(500);
  sidecar.resumeReader();
  return { sidecar, writer, fileOf };
}

// From a sidecar trial: files rotated faster than they were read (a sidecar short of CPU, a
// stalled reader) were given up past the bound on held files, their lines lost, while they
// were still on disk under their names ("gave-up", blaming the output).
test('more rotations during a stall than are held: the files past the bound wait by their names and are read in their turn; nothing lost, nothing given up', async (t) => {
  const { sidecar, writer } = await rotationsDuringStall(t, 'stalled-bound', false);
  await sidecar.waitForLines(writer.written, 20_000);
  await sleep(1000);
  await sidecar.stop();
  t.deepEqual(sidecar.diagnostics().filter((d) => d['event'] === 'gave-up'), []);
  const result = checkNumbered(sidecar.lines(), 'mongodb', 'mongodb', writer.written, (n) => writer.line(n));
  t.deepEqual(result.lost, []);
  t.is(result.duplicated, 0);
  t.is(result.outOfOrder, 0);
  t.is(result.wrongContents, 0);
});

test('more rotations during a stall than are held, each rotated file deleted at the next: a file deleted before it could be read is given up with a warning naming it and its bytes, never silently; the rest arrive', async (t) => {
  const { sidecar, writer, fileOf } = await rotationsDuringStall(t, 'stalled-bound-deleted', true);
  await waitUntil(() => sidecar.diagnostics().filter((d) => d['event'] === 'gave-up').length >= 1, 10_000, 'a gave-up warning');
  await sleep(1500);
  await sidecar.stop();
  const gaveUp = sidecar.diagnostics().filter((d) => d['event'] === 'gave-up');
  t.log(gaveUp.map((d) => `${String(d['file'])}: ${String(d['bytes'])} bytes`).join('; '));
  t.true(gaveUp.every((d) => d['level'] === 40 && typeof d['file'] === 'string' && (d['bytes'] as number) > 0));
  const result = checkNumbered(sidecar.lines(), 'mongodb', 'mongodb', writer.written, (n) => writer.line(n));
  const givenUpFiles = new Set(gaveUp.map((d) => d['file']));
  t.deepEqual(result.lost.filter((n) => !givenUpFiles.has(fileOf.get(n))), [], 'only lines of given-up files are missing');
  t.is(result.duplicated, 0);
  t.is(result.wrongContents, 0);
});

test('copytruncate during a stall whose copy is shorter than what was seen: read from the copy on, the lost window named', async (t) => {
  const dir = tempDir('stalled-copy-short');
  const file = path.join(dir, 'mongodb.log');
  const writer = new NumberedWriter(file, 'mongodb', 1000);
  const sidecar = killAtTeardown(t, new SidecarProcess(['--log-dir', dir, '--from-start', '--stats-interval', '0', '--poll-interval', '0.1']));
  await sidecar.waitForDiagnostic(followsPath(file));
  writer.write(10);
  await sidecar.waitForLines(10);
  sidecar.stallReader();
  writer.write(1000); // 1 MB: the output fills, most is seen but not read
  await sleep(500);
  fs.copyFileSync(file, `${file}.1`);
  writer.write(10); // the copytruncate window: seen (the poll looks), then destroyed
  await sleep(400);
  fs.truncateSync(file, 0);
  writer.write(20);
  writer.close();
  await sleep(500);
  sidecar.resumeReader();
  await sidecar.waitForLines(writer.written - 10, 30_000);
  await sleep(500);
  await sidecar.stop();
  const result = checkNumbered(sidecar.lines(), 'mongodb', 'mongodb', writer.written, (n) => writer.line(n));
  t.deepEqual(result.lost, Array.from({ length: 10 }, (_, i) => 1011 + i), 'only the window, on no disk');
  t.is(result.duplicated, 0);
  t.is(result.outOfOrder, 0);
  const truncated = sidecar.diagnostics().find((d) => d['event'] === 'truncated');
  t.like(truncated, { copy: `${file}.1`, lostBytes: 10 * (writer.line(1).length + 1) });
});

/**
 * 20 lines read, then the file written again in one go (far quicker than a poll) with
 * `newLines` lines of the same length whose last 900 bytes are the old lines' too: the sidecar
 * must send the old 20, then the new file from its start.
 */
async function rewrittenAlike(t: ExecutionContext, newLines: number): Promise<void> {
  const dir = tempDir('rewrite-alike');
  const file = path.join(dir, 'mongodb.log');
  const line = (prefix: string, n: number): string => `${prefix} ${String(n).padStart(6, '0')} ${'x'.repeat(900)}`;
  const heads = (prefix: string, count: number): string[] => Array.from({ length: count }, (_, i) => line(prefix, i).slice(0, 10));
  fs.writeFileSync(file, '');
  const sidecar = killAtTeardown(t, new SidecarProcess(['--log-dir', dir, '--stats-interval', '0']));
  await sidecar.waitForDiagnostic(followsPath(file));
  fs.appendFileSync(file, Array.from({ length: 20 }, (_, i) => `${line('old', i)}\n`).join(''));
  await sidecar.waitForLines(20);
  fs.writeFileSync(file, Array.from({ length: newLines }, (_, i) => `${line('new', i)}\n`).join(''));
  await sidecar.waitForLines(20 + newLines);
  await sleep(300);
  await sidecar.stop();
  const contents = sidecar.lines().map((l) => (JSON.parse(l) as { contents: string }).contents.slice(0, 10));
  t.deepEqual(contents, [...heads('old', 20), ...heads('new', newLines)]);
}

// Found with the repro-b3 test under load: its lines end in the same 900 bytes, so after a
// truncation and a rewrite past the read position the bytes before the position matched, and
// the new file's first lines were skipped. The file's first bytes tell.
test('truncated and written again past the read position between two looks, lines whose last 256 bytes are alike: the new file from its start', async (t) => {
  await rewrittenAlike(t, 50);
});

// Found with the repro-b3 test under load: after the first copytruncate the sidecar had read the
// file's 100 lines, and the second left it with 100 new lines of the same length. A look found
// the size it had read and the bytes before it alike: no truncation told, the new lines never
// read. The file's first bytes tell here too.
test('truncated and written again to exactly the size read between two looks, lines whose last 256 bytes are alike: the new file from its start', async (t) => {
  await rewrittenAlike(t, 20);
});

// From a field trial (rotation-in-stop-window.py): after SIGTERM, with the reader stalled past
// --stop-timeout, a file was made and rotated again; nothing looked at the names during the
// stop, and the final save was stamped with the clock: the restart took the file for one of the
// past and never read it (100 lines lost). The save's time is now that of the last look.
test('two rename rotations after SIGTERM while the reader is stalled past --stop-timeout: the restart reads the file made and rotated in the stop', async (t) => {
  const dir = tempDir('stalled-stop-rotations');
  const file = path.join(dir, 'mongodb.log');
  const stateFile = path.join(dir, 'st.json');
  const writer = numberedFile(file, 'n', 100_000);
  const args = ['--log-dir', dir, '--state-file', stateFile, '--stats-interval', '0', '--missing-warning', '0'];
  const first = killAtTeardown(t, new SidecarProcess([...args, '--from-start', '--stop-timeout', '3']));
  first.stallReader();
  await sleep(1000);
  await first.signal('SIGTERM');
  await sleep(500);
  fs.renameSync(file, `${file}.1`);
  writer.reopen();
  writer.write(100);
  await sleep(200);
  fs.renameSync(`${file}.1`, `${file}.2`);
  fs.renameSync(file, `${file}.1`);
  writer.reopen();
  writer.write(100);
  writer.close();
  await sleep(4000);
  first.resumeReader();
  t.deepEqual(await first.exited, { code: 0, signal: null });
  await restartDeliversTheRest(t, first, args, writer, 'n');
});
