/**
 * Rotated files are found by their names wherever the sidecar cannot follow them by their
 * descriptor: rotated while it was down, or made and rotated while its reader stalled. The
 * rotators a pod may run name them differently (rotated-siblings.ts); each style here is
 * put through the reproductions of issue #22 that depend on finding them.
 */
import test, { type ExecutionContext } from 'ava';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { NumberedWriter, sleep } from '../_helpers/numbered-writer.js';
import { SidecarProcess, followsPath, tempDir, waitUntil } from '../_helpers/sidecar-process.js';
import { checkNumbered } from '../_helpers/delivery.js';
import { assertDeliveredOnce, killAtTeardown } from '../_helpers/follower-scenario.js';
import { LOGROTATE, testWithTool } from '../_helpers/system-tool.js';

interface Style {
  readonly name: string;
  /** Whether logrotate can make copytruncate's copy under these names (lumberjack only renames). */
  readonly copies: boolean;
  /** The `k`th rotation's name for the file at the path (numbered names shift the older ones first). */
  rotate(dir: string, k: 1 | 2): string;
  /** After two rotations: where the first and the second rotated file are. */
  readonly older: string;
  readonly newer: string;
}

/** Dated names: each rotation a name of its own, nothing shifted. */
const dated = (name: string, copies: boolean, first: string, second: string): Style => ({
  name,
  copies,
  rotate: (_dir, k) => (k === 1 ? first : second),
  older: first,
  newer: second,
});

const STYLES: readonly Style[] = [
  dated("logrotate's dateext", true, 'mongodb.log-20261125', 'mongodb.log-20261126'),
  dated("logrotate's extension with dateext", true, 'mongodb-20261125.log', 'mongodb-20261126.log'),
  dated("Go's lumberjack", false, 'mongodb-2026-11-25T23-59-59.000.log', 'mongodb-2026-11-26T05-00-00.000.log'),
  {
    name: "logrotate's extension, numbered",
    copies: true,
    rotate: (dir, k) => {
      if (k === 2) fs.renameSync(path.join(dir, 'mongodb.1.log'), path.join(dir, 'mongodb.2.log'));
      return 'mongodb.1.log';
    },
    older: 'mongodb.2.log',
    newer: 'mongodb.1.log',
  },
];

/** A sidecar on `dir` (default state file there), once it has looked at `file`. */
async function start(t: ExecutionContext, dir: string, file: string, args: readonly string[] = []): Promise<SidecarProcess> {
  const sidecar = killAtTeardown(t, new SidecarProcess(['--log-dir', dir, '--stats-interval', '0', '--rotate-wait', '1', ...args]));
  await sidecar.waitForDiagnostic((d) => ['opened', 'resumed', 'waiting'].includes(d['event'] as string) && d['path'] === file);
  return sidecar;
}

/** Renames the file at the path as the style's `k`th rotation. */
function renameRotation(style: Style, dir: string, file: string, k: 1 | 2): void {
  fs.renameSync(file, path.join(dir, style.rotate(dir, k)));
}

interface Restart {
  readonly dir: string;
  readonly file: string;
  readonly writer: NumberedWriter;
  readonly second: SidecarProcess;
  /** Both runs' output, in order. */
  readonly lines: string[];
}

/**
 * A first run reads 10 lines of `mongodb.log` from its start and stops; 10 more are written
 * while it is down, then `whileDown` acts (rotates, copies, writes on); a second run delivers
 * `expected` mongodb lines, and any more within half a second.
 */
async function acrossARestart(t: ExecutionContext, name: string, expected: number, whileDown: (dir: string, file: string, writer: NumberedWriter) => void): Promise<Restart> {
  const dir = tempDir(name);
  const file = path.join(dir, 'mongodb.log');
  const writer = new NumberedWriter(file, 'mongodb');
  writer.write(10);
  const first = await start(t, dir, file, ['--from-start']);
  await first.waitForLines(10);
  await first.stop();
  writer.write(10); // 11-20: while down
  whileDown(dir, file, writer);
  writer.close();
  const second = await start(t, dir, file);
  const mongodbLines = (): number => second.lines().filter((line) => (JSON.parse(line) as { logType: string }).logType === 'mongodb').length;
  await waitUntil(() => mongodbLines() >= expected, 10_000, `the ${expected} lines left after the restart`);
  // Anything read twice, or read as mongodb.log's from a file that is not, comes with the rest.
  await sleep(500);
  await second.stop();
  return { dir, file, writer, second, lines: [...first.lines(), ...second.lines()] };
}

