import test from 'ava';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { NumberedWriter, sleep } from '../_helpers/numbered-writer.js';
import { SidecarProcess, followsPath, tempDir, followEmptyFile, waitUntil } from '../_helpers/sidecar-process.js';
import { checkNumbered } from '../_helpers/delivery.js';
import { LOGROTATE, testWithTool } from '../_helpers/system-tool.js';

/**
 * With copytruncate, lines written between the copy and the truncate are gone from disk: no
 * follower can deliver them (docs/anchors.md §1: 31 of 42000 for tail). Everything else must arrive.
 */
function linesOnDisk(files: readonly string[]): Set<string> {
  const lines = new Set<string>();
  for (const file of files) for (const line of fs.readFileSync(file, 'utf8').split('\n')) if (line) lines.add(line);
  return lines;
}

test('copytruncate (cp, then truncate to 0): every line still on disk is delivered once', async (t) => {
  const { dir, file, sidecar } = await followEmptyFile('copytruncate', 'mongodb');
  const writer = new NumberedWriter(file, 'mongodb');
  const writing = writer.writeFor(2000, 10);
  const copies: string[] = [];
  for (let rotation = 1; rotation <= 6; rotation++) {
    await sleep(280);
    fs.copyFileSync(file, `${file}.${rotation}`);
    fs.truncateSync(file, 0);
    copies.push(`${file}.${rotation}`);
  }
  await writing;
  writer.close();
  const onDisk = linesOnDisk([...copies, file]);
  await sleep(300);
  await sidecar.stop();
  const result = checkNumbered(sidecar.lines(), 'mongodb', 'mongodb', writer.written);
  const lostFromDisk = result.lost.filter((n) => onDisk.has(writer.line(n)));
  t.log(`written ${writer.written}, delivered ${result.delivered}, gone from disk ${writer.written - onDisk.size}`);
  t.deepEqual(lostFromDisk, [], 'lines on disk that were not delivered');
  t.is(result.duplicated, 0);
  t.is(result.invalidJson, 0);
  t.true(sidecar.diagnostics().filter((d) => d['event'] === 'truncated').length >= 1);
});

test('truncated and written past the old position before the sidecar looks: read from 0', async (t) => {
  const dir = tempDir('regrow');
  const file = path.join(dir, 'mongodb.log');
  fs.writeFileSync(file, '');
  // A long poll and no inotify wake between truncate and regrow would be a race; the marker
  // (bytes before the read position) catches the regrown file however late we look.
  const sidecar = new SidecarProcess(['--log-dir', dir]);
  await sidecar.waitForDiagnostic(followsPath(file));
  fs.appendFileSync(file, 'first-0001 aaaa\nfirst-0002 aaaa\n');
  await sidecar.waitForLines(2);
  const fd = fs.openSync(file, 'r+');
  fs.ftruncateSync(fd, 0);
  fs.writeSync(fd, 'second-001 bbbb\nsecond-002 bbbb\nsecond-003 bbbb\n', 0);
  fs.closeSync(fd);
  await sidecar.waitForLines(5);
  await sidecar.stop();
  t.deepEqual(
    sidecar.lines().map((l) => (JSON.parse(l) as { contents: string }).contents),
    ['first-0001 aaaa', 'first-0002 aaaa', 'second-001 bbbb', 'second-002 bbbb', 'second-003 bbbb'],
  );
});

function logrotate(command: string, dir: string, config: string): void {
  const conf = path.join(dir, 'logrotate.conf');
  fs.writeFileSync(conf, config);
  execFileSync(command, ['--state', path.join(dir, 'logrotate.state'), '--force', conf]);
}

