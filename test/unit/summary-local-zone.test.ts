/**
 * The summary's times in local time say their zone: the page's times are UTC, kubectl's too, and
 * a local time without its zone cannot be put beside them. On mtools' 4.0 log, whose lines run
 * from November 2018 to June 2019, across a change to summer time (test/fixtures/real/SOURCES.md).
 */
import path from 'node:path';
import test from 'ava';
import { palette } from '../../src/render/colors.js';
import { renderSummaryText } from '../../src/summary/render-summary-text.js';
import { SummaryCollector } from '../../src/summary/summary-collector.js';
import type { Summary } from '../../src/summary/summary.js';
import { readRecords } from '../_helpers/read-records.js';
import { REAL_DATA } from '../_helpers/sidecar-process.js';

// This worker's own zone (ava runs each file in a process of its own); Node reads TZ when it changes.
process.env['TZ'] = 'America/New_York';

async function summary(): Promise<Summary> {
  const { records } = await readRecords(path.join(REAL_DATA, 'mongod-4.0-text-slow-transactions.log'), 'mongodb');
  const collector = new SummaryCollector();
  for (const r of records) collector.add(r.logType, r.record, undefined, { contents: r.contents });
  return collector.summary({ entries: records.length, selected: records.length, notEntries: 0 });
}

/** `2019-06-18 09:28:48` at `-04:00`, as an instant; to the second, as the header shows it. */
const instant = (local: string, offset: string): number => Date.parse(`${local.replace(' ', 'T')}${offset}`);
const toSecond = (iso: string): number => Math.floor(Date.parse(iso) / 1000) * 1000;

test('in local time, the span says its zone at each end, and the times with it are the span\'s instants', async (t) => {
  const s = await summary();
  const header = renderSummaryText(s, { palette: palette(false), utc: false, width: 60 }).split('\n')[1]!;
  const match = /^from (\S+ \S+) to (\S+ \S+) local time \(UTC([+-]\d\d:\d\d) to UTC([+-]\d\d:\d\d)\)$/.exec(header);
  t.truthy(match, header);
  const [, from, to, fromZone, toZone] = match!;
  t.not(fromZone, toZone, 'winter at one end, summer at the other');
  t.is(instant(from!, fromZone!), toSecond(s.first!));
  t.is(instant(to!, toZone!), toSecond(s.last!));
});

test('with --utc, the span says UTC', async (t) => {
  const s = await summary();
  const header = renderSummaryText(s, { palette: palette(false), utc: true, width: 60 }).split('\n')[1]!;
  t.is(header, `from ${s.first!.slice(0, 19).replace('T', ' ')} to ${s.last!.slice(0, 19).replace('T', ' ')} UTC`);
});