for (const style of STYLES) {
  test(`${style.name}: two rename rotations while stopped, the middle file made and rotated while down is read too (repro-b)`, async (t) => {
    const { dir, writer, second, lines } = await acrossARestart(t, 'names-down-renames', 30, (dir, file, writer) => {
      renameRotation(style, dir, file, 1);
      writer.reopen();
      writer.write(10); // 21-30: a new file...
      renameRotation(style, dir, file, 2); // ...rotated too while down
      writer.reopen();
      writer.write(10); // 31-40
    });
    assertDeliveredOnce(t, lines, writer, 40);
    t.true(second.diagnostics().some((d) => d['event'] === 'resumed' && d['file'] === path.join(dir, style.older)), 'the saved file, found under its rotated name');
    t.true(second.diagnostics().some((d) => d['event'] === 'unseen' && d['file'] === path.join(dir, style.newer)), 'the file made and rotated while down');
  });

  test(`${style.name}: two rename rotations while the reader is stalled and the sidecar cannot look, the file made and rotated between is read (repro-b2)`, async (t) => {
    const dir = tempDir('names-stalled-renames');
    const file = path.join(dir, 'mongodb.log');
    const writer = new NumberedWriter(file, 'mongodb', 1000);
    writer.write(10);
    const sidecar = killAtTeardown(t, new SidecarProcess(['--log-dir', dir, '--from-start', '--stats-interval', '0']));
    await sidecar.waitForLines(10);
    sidecar.stallReader();
    writer.write(289); // 11-299: fills the pipe and the writer
    await sleep(500);
    await sidecar.whileFrozen(() => {
      renameRotation(style, dir, file, 1);
      writer.reopen();
      writer.write(100); // 300-399: a file only ever there under its rotated name
      renameRotation(style, dir, file, 2);
      writer.reopen();
    });
    writer.write(100); // 400-499
    writer.close();
    await sleep(1000);
    sidecar.resumeReader();
    await sidecar.waitForLines(499);
    await sidecar.stop();
    assertDeliveredOnce(t, sidecar.lines(), writer, 499);
    t.true(sidecar.diagnostics().some((d) => d['event'] === 'unseen' && d['file'] === path.join(dir, style.newer)), 'found by its name');
  });

  if (!style.copies) continue;
  test(`${style.name}: copytruncate while stopped, the lines only in the copy come first (repro-a)`, async (t) => {
    let copy = '';
    const { writer, second, lines } = await acrossARestart(t, 'names-down-copytruncate', 20, (dir, file, writer) => {
      copy = path.join(dir, style.rotate(dir, 1));
      fs.copyFileSync(file, copy);
      fs.truncateSync(file, 0);
      writer.write(10); // 21-30: the writer goes on at 0
    });
    assertDeliveredOnce(t, lines, writer, 30);
    t.true(second.diagnostics().some((d) => d['event'] === 'resumed' && d['how'] === 'copy' && d['file'] === copy));
  });
}

/** logrotate with `dateext` on `file`, rotating as `how` says (`create` renames, `copytruncate` copies). */
function rotateWithDateext(logrotate: string, dir: string, file: string, how: 'create' | 'copytruncate'): string {
  const conf = path.join(dir, 'logrotate.conf');
  fs.writeFileSync(conf, `${file} {\n  rotate 5\n  ${how}\n  dateext\n  missingok\n  nocompress\n}\n`);
  execFileSync(logrotate, ['--state', path.join(dir, 'logrotate.state'), '--force', conf]);
  const rotated = fs.readdirSync(dir).filter((name) => name.startsWith('mongodb.log-'));
  if (rotated.length !== 1) throw new Error(`logrotate left ${JSON.stringify(rotated)} beside the log`);
  return path.join(dir, rotated[0]!);
}

testWithTool(LOGROTATE, 'real logrotate, dateext and create, while the sidecar is stopped: the rest of the renamed file, then the new one', async (t, logrotate) => {
  let rotated = '';
  const { writer, second, lines } = await acrossARestart(t, 'names-logrotate-create', 20, (dir, file, writer) => {
    rotated = rotateWithDateext(logrotate, dir, file, 'create');
    writer.reopen();
    writer.write(10); // 21-30
  });
  assertDeliveredOnce(t, lines, writer, 30);
  t.true(second.diagnostics().some((d) => d['event'] === 'resumed' && d['file'] === rotated), `resumed in ${path.basename(rotated)}`);
});

