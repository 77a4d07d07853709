/**
 * sidecar/lnav/logtype_entry.json in the real lnav (Debian's package): lnav checks the format's
 * own samples when it loads it, then reads entry lines (the sidecar's, the filter's `-o entry`
 * output, with and without kubectl's prefixes) from real server, audit and agent logs, and its
 * SQL view says which level and time it found for each line. Those are compared with the level
 * and time read here, independently, from each entry's contents.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import type { ExecutionContext } from 'ava';
import { FILTER_BIN, REAL_DATA, REPO, SIDECAR_BIN, cleanEnv, tempDir } from '../_helpers/sidecar-process.js';
import { LNAV, testWithTool } from '../_helpers/system-tool.js';
import { LOG_FORMATS } from '../../src/formats/log-formats.js';

const FORMAT = path.join(REPO, 'sidecar/lnav/logtype_entry.json');

interface Seen {
  readonly level: string;
  readonly time: string;
  readonly logType: string;
}

/** lnav headless, with only our format added and a home of its own; the rows of one query. */
function lnavQuery(t: ExecutionContext, lnav: string, file: string): Map<number, Seen> {
  const dir = tempDir('lnav');
  const formats = path.join(dir, 'config/formats/logtype');
  fs.mkdirSync(formats, { recursive: true });
  fs.copyFileSync(FORMAT, path.join(formats, 'logtype_entry.json'));
  const run = spawnSync(
    lnav,
    ['-n', '-I', path.join(dir, 'config'), '-c', ';SELECT log_line, log_level, log_time, log_type FROM logtype_entry', '-c', ':write-csv-to -', file],
    { env: { ...process.env, HOME: dir, XDG_CONFIG_HOME: path.join(dir, '.config') }, encoding: 'utf8', timeout: 60_000 },
  );
  t.is(run.status, 0, run.stderr);
  t.notRegex(run.stderr, /error|invalid|✘/i, 'lnav accepts the format and its samples');
  const rows = new Map<number, Seen>();
  for (const line of run.stdout.trim().split('\n').slice(1)) {
    const [lineNumber, level, time, logType] = line.split(',');
    rows.set(Number(lineNumber), { level: level!, time: time!, logType: logType! });
  }
  return rows;
}

const SERVER_LEVELS: Readonly<Record<string, string>> = { F: 'fatal', E: 'error', W: 'warning', I: 'info' };
const AGENT_LEVELS: Readonly<Record<string, string>> = { fatal: 'fatal', error: 'error', warn: 'warning', info: 'info', debug: 'debug' };

/**
 * "YYYY-MM-DD HH:MM:SS.mmm", the time as written: lnav 0.11 shows a message's time as its line
 * wrote it, whatever its offset (a line at +08:00 and one at Z are not moved to one zone).
 */
function asWritten(text: string): string {
  const [, date, time, fraction] = /^(\d{4}[-/]\d\d[-/]\d\d)[T ](\d\d:\d\d:\d\d)(?:\.(\d+))?/.exec(text)!;
  return `${date!.replaceAll('/', '-')} ${time} ${(fraction ?? '').padEnd(3, '0').slice(0, 3)}`.replace(/ (\d{3})$/, '.$1');
}

/** The level and time an entry's contents carry, read without lnav; undefined for a line that has none. */
function expected(logType: string, contents: string): { level: string; time: string } | undefined {
  if (logType === 'mongodb' || logType === 'mongodb-audit') {
    if (contents.startsWith('{')) {
      const record = JSON.parse(contents) as { t?: { $date: string }; s?: string; ts?: { $date: string }; result?: number };
      if (record.t && record.s) return { level: SERVER_LEVELS[record.s] ?? 'debug', time: asWritten(record.t.$date) };
      if (record.ts) return { level: record.result === 0 ? 'info' : 'error', time: asWritten(record.ts.$date) };
      return undefined;
    }
    const text = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d+(?:Z|[+-]\d\d:?\d\d)) ([FEWI]|D\d?)\s/.exec(contents);
    return text ? { level: SERVER_LEVELS[text[2]!] ?? 'debug', time: asWritten(text[1]!) } : undefined;
  }
  const agent = /^\[(\d{4}[-/]\d\d[-/]\d\d[T ][\d:.]+(?:Z|[+-]\d\d:?\d\d)?)(?:[+-]\d\d)?\] \[[\w.]*?\.([a-z]+)\] \[/.exec(contents);
  if (agent) return { level: AGENT_LEVELS[agent[2]!] ?? 'unknown', time: asWritten(agent[1]!) };
  const stamped = /^(\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:?\d\d)?) /.exec(contents);
  return stamped ? { level: 'info', time: asWritten(stamped[1]!) } : undefined;
}

