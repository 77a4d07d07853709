/**
 * The server's shutdowns in the summary, on real server logs (test/fixtures/real/SOURCES.md):
 * Hatchet's rs1 and rs2, which end on a SIGTERM (4.4+ JSON), and mtools' 3.6 member, which
 * shuts down on the `shutdown` command and starts again (text). Each expectation is read from
 * the lines themselves: JSON.parse for the JSON logs, the lines' own words for the text.
 */
import path from 'node:path';
import test from 'ava';
import { SummaryCollector } from '../../src/summary/summary-collector.js';
import { renderSummaryText } from '../../src/summary/render-summary-text.js';
import { palette } from '../../src/render/colors.js';
import type { Summary } from '../../src/summary/summary.js';
import { readRecords, type ReadRecord } from '../_helpers/read-records.js';
import { REAL_DATA } from '../_helpers/sidecar-process.js';

interface ServerLine {
  readonly t: { readonly $date: string };
  readonly id: number;
  readonly attr?: Record<string, unknown>;
}

/** Each file an input (several: each a member of its own); `keep`: the lines given to the summary (all by default). */
async function summarize(files: readonly string[], keep: (contents: string) => boolean = () => true): Promise<{ records: ReadRecord[]; summary: Summary }> {
  const collector = new SummaryCollector();
  const all: ReadRecord[] = [];
  for (const file of files) {
    const { records } = await readRecords(path.join(REAL_DATA, file), 'mongodb');
    collector.input(file, files);
    for (const r of records.filter((r) => keep(r.contents))) {
      all.push(r);
      collector.add(r.logType, r.record, undefined, { contents: r.contents });
    }
  }
  return { records: all, summary: collector.summary({ entries: all.length, selected: all.length, notEntries: 0 }) };
}

const iso = (time: string): string => new Date(time).toISOString();
const text = (summary: Summary): string => renderSummaryText(summary, { palette: palette(false), utc: true, width: 60 });

/** A JSON log's shutdown, from its lines: the signal it received (23377), its exit code (23138). */
function jsonShutdown(records: readonly ReadRecord[]): { time: string; cause: string; exitCode: number; exited: string } {
  const lines = records.map((r) => JSON.parse(r.contents) as ServerLine);
  const signal = lines.find((l) => l.id === 23377)!;
  const exit = lines.findLast((l) => l.id === 23138)!;
  return { time: iso(signal.t.$date), cause: `signal ${String(signal.attr!['signal'])} (${String(signal.attr!['error'])})`, exitCode: exit.attr!['exitCode'] as number, exited: iso(exit.t.$date) };
}

/** A text line's time: its first word. */
const textTime = (line: string): string => iso(line.slice(0, line.indexOf(' ')));

for (const file of ['mongod-replica-rs1.log.gz', 'mongod-replica-rs2.log.gz']) {
  test(`${file}: its shutdown on SIGTERM, from the signal to the exit code, as its lines say`, async (t) => {
    const { records, summary } = await summarize([file]);
    const server = summary.server!;
    t.deepEqual(server.shutdowns, [jsonShutdown(records)]);
    t.is(server.shutdownsNotKept, 0);
    // The start its log begins with is no restart, and says nothing of a shutdown before it.
    t.deepEqual(
      server.restarts.map((r) => [r.atLogStart, r.shutdownBefore]),
      [[true, undefined]],
    );
    const expected = jsonShutdown(records);
    t.regex(text(summary), new RegExp(`\\n {2}shutdowns: 1 \\(${expected.time.slice(0, 19).replace('T', ' ')} on signal 15 \\(Terminated: 15\\), exit code 0 at ${expected.exited.slice(0, 19).replace('T', ' ')}\\)\\n`));
  });
}

test('rs1 and rs2 as two members: each shutdown names its member', async (t) => {
  const files = ['mongod-replica-rs1.log.gz', 'mongod-replica-rs2.log.gz'];
  const { summary } = await summarize(files);
  const expected = [];
  for (const file of files) expected.push({ ...jsonShutdown((await readRecords(path.join(REAL_DATA, file), 'mongodb')).records), member: file.replace(/\.log\.gz$/, '') });
  t.deepEqual(
    summary.server!.shutdowns,
    expected.sort((a, b) => Date.parse(a.time) - Date.parse(b.time)),
  );
  t.regex(text(summary), /shutdowns: 2 \(\S+ \S+ mongod-replica-rs1 on signal 15 .*; \S+ \S+ mongod-replica-rs2 on signal 15 .*\)/);
});

/** mtools' 3.6 member: the lines that begin and end its shutdown, and its restart's start line. */
const SHUTDOWN_BEGIN = '] terminating, shutdown command received';
const SHUTDOWN_END = '] shutting down with code:';
const START = '] MongoDB starting :';

test('mongod-3.6-text-restart.log: the shutdown command, its exit code, and the restart after it', async (t) => {
  const { records, summary } = await summarize(['mongod-3.6-text-restart.log']);
  const lines = records.map((r) => r.contents);
  const begin = lines.find((l) => l.includes(SHUTDOWN_BEGIN))!;
  const end = lines.find((l) => l.includes(SHUTDOWN_END))!;
  const start = lines.findIndex((l) => l.includes(START));
  t.true(lines.indexOf(end) < start, 'the log shuts down, then starts');
  const server = summary.server!;
  t.deepEqual(server.shutdowns, [{ time: textTime(begin), cause: 'shutdown command', exitCode: Number(end.slice(end.indexOf(SHUTDOWN_END) + SHUTDOWN_END.length)), exited: textTime(end) }]);
  // The start is its SERVER RESTARTED line's, just before MongoDB starting.
  t.deepEqual(server.restarts, [{ time: textTime(lines[start - 1]!), version: '3.6.23', shutdownBefore: true }]);
  const rendered = text(summary);
  t.regex(rendered, /\n {2}restarts: 1 \(2022-03-13 17:10:53 v3\.6\.23, after a shutdown\)\n {2}shutdowns: 1 \(2022-03-13 17:10:08 on the shutdown command, exit code 0\)\n/);
});