for (const mode of ['create', 'copytruncate'] as const) {
  testWithTool(LOGROTATE, `real logrotate in ${mode} mode`, async (t, logrotateCommand) => {
    const dir = tempDir(`logrotate-${mode}`);
    const file = path.join(dir, 'mongodb.log');
    fs.writeFileSync(file, '');
    const sidecar = new SidecarProcess(['--log-dir', dir, '--rotate-wait', '1']);
    await sidecar.waitForDiagnostic(followsPath(file));
    const writer = new NumberedWriter(file, 'mongodb');
    const writing = writer.writeFor(2000, 5);
    for (let i = 0; i < 3; i++) {
      await sleep(400);
      logrotate(logrotateCommand, dir, `${file} {\n  rotate 10\n  ${mode}\n  missingok\n  nocompress\n}\n`);
      // A logger's postrotate (SIGUSR1) makes it reopen its file.
      if (mode === 'create') writer.reopen();
    }
    await writing;
    writer.close();
    await sleep(500);
    await sidecar.stop();
    const rotated = fs.readdirSync(dir).filter((f) => f.startsWith('mongodb.log')).map((f) => path.join(dir, f));
    const onDisk = linesOnDisk(rotated);
    const result = checkNumbered(sidecar.lines(), 'mongodb', 'mongodb', writer.written);
    t.log(`written ${writer.written}, delivered ${result.delivered}, on disk ${onDisk.size}`);
    t.deepEqual(
      result.lost.filter((n) => onDisk.has(writer.line(n))),
      [],
    );
    if (mode === 'create') t.deepEqual(result.lost, []);
    t.is(result.duplicated, 0);
    t.is(result.invalidJson, 0);
  });
}

test('copytruncate whose copy is shorter than what was read (lines written between the copy and the truncation were read): the copy is not read again', async (t) => {
  const { dir, file, sidecar } = await followEmptyFile('copy-short', 'mongodb', ['--rotate-wait', '0.5']);
  const writer = new NumberedWriter(file, 'mongodb');
  writer.write(50);
  await sidecar.waitForLines(50);
  fs.copyFileSync(file, `${file}.1`);
  writer.write(5); // after the copy, before the truncation: read by the sidecar, in no copy
  await sidecar.waitForLines(55);
  fs.truncateSync(file, 0);
  writer.write(20);
  writer.close();
  await sidecar.waitForLines(75);
  await sleep(1500);
  await sidecar.stop();
  const result = checkNumbered(sidecar.lines(), 'mongodb', 'mongodb', writer.written, (n) => writer.line(n));
  t.deepEqual(result.lost, []);
  t.is(result.duplicated, 0);
  t.is(result.wrongContents, 0);
  t.false(sidecar.diagnostics().some((d) => d['event'] === 'unseen'), 'the copy is recognised, not read as a rotated file');
  void dir;
});

test('a copy made over a rotated file still held (cp f f.1, then truncate f): its lines are not delivered again', async (t) => {
  // A home-made copytruncate after a rename rotation: `.1` is still drained when the copy is
  // made over it, in place (cp truncates and rewrites the same inode). Read again from its start,
  // every line of the file at the name was delivered twice.
  const { file, sidecar } = await followEmptyFile('copy-over-held', 'mongodb', ['--rotate-wait', '30']);
  const writer = new NumberedWriter(file, 'mongodb');
  writer.write(100);
  await sidecar.waitForLines(100);
  fs.renameSync(file, `${file}.1`);
  writer.reopen();
  // More than `.1` holds, so the copy over it is read past its old end.
  writer.write(150);
  await sidecar.waitForLines(250);
  for (let cycle = 0; cycle < 2; cycle++) {
    fs.copyFileSync(file, `${file}.1`);
    fs.truncateSync(file, 0);
    writer.write(200);
    await sidecar.waitForLines(450 + cycle * 200);
  }
  writer.close();
  await sleep(1000);
  await sidecar.stop();
  const result = checkNumbered(sidecar.lines(), 'mongodb', 'mongodb', writer.written, (n) => writer.line(n));
  t.deepEqual(result.lost, []);
  t.is(result.duplicated, 0);
  t.is(result.wrongContents, 0);
  const rewritten = sidecar.diagnostics().filter((d) => d['event'] === 'truncated' && d['file'] === `${file}.1`);
  t.true(rewritten.length >= 1, 'the rewrite of the rotated file is said, naming it');
});

