/**
 * Where the best followers still lose lines (docs/followers.md): file identity and restarts.
 * Inode reuse, files whose first KiB is the same, tiny files, a half-written line at a kill,
 * a state file that cannot be written or is corrupt, rotated files at a restart, and the start
 * race of `tail -F -n0`; each against the real sidecar and its state file.
 */
import test, { type ExecutionContext } from 'ava';
import fs from 'node:fs';
import path from 'node:path';
import { NumberedWriter, sleep } from '../_helpers/numbered-writer.js';
import { spawnSync } from 'node:child_process';
import { SIDECAR_BIN, SidecarProcess, cleanEnv, tempDir } from '../_helpers/sidecar-process.js';
import { checkNumbered } from '../_helpers/delivery.js';
import { START_BOUND_MS, createWithInode, entriesOf, startSidecar } from '../_helpers/follower-scenario.js';

const STATE = '.logtype-sidecar.state';

/** Starts the sidecar on `dir` (state file in it) and waits until it has looked at `files`. */
async function start(t: ExecutionContext, dir: string, files: readonly string[], args: readonly string[] = []): Promise<SidecarProcess> {
  const sidecar = startSidecar(t, ['--log-dir', dir, '--rotate-wait', '1', '--state-file', path.join(dir, STATE), ...args]);
  for (const file of files) {
    await sidecar.waitForDiagnostic((d) => ['opened', 'resumed', 'waiting'].includes(d['event'] as string) && d['path'] === file, START_BOUND_MS);
  }
  return sidecar;
}

/** Contents delivered for one type. */
function contentsOf(sidecar: SidecarProcess, logType = 'mongodb'): string[] {
  return entriesOf(sidecar)
    .filter((e) => e.logType === logType)
    .map((e) => e.contents);
}

async function settle(sidecar: SidecarProcess, count: number): Promise<void> {
  await sidecar.waitForLines(count, 20_000).catch(() => undefined);
  await sleep(300);
}

const banner = `BANNER mongod startup ${'b'.repeat(1100)}`;
const lines = (prefix: string, from: number, to: number): string[] => Array.from({ length: to - from + 1 }, (_, i) => `${prefix} ${from + i}`);
const text = (items: readonly string[]): string => items.map((l) => `${l}\n`).join('');

// Fluent Bit #1875, #4895, #8025 (PRs #2960, #8062; #11455 open), Vector #1910, Filebeat #1341,
// #3789, #6984; torture scenario 3.
for (const longer of [false, true]) {
  test(`deleted while down and created again with the same inode, ${longer ? 'longer' : 'shorter'} than the saved position: the new file from its start`, async (t) => {
    const dir = tempDir('fs-inode-reuse');
    const file = path.join(dir, 'mongodb.log');
    fs.writeFileSync(file, '');
    const first = await start(t, dir, [file]);
    fs.appendFileSync(file, text(lines('old line', 1, 20)));
    await settle(first, 20);
    await first.stop();
    const ino = fs.statSync(file).ino;
    fs.unlinkSync(file);
    const reused = createWithInode(file, ino);
    const fresh = lines('new', 1, longer ? 60 : 3);
    fs.appendFileSync(file, text(fresh));
    const second = await start(t, dir, [file]);
    await settle(second, fresh.length);
    await second.stop();
    t.log(`inode number reused: ${reused}`);
    t.deepEqual(contentsOf(first), lines('old line', 1, 20));
    t.deepEqual(contentsOf(second), fresh);
  });
}

// Fluent Bit #8025's recipe while running: `echo 1>f; rm f; echo 1>f`.
test('deleted and created again with the same inode while running: both files whole', async (t) => {
  const dir = tempDir('fs-inode-reuse-live');
  const file = path.join(dir, 'mongodb.log');
  fs.writeFileSync(file, '');
  const sidecar = await start(t, dir, [file]);
  fs.appendFileSync(file, '1\n');
  await settle(sidecar, 1);
  const ino = fs.statSync(file).ino;
  fs.unlinkSync(file);
  createWithInode(file, ino);
  fs.appendFileSync(file, '1\n');
  await settle(sidecar, 2);
  await sidecar.stop();
  t.deepEqual(contentsOf(sidecar), ['1', '1']);
});

