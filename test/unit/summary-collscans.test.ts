/**
 * The text summary says how many slow operations were COLLSCANs, where it lists them: --json's
 * collscansSeen and the page's plot said it, the text did not (rs1 has 2,608). On real server
 * logs (test/fixtures/real/SOURCES.md), each figure read from the lines' own words: a 4.4+ slow
 * query is id 51803, a COLLSCAN's plan `"planSummary":"COLLSCAN`; a pre-4.4 slow operation ends in
 * its duration (`… 37ms`), the oplog entries a secondary applied (REPL) aside.
 */
import path from 'node:path';
import test from 'ava';
import { palette } from '../../src/render/colors.js';
import { renderSummaryText } from '../../src/summary/render-summary-text.js';
import { SummaryCollector } from '../../src/summary/summary-collector.js';
import { readRecords } from '../_helpers/read-records.js';
import { REAL_DATA } from '../_helpers/sidecar-process.js';

const isJsonSlow = (line: string): boolean => line.includes('"id":51803,');
const isTextSlow = (line: string): boolean => / \d+ms$/.test(line) && !/^\S+ I\s+REPL /.test(line);
const JSON_COLLSCAN = '"planSummary":"COLLSCAN';
const TEXT_COLLSCAN = ' planSummary: COLLSCAN';

const rows = [
  { file: 'mongod-replica-rs1.log.gz', slow: isJsonSlow, collscan: JSON_COLLSCAN },
  { file: 'mongod-replica-rs2.log.gz', slow: isJsonSlow, collscan: JSON_COLLSCAN },
  { file: 'mongod-4.0-text-slow-transactions.log', slow: isTextSlow, collscan: TEXT_COLLSCAN },
  { file: 'mongod-4.2-text.log', slow: isTextSlow, collscan: TEXT_COLLSCAN },
  // Its lines but the COLLSCANs (as a selection can leave them out): none, said so.
  { file: 'mongod-replica-rs2.log.gz', slow: isJsonSlow, collscan: JSON_COLLSCAN, without: true },
] as const;

for (const row of rows) {
  test(`${row.file}${'without' in row ? ' without its COLLSCANs' : ''}: the text's slow operations say how many were COLLSCANs, as their lines do`, async (t) => {
    const { records } = await readRecords(path.join(REAL_DATA, row.file), 'mongodb');
    const collector = new SummaryCollector();
    const kept = 'without' in row ? records.filter((r) => !r.contents.includes(row.collscan)) : records;
    for (const r of kept) collector.add(r.logType, r.record, undefined, { contents: r.contents });
    const summary = collector.summary({ entries: kept.length, selected: kept.length, notEntries: 0 });
    const slow = kept.map((r) => r.contents).filter(row.slow);
    const collscans = slow.filter((line) => line.includes(row.collscan)).length;
    const text = renderSummaryText(summary, { palette: palette(false), utc: true, width: 60 });
    const n = (count: number): string => count.toLocaleString('en-US');
    if (slow.length === 0) {
      t.notRegex(text, /COLLSCAN/);
      return;
    }
    if (collscans === 0) {
      t.true(text.includes(`\nSlow operations, by total time\n  COLLSCANs: none among the ${n(slow.length)} slow operations\n`), text.slice(text.indexOf('Slow operations')));
      return;
    }
    const groups = summary.server!.slowOperations.filter((g) => g.collscan).length;
    t.true(text.includes(`\nSlow operations, by total time\n  COLLSCANs: ${n(collscans)} of the ${n(slow.length)} slow operations, in ${groups} groups, marked ◀\n`), text.slice(text.indexOf('Slow operations')));
    t.is(summary.server!.collscansSeen, collscans, 'the figure --json says');
  });
}
