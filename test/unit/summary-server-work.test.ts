/**
 * The summary's server section on what issue 18 found misread: operations named as the server
 * names them with their query's pattern, applied oplog entries in their own group, slow
 * transactions by outcome, pre-4.4 connections and message templates; and an agent's record
 * over several lines grouped by its first line.
 */
import test from 'ava';
import { parseRecord } from '../../src/parse/parse-record.js';
import { ContinuedRecord } from '../../src/parse/continued-record.js';
import { SummaryCollector } from '../../src/summary/summary-collector.js';
import type { Summary } from '../../src/summary/summary.js';

const server = (id: number, msg: string, attr: object, time = '2026-11-22T10:00:00.000Z'): string =>
  JSON.stringify({ t: { $date: time }, s: 'I', c: id === 51801 ? 'REPL' : 'COMMAND', id, ctx: 'conn1', msg, attr });

function collect(lines: readonly string[]): Summary {
  const collector = new SummaryCollector();
  for (const line of lines) collector.add('mongodb', parseRecord('mongodb', line));
  return collector.summary({ entries: lines.length, selected: lines.length, notEntries: 0 });
}

const groupsOf = (summary: Summary) => summary.server!.slowOperations.map((g) => [g.kind, g.ns, g.operation, g.shape, g.pattern, g.count]);

test('operations as the server names them: statements by their type, commands by name on the collection they name; the pattern beside the hash', (t) => {
  const summary = collect([
    server(51803, 'Slow query', { type: 'update', ns: 'shop.orders', command: { q: { _id: 7 }, u: { $set: { a: 1 } } }, planSummary: 'IDHACK', durationMillis: 120 }),
    server(51803, 'Slow query', { type: 'update', ns: 'shop.orders', command: { q: { _id: 8 }, u: { $set: { a: 2 } } }, planSummary: 'IDHACK', durationMillis: 80 }),
    server(51803, 'Slow query', { type: 'remove', ns: 'shop.orders', command: { q: { status: 'x', age: { $gt: 3 } }, limit: 0 }, planSummary: 'COLLSCAN', durationMillis: 150 }),
    server(51803, 'Slow query', { type: 'command', ns: 'shop.$cmd', command: { delete: 'carts', ordered: true, $db: 'shop' }, durationMillis: 90 }),
    server(51803, 'Slow query', { type: 'command', ns: 'shop.orders', command: { find: 'orders', filter: { email: 'a@b', status: 1 }, sort: { created: -1 } }, queryHash: 'AB12CD34', durationMillis: 300 }),
    server(51803, 'Slow query', { type: 'command', ns: 'shop.orders', command: { find: 'orders', filter: { email: 'c@d', status: 2 }, sort: { created: -1 } }, queryHash: 'AB12CD34', durationMillis: 100 }),
  ]);
  t.deepEqual(groupsOf(summary), [
    ['operation', 'shop.orders', 'find', 'AB12CD34', '{email: 1, status: 1} sort {created: -1}', 2],
    ['operation', 'shop.orders', 'update', 'IDHACK', '{_id: 1}', 2],
    ['operation', 'shop.orders', 'remove', 'COLLSCAN', '{age: 1, status: 1}', 1],
    ['operation', 'shop.carts', 'delete', '-', null, 1],
  ]);
  t.deepEqual(summary.server!.appliedOperations, []);
});

test('applied oplog entries: their own group, by the namespace the entry names and its operation', (t) => {
  const summary = collect([
    server(51801, 'applied op', { CRUD: { op: 'u', ns: 'shop.orders', o: { $v: 2 }, o2: { _id: 1 } }, durationMillis: 200 }),
    server(51801, 'applied op', { CRUD: { op: 'u', ns: 'shop.orders', o: { $v: 2 }, o2: { _id: 2 } }, durationMillis: 100 }),
    server(51801, 'applied op', { CRUD: { ns: 'shop.carts', ts: [1, 2], o: [{ _id: 1 }, { _id: 2 }] }, durationMillis: 150 }),
    server(51801, 'applied op', { command: { op: 'c', ns: 'shop.$cmd', o: { create: 'returns' } }, durationMillis: 120 }),
    server(51801, 'applied op', { truncated: { CRUD: { o: { data: { type: 'string', size: 52000 } } } }, durationMillis: 110 }),
  ]);
  t.deepEqual(
    summary.server!.appliedOperations.map((g) => [g.ns, g.operation, g.count, g.totalMillis]),
    [
      ['shop.orders', 'update', 2, 300],
      ['shop.carts', 'insert', 1, 150],
      ['shop.returns', 'create', 1, 120],
      ['(truncated)', 'operation', 1, 110],
    ],
  );
  t.deepEqual(summary.server!.slowOperations, []);
  t.is(summary.server!.slowPoints.length, 5);
});

