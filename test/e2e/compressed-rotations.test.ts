/**
 * logrotate's `compress` without `delaycompress`: a rotated file is compressed and its text
 * deleted at once. A file the sidecar held is read to its end by descriptor; a file made and
 * rotated while it could not look (frozen, down) is never there as text: its lines are lost to
 * the stream, and that must be said (`compressed-unread`, naming the file and its bytes), never
 * for a compression of a file it read. Real logrotate, real gzip, a real frozen process.
 */
import test, { type ExecutionContext } from 'ava';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { NumberedWriter, sleep } from '../_helpers/numbered-writer.js';
import { SidecarProcess, followsPath, tempDir } from '../_helpers/sidecar-process.js';
import { LOGROTATE, testWithTool } from '../_helpers/system-tool.js';

/** Longer than the sidecar waits for a compressed file to be quiet (gzip writes its size last), and a look. */
const JUDGED_WITHIN_MS = 3500;
const COMPRESSED_WAIT_MS = JUDGED_WITHIN_MS;

interface Rotating {
  readonly dir: string;
  readonly file: string;
  readonly writer: NumberedWriter;
  /** logrotate --force with this stanza's rotation (`create` or `copytruncate`) and `compress`. */
  readonly rotate: () => void;
}

function rotating(t: ExecutionContext, logrotate: string, name: string, how: 'create' | 'copytruncate'): Rotating {
  const dir = tempDir(name);
  const file = path.join(dir, 'mongodb.log');
  fs.writeFileSync(file, '');
  const conf = path.join(dir, 'logrotate.conf');
  fs.writeFileSync(conf, `${file} {\n  rotate 9\n  ${how}\n  compress\n  missingok\n}\n`);
  // Last week's rotations, compressed before any sidecar ran: renamed at each rotation (.1.gz to
  // .2.gz), never news.
  for (const [n, lines] of [[1, 40], [2, 30]] as const) {
    const old = `${file}.${n}.gz`;
    fs.writeFileSync(old, zlib.gzipSync(Array.from({ length: lines }, (_, i) => `{"t":{"$date":"2026-11-2${n}T00:00:00Z"},"msg":"last week ${n}, line ${i + 1}"}\n`).join('')));
    fs.utimesSync(old, new Date(Date.now() - n * 86_400_000), new Date(Date.now() - n * 86_400_000));
  }
  const writer = new NumberedWriter(file, 'mongodb');
  const rotate = (): void => {
    execFileSync(logrotate, ['--state', path.join(dir, 'logrotate.state'), '--force', conf]);
    // A logger reopens after a rename (mongod's logRotate: reopen); copytruncate's goes on at 0.
    if (how === 'create') writer.reopen();
  };
  t.teardown(() => writer.close());
  return { dir, file, writer, rotate };
}

/** The sidecar's options here: quick looks and a short rotate wait; no state file unless given. */
const sidecarArgs = (dir: string, stateFile = ''): string[] => ['--log-dir', dir, '--poll-interval', '0.25', '--rotate-wait', '1', '--state-file', stateFile];

/** A sidecar without a state file, once it follows `file`. */
async function following(dir: string, file: string): Promise<SidecarProcess> {
  const sidecar = new SidecarProcess(sidecarArgs(dir));
  await sidecar.waitForDiagnostic(followsPath(file));
  return sidecar;
}

const compressedUnread = (sidecar: SidecarProcess): Record<string, unknown>[] => sidecar.diagnostics().filter((d) => d['event'] === 'compressed-unread');
const expectedLines = (writer: NumberedWriter, numbers: readonly number[]): string[] => numbers.map((n) => JSON.stringify({ logType: 'mongodb', contents: writer.line(n) }));
const range = (from: number, to: number): number[] => Array.from({ length: to - from + 1 }, (_, i) => from + i);
/** The unpacked size of a gzip file, as its trailer says. */
const gzipSize = (file: string): number => {
  const bytes = fs.readFileSync(file);
  return bytes.readUInt32LE(bytes.length - 4);
};