// Vector #25079 (files sharing their first lines get one checksum), Filebeat #51417 (a shared
// header prefix taken for a rename), and our issue #22 (item 5); torture scenario 4.
test('deleted while down and created again with the same inode and the same first KiB (a banner): the new file from its start', async (t) => {
  const dir = tempDir('fs-same-banner');
  const file = path.join(dir, 'mongodb.log');
  fs.writeFileSync(file, '');
  const first = await start(t, dir, [file]);
  fs.appendFileSync(file, text([banner, ...lines('old line', 1, 40)]));
  await settle(first, 41);
  await first.stop();
  const ino = fs.statSync(file).ino;
  fs.unlinkSync(file);
  const reused = createWithInode(file, ino);
  fs.appendFileSync(file, text([banner, ...lines('new line', 1, 60)]));
  const second = await start(t, dir, [file]);
  await settle(second, 61);
  await second.stop();
  t.log(`inode number reused: ${reused}`);
  t.deepEqual(contentsOf(second), [banner, ...lines('new line', 1, 60)]);
});

// A run shorter than the mtime slack (a crash loop, a quick redeploy): rotated files there at its
// start are still "changed near the save" when the next run resumes from it. Their mtimes are set
// after the save here, so the window holds them whatever the machine's speed.
test('rotated files there before a first run, changed near its save: the restart reads none of them', async (t) => {
  const dir = tempDir('fs-past-near-save');
  const file = path.join(dir, 'mongodb.log');
  const old = Array.from({ length: 40 }, (_, i) => `${file}.${String(i).padStart(2, '0')}`);
  for (const name of old) fs.writeFileSync(name, `old ${name}\n`);
  fs.writeFileSync(file, '');
  // In the window of the coming save (its time is not known before it happens): an mtime later
  // than any save of the first run, set before it starts.
  const future = new Date(Date.now() + 60_000);
  for (const name of old) fs.utimesSync(name, future, future);
  const first = await start(t, dir, [file]);
  fs.appendFileSync(file, text(lines('line', 1, 5)));
  await settle(first, 5);
  await first.stop();
  const saved = JSON.parse(fs.readFileSync(path.join(dir, STATE), 'utf8')) as { past?: Record<string, { ino: number }[]> };
  t.is(saved.past?.[file]?.length, old.length, 'the old files are in the state as not ours');
  fs.appendFileSync(file, text(lines('line', 6, 8)));
  const second = await start(t, dir, [file]);
  await settle(second, 3);
  await second.stop();
  t.deepEqual([...contentsOf(first), ...contentsOf(second)], lines('line', 1, 8));
  t.false(second.diagnostics().some((d) => d['event'] === 'unseen'), 'no old file read as unseen');
});

test('rotated while down, the new file starting with the same 1 KiB banner: the old file\'s rest, then the new file', async (t) => {
  const dir = tempDir('fs-same-banner-rotated');
  const file = path.join(dir, 'mongodb.log');
  fs.writeFileSync(file, '');
  const first = await start(t, dir, [file]);
  fs.appendFileSync(file, text([banner, ...lines('old line', 1, 10)]));
  await settle(first, 11);
  await first.stop();
  fs.appendFileSync(file, text(lines('old line', 11, 20)));
  fs.renameSync(file, `${file}.1`);
  fs.writeFileSync(file, text([banner, ...lines('new line', 1, 10)]));
  const second = await start(t, dir, [file]);
  await settle(second, 21);
  await second.stop();
  t.deepEqual(contentsOf(second), [...lines('old line', 11, 20), banner, ...lines('new line', 1, 10)]);
});

