/**
 * Where the best followers still lose lines (docs/followers.md): long lines, runtime-split
 * lines, invalid UTF-8 and NUL bytes, multi-line records, and thousands of rotated files.
 */
import test from 'ava';
import fs from 'node:fs';
import path from 'node:path';
import { NumberedWriter, sleep } from '../_helpers/numbered-writer.js';
import { tempDir } from '../_helpers/sidecar-process.js';
import { checkNumbered } from '../_helpers/delivery.js';
import { runFilter } from '../_helpers/filter-process.js';
import { START_BOUND_MS, entriesOf, followEmpty, joinedContents, openFiles, startSidecar } from '../_helpers/follower-scenario.js';

/** A line of `length` bytes that says where it is: `long-<n> ` then a repeated alphabet. */
function longLine(n: number, length: number): string {
  const head = `long-${n} `;
  return head + 'abcdefghijklmnopqrstuvwxyz0123456789'.repeat(Math.ceil(length / 36)).slice(0, length - head.length);
}

// Fluent Bit #370, #736, #10435 (a long line stops the whole file), #3491, #3488 (a long line
// duplicated, or only its tail kept); Vector #6966, #6967, #11657, #22581 (longer than
// max_line_bytes: silently discarded); torture scenario 6.
test('lines of 10-70 KB arrive whole; a 2 MB line in pieces the filter joins exactly; the file is still followed after it', async (t) => {
  const { file, sidecar } = await followEmpty(t, 'fs-long-lines', 'mongodb');
  const wanted = [longLine(1, 10_571), longLine(2, 70_000), longLine(3, 2 * 1024 * 1024 + 1000), 'after the long lines'];
  for (const line of wanted) fs.appendFileSync(file, `${line}\n`);
  await sidecar.waitForLines(6, 20_000).catch(() => undefined);
  await sleep(300);
  await sidecar.stop();
  const entries = entriesOf(sidecar);
  // 10 KB and 70 KB: one entry each (the limit is 1 MiB); 2 MB: pieces of at most 1 MiB, all
  // but the last marked partial.
  t.deepEqual(entries.slice(0, 2).map((e) => [e.contents.length, e.partial]), [[10_571, undefined], [70_000, undefined]]);
  const pieces = entries.slice(2, -1);
  t.true(pieces.length >= 2 && pieces.every((e) => Buffer.byteLength(e.contents) <= 1024 * 1024), `${pieces.length} pieces`);
  t.deepEqual(pieces.map((e) => e.partial === true), pieces.map((_, i) => i < pieces.length - 1));
  t.deepEqual(entries.at(-1), { logType: 'mongodb', contents: wanted[3] });
  t.deepEqual(joinedContents(entries, 'mongodb'), wanted);
  const filtered = runFilter(['-o', 'raw'], sidecar.stdout());
  t.is(filtered.stdout, wanted.map((l) => `${l}\n`).join(''));
});

// Vector #19767 (CRI splits lines over 16 KiB, the pieces are not merged again).
test('with --max-line-bytes 16KiB a 40 KB line leaves in pieces marked partial, and logtype -o raw gives back the exact line', async (t) => {
  const { file, sidecar } = await followEmpty(t, 'fs-cri-pieces', 'mongodb', ['--max-line-bytes', '16KiB']);
  // Multi-byte characters across the cuts: pieces are cut at character boundaries.
  const line = `{"t":"2026-11-23","msg":"${'é€😀x'.repeat(4000)}"}`;
  fs.appendFileSync(file, `first\n${line}\nlast\n`);
  await sidecar.waitForLines(5, 20_000).catch(() => undefined);
  await sleep(300);
  await sidecar.stop();
  const entries = entriesOf(sidecar);
  const pieces = entries.filter((e) => e.contents !== 'first' && e.contents !== 'last');
  t.true(pieces.length >= 3, `${pieces.length} pieces`);
  t.true(pieces.slice(0, -1).every((e) => e.partial === true && Buffer.byteLength(e.contents) <= 16 * 1024));
  t.is(pieces.at(-1)!.partial, undefined);
  t.deepEqual(joinedContents(entries, 'mongodb'), ['first', line, 'last']);
  t.is(runFilter(['-o', 'raw'], sidecar.stdout()).stdout, `first\n${line}\nlast\n`);
});