/** Entry lines from real logs: the sidecar's --once over the samples and the real fixtures, and real entries. */
function realEntries(): string {
  const dir = tempDir('lnav-input');
  const replica = path.join(dir, 'mongod-rs1.log');
  fs.writeFileSync(replica, zlib.gunzipSync(fs.readFileSync(path.join(REAL_DATA, 'mongod-replica-rs1.log.gz'))));
  // The files of the types a run does not read, there and empty: --once exits 3 when one is missing.
  const empty = path.join(dir, 'empty');
  fs.mkdirSync(empty);
  for (const format of LOG_FORMATS) if (format.file) fs.writeFileSync(path.join(empty, format.file.defaultName), '');
  const once = (args: string[]): string => {
    const run = spawnSync(process.execPath, [SIDECAR_BIN, '--once', ...args], { env: cleanEnv(), encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    if (run.status !== 0) throw new Error(run.stderr);
    return run.stdout;
  };
  return [
    once(['--log-dir', path.join(REPO, 'samples')]),
    once(['--log-dir', empty, '--file', `mongodb=${replica}`, '--file', `mongodb-audit=${path.join(REAL_DATA, 'audit-json.log')}`]),
    once(['--log-dir', empty, '--file', `mongodb=${path.join(REAL_DATA, 'mongod-4.2-text.log')}`]),
    fs.readFileSync(path.join(REAL_DATA, 'agent-issue-threads.log'), 'utf8'),
  ].join('');
}

/**
 * The entry lines whose contents carry a level and a time, in time order (stable). lnav moves a
 * line whose time is earlier than the line before it up to that line's time (its handling of
 * clock skew within a file), and the logs here come one file after another, so each is given to
 * it in time order; the lines without a time of their own are left out, as they only continue
 * the message before them.
 */
function inTimeOrder(text: string): string {
  const timed = text
    .split('\n')
    .map((line) => {
      const start = line.indexOf('{"logType":');
      if (start < 0) return undefined;
      const entry = JSON.parse(line.slice(start)) as { logType: string; contents: string };
      const want = expected(entry.logType, entry.contents);
      return want ? { line, time: want.time } : undefined;
    })
    .filter((x) => x !== undefined);
  return timed
    .map((x, order) => ({ ...x, order }))
    .sort((a, b) => (a.time < b.time ? -1 : a.time > b.time ? 1 : a.order - b.order))
    .map((x) => `${x.line}\n`)
    .join('');
}

/** Every entry line whose contents carry a level and a time is one lnav message with both. */
function checkLines(t: ExecutionContext, text: string, rows: Map<number, Seen>): number {
  let checked = 0;
  text.split('\n').forEach((line, index) => {
    const start = line.indexOf('{"logType":');
    if (start < 0) return;
    const entry = JSON.parse(line.slice(start)) as { logType: string; contents: string };
    const want = expected(entry.logType, entry.contents);
    if (!want) return;
    const seen = rows.get(index);
    if (!seen) {
      t.fail(`line ${index + 1} is not a message of its own in lnav: ${line.slice(0, 160)}`);
      return;
    }
    if (seen.level !== want.level || seen.time !== want.time || seen.logType !== entry.logType) {
      t.deepEqual({ line: index + 1, ...seen }, { line: index + 1, ...want, logType: entry.logType }, line.slice(0, 200));
    }
    checked++;
  });
  return checked;
}

testWithTool(LNAV, "lnav reads the sidecar's entries from real server, audit and agent logs with their levels and times", (t, lnav) => {
  const text = inTimeOrder(realEntries());
  const file = path.join(tempDir('lnav-raw'), 'entries.log');
  fs.writeFileSync(file, text);
  const rows = lnavQuery(t, lnav, file);
  const checked = checkLines(t, text, rows);
  t.true(checked > 1500, `${checked} lines checked`);
  const levels = new Set([...rows.values()].map((r) => r.level));
  for (const level of ['error', 'warning', 'info', 'debug']) t.true(levels.has(level), `some ${level} line`);
});

testWithTool(LNAV, "lnav reads the filter's -o entry output, with kubectl's --prefix and --timestamps kept", (t, lnav) => {
  const input = fs.readFileSync(path.join(REPO, 'samples/kubectl-logs-timestamps-prefix.txt'), 'utf8');
  const filtered = spawnSync(process.execPath, [FILTER_BIN, '-o', 'entry', '--keep-prefix'], { input, encoding: 'utf8' });
  t.is(filtered.status, 0, filtered.stderr);
  t.regex(filtered.stdout, /^\[pod\/[^\]]+\] \d{4}-\d\d-\d\dT[\d:.]+Z \{"logType":/m);
  const text = inTimeOrder(filtered.stdout);
  const file = path.join(tempDir('lnav-filter'), 'filtered.log');
  fs.writeFileSync(file, text);
  const checked = checkLines(t, text, lnavQuery(t, lnav, file));
  t.true(checked > 50, `${checked} lines checked`);
});

testWithTool(LNAV, "the sidecar's own diagnostic lines among its entries (kubectl logs of its container holds both): each a message of its own, with pino's level", (t, lnav) => {
  const run = spawnSync('bash', ['-c', `"${process.execPath}" "${SIDECAR_BIN}" --once --log-dir "${path.join(REPO, 'samples')}" 2>&1`], { env: cleanEnv(), encoding: 'utf8' });
  t.is(run.status, 0, run.stdout);
  const lines = run.stdout.split('\n').filter((line) => line !== '');
  const isDiagnostic = (line: string): boolean => line.includes('"logType":"logtype-sidecar"');
  const diagnostics = lines.filter(isDiagnostic);
  t.true(diagnostics.length >= 8, `${diagnostics.length} diagnostic lines`);
  // The entries in time order, as lnav wants a file's times; the diagnostics, written now, after them.
  const text = inTimeOrder(lines.filter((line) => !isDiagnostic(line)).join('\n')) + diagnostics.map((line) => `${line}\n`).join('');
  const file = path.join(tempDir('lnav-diagnostics'), 'pod.log');
  fs.writeFileSync(file, text);
  const rows = lnavQuery(t, lnav, file);
  t.true(checkLines(t, text, rows) > 100);
  const PINO_LEVELS: Readonly<Record<number, string>> = { 30: 'info', 40: 'warning', 50: 'error' };
  text.split('\n').forEach((line, index) => {
    if (!isDiagnostic(line)) return;
    const diagnostic = JSON.parse(line) as { level: number; time: string };
    t.deepEqual(rows.get(index), { level: PINO_LEVELS[diagnostic.level]!, time: asWritten(diagnostic.time), logType: 'logtype-sidecar' }, line.slice(0, 160));
  });
});