test('mongod-3.6-text-restart.log without its shutdown lines, as a killed server leaves its log: the restart says none was logged', async (t) => {
  const killed = (contents: string): boolean => !contents.includes(SHUTDOWN_BEGIN) && !contents.includes(SHUTDOWN_END);
  const { summary } = await summarize(['mongod-3.6-text-restart.log'], killed);
  const server = summary.server!;
  t.deepEqual(server.shutdowns, []);
  t.deepEqual(
    server.restarts.map((r) => r.shutdownBefore),
    [false],
  );
  t.regex(text(summary), /\n {2}restarts: 1 \(2022-03-13 17:10:53 v3\.6\.23, no shutdown logged before it: killed or crashed\)\n/);
  t.notRegex(text(summary), /shutdowns:/);
  // Lines left out by a selection may be the shutdown's: then it says only that none was selected.
  const selected = { ...summary, lines: { ...summary.lines, entries: summary.lines.entries + 2 } };
  t.regex(text(selected), /restarts: 1 among the selected lines \(2022-03-13 17:10:53 v3\.6\.23, no shutdown among the selected lines before it\)/);
});

test('the text logs without a shutdown (4.0, and 4.2 that begins at a log rotation) report none', async (t) => {
  for (const file of ['mongod-4.0-text-slow-transactions.log', 'mongod-4.2-text.log']) {
    const { summary } = await summarize([file]);
    t.deepEqual(summary.server!.shutdowns, [], file);
    t.notRegex(text(summary), /shutdowns:/, file);
  }
});

/**
 * The connections a member had open when it logged its exit (the last line of its shutdown), by
 * number and remote, read from the lines themselves: JSON's 22943, 22944 and 23138; the text's
 * `connection accepted from IP:PORT #N`, `[connN] end connection IP:PORT` and `shutting down with code:`.
 */
function openAtExit(lines: readonly string[]): { open: Set<string>; exit: string } {
  const open = new Set<string>();
  for (const line of lines) {
    if (line.startsWith('{')) {
      const l = JSON.parse(line) as ServerLine;
      const key = `${String(l.attr?.['connectionId'])} ${String(l.attr?.['remote'])}`;
      if (l.id === 22943) open.add(key);
      else if (l.id === 22944) open.delete(key);
      else if (l.id === 23138) return { open, exit: iso(l.t.$date) };
    } else {
      const accepted = / connection accepted from (\S+) #(\d+) /.exec(line);
      const ended = /\[conn(\d+)\] end connection (\S+) /.exec(line);
      if (accepted) open.add(`${accepted[2]} ${accepted[1]}`);
      else if (ended) open.delete(`${ended[1]} ${ended[2]}`);
      else if (line.includes(SHUTDOWN_END)) return { open, exit: textTime(line) };
    }
  }
  throw new Error('no exit logged');
}

/**
 * mtools' 3.6 member from 17:10:00 (as --since selects) to the end of its shutdown, as a pod
 * stopped after it leaves its log: its connections open at the exit are among the longest-lived.
 */
const lastSecondsToExit = (): ((contents: string) => boolean) => {
  let exited = false;
  return (contents) => {
    const keep = !exited && textTime(contents) >= '2022-03-13T17:10:00.000Z';
    exited ||= contents.includes(SHUTDOWN_END);
    return keep;
  };
};

for (const row of [
  { file: 'mongod-replica-rs2.log.gz', keep: undefined, opened: true },
  { file: 'mongod-3.6-text-restart.log', keep: lastSecondsToExit, opened: true },
  { file: 'mongod-replica-rs1.log.gz', keep: undefined, opened: false },
] as const) {
  test(`${row.file}${row.keep ? ' from 17:10:00 to its exit' : ''}: a connection open when its member exited on a clean shutdown ended then, not 'still open at the end'`, async (t) => {
    const { records, summary } = await summarize([row.file], row.keep?.());
    const { open, exit } = openAtExit(records.map((r) => r.contents));
    const listed = summary.server!.longLivedConnections;
    const atExit = listed.filter((c) => open.has(`${c.connectionId} ${c.remote}`));
    t.is(atExit.length > 0, row.opened, 'a connection open at the exit is among the longest-lived');
    for (const c of atExit) t.like(c, { end: 'shutdown', closed: exit, durationMillis: Date.parse(exit) - Date.parse(c.opened) });
    // Nothing outlived the exit: no line came after it.
    t.deepEqual(listed.filter((c) => c.end === 'still open'), []);
    t.deepEqual(listed.filter((c) => c.end === 'shutdown').length, atExit.length);
    // The text shows the first 10.
    for (const c of atExit.filter((c) => listed.indexOf(c) < 10)) t.regex(text(summary), new RegExp(` ${exit.slice(0, 19).replace('T', ' ')} \\(shutdown\\) +${c.connectionId} `));
  });
}