// Filebeat PR #50566 and #51417 (copytruncate recognised by fingerprint; a shared header prefix
// misclassified): copytruncate while down, the file starting again with the same banner and
// growing past the saved position.
test('copytruncate while down, the file starting again with the same 1 KiB banner and growing past the saved position: the copy\'s rest, then the new file from 0', async (t) => {
  const dir = tempDir('fs-copytruncate-banner');
  const file = path.join(dir, 'mongodb.log');
  fs.writeFileSync(file, '');
  const first = await start(t, dir, [file]);
  fs.appendFileSync(file, text([banner, ...lines('old line', 1, 10)]));
  await settle(first, 11);
  await first.stop();
  fs.appendFileSync(file, text(lines('old line', 11, 20)));
  fs.copyFileSync(file, `${file}.1`);
  fs.truncateSync(file, 0);
  fs.appendFileSync(file, text([banner, ...lines('new line', 1, 40)]));
  const second = await start(t, dir, [file]);
  await settle(second, 51);
  await second.stop();
  t.deepEqual(contentsOf(second), [...lines('old line', 11, 20), banner, ...lines('new line', 1, 40)]);
});

// Vector #25079 between two files: two followed files with the same first KiB.
test('two followed files whose first KiB is the same: each read as its own, across a restart', async (t) => {
  const dir = tempDir('fs-two-banners');
  const a = path.join(dir, 'mongodb.log');
  const b = path.join(dir, 'automation-agent.log');
  fs.writeFileSync(a, '');
  fs.writeFileSync(b, '');
  const first = await start(t, dir, [a, b]);
  fs.appendFileSync(a, text([banner, ...lines('a', 1, 5)]));
  fs.appendFileSync(b, text([banner, ...lines('b', 1, 5)]));
  await settle(first, 12);
  await first.stop();
  fs.appendFileSync(a, text(lines('a', 6, 10)));
  fs.appendFileSync(b, text(lines('b', 6, 10)));
  const second = await start(t, dir, [a, b]);
  await settle(second, 10);
  await second.stop();
  t.deepEqual([...contentsOf(first, 'mongodb'), ...contentsOf(second, 'mongodb')], [banner, ...lines('a', 1, 10)]);
  t.deepEqual([...contentsOf(first, 'automation-agent'), ...contentsOf(second, 'automation-agent')], [banner, ...lines('b', 1, 10)]);
});

// Vector #2701 and #445 (a checksum needs 256 bytes: tiny files are never read), Filebeat's
// fingerprint (1024 B); torture scenario 5.
/**
 * More rotations while down than the 16 files a path holds open at once (a sidecar down for a
 * day with hourly rotation; mongod rotating by size under load): every rotated file is still on
 * disk, and every line arrives, in order. The files past the bound wait by name and are opened as
 * the first ones close (they were given up, 24 files' lines lost, with `gave-up` warnings).
 * With `stalled`, the reader takes nothing until after a SIGTERM: the files still waiting are
 * saved as they are, and the next start reads them.
 */
/**
 * A first run delivers 5 lines and stops; then, while down, 40 rotations of `perFile` lines each
 * (mongod's own rename, one name a rotation; with `cut`, some files' last line without its
 * newline), and 5 lines in the new file. Every line written, in order, and the first run.
 */
async function rotationsWhileDown(t: ExecutionContext, dir: string, file: string, perFile: number, cut = false): Promise<{ first: SidecarProcess; written: string[] }> {
  fs.writeFileSync(file, '');
  const first = await start(t, dir, [file]);
  fs.appendFileSync(file, text(lines('line', 1, 5)));
  await settle(first, 5);
  await first.stop();
  const written = lines('line', 1, 5);
  for (let rotation = 0; rotation < 40; rotation++) {
    const more = lines('line', written.length + 1, written.length + perFile);
    fs.appendFileSync(file, cut && rotation % 7 === 3 ? text(more).slice(0, -1) : text(more));
    written.push(...more);
    fs.renameSync(file, `${file}.2026-11-26T10-${String(rotation).padStart(2, '0')}-00`);
  }
  const last = lines('line', written.length + 1, written.length + 5);
  fs.writeFileSync(file, text(last));
  written.push(...last);
  return { first, written };
}