test('a rotated file still held, rewritten shorter with other lines: they are delivered', async (t) => {
  // Shorter than what was read from it, the file seemed read to its end: it drained and closed
  // with its new lines never read.
  const { file, sidecar } = await followEmptyFile('rewrite-held', 'mongodb', ['--rotate-wait', '30']);
  const writer = new NumberedWriter(file, 'mongodb');
  writer.write(100);
  await sidecar.waitForLines(100);
  fs.renameSync(file, `${file}.1`);
  writer.reopen();
  writer.write(10);
  await sidecar.waitForLines(110);
  fs.writeFileSync(`${file}.1`, 'other-1\nother-2\nother-3\n');
  await sidecar.waitForLines(113);
  writer.close();
  await sidecar.stop();
  const contents = sidecar.lines().map((l) => (JSON.parse(l) as { contents: string }).contents);
  t.deepEqual(contents.filter((c) => c.startsWith('other-')), ['other-1', 'other-2', 'other-3']);
  t.is(new Set(contents).size, contents.length, 'nothing delivered twice');
});

// From a review: logrotate renames an empty log too (its default, ifempty); a copy made over that
// `.1` while it was still held at position 0 was read from its start: every line again.
test('a copy made over a rotated file held with nothing read (renamed away empty): its lines are not delivered again', async (t) => {
  const { file, sidecar } = await followEmptyFile('copy-over-empty', 'mongodb', ['--rotate-wait', '30']);
  fs.renameSync(file, `${file}.1`);
  fs.writeFileSync(file, '');
  const writer = new NumberedWriter(file, 'mongodb');
  writer.write(30);
  await sidecar.waitForLines(30);
  fs.copyFileSync(file, `${file}.1`);
  fs.truncateSync(file, 0);
  writer.write(10);
  writer.close();
  await sidecar.waitForLines(40);
  await sleep(1000);
  await sidecar.stop();
  const result = checkNumbered(sidecar.lines(), 'mongodb', 'mongodb', writer.written, (n) => writer.line(n));
  t.deepEqual(result.lost, []);
  t.is(result.duplicated, 0);
});

// From CI (two copytruncates while the reader stalled, 1000-byte lines padded alike): the
// second copy, unseen, ended at the read position with the same 256 padded bytes as the file
// at the name, so it was taken for a copy made over it, let go, listed again as unseen, let go
// again, forever; its 100 lines never left.
test('an unseen rotated file whose lines end like the ones read (padded lines, the same size) is read, not taken for a copy of them', async (t) => {
  const { file, sidecar } = await followEmptyFile('padded-unseen', 'mongodb', ['--rotate-wait', '30']);
  const writer = new NumberedWriter(file, 'mongodb', 1000);
  writer.write(100);
  await sidecar.waitForLines(100);
  // Other lines, padded as ours, of the size read: a rotated file made while we did not look.
  const other = new NumberedWriter(`${file}.new`, 'others', 1000);
  other.write(100);
  other.close();
  t.is(fs.statSync(`${file}.new`).size, fs.statSync(file).size);
  fs.renameSync(`${file}.new`, `${file}.1`);
  await sidecar.waitForLines(200, 10_000);
  writer.close();
  await sidecar.stop();
  const contents = sidecar.lines().map((l) => (JSON.parse(l) as { contents: string }).contents);
  t.is(contents.filter((c) => c.startsWith('others-')).length, 100);
  t.is(new Set(contents).size, contents.length, 'nothing delivered twice');
  t.false(sidecar.diagnostics().some((d) => d['event'] === 'truncated'), 'nothing was rewritten');
});

// From a review: a rotated file closed empty (logrotate's ifempty) stayed "known" by its inode
// whatever it held later; a copy made over it (`cp f f.1`, then `: > f`) was never read, and the
// lines only it held were lost: across a restart the saved file claimed it before the copy search.
for (const restart of [false, true]) {
  test(`a copy made over a rotated file closed empty, then the name truncated${restart ? ', across a restart' : ''}: the lines only the copy holds are delivered once`, async (t) => {
    const dir = tempDir('retired-empty');
    const file = path.join(dir, 'mongodb.log');
    const args = ['--log-dir', dir, '--stats-interval', '0', '--rotate-wait', '1'];
    const writer = new NumberedWriter(file, 'mongodb');
    const first = new SidecarProcess([...args, '--from-start']);
    await first.waitForDiagnostic(followsPath(file));
    fs.renameSync(file, `${file}.1`); // rotated empty
    writer.reopen();
    await first.waitForDiagnostic((d) => d['event'] === 'drained');
    writer.write(10);
    await first.waitForLines(10);
    if (restart) t.is((await first.stop()).code, 0);
    writer.write(3); // 11-13: only in the copy once the name is truncated
    fs.copyFileSync(file, `${file}.1`);
    fs.truncateSync(file, 0);
    writer.write(2); // 14-15
    writer.close();
    const last = restart ? new SidecarProcess(args) : first;
    await last.waitForLines(restart ? 5 : 15);
    await sleep(1500);
    await last.stop();
    const all = restart ? [...first.lines(), ...last.lines()] : first.lines();
    const result = checkNumbered(all, 'mongodb', 'mongodb', 15, (n) => writer.line(n));
    t.deepEqual(result.lost, []);
    t.is(result.duplicated, 0);
    t.is(result.outOfOrder, 0);
  });
}

