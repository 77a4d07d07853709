import test from 'ava';
import fs from 'node:fs';
import path from 'node:path';
import { entryLine, runFilter } from '../_helpers/filter-process.js';
import { spawnSync } from 'node:child_process';
import { FILTER_BIN, cleanEnv, tempDir } from '../_helpers/sidecar-process.js';
import { terminalView, unsafeCodePoints } from '../_helpers/terminal-code-points.js';
import { seededRandom } from '../../bench/log-lines.js';

function fuzzInput(seed: number): Buffer {
  const random = seededRandom(seed);
  const parts: Buffer[] = [];
  for (let i = 0; i < 400; i++) {
    const roll = random();
    const line = Buffer.from(`${entryLine(roll < 0.5 ? 'mongodb' : 'x', 'é"\\'.repeat(Math.floor(random() * 20)), random() < 0.1)}\n`);
    if (roll < 0.3) {
      // An entry cut anywhere, as a container runtime or a crash leaves it.
      parts.push(line.subarray(0, Math.floor(random() * line.length)), Buffer.from('\n'));
    } else if (roll < 0.5) {
      const noise = Buffer.alloc(Math.floor(random() * 300));
      for (let b = 0; b < noise.length; b++) noise[b] = Math.floor(random() * 256);
      parts.push(noise);
    } else {
      parts.push(line);
    }
  }
  return Buffer.concat(parts);
}

interface Expected {
  /** What each output line is made of, in order. */
  readonly out: ({ readonly other: Buffer } | { readonly logType: string; readonly contents: string })[];
  readonly entries: number;
  /** Entries read, by type. */
  readonly byType: Readonly<Record<string, number>>;
  readonly others: number;
}

/**
 * What the filter must make of the input, worked out apart from it: lines split on the byte
 * \n; a line JSON.parse reads as an object with a string logType and contents is an entry, any
 * other line is kept as it is (--keep-other); pieces marked partial are joined per type and
 * leave with their last piece, and pieces whose last piece never came leave at the end.
 */
function expectedOf(input: Buffer): Expected {
  const out: Expected['out'][number][] = [];
  const pending = new Map<string, string>();
  const byType: Record<string, number> = {};
  let entries = 0;
  let others = 0;
  for (let at = 0; at < input.length; ) {
    const newline = input.indexOf(0x0a, at);
    const bytes = input.subarray(at, newline < 0 ? input.length : newline);
    at = newline < 0 ? input.length : newline + 1;
    let entry: { logType?: unknown; contents?: unknown; partial?: unknown } | undefined;
    try {
      entry = JSON.parse(bytes.toString('utf8')) as typeof entry;
    } catch {
      entry = undefined;
    }
    if (entry && typeof entry === 'object' && typeof entry.logType === 'string' && typeof entry.contents === 'string') {
      entries++;
      byType[entry.logType] = (byType[entry.logType] ?? 0) + 1;
      const joined = (pending.get(entry.logType) ?? '') + entry.contents;
      if (entry.partial === true) pending.set(entry.logType, joined);
      else {
        pending.delete(entry.logType);
        out.push({ logType: entry.logType, contents: joined });
      }
    } else {
      others++;
      out.push({ other: bytes });
    }
  }
  for (const [logType, contents] of pending) out.push({ logType, contents });
  return { out, entries, byType, others };
}

/** Each mode's output of the expected lines: raw contents, entries (json: these contents are no server JSON; other lines as members), pretty's badge and escapes. */
const RENDER: Record<string, (line: Expected['out'][number]) => Buffer | string> = {
  raw: (line) => ('other' in line ? line.other : line.contents),
  entry: (line) => ('other' in line ? line.other : JSON.stringify({ logType: line.logType, contents: line.contents })),
  // A line that is no entry stays JSON: as {"other": LINE} (its bytes decoded as UTF-8, as the filter reads them).
  json: (line) => ('other' in line ? JSON.stringify({ other: line.other.toString('utf8') }) : JSON.stringify({ logType: line.logType, contents: line.contents })),
  pretty: (line) => ('other' in line ? terminalView(line.other.toString('utf8')) : `${line.logType.padEnd(13)} ${terminalView(line.contents)}`),
};

for (const seed of [1, 2, 3, 4, 5]) {
  test(`fuzz ${seed}: random bytes and cut lines: every output mode writes exactly what the input holds, never a crash`, (t) => {
    const input = fuzzInput(seed);
    const expected = expectedOf(input);
    const written = expected.out.filter((line) => !('other' in line)).length;
    for (const mode of ['raw', 'json', 'entry', 'pretty']) {
      const result = runFilterBytes(['-o', mode, '--color', 'never', '--summary', '--keep-other'], input);
      t.is(result.status, 0, `${mode}: ${result.stderr}`);
      const [counts, ...rest] = result.stderr.split('\n').slice(0, -1);
      t.is(counts, `logtype: ${expected.entries} entries read, ${written} written, ${expected.others} other lines`, mode);
      // The rows under their label: what was read of each type.
      const rows = rest.length > 0 && rest[0] === '  entries read, by type:' ? rest.slice(1) : rest;
      t.deepEqual(Object.fromEntries(rows.map((row) => /^ {2}(\S+) +(\d+)$/.exec(row)?.slice(1, 3).map((v, i) => (i === 1 ? Number(v) : v)) ?? [row, NaN])), expected.byType, mode);
      const want = Buffer.concat(expected.out.flatMap((line) => [Buffer.from(RENDER[mode]!(line)), Buffer.from('\n')]));
      t.true(result.stdout.equals(want), `${mode}: the output differs from the oracle at byte ${firstDifference(result.stdout, want)}`);
      if (mode === 'pretty') t.deepEqual(unsafeCodePoints(result.stdout.toString('utf8')), [], 'pretty hands a terminal no control');
    }
  });
}

function firstDifference(a: Buffer, b: Buffer): number {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
}

/** The real logtype, stdout kept as bytes (raw and entry pass the input's bytes on). */
function runFilterBytes(args: readonly string[], input: Buffer): { status: number | null; stdout: Buffer; stderr: string } {
  const result = spawnSync(process.execPath, [FILTER_BIN, ...args], { input, env: cleanEnv(), maxBuffer: 1 << 28, timeout: 120_000 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr.toString('utf8') };
}

test('a 100 MB line without newline, and a 20 MB entry: no crash', (t) => {
  const dir = tempDir('huge');
  const file = path.join(dir, 'in');
  const fd = fs.openSync(file, 'w');
  fs.writeSync(fd, `${entryLine('mongodb', 'y'.repeat(20 * 1024 * 1024))}\n`);
  const chunk = Buffer.alloc(1024 * 1024, 0x41);
  for (let i = 0; i < 100; i++) fs.writeSync(fd, chunk);
  fs.closeSync(fd);
  const result = runFilter(['--summary', '-t', 'mongodb', file]);
  t.is(result.status, 0, result.stderr);
  t.true(result.stdout === `${'y'.repeat(20 * 1024 * 1024)}\n`, 'the 20 MB entry whole');
  // The 100 MB line is one line that is no entry (its first 64 MiB), said with the limit.
  t.regex(result.stderr, /1 entry read, 1 written, 1 other line\n/);
  t.regex(result.stderr, /1 line was longer than 64 MiB/);
});