for (const stalled of [false, true]) {
  test(`40 rotations while down${stalled ? ', the restart stopped by SIGTERM while its reader is stalled' : ''}: every rotated file read, in order, nothing given up`, async (t) => {
    const dir = tempDir('fs-many-rotations-down');
    const file = path.join(dir, 'mongodb.log');
    const { first, written } = await rotationsWhileDown(t, dir, file, stalled ? 2000 : 5);
    const delivered = [...contentsOf(first)];
    const runs: SidecarProcess[] = [];
    if (stalled) {
      const second = await start(t, dir, [file], ['--stop-timeout', '1']);
      second.stallReader();
      await sleep(1500);
      const stopped = second.stop();
      await sleep(1500);
      second.resumeReader();
      await stopped;
      runs.push(second);
    }
    const next = await start(t, dir, [file]);
    await settle(next, written.length - delivered.length - runs.reduce((sum, run) => sum + contentsOf(run).length, 0));
    await next.stop();
    runs.push(next);
    for (const run of runs) delivered.push(...contentsOf(run));
    t.deepEqual(delivered, written);
    t.false(runs.some((run) => run.diagnostics().some((d) => d['event'] === 'gave-up')));
  });
}

for (const cut of [false, true]) {
  test(`40 rotations while down, then --once with the state file: every rotated file read in the one run, exit 0 (it ended once the 16 held files were read)${cut ? ', some ending without a newline' : ', in order'}`, async (t) => {
    const dir = tempDir('fs-many-rotations-once');
    const file = path.join(dir, 'mongodb.log');
    // A rotated file whose last line has no newline is held open until the end: the files waiting behind it are opened past the bound.
    const { first, written } = await rotationsWhileDown(t, dir, file, 5, cut);
    const once = spawnSync(process.execPath, [SIDECAR_BIN, '--once', '--log-dir', dir, '--state-file', path.join(dir, STATE), '--stats-interval', '0'], { env: cleanEnv(), encoding: 'utf8', timeout: 60_000 });
    t.is(once.status, 3, once.stderr); // the other seven logs are not there
    const delivered = [...contentsOf(first), ...once.stdout.split('\n').filter(Boolean).map((line) => (JSON.parse(line) as { contents: string }).contents)];
    // An unfinished last line leaves when its file closes, at the end: after the lines of the files after it.
    if (cut) t.deepEqual([...delivered].sort(), [...written].sort());
    else t.deepEqual(delivered, written);
    t.false(once.stderr.includes('"gave-up"'), once.stderr);
  });
}

test('files under 256 bytes: read when one appears, when one appears while down, and when one is rotated while down', async (t) => {
  const dir = tempDir('fs-tiny');
  const file = path.join(dir, 'backup-agent.log');
  const first = await start(t, dir, [file]);
  fs.writeFileSync(file, 'tiny 1\n');
  await settle(first, 1);
  await first.stop();
  fs.appendFileSync(file, 'tiny 2\n');
  fs.renameSync(file, `${file}.1`);
  fs.writeFileSync(file, 'tiny 3\n');
  const second = await start(t, dir, [file]);
  await settle(second, 2);
  await second.stop();
  fs.unlinkSync(file);
  fs.renameSync(`${file}.1`, `${file}.2`);
  const third = await start(t, dir, [file]);
  fs.writeFileSync(file, 'tiny 4\n');
  await settle(third, 1);
  await third.stop();
  t.deepEqual(
    [first, second, third].flatMap((s) => contentsOf(s, 'backup-agent')),
    ['tiny 1', 'tiny 2', 'tiny 3', 'tiny 4'],
  );
});