test('copytruncate while the last line is unfinished: its start (in the copy) leaves before the writer\'s next bytes in the file, not at the copy\'s close', async (t) => {
  // A long rotate wait: the copy's unfinished line used to leave only when the copy closed.
  const { file, sidecar } = await followEmptyFile('copytruncate-unfinished', 'mongodb', ['--rotate-wait', '30']);
  const fd = fs.openSync(file, 'a');
  fs.writeSync(fd, 'line 1\nline 2\nline 3\nPART-A ');
  await sidecar.waitForLines(3);
  await sleep(300); // the unfinished line read and held
  fs.copyFileSync(file, `${file}.1`);
  fs.ftruncateSync(fd, 0);
  // The writer (O_APPEND) ends its line in the file, now shorter than before, in one write.
  fs.writeSync(fd, ' END\nline 4\nline 5\nline 6\n');
  fs.closeSync(fd);
  await sidecar.waitForLines(8, 10_000);
  await sidecar.stop();
  t.deepEqual(
    sidecar.lines().map((l) => (JSON.parse(l) as { contents: string }).contents),
    ['line 1', 'line 2', 'line 3', 'PART-A ', ' END', 'line 4', 'line 5', 'line 6'],
  );
});

test('a file renamed over the log that holds what was read (an editor\'s save, sed -i): read on from there, nothing sent again; one that does not (a new log): read from its start', async (t) => {
  const { file, sidecar } = await followEmptyFile('replaced-by-rename', 'mongodb', ['--rotate-wait', '1']);
  const first = Array.from({ length: 20 }, (_, i) => `line ${i + 1} ${'x'.repeat(40)}`);
  fs.appendFileSync(file, `${first.join('\n')}\nPART-`);
  await sidecar.waitForLines(20);
  await sleep(300);
  // The editor's save: the same bytes, the unfinished line ended, and more, renamed over the log.
  fs.writeFileSync(path.join(path.dirname(file), 'sedT3mp'), `${first.join('\n')}\nPART-END\nadded 1\nadded 2\n`);
  fs.renameSync(path.join(path.dirname(file), 'sedT3mp'), file);
  await sidecar.waitForLines(23, 10_000);
  // The replaced file is closed, not held (its unfinished line was read again from the new one).
  const heldDeleted = (): string[] => fs.readdirSync(`/proc/${sidecar.child.pid}/fd`).map((fd) => { try { return fs.readlinkSync(`/proc/${sidecar.child.pid}/fd/${fd}`); } catch { return ''; } }).filter((target) => target.endsWith('(deleted)'));
  t.deepEqual(heldDeleted(), []);
  // sed -i rewrites the same way (a temp file renamed over it).
  execFileSync('sed', ['-i', 's/^added 2$/added 2/', file]);
  fs.appendFileSync(file, 'after sed\n');
  await sidecar.waitForLines(24, 10_000);
  // A new log renamed over it, whose bytes are not those read: read whole.
  fs.writeFileSync(path.join(path.dirname(file), 'sedT3mp'), 'a new log 1\na new log 2\n');
  fs.renameSync(path.join(path.dirname(file), 'sedT3mp'), file);
  await sidecar.waitForLines(26, 10_000);
  await sleep(1500);
  await sidecar.stop();
  const contents = sidecar.lines().map((l) => (JSON.parse(l) as { contents: string }).contents);
  t.deepEqual(contents, [...first, 'PART-END', 'added 1', 'added 2', 'after sed', 'a new log 1', 'a new log 2']);
  t.true(sidecar.diagnostics().some((d) => d['event'] === 'opened' && d['replaced'] === true));
});