for (const how of ['create', 'copytruncate'] as const) {
  testWithTool(LOGROTATE, `logrotate ${how} with compress while the sidecar keeps up: every line once, and no compression said to hold unread lines`, async (t, logrotate) => {
    const { dir, file, writer, rotate } = rotating(t, logrotate, `compressed-keeping-up-${how}`, how);
    const sidecar = await following(dir, file);
    for (let round = 0; round < 3; round++) {
      writer.write(30);
      await sidecar.waitForLines(writer.written);
      await sleep(300);
      rotate();
    }
    writer.write(10);
    await sidecar.waitForLines(writer.written);
    await sleep(JUDGED_WITHIN_MS);
    await sidecar.stop();
    t.deepEqual(sidecar.lines(), expectedLines(writer, range(1, writer.written)));
    t.is(fs.readdirSync(dir).filter((name) => name.endsWith('.gz')).length, 5, 'logrotate compressed three rotations, beside the two of last week');
    t.deepEqual(compressedUnread(sidecar), []);
  });
}

testWithTool(LOGROTATE, 'logrotate compress, three rotations while the sidecar is frozen: the file it held is read to its end, the two compressed unread are said with their bytes', async (t, logrotate) => {
  const { dir, file, writer, rotate } = rotating(t, logrotate, 'compressed-frozen', 'create');
  const sidecar = await following(dir, file);
  writer.write(20); // 1-20: read before the freeze
  await sidecar.waitForLines(20);
  await sleep(300);
  await sidecar.whileFrozen(() => {
    writer.write(10); // 21-30: the held file, read through its descriptor after
    rotate(); // the held file -> .1.gz
    writer.write(25); // 31-55: a file never seen
    rotate(); // -> .1.gz (the held one's now .2.gz)
    writer.write(25); // 56-80: another
    rotate(); // -> .1.gz; 31-55 in .2.gz, 1-30 in .3.gz (last week's in .4.gz and .5.gz)
    writer.write(5); // 81-85: the file at the name
  });
  await sidecar.waitForLines(35);
  await waitForUnread(sidecar, 2);
  await sleep(600);
  await sidecar.stop();
  t.deepEqual(sidecar.lines(), expectedLines(writer, [...range(1, 30), ...range(81, 85)]));
  const said = compressedUnread(sidecar).map((d) => ({ file: path.basename(d['file'] as string), bytes: d['bytes'] }));
  t.deepEqual(said.sort((a, b) => a.file.localeCompare(b.file)), [
    { file: 'mongodb.log.1.gz', bytes: gzipSize(`${file}.1.gz`) },
    { file: 'mongodb.log.2.gz', bytes: gzipSize(`${file}.2.gz`) },
  ]);
  t.is(gzipSize(`${file}.2.gz`), 25 * writer.line(31).length + 25, 'the bytes said are the lines never read');
  const warning = compressedUnread(sidecar)[0]!;
  t.is(warning['level'], 40);
  t.regex(warning['msg'] as string, /logtype --as mongodb .*mongodb\.log\.\d\.gz/);
});

testWithTool(LOGROTATE, 'logrotate compress while the sidecar is down: a rotation it never saw is said; the file it had read whole, compressed, is nothing lost', async (t, logrotate) => {
  const { dir, file, writer, rotate } = rotating(t, logrotate, 'compressed-down', 'create');
  const args = sidecarArgs(dir, path.join(dir, 'state.json'));
  const first = new SidecarProcess([...args, '--from-start']);
  writer.write(20); // 1-20
  await first.waitForLines(20);
  await sleep(800); // its last write well before the save
  t.is((await first.stop()).code, 0);
  rotate(); // the file read -> .1.gz
  writer.write(15); // 21-35: never seen
  rotate(); // -> .1.gz; 1-20 in .2.gz
  writer.write(5); // 36-40
  const second = new SidecarProcess(args);
  await second.waitForLines(5);
  await waitForUnread(second, 1);
  await sleep(600);
  await second.stop();
  t.deepEqual([...first.lines(), ...second.lines()], expectedLines(writer, [...range(1, 20), ...range(36, 40)]));
  t.deepEqual(
    compressedUnread(second).map((d) => [path.basename(d['file'] as string), d['bytes']]),
    [['mongodb.log.1.gz', gzipSize(`${file}.1.gz`)]],
  );
  // A field trial: the file read to its end and compressed was said lost ("lines … cannot be
  // delivered"), and doctor said lines were lost. Its compression is no larger than what was delivered.
  t.false(second.diagnostics().some((d) => d['event'] === 'resume-lost'), 'nothing of the file read is lost');
  t.like(second.diagnostics().find((d) => d['event'] === 'compressed-read'), { file: `${file}.2.gz`, position: gzipSize(`${file}.2.gz`) });
});