testWithTool(LOGROTATE, 'real logrotate, dateext and copytruncate, while the sidecar is stopped: the lines only in the copy, then the file from 0', async (t, logrotate) => {
  let copy = '';
  const { writer, second, lines } = await acrossARestart(t, 'names-logrotate-copytruncate', 20, (dir, file, writer) => {
    copy = rotateWithDateext(logrotate, dir, file, 'copytruncate');
    writer.write(10); // 21-30: the writer goes on at 0
  });
  assertDeliveredOnce(t, lines, writer, 30);
  t.true(second.diagnostics().some((d) => d['event'] === 'resumed' && d['how'] === 'copy' && d['file'] === copy), `resumed in the copy ${path.basename(copy)}`);
});

test("files beside the log that only look like its rotations (the audit log and its rotations, mongodb.log-audit, mongodb-old.log) are never read as one", async (t) => {
  const lookalikes = ['mongodb-audit.log', 'mongodb-audit.log-20261126', 'mongodb-audit-20261126.log', 'mongodb-audit-2026-11-26T05-00-00.000.log', 'mongodb-audit.log.1', 'mongodb.log-audit', 'mongodb-old.log'];
  const { file, writer, second, lines } = await acrossARestart(t, 'names-not-rotations', 10, (dir) => {
    for (const name of lookalikes) fs.writeFileSync(path.join(dir, name), `not a rotation of mongodb.log: ${name}\n`);
  });
  assertDeliveredOnce(t, lines, writer, 20);
  t.is(second.lines().filter((line) => (JSON.parse(line) as { logType: string }).logType === 'mongodb').length, 10);
  t.false(second.diagnostics().some((d) => d['event'] === 'unseen' && d['path'] === file));
});

for (const lookalike of ['mongodb.log-1', 'mongodb.log.audit']) {
  test(`a followed file named like another followed file's rotation (${lookalike}) is read once, as its own type`, async (t) => {
    const dir = tempDir('names-followed-lookalike');
    const file = path.join(dir, 'mongodb.log');
    const audit = path.join(dir, lookalike);
    const server = new NumberedWriter(file, 'mongodb');
    const auditWriter = new NumberedWriter(audit, 'audit');
    const args = ['--log-dir', dir, '--file', `mongodb=${file}`, '--file', `mongodb-audit=${audit}`];
    const first = await start(t, dir, file, args);
    // Both files are there at the start, so each is read from its end: write once both are open.
    await first.waitForDiagnostic(followsPath(audit));
    server.write(10);
    auditWriter.write(10);
    await first.waitForLines(20);
    await first.stop();
    server.write(10); // 11-20 of each while down
    auditWriter.write(10);
    server.close();
    auditWriter.close();
    const second = await start(t, dir, file, args);
    await second.waitForLines(20);
    await sleep(500);
    await second.stop();
    const lines = [...first.lines(), ...second.lines()];
    assertDeliveredOnce(t, lines, server, 20);
    const audits = checkNumbered(lines, 'mongodb-audit', 'audit', 20, (n) => auditWriter.line(n));
    t.deepEqual(audits.lost, []);
    t.is(audits.duplicated, 0);
    t.is(audits.wrongContents, 0);
    t.is(lines.length, 40, 'nothing read twice under the other type');
  });
}

testWithTool(LOGROTATE, 'real logrotate, dateext and copytruncate, while the running sidecar cannot look: the lines only in the copy, then the file from 0', async (t, logrotate) => {
  const dir = tempDir('names-logrotate-frozen');
  const file = path.join(dir, 'mongodb.log');
  fs.writeFileSync(file, '');
  const sidecar = killAtTeardown(t, new SidecarProcess(['--log-dir', dir, '--poll-interval', '0.25', '--rotate-wait', '1', '--state-file', '']));
  await sidecar.waitForDiagnostic(followsPath(file));
  const writer = new NumberedWriter(file, 'mongodb');
  writer.write(5);
  await sidecar.waitForLines(5);
  await sleep(150);
  let copy = '';
  await sidecar.whileFrozen(() => {
    writer.write(5); // 6-10: only in the copy once the file is truncated
    copy = rotateWithDateext(logrotate, dir, file, 'copytruncate');
  });
  writer.write(2); // 11-12: the file from 0
  await sidecar.waitForLines(12);
  await sleep(600);
  writer.close();
  await sidecar.stop();
  const expected = Array.from({ length: 12 }, (_, i) => JSON.stringify({ logType: 'mongodb', contents: writer.line(i + 1) }));
  t.deepEqual(sidecar.lines(), expected);
  t.regex(path.basename(copy), /^mongodb\.log-\d{8}$/);
});