test('a copy renamed over the log while lines it does not hold are unread (written just before the copy was made, the reader behind): nothing sent twice, nothing lost', async (t) => {
  const { file, sidecar } = await followEmptyFile('replaced-behind', 'mongodb', ['--rotate-wait', '1']);
  const writer = new NumberedWriter(file, 'mongodb', 80);
  writer.write(100);
  await sidecar.waitForLines(100);
  for (let round = 0; round < 3; round++) {
    // A burst, then at once a copy of the file renamed over it: the sidecar is behind.
    writer.write(20_000);
    fs.copyFileSync(file, path.join(path.dirname(file), 'sedT3mp'));
    fs.renameSync(path.join(path.dirname(file), 'sedT3mp'), file);
    writer.reopen();
    writer.write(10);
  }
  writer.close();
  await sidecar.waitForLines(writer.written, 30_000).catch(() => undefined);
  await sleep(2000);
  await sidecar.stop();
  const contents = sidecar.lines().map((l) => (JSON.parse(l) as { contents: string }).contents);
  t.is(new Set(contents).size, contents.length, 'nothing sent twice');
  t.is(contents.length, writer.written, 'every line once');
});

test('truncated to 0 with no copy while the reader is behind: the part of the line read before it is never sent as a line, and is counted in lostBytes', async (t) => {
  // To 0, and to a line boundary below what was read (its lines are read again: documented).
  for (const size of [0, 7_500]) {
    const { file, sidecar } = await followEmptyFile(`cut-at-truncation-${size}`, 'mongodb');
    const line = (i: number): string => `A line ${String(i).padStart(6, '0')} ${'z'.repeat(60)}`;
    sidecar.stallReader();
    // 40,000 lines of 75 bytes: the sidecar reads 64 KiB at a time, so a line is cut at a read's end.
    fs.appendFileSync(file, Array.from({ length: 40_000 }, (_, i) => `${line(i)}\n`).join(''));
    await sleep(1000);
    fs.truncateSync(file, size);
    fs.appendFileSync(file, `${line(99_999)}\n`);
    await sleep(1000);
    sidecar.resumeReader();
    await sidecar.waitForDiagnostic((d) => d['event'] === 'truncated', 10_000);
    await sidecar.waitForLines(2, 10_000);
    await sleep(1500);
    await sidecar.stop();
    const contents = sidecar.lines().map((l) => JSON.parse(l) as { contents: string; partial?: boolean });
    const cut = contents.filter((e) => e.partial === true || !/^A line \d{6} z{60}$/.test(e.contents));
    t.deepEqual(cut, [], `size ${size}: every line sent is whole`);
    const truncated = sidecar.diagnostics().find((d) => d['event'] === 'truncated')!;
    const read = truncated['position'] as number;
    // What was read before the truncation and sent as whole lines, and what was counted lost, make the file.
    const sentBefore = contents.filter((e) => e.contents !== line(99_999)).length;
    // The part of the line read and not sent is counted lost (with the bytes seen and not read:
    // what the sidecar never saw of the file before its truncation it cannot count).
    if (size === 0) t.true(((truncated['lostBytes'] as number | undefined) ?? 0) >= read - sentBefore * 75, `size ${size}: ${read} read, ${sentBefore} lines sent, lostBytes ${String(truncated['lostBytes'])}`);
    t.true(contents.some((e) => e.contents === line(99_999)), `size ${size}: the line after the truncation arrives`);
  }
});