// Fluent Bit #3491 (a NUL-handling change kept only the tail of lines); torture scenario 13.
test('invalid UTF-8 and NUL bytes: each entry valid JSON, invalid bytes as U+FFFD, NUL as \\u0000, everything else exactly', async (t) => {
  const { file, sidecar } = await followEmpty(t, 'fs-invalid-utf8', 'mongodb');
  const raw = [
    Buffer.from([0x61, 0xff, 0x62]), // a lone invalid byte
    Buffer.from([0x63, 0xc3, 0x28, 0x64]), // a lead byte without its continuation
    Buffer.from([0x65, 0xed, 0xa0, 0x80, 0x66]), // an encoded surrogate
    Buffer.from([0x67, 0xf0, 0x9f, 0x68]), // a 4-byte character cut short
    Buffer.from('NUL:\0 DEL:\x7f ESC:\x1b[31m tab:\t quote:" backslash:\\ é€😀 \u2028'),
    Buffer.concat([Buffer.from('x'.repeat(5000)), Buffer.from([0x80, 0xbf]), Buffer.from('y'.repeat(3000))]),
  ];
  fs.appendFileSync(file, Buffer.concat(raw.flatMap((line) => [line, Buffer.from('\n')])));
  await sidecar.waitForLines(raw.length);
  await sleep(300);
  await sidecar.stop();
  const outputLines = sidecar.lines();
  t.is(outputLines.length, raw.length);
  t.deepEqual(entriesOf(sidecar).map((e) => e.contents), raw.map((line) => line.toString('utf8')));
  t.deepEqual(entriesOf(sidecar).slice(0, 4).map((e) => e.contents), ['a\ufffdb', 'c\ufffd(d', 'e\ufffd\ufffd\ufffdf', 'g\ufffdh']);
  t.true(outputLines[4]!.includes('NUL:\\u0000 DEL:'), outputLines[4]);
  t.false(/[\x00-\x1f]/.test(sidecar.stdout().replaceAll('\n', '')), 'no raw control character in the output');
});

// Torture scenario 11: an agent record over two lines (`…failed to validate:` then `&{builds …}`).
test('a multi-line agent record: its two lines are two entries, in order, unchanged', async (t) => {
  const { file, sidecar } = await followEmpty(t, 'fs-multi-line', 'automation-agent');
  const record = [
    '[2020-12-04T16:39:07.259-00] [.error] [cm/config/config.go:ReadClusterConfig:416] [16:39:07.259] Error validating syntax of cluster config : clusterConfig failed to validate:',
    '&{builds 0xc00013cdc0} : Invalid type. Expected: array, given: null',
    '[2023-01-05T13:58:30.951+0000] [.info] [main/components/agent.go:Iterate:880] [13:58:30.951] All 1 Mongo processes are in goal state. ',
  ];
  fs.appendFileSync(file, record.map((l) => `${l}\n`).join(''));
  await sidecar.waitForLines(3);
  await sidecar.stop();
  t.deepEqual(entriesOf(sidecar), record.map((contents) => ({ logType: 'automation-agent', contents })));
});

// Fluent Bit #1777, #2474, #12432, #1843 (too many open files), #717 (inotify watches run
// out); torture scenario 10 (a sharded cluster with many rotated mongodb.log.<date> files).
test('2,000 rotated files beside the followed one: it follows, rotates and restarts with a handful of descriptors, and reads none of the old files', async (t) => {
  const dir = tempDir('fs-many-files');
  const file = path.join(dir, 'mongodb.log');
  for (let i = 0; i < 2000; i++) fs.writeFileSync(`${file}.2026-11-${String(1 + (i % 28)).padStart(2, '0')}T00-00-${String(i).padStart(4, '0')}`, `old ${i}\n`);
  fs.writeFileSync(file, '');
  const args = ['--log-dir', dir, '--rotate-wait', '1', '--state-file', path.join(dir, '.logtype-sidecar.state')];
  const first = startSidecar(t, args);
  await first.waitForDiagnostic((d) => d['event'] === 'opened' && d['path'] === file, START_BOUND_MS);
  const writer = new NumberedWriter(file, 'mongodb');
  writer.write(100);
  await first.waitForLines(100);
  fs.renameSync(file, `${file}.2026-11-29T00-00-0000`);
  writer.reopen();
  writer.write(100);
  await first.waitForLines(200);
  const descriptors = openFiles(first.child.pid!).length;
  await first.stop();
  writer.write(100);
  writer.close();
  const second = startSidecar(t, args);
  await second.waitForLines(100, 20_000);
  await sleep(300);
  const descriptorsAfter = openFiles(second.child.pid!).length;
  await second.stop();
  const result = checkNumbered([...first.lines(), ...second.lines()], 'mongodb', 'mongodb', 300);
  t.log(`descriptors: ${descriptors} while running, ${descriptorsAfter} after the restart`);
  t.deepEqual(result.lost, []);
  t.is(result.duplicated, 0);
  t.is(first.lines().length + second.lines().length, 300, 'no line of the 2,000 old files');
  t.true(descriptors < 40 && descriptorsAfter < 40, `${descriptors} and ${descriptorsAfter} descriptors`);
});
