import test from 'ava';
import fs from 'node:fs';
import path from 'node:path';
import { SidecarProcess, followsPath, tempDir, followEmptyFile } from '../_helpers/sidecar-process.js';
import { sleep } from '../_helpers/numbered-writer.js';
import { parseEntries, type Entry } from '../_helpers/delivery.js';
import { FILE_LOG_TYPES } from '../../src/log-types.js';

async function deliver(bytes: Buffer, args: string[] = []): Promise<Entry[]> {
  const { dir, file, sidecar } = await followEmptyFile('contents', 'mongodb', [...args]);
  fs.appendFileSync(file, bytes);
  // Every line out whole (a long one's last piece too): what was written has been read, so the
  // stop below is a stop, not a race with reading a 10 MiB line.
  const lines = bytes.filter((b) => b === 0x0a).length;
  // Polled gently: the output is megabytes, and each look joins and splits all of it.
  const whole = (): number => sidecar.lines().filter((line) => !line.endsWith(',"partial":true}')).length;
  for (const end = Date.now() + 30_000; whole() < lines; await sleep(200)) {
    if (Date.now() > end) throw new Error(`only ${whole()} of ${lines} lines whole`);
  }
  const exit = await sidecar.stop();
  if (exit.code !== 0) throw new Error(`exit ${String(exit.code)}: ${sidecar.stderr}`);
  const { entries, invalidJson } = parseEntries(sidecar.lines());
  if (invalidJson > 0) throw new Error(`${invalidJson} invalid JSON lines`);
  return entries;
}

test('CRLF keeps its \\r, an empty line is an entry, NUL and controls are escaped', async (t) => {
  const entries = await deliver(Buffer.from('crlf\r\n\nnul\u0000byte\tand\u001b[2Jesc\n', 'latin1'));
  t.deepEqual(
    entries.map((e) => e.contents),
    ['crlf\r', '', 'nul\u0000byte\tand\u001b[2Jesc'],
  );
});

test('invalid UTF-8 becomes U+FFFD and the line stays valid JSON', async (t) => {
  const raw = Buffer.from([0x61, 0xff, 0x62, 0xc3, 0x28, 0x63, 0xe2, 0x82, 0x0a]);
  const [entry] = await deliver(raw);
  // What jq -R prints for these bytes: one U+FFFD per maximal invalid sequence.
  t.is(entry?.contents, 'a\ufffdb\ufffd(c\ufffd');
});

test('a 10 MiB line arrives whole under the default 1 MiB limit only as pieces that rejoin', async (t) => {
  const line = 'é'.repeat(5 * 1024 * 1024); // 10 MiB of two-byte characters
  const entries = await deliver(Buffer.from(line + '\n'));
  t.true(entries.length >= 10);
  t.true(entries.slice(0, -1).every((e) => e.partial === true));
  t.is(entries.at(-1)?.partial, undefined);
  t.is(entries.map((e) => e.contents).join(''), line);
  t.true(entries.every((e) => Buffer.byteLength(e.contents) <= 1024 * 1024));
});

// The writer once took a chunk the stream had only buffered (libuv's queue empty, the Writable's
// not) for delivered: --once exited with 786 KB of the 10 MiB line unwritten.
test('--once with a slow reader: every piece of a 10 MiB line is out before the exit', async (t) => {
  const dir = tempDir('once-slow');
  const line = 'é'.repeat(5 * 1024 * 1024);
  fs.writeFileSync(path.join(dir, 'mongodb.log'), line + '\n');
  const sidecar = new SidecarProcess(['--once', '--from-start', '--log-dir', dir]);
  sidecar.stallReader();
  await sleep(1000);
  sidecar.resumeReader();
  await sidecar.exited;
  const { entries, invalidJson } = parseEntries(sidecar.lines());
  t.is(invalidJson, 0);
  t.false(sidecar.stdout().length > 0 && !sidecar.stdout().endsWith('\n'), 'the output ends with a whole entry');
  t.is(entries.map((e) => e.contents).join(''), line);
});

test('a 10 MiB line with --max-line-bytes 16MiB is one entry', async (t) => {
  const line = 'z'.repeat(10 * 1024 * 1024);
  const entries = await deliver(Buffer.from(line + '\n'), ['--max-line-bytes', '16MiB']);
  t.is(entries.length, 1);
  t.is(entries[0]?.contents, line);
});