// Fluent Bit #11265 (the offset is committed when read, a buffered partial line is lost at a
// restart); torture scenario 7.
test('half a line, SIGKILL, the rest of the line written, restart: the line arrives once, whole', async (t) => {
  const dir = tempDir('fs-partial-kill');
  const file = path.join(dir, 'mongodb.log');
  fs.writeFileSync(file, '');
  const first = await start(t, dir, [file]);
  fs.appendFileSync(file, 'whole line\n');
  await settle(first, 1);
  await sleep(1200);
  fs.appendFileSync(file, 'the first half of a line, ');
  await sleep(500);
  await first.stop('SIGKILL');
  fs.appendFileSync(file, 'and its second half\n');
  const second = await start(t, dir, [file]);
  await settle(second, 1);
  await second.stop();
  t.deepEqual(contentsOf(first), ['whole line']);
  t.deepEqual(contentsOf(second), ['the first half of a line, and its second half']);
});

// Fluent Bit #11265 itself: a graceful stop (SIGTERM) with a half-written line. Nothing of it
// may be lost or come twice: it arrives whole after the restart, or as its start at the stop
// and its end after the restart (the sidecar emits what it holds at SIGTERM).
test('half a line, SIGTERM, the rest of the line written, restart: every byte of the line once, in order', async (t) => {
  const dir = tempDir('fs-partial-term');
  const file = path.join(dir, 'mongodb.log');
  fs.writeFileSync(file, '');
  const first = await start(t, dir, [file]);
  fs.appendFileSync(file, 'whole line\n');
  await settle(first, 1);
  fs.appendFileSync(file, 'the first half of a line, ');
  await sleep(500);
  await first.stop('SIGTERM');
  fs.appendFileSync(file, 'and its second half\nnext line\n');
  const second = await start(t, dir, [file]);
  await settle(second, 2);
  await second.stop();
  const delivered = [...contentsOf(first), ...contentsOf(second)];
  t.is(delivered[0], 'whole line');
  t.is(delivered.at(-1), 'next line');
  t.is(delivered.slice(1, -1).join(''), 'the first half of a line, and its second half');
});

// Fluent Bit #11416 (the offset update fails silently: the file is read again after a restart).
test('a state file that cannot be written: one warning naming it, and the lines keep flowing', async (t) => {
  const dir = tempDir('fs-state-unwritable');
  const file = path.join(dir, 'mongodb.log');
  fs.writeFileSync(file, '');
  const blocker = path.join(dir, 'not-a-directory');
  fs.writeFileSync(blocker, '');
  const stateFile = path.join(blocker, 'state');
  const sidecar = startSidecar(t, ['--log-dir', dir, '--state-file', stateFile]);
  await sidecar.waitForDiagnostic((d) => d['event'] === 'opened' && d['path'] === file, START_BOUND_MS);
  const writer = new NumberedWriter(file, 'mongodb');
  for (let i = 0; i < 6; i++) {
    writer.write(100);
    await sleep(500);
  }
  writer.close();
  await settle(sidecar, 600);
  await sidecar.stop();
  const result = checkNumbered(sidecar.lines(), 'mongodb', 'mongodb', 600);
  // Besides the one at start that it cannot be read: the one that it cannot be saved, once
  // while it lasts, and the stop's (the save the next start would resume from).
  const warnings = sidecar
    .diagnostics()
    .filter((d) => d['level'] === 40 && d['event'] !== 'state-unreadable' && JSON.stringify(d).includes(stateFile));
  t.deepEqual(result.lost, []);
  t.is(result.duplicated, 0);
  t.is(warnings.length, 2, JSON.stringify(warnings));
  t.like(warnings[1], { event: 'state-unwritable', atStop: true });
});

