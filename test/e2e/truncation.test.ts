import test from 'ava';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { NumberedWriter, sleep } from '../_helpers/numbered-writer.js';
import { SidecarProcess, followsPath, tempDir, followEmptyFile } from '../_helpers/sidecar-process.js';
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