// From a field trial: truncated in place three times while the reader stalled (copytruncate with
// `rotate 0`, `> file`): only the first truncation's warning counted its lost bytes; the others,
// with nothing of the file read since the first, said none (603 KB lost, 39 bytes said).
test('truncated three times with no copy while the reader stalls: each truncation counts the bytes it saw and lost', async (t) => {
  const { file, sidecar } = await followEmptyFile('truncated-thrice', 'mongodb');
  const line = (round: number, i: number): string => `R${round} line ${String(i).padStart(6, '0')} ${'p'.repeat(80)}`;
  // The first round more than the pipe and the writer hold: reading then waits through the others.
  const count = (round: number): number => (round === 0 ? 20_000 : 2000);
  const roundBytes = 2000 * (line(0, 0).length + 1);
  sidecar.stallReader();
  for (let round = 0; round < 3; round++) {
    fs.appendFileSync(file, Array.from({ length: count(round) }, (_, i) => `${line(round, i)}\n`).join(''));
    // The sidecar notes what it saw while reading waits (a look each wake, and the poll).
    await sleep(1200);
    fs.truncateSync(file, 0);
    await sleep(1200);
  }
  fs.appendFileSync(file, 'the end\n');
  sidecar.resumeReader();
  await waitUntil(() => sidecar.lines().some((l) => l.includes('the end')), 15_000, 'the line after the truncations');
  await sidecar.stop();
  const truncations = sidecar.diagnostics().filter((d) => d['event'] === 'truncated');
  t.is(truncations.length, 3);
  // The first: what was not read of its round (the reader had taken some before it stalled); the others: their whole round.
  for (const later of truncations.slice(1)) t.is(((later['lostBytes'] as number | undefined) ?? 0) + (later['position'] as number), roundBytes, JSON.stringify(later));
  t.log(`read of the later rounds before their truncation: ${truncations.slice(1).map((d) => d['position']).join(', ')} bytes`);
  t.true(truncations.every((d) => d['level'] === 40));
});

for (const lines of [20_000, 60_000]) test(`copytruncate with a writer that does not open the log O_APPEND (it writes on at its old offset, zeros before), ${lines} lines: the hole is passed over and said once, the writer's next line sent alone, nothing lost`, async (t) => {
  const { file, sidecar } = await followEmptyFile(`hole-after-copytruncate-${lines}`, 'mongodb');
  // As a logger that opened the file without O_APPEND: each write at its own offset.
  const fd = fs.openSync(file, 'r+');
  let offset = 0;
  const write = (text: string): void => {
    offset += fs.writeSync(fd, text, offset);
  };
  const line = (i: number): string => `line ${String(i).padStart(6, '0')} some text here`;
  for (let i = 0; i < lines; i += 1000) write(Array.from({ length: 1000 }, (_, j) => `${line(i + j)}\n`).join(''));
  await sidecar.waitForLines(lines, 30_000);
  const before = offset;
  fs.copyFileSync(file, `${file}.1`);
  fs.truncateSync(file, 0);
  write('first line after copytruncate\n');
  write('and the next\n');
  await sidecar.waitForLines(lines + 2, 10_000);
  await sidecar.waitForDiagnostic((d) => d['event'] === 'hole', 5000);
  await sleep(500);
  fs.closeSync(fd);
  await sidecar.stop();
  const contents = sidecar.lines().map((l) => (JSON.parse(l) as { contents: string }).contents);
  t.deepEqual(contents.slice(-2), ['first line after copytruncate', 'and the next']);
  t.is(contents.length, lines + 2, 'nothing lost, nothing more');
  t.false(contents.some((c) => c.includes('\u0000')));
  const hole = sidecar.diagnostics().filter((d) => d['event'] === 'hole');
  t.is(hole.length, 1);
  t.like(hole[0], { offset: 0, bytes: before, file });
});

// From a review: a file that ends in a hole (zeros past its last line: a node's crash, or a
// writer without O_APPEND gone quiet after a copytruncate) was never all delivered once renamed:
// held open for ever, never drained, taking a place among the files behind the name.
test('a file that ends in a hole of zeros, then renamed (a rotation): drained and closed, its state past the hole', async (t) => {
  const { file, sidecar } = await followEmptyFile('hole-at-end', 'mongodb', ['--rotate-wait', '1']);
  fs.appendFileSync(file, 'one\ntwo\n');
  await sidecar.waitForLines(2);
  fs.truncateSync(file, 8 + 4096);
  await sidecar.waitForDiagnostic((d) => d['event'] === 'hole' || d['event'] === 'truncated', 5000).catch(() => undefined);
  fs.renameSync(file, `${file}.1`);
  fs.writeFileSync(file, 'three\n');
  await sidecar.waitForLines(3);
  await sidecar.waitForDiagnostic((d) => d['event'] === 'drained', 10_000);
  await sidecar.stop();
  t.deepEqual(sidecar.lines().map((l) => (JSON.parse(l) as { contents: string }).contents), ['one', 'two', 'three']);
  t.false(sidecar.diagnostics().some((d) => d['event'] === 'truncated'), 'a file grown with zeros is not truncated');
});
