/** The library examples of docs/library.md, run against the package root: the documented API works as shown. */
import test from 'ava';
import {
  ProblemFinder,
  SummaryCollector,
  encodeEntry,
  escapeTerminal,
  palette,
  parseLinePrefix,
  parseRecord,
  parseTimeBound,
  recordPredicate,
  renderRecord,
  renderSummaryText,
  slowOperationOf,
} from '../../src/index.js';

test('docs/library.md: parse, select and render a server line', (t) => {
  const line =
    '{"t":{"$date":"2026-11-22T10:00:05.000Z"},"s":"I","c":"COMMAND","id":51803,"ctx":"conn42","msg":"Slow query","attr":{"ns":"shop.orders","planSummary":"COLLSCAN","durationMillis":2500}}';
  const record = parseRecord('mongodb', line)!;
  t.deepEqual(slowOperationOf(record), { durationMillis: 2500, ns: 'shop.orders', plan: 'COLLSCAN', type: undefined });
  const slowScans = recordPredicate({ slowMillis: 1000, plan: 'COLLSCAN', since: parseTimeBound('2h', new Date('2026-11-22T11:00:00Z')) });
  t.true(slowScans('mongodb', record));
  t.false(recordPredicate({ since: parseTimeBound('2h', new Date('2026-11-22T13:00:00Z')) })('mongodb', record));
  t.is(renderRecord(record, palette(false)), 'INFO  COMMAND [conn42] 2500ms shop.orders COLLSCAN Slow query');
});

test('docs/library.md: summarise and diagnose', (t) => {
  const record = parseRecord(
    'mongodb',
    '{"t":{"$date":"2026-11-22T10:00:05.000Z"},"s":"I","c":"COMMAND","id":51803,"ctx":"conn42","msg":"Slow query","attr":{"ns":"shop.orders","planSummary":"COLLSCAN","durationMillis":2500}}',
  );
  const collector = new SummaryCollector();
  collector.add('mongodb', record);
  const summary = collector.summary({ entries: 1, selected: 1, notEntries: 0 });
  t.like(summary.server?.slowOperations[0], { ns: 'shop.orders', operation: '?', shape: 'COLLSCAN', count: 1 });
  const text = renderSummaryText(summary, { palette: palette(false), utc: true, width: 60 });
  t.regex(text, /2500ms +1 .*shop\.orders/);
  // Records added without their entries: the slowest operations' table stands without a 'their lines:' heading over nothing.
  t.regex(text, /^Slowest operations$/m);
  t.notRegex(text, /their lines:/);
  const finder = new ProblemFinder();
  finder.look('automation-agent-stderr', 'write …: no space left on device', () => undefined);
  t.regex(finder.findings()[0]?.problem.remedy ?? '', /^Free or grow the volume \(expand the PVC\); /);
});

test('docs/library.md: encoding, prefixes, terminal safety', (t) => {
  t.is(encodeEntry('mongodb', 'a "quoted" line'), '{"logType":"mongodb","contents":"a \\"quoted\\" line"}\n');
  t.like(parseLinePrefix('[pod/db-0/c] {"logType"…'), { length: 13, text: '[pod/db-0/c] ', source: 'pod/db-0/c' });
  t.is(escapeTerminal('\u001b[2J'), '\\e[2J');
});