test('a 5 MiB line with --max-line-bytes 1MiB: pieces at UTF-8 boundaries rejoin to the original', async (t) => {
  // Four-byte characters offset by one byte, so cuts fall inside characters unless avoided.
  const line = 'a' + '😀'.repeat((5 * 1024 * 1024) / 4);
  const entries = await deliver(Buffer.from(line + '\nnext\n'), ['--max-line-bytes', '1MiB']);
  const pieces = entries.filter((e) => e.contents !== 'next');
  t.is(pieces.length, 6);
  t.false(pieces.some((e) => e.contents.includes('\ufffd')));
  t.is(pieces.map((e) => e.contents).join(''), line);
  t.is(entries.at(-1)?.contents, 'next');
});

test('eight files with 64 KiB lines written at once: every output line is valid JSON and whole', async (t) => {
  const dir = tempDir('eight');
  const files = FILE_LOG_TYPES.filter((type) => !type.holdsEntries).map((type) => path.join(dir, type.defaultFile));
  for (const file of files) fs.writeFileSync(file, '');
  const sidecar = new SidecarProcess(['--log-dir', dir]);
  for (const file of files) await sidecar.waitForDiagnostic(followsPath(file));
  const perFile = 40;
  await Promise.all(
    files.map(async (file, index) => {
      const fd = fs.openSync(file, 'a');
      for (let n = 0; n < perFile; n++) fs.writeSync(fd, `${index}:${n}:${'y'.repeat(64 * 1024)}\n`);
      fs.closeSync(fd);
    }),
  );
  await sidecar.waitForLines(files.length * perFile, 30_000);
  await sidecar.stop();
  const { entries, invalidJson } = parseEntries(sidecar.lines());
  t.is(invalidJson, 0);
  t.is(entries.length, files.length * perFile);
  t.true(entries.every((e) => /^\d:\d+:y{65536}$/.test(e.contents)));
});

test('the launcher file: lines already entries pass through, others are wrapped', async (t) => {
  const { dir, file, sidecar } = await followEmptyFile('launcher', 'agent-launcher-script');
  fs.appendFileSync(file, '{"logType":"agent-launcher-script","contents":"Downloading agent"}\nplain "text"\n{"logType": broken\n');
  await sidecar.waitForLines(3);
  await sidecar.stop();
  t.deepEqual(sidecar.lines(), [
    '{"logType":"agent-launcher-script","contents":"Downloading agent"}',
    '{"logType":"agent-launcher-script","contents":"plain \\"text\\""}',
    '{"logType":"agent-launcher-script","contents":"{\\"logType\\": broken"}',
  ]);
});

// From a platform trial: a launcher line (already an entry) longer than --max-line-bytes left
// in pieces of its JSON text, so `logtype -o raw` and `jq -r .contents` showed the entry, not
// the line.
test('the launcher file: an entry longer than --max-line-bytes leaves as partial entries of its contents, joined to the line by the filter', async (t) => {
  const { file, sidecar } = await followEmptyFile('launcher-long', 'agent-launcher-script', ['--max-line-bytes', '100']);
  const contents = ['short', `${'L'.repeat(200)} long`, `${'é"\\'.repeat(60)}\u0001 tab\t end`, `${'\\u'.repeat(80)}`];
  fs.appendFileSync(file, contents.map((c) => `${JSON.stringify({ logType: 'agent-launcher-script', contents: c })}\n`).join(''));
  await sidecar.waitForDiagnostic(() => sidecar.lines().some((line) => line.includes('\\\\u\\\\u"}')), 10_000);
  await sidecar.stop();
  const { entries, invalidJson } = parseEntries(sidecar.lines());
  t.is(invalidJson, 0);
  t.true(entries.every((e) => e.logType === 'agent-launcher-script'));
  t.true(entries.length > contents.length, 'the long ones in pieces');
  // The pieces joined as the filter joins them: each line as the launcher wrote its contents.
  const joined: string[] = [];
  let pending = '';
  for (const line of sidecar.lines()) {
    const entry = JSON.parse(line) as { contents: string; partial?: boolean };
    pending += entry.contents;
    if (!entry.partial) {
      joined.push(pending);
      pending = '';
    }
  }
  t.deepEqual(joined, contents);
});
