/**
 * The summary's incident sections on real server logs (Hatchet's replica members rs1 and rs2,
 * test/fixtures/real/SOURCES.md), each checked against the lines themselves read with
 * JSON.parse: the slowest single operations.
 */
import path from 'node:path';
import test from 'ava';
import { SummaryCollector } from '../../src/summary/summary-collector.js';
import { cutLine } from '../../src/summary/slowest-operations.js';
import { MAX_SLOWEST_LINE_CHARS, MAX_SLOWEST_OPERATIONS } from '../../src/summary/summary-limits.js';
import type { Summary } from '../../src/summary/summary.js';
import { readRecords, type ReadRecord } from '../_helpers/read-records.js';
import { REAL_DATA } from '../_helpers/sidecar-process.js';

interface ServerLine {
  readonly t: { readonly $date: string };
  readonly s: string;
  readonly id: number;
  readonly ctx: string;
  readonly msg: string;
  readonly attr?: Record<string, unknown>;
}

async function member(file: string): Promise<{ records: ReadRecord[]; lines: ServerLine[]; summary: Summary }> {
  const { records } = await readRecords(path.join(REAL_DATA, file), 'mongodb');
  const collector = new SummaryCollector();
  for (const r of records) collector.add(r.logType, r.record, undefined, { contents: r.contents });
  const summary = collector.summary({ entries: records.length, selected: records.length, notEntries: 0 });
  return { records, lines: records.map((r) => JSON.parse(r.contents) as ServerLine), summary };
}

const durationOf = (line: ServerLine): number => line.attr!['durationMillis'] as number;

for (const file of ['mongod-replica-rs1.log.gz', 'mongod-replica-rs2.log.gz']) {
  test(`${file}: the slowest single operations are the slowest client operations' lines, with their connection, app, figures and line`, async (t) => {
    const { records, lines, summary } = await member(file);
    // Clients' operations and transactions (51803, 51802), not the entries a secondary applied (51801).
    const slow = lines.map((line, i) => ({ line, contents: records[i]!.contents })).filter(({ line }) => (line.id === 51803 || line.id === 51802) && typeof line.attr?.['durationMillis'] === 'number');
    const expected = slow.sort((a, b) => durationOf(b.line) - durationOf(a.line)).slice(0, MAX_SLOWEST_OPERATIONS);
    const got = summary.server!.slowest;
    t.is(got.length, Math.min(MAX_SLOWEST_OPERATIONS, slow.length));
    t.deepEqual(got.map((op) => op.durationMillis), expected.map(({ line }) => durationOf(line)));
    for (const op of got) {
      // Ties in duration may come in either order: find the line by its own text.
      const match = expected.find(({ contents }) => op.line === cutLine(contents, MAX_SLOWEST_LINE_CHARS));
      t.truthy(match, `the line of the ${op.durationMillis} ms operation is one of the slowest`);
      const { line } = match!;
      t.is(op.connection, line.ctx);
      t.is(op.appName, (line.attr!['appName'] as string | undefined) ?? null);
      t.is(op.keysExamined, (line.attr!['keysExamined'] as number | undefined) ?? null);
      t.is(op.docsExamined, (line.attr!['docsExamined'] as number | undefined) ?? null);
      t.is(op.plan, (line.attr!['planSummary'] as string | undefined) ?? null);
      t.is(op.time, new Date(line.t.$date).toISOString());
      t.true(op.line!.length <= MAX_SLOWEST_LINE_CHARS);
    }
    const long = expected.filter(({ contents }) => contents.length > MAX_SLOWEST_LINE_CHARS).length;
    t.is(got.filter((op) => op.line!.endsWith('…')).length, long, 'lines longer than the limit are cut, marked …');
  });
}

test('a line is cut at its limit, never between the halves of a surrogate pair', (t) => {
  t.is(cutLine('abcdef', 6), 'abcdef');
  t.is(cutLine('abcdefg', 6), 'abcde…');
  // '😀' is two UTF-16 units: a cut after its first half drops it whole.
  t.is(cutLine('abcd😀fg', 6), 'abcd…');
  t.is(cutLine('abc😀efg', 6), 'abc😀…');
});