testWithTool(LOGROTATE, 'logrotate compress while the sidecar is down, the file written after the stop: resume-lost names its compression and the bytes never delivered', async (t, logrotate) => {
  const { dir, file, writer, rotate } = rotating(t, logrotate, 'compressed-down-written', 'create');
  const args = sidecarArgs(dir, path.join(dir, 'state.json'));
  const first = new SidecarProcess([...args, '--from-start']);
  writer.write(20); // 1-20
  await first.waitForLines(20);
  t.is((await first.stop()).code, 0);
  writer.write(10); // 21-30: after the stop, in the file read
  rotate(); // -> .1.gz
  writer.write(5); // 31-35
  await sleep(COMPRESSED_WAIT_MS); // still long enough to be whole: its size is taken
  const second = new SidecarProcess(args);
  await second.waitForLines(5);
  await sleep(COMPRESSED_WAIT_MS);
  await second.stop();
  t.deepEqual([...first.lines(), ...second.lines()], expectedLines(writer, [...range(1, 20), ...range(31, 35)]));
  const lost = second.diagnostics().find((d) => d['event'] === 'resume-lost');
  t.like(lost, { compressed: [`${file}.1.gz`], unreadBytes: 10 * (writer.line(21).length + 1) });
  t.regex(lost?.['msg'] as string, /they are the last \d+ bytes of .*mongodb\.log\.1\.gz/);
  t.deepEqual(compressedUnread(second), [], 'said once, by resume-lost');
});

async function waitForUnread(sidecar: SidecarProcess, count: number): Promise<void> {
  await sidecar.waitForDiagnostic(() => compressedUnread(sidecar).length >= count, JUDGED_WITHIN_MS + 5000).catch(() => undefined);
}

testWithTool(LOGROTATE, 'logrotate copytruncate with compress while the sidecar is frozen: the lines only in the compressed copy are said, with their bytes', async (t, logrotate) => {
  const { dir, file, writer, rotate } = rotating(t, logrotate, 'compressed-copytruncate-frozen', 'copytruncate');
  const sidecar = await following(dir, file);
  writer.write(40); // 1-40: read before the freeze
  await sidecar.waitForLines(40);
  await sleep(300);
  const lineBytes = writer.line(1).length + 1;
  await sidecar.whileFrozen(() => {
    writer.write(20); // 41-60: only in the copy, compressed at once
    rotate();
    writer.write(5); // 61-65: the file from 0
  });
  await sidecar.waitForLines(45);
  await waitForUnread(sidecar, 1);
  await sleep(600);
  await sidecar.stop();
  t.deepEqual(sidecar.lines(), expectedLines(writer, [...range(1, 40), ...range(61, 65)]));
  t.deepEqual(
    compressedUnread(sidecar).map((d) => ({ file: path.basename(d['file'] as string), bytes: d['bytes'], rest: d['rest'] })),
    [{ file: 'mongodb.log.1.gz', bytes: 20 * lineBytes, rest: true }],
  );
});

// From a review: the compressed files listed were remembered up to 256, so with more beside the
// log (logrotate's `rotate 365`) the oldest were forgotten at once, taken for new at every look,
// and each said unread, over and over.
test('300 compressed rotations from before the sidecar started, then one made while it runs: only that one is judged, and said once', async (t) => {
  const dir = tempDir('compressed-many');
  const file = path.join(dir, 'mongodb.log');
  fs.writeFileSync(file, '');
  const old = new Date('2026-11-01T00:00:00Z');
  for (let n = 1; n <= 300; n++) {
    const name = `${file}.${n}.gz`;
    fs.writeFileSync(name, zlib.gzipSync(`{"msg":"rotation ${n} of last year"}\n`));
    fs.utimesSync(name, old, old);
  }
  const sidecar = await following(dir, file);
  await sleep(500);
  const unread = `${file}.301.gz`;
  fs.writeFileSync(unread, zlib.gzipSync('{"msg":"a file nobody read"}\n'));
  await waitForUnread(sidecar, 1);
  await sleep(3000);
  await sidecar.stop();
  t.deepEqual(compressedUnread(sidecar).map((d) => d['file']), [unread]);
});