// Filebeat #1281 (a wrong inode saved at exit re-ships rotated files), #36541 (filestream
// resends whole files after a restart).
for (const signal of ['SIGTERM', 'SIGKILL'] as const) {
  test(`three rotations, quiet, then ${signal} and a restart: no rotated file is sent again`, async (t) => {
    const dir = tempDir(`fs-reship-${signal}`);
    const file = path.join(dir, 'mongodb.log');
    fs.writeFileSync(file, '');
    const first = await start(t, dir, [file]);
    const writer = new NumberedWriter(file, 'mongodb');
    for (let rotation = 1; rotation <= 3; rotation++) {
      writer.write(100);
      await settle(first, writer.written);
      fs.renameSync(file, `${file}.2026-11-23T10-00-0${rotation}`);
      writer.reopen();
    }
    writer.write(100);
    await settle(first, 400);
    await sleep(2500); // quiet: the last positions are saved by now
    await first.stop(signal);
    writer.write(10);
    writer.close();
    const second = await start(t, dir, [file]);
    await settle(second, 10);
    await second.stop();
    const result = checkNumbered([...first.lines(), ...second.lines()], 'mongodb', 'mongodb', 410);
    t.deepEqual(result.lost, []);
    t.is(second.lines().length, 10, `the restart delivered ${second.lines().length} entries`);
    t.is(result.duplicated, 0);
  });
}

// Promtail #1457 (a truncated positions file: CrashLoop) and #9864 (positions reset to zero).
for (const [what, corrupt] of [
  ['cut short', (valid: string) => valid.slice(0, Math.floor(valid.length / 2))],
  ['filled with zeros', (valid: string) => '\0'.repeat(valid.length)],
] as const) {
  test(`a state file ${what}: a diagnostic, exit 0; the file unchanged since the save read from its end, nothing old read again`, async (t) => {
    const dir = tempDir('fs-state-corrupt');
    const file = path.join(dir, 'mongodb.log');
    fs.writeFileSync(file, '');
    const first = await start(t, dir, [file]);
    fs.appendFileSync(file, text(lines('old', 1, 50)));
    await settle(first, 50);
    await first.stop();
    const stateFile = path.join(dir, STATE);
    fs.writeFileSync(stateFile, corrupt(fs.readFileSync(stateFile, 'utf8')));
    // The save came after the file's last line: it is unchanged since (its lines were delivered).
    const now = Date.now() / 1000;
    fs.utimesSync(file, now - 10, now - 10);
    const second = await start(t, dir, [file]);
    fs.appendFileSync(file, text(lines('new', 1, 5)));
    await settle(second, 5);
    const exit = await second.stop();
    t.is(exit.code, 0);
    t.deepEqual(contentsOf(second), lines('new', 1, 5));
    t.true(second.diagnostics().some((d) => d['event'] === 'state-unreadable'));
  });
}

// `tail -F -n0` (the operator's launcher) drops lines written before it starts; torture
// scenario 12. A file that appears after the start is read from its start; one resumed from the
// state from its saved position; only a file already there at the very first start, with no
// state, is read from its end, by design.
test('the start race: lines written as a file appears, and while down, all arrive; a file there at the very first start is read from its end', async (t) => {
  const dir = tempDir('fs-start-race');
  const appears = path.join(dir, 'mongodb.log');
  const present = path.join(dir, 'automation-agent.log');
  fs.writeFileSync(present, text(lines('before the first start', 1, 100)));
  const first = await start(t, dir, [appears, present]);
  fs.writeFileSync(appears, text(lines('appeared', 1, 100)));
  fs.appendFileSync(present, text(lines('after the start', 1, 10)));
  await settle(first, 110);
  await first.stop();
  fs.appendFileSync(appears, text(lines('while down', 1, 100)));
  const second = await start(t, dir, [appears, present]);
  await settle(second, 100);
  await second.stop();
  t.deepEqual([...contentsOf(first), ...contentsOf(second)], [...lines('appeared', 1, 100), ...lines('while down', 1, 100)]);
  t.deepEqual(contentsOf(first, 'automation-agent'), lines('after the start', 1, 10));
});