test('slow transactions: one group each way they ended', (t) => {
  const summary = collect([
    server(51802, 'transaction', { parameters: { txnNumber: 1 }, terminationCause: 'committed', durationMillis: 40 }),
    server(51802, 'transaction', { parameters: { txnNumber: 2 }, terminationCause: 'aborted', durationMillis: 30 }),
    server(51802, 'transaction', { parameters: { txnNumber: 3 }, terminationCause: 'committed', durationMillis: 20 }),
  ]);
  t.deepEqual(groupsOf(summary), [
    ['transaction', '-', 'transaction', 'committed', null, 2],
    ['transaction', '-', 'transaction', 'aborted', null, 1],
  ]);
});

test('pre-4.4 text: connections as grep counts them with the peak they say; messages by template, numbers masked, no empty one', (t) => {
  const summary = collect([
    '2019-06-18T11:58:58.898+0100 I CONTROL  [initandlisten] ',
    '2019-06-18T11:58:58.899+0100 I CONTROL  [initandlisten] ',
    '2019-06-18T11:59:00.000+0100 I NETWORK  [listener] connection accepted from 127.0.0.1:57374 #1 (1 connection now open)',
    '2019-06-18T11:59:01.000+0100 I NETWORK  [listener] connection accepted from 127.0.0.1:57376 #2 (2 connections now open)',
    '2019-06-18T11:59:02.000+0100 I NETWORK  [conn1] end connection 127.0.0.1:57374 (1 connection now open)',
    '2019-06-18T11:59:03.000+0100 I COMMAND  [conn2] command shop.orders appName: "MongoDB Shell" command: find { find: "orders", filter: { a: 1 } } planSummary: COLLSCAN docsExamined:7 nreturned:1 31ms',
    '2019-06-18T11:59:04.000+0100 I COMMAND  [conn2] command shop.orders appName: "MongoDB Shell" command: find { find: "orders", filter: { a: 2 } } planSummary: COLLSCAN docsExamined:9 nreturned:1 45ms',
  ]);
  const serverSummary = summary.server!;
  t.deepEqual(serverSummary.connections, { opened: 2, closed: 1, peak: 2 });
  t.deepEqual(
    serverSummary.messages.map((m) => [m.msg, m.count]),
    [
      ['command shop.orders command: find', 2],
      ['connection accepted from #.#.#.#:# ## (# connection now open)', 1],
      ['connection accepted from #.#.#.#:# ## (# connections now open)', 1],
      ['end connection #.#.#.#:# (# connection now open)', 1],
    ],
  );
  t.deepEqual(groupsOf(summary), [['operation', 'shop.orders', 'find', 'COLLSCAN', '{a: 1}', 2]]);
  t.deepEqual(serverSummary.bySeverity, [{ key: 'I', count: 7 }]);
});

test("an agent's record over several lines: its problem grouped by its first line", (t) => {
  const collector = new SummaryCollector();
  const line = '[2020-12-04T16:39:07.259-00] [.error] [cm/config/config.go:ReadClusterConfig:416] [16:39:07.259] Error validating syntax of cluster config : clusterConfig failed to validate:';
  // What follows the first line differs in words, not only in numbers.
  for (const rest of ['&{builds <nil>} : Invalid type. Expected: array, given: null', '&{processes <nil>} : Missing property name']) {
    collector.add('automation-agent-verbose', new ContinuedRecord(parseRecord('automation-agent-verbose', line)!, [rest]));
  }
  const problems = collector.summary({ entries: 4, selected: 2, notEntries: 0 }).problems;
  t.deepEqual(problems[0]?.messages.map((m) => [m.message, m.count]), [['Error validating syntax of cluster config : clusterConfig failed to validate:', 2]]);
});
