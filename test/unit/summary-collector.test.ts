import test from 'ava';
import { parseRecord } from '../../src/parse/parse-record.js';
import { SummaryCollector } from '../../src/summary/summary-collector.js';
import { messageShape } from '../../src/summary/message-shape.js';
import { DurationQuantiles, RELATIVE_ACCURACY } from '../../src/summary/duration-quantiles.js';
import { TopN } from '../../src/summary/top-n.js';
import { BoundedCounts } from '../../src/summary/bounded-counts.js';
import { foldActivity } from '../../src/summary/activity-fold.js';
import { formatTable, sparkline } from '../../src/summary/render-summary-text.js';

const server = (time: string, s: string, c: string, id: number, ctx: string, msg: string, attr?: object): string =>
  JSON.stringify({ t: { $date: time }, s, c, id, ctx, msg, ...(attr ? { attr } : {}) });

const slow = (time: string, ms: number, plan: string, ns = 'shop.orders', hash = 'AAAA1111') =>
  server(time, 'I', 'COMMAND', 51803, 'conn1', 'Slow query', { type: 'command', ns, command: { find: 'orders' }, planSummary: plan, docsExamined: 1000, nreturned: 10, queryHash: hash, durationMillis: ms });

function collect(lines: [string, string][]): ReturnType<SummaryCollector['summary']> {
  const collector = new SummaryCollector();
  for (const [type, line] of lines) collector.add(type, parseRecord(type, line));
  return collector.summary({ entries: lines.length, selected: lines.length, notEntries: 0 });
}

test('server: severities, components, messages by id, connections and their peak', (t) => {
  const summary = collect([
    ['mongodb', server('2026-11-22T10:00:00.000Z', 'I', 'NETWORK', 22943, 'listener', 'Connection accepted', { connectionCount: 5 })],
    ['mongodb', server('2026-11-22T10:00:01.000Z', 'I', 'NETWORK', 22943, 'listener', 'Connection accepted', { connectionCount: 6 })],
    ['mongodb', server('2026-11-22T10:00:02.000Z', 'I', 'NETWORK', 22944, 'conn1', 'Connection ended', { connectionCount: 5 })],
    ['mongodb', server('2026-11-22T10:00:03.000Z', 'W', 'REPL', 21402, 'ReplCoord-1', 'Lost contact')],
  ]);
  t.deepEqual(summary.server?.bySeverity, [{ key: 'I', count: 3 }, { key: 'W', count: 1 }]);
  t.deepEqual(summary.server?.byComponent, [{ key: 'NETWORK', count: 3 }, { key: 'REPL', count: 1 }]);
  t.deepEqual(summary.server?.connections, { opened: 2, closed: 1, peak: 6 });
  t.deepEqual(summary.server?.messages[0], { id: 22943, msg: 'Connection accepted', severity: 'I', count: 2 });
  t.is(summary.types[0]?.warnings, 1);
  t.is(summary.types[0]?.perMinute, 4);
});

test('server: restarts (two start lines are one restart), state changes and elections in time order', (t) => {
  const summary = collect([
    // A line a minute before the start: the start is a restart the input shows.
    ['mongodb', server('2026-11-22T09:59:00.000Z', 'I', 'NETWORK', 22944, 'conn5', 'Connection ended')],
    ['mongodb', server('2026-11-22T10:05:00.000Z', 'I', 'REPL', 21358, 'ReplCoord-1', 'Replica set state transition', { newState: 'PRIMARY', oldState: 'SECONDARY' })],
    ['mongodb', server('2026-11-22T10:00:00.000Z', 'I', 'CONTROL', 20698, 'thread1', '***** SERVER RESTARTED *****')],
    ['mongodb', server('2026-11-22T10:00:00.010Z', 'I', 'CONTROL', 4615611, 'initandlisten', 'MongoDB starting')],
    ['mongodb', server('2026-11-22T10:04:59.000Z', 'I', 'ELECTION', 21450, 'ReplCoord-1', 'Election succeeded, assuming primary role')],
    ['mongodb', '2022-07-29T06:09:45.380+0000 I  REPL     [rsSync] transition to SECONDARY from RECOVERING'],
  ]);
  // No shutdown line before it: the server was killed or crashed.
  t.deepEqual(summary.server?.restarts, [{ time: '2026-11-22T10:00:00.000Z', version: null, shutdownBefore: false }]);
  t.deepEqual(summary.server?.replication.map((e) => e.event), [
    'this member: RECOVERING → SECONDARY',
    'election: Election succeeded, assuming primary role',
    'this member: SECONDARY → PRIMARY',
  ]);
});

test('server: a start its log begins with is no restart seen: marked so; a later one is a restart', (t) => {
  const summary = collect([
    ['mongodb', server('2026-11-22T10:00:00.000Z', 'I', 'CONTROL', 20698, 'thread1', '***** SERVER RESTARTED *****')],
    ['mongodb', server('2026-11-22T10:00:00.010Z', 'I', 'CONTROL', 4615611, 'initandlisten', 'MongoDB starting')],
    ['mongodb', server('2026-11-22T10:03:00.000Z', 'I', 'NETWORK', 22944, 'conn5', 'Connection ended')],
    ['mongodb', server('2026-11-22T10:05:00.000Z', 'I', 'CONTROL', 4615611, 'initandlisten', 'MongoDB starting')],
  ]);
  t.deepEqual(summary.server?.restarts, [
    { time: '2026-11-22T10:00:00.000Z', version: null, atLogStart: true },
    { time: '2026-11-22T10:05:00.000Z', version: null, shutdownBefore: false },
  ]);
});

test('slow operations: grouped by namespace, operation and shape, sorted by total, COLLSCAN marked', (t) => {
  const lines: [string, string][] = [];
  for (let i = 1; i <= 20; i++) lines.push(['mongodb', slow(`2026-11-22T10:00:${String(i).padStart(2, '0')}.000Z`, i * 100, 'COLLSCAN')]);
  lines.push(['mongodb', slow('2026-11-22T10:01:00.000Z', 5000, 'IXSCAN { a: 1 }', 'shop.carts', 'BBBB2222')]);
  const groups = collect(lines).server!.slowOperations;
  t.is(groups.length, 2);
  t.like(groups[0], { ns: 'shop.orders', operation: 'find', shape: 'AAAA1111', collscan: true, count: 20, totalMillis: 21000, p50Millis: 1000, p95Millis: 1900, maxMillis: 2000, examinedPerReturned: 100 });
  t.like(groups[1], { ns: 'shop.carts', collscan: false, count: 1, totalMillis: 5000 });
});

test('slow operations of pre-4.4 text logs are read from their text', (t) => {
  const summary = collect([
    [
      'mongodb',
      '2019-06-18T12:03:05.860+0100 I COMMAND  [conn2] command local.startup_log appName: "MongoDB Shell" command: find { find: "startup_log", filter: {} } planSummary: COLLSCAN keysExamined:0 docsExamined:7 cursorExhausted:1 numYields:0 nreturned:1 reslen:1912 protocol:op_msg 31ms',
    ],
  ]);
  t.like(summary.server?.slowOperations[0], { ns: 'local.startup_log', operation: 'find', collscan: true, totalMillis: 31, examinedPerReturned: 7 });
});

test('audit: events by type; failed authentications by user and source', (t) => {
  const auth = (user: string, ip: string, result: number) =>
    JSON.stringify({ atype: 'authenticate', ts: { $date: '2026-11-22T10:00:00Z' }, remote: { ip, port: 5000 }, users: [], param: { user, db: 'admin' }, result });
  const summary = collect([
    ['mongodb-audit', auth('alice', '10.0.0.1', 18)],
    ['mongodb-audit', auth('alice', '10.0.0.1', 18)],
    ['mongodb-audit', auth('bob', '10.0.0.2', 18)],
    ['mongodb-audit', auth('carol', '10.0.0.3', 0)],
    ['mongodb-audit', JSON.stringify({ atype: 'dropCollection', ts: { $date: '2026-11-22T10:00:01Z' }, users: [{ user: 'x', db: 'y' }], result: 13 })],
  ]);
  t.deepEqual(summary.audit?.byAtype, [{ key: 'authenticate', count: 4 }, { key: 'dropCollection', count: 1 }]);
  t.deepEqual(summary.audit?.failedAuthentications, [
    { user: 'alice@admin', source: '10.0.0.1', count: 2 },
    { user: 'bob@admin', source: '10.0.0.2', count: 1 },
  ]);
  t.deepEqual(summary.audit?.otherFailures, [{ key: 'dropCollection', count: 1 }]);
});

test('agents and operator: errors before warnings, messages grouped by shape', (t) => {
  const agent = (level: string, message: string) => `[2026-11-22T10:00:00.000+0000] [.${level}] [a.go:1] [10:00:00.000] ${message}`;
  const summary = collect([
    ['automation-agent', agent('warn', 'Server at host-1:27017 is down')],
    ['automation-agent', agent('warn', 'Server at host-2:27017 is down')],
    ['automation-agent', agent('error', 'Failed to apply plan 42')],
    ['automation-agent', agent('info', 'All good')],
    ['operator', '{"level":"error","ts":"2026-11-22T10:00:00Z","caller":"c.go:1","msg":"boom"}'],
  ]);
  t.deepEqual(summary.problems.map((p) => p.logType), ['operator', 'automation-agent']);
  t.deepEqual(summary.problems[1]?.messages, [
    { message: 'Failed to apply plan #', level: 'error', count: 1, example: 'Failed to apply plan 42' },
    { message: 'Server at host-#:# is down', level: 'warn', count: 2, example: 'Server at host-1:27017 is down' },
  ]);
});

test('activity: a bucket per minute, errors counted apart; lines without a time are left out', (t) => {
  const agent = (time: string, level: string) => `[${time}] [.${level}] [a.go:1] x`;
  const summary = collect([
    ['automation-agent', agent('2026-11-22T10:00:10.000+0000', 'info')],
    ['automation-agent', agent('2026-11-22T10:00:20.000+0000', 'error')],
    ['automation-agent', agent('2026-11-22T10:02:00.000+0000', 'info')],
    ['automation-agent-stderr', 'goroutine 1 [running]: no time here'],
  ]);
  t.is(summary.activity.start, '2026-11-22T10:00:00.000Z');
  t.deepEqual(summary.activity.buckets.map((b) => [b.lines, b.errors]), [[2, 1], [0, 0], [1, 0]]);
  t.is(summary.types.find((x) => x.logType === 'automation-agent-stderr')?.unparsed, 1);
});

test('quantiles: exact while few; beyond, within 1% of the exact nearest rank, in bounded buckets; counts stay exact', (t) => {
  const q = new DurationQuantiles(100);
  for (let i = 1; i <= 100; i++) q.add(i);
  t.true(q.exact);
  t.is(q.quantile(0.5), 50);
  t.is(q.quantile(0.95), 95);
  // Past the capacity: a skewed stream (many small, a few huge), shuffled by a fixed stride.
  const values = Array.from({ length: 100_000 }, (_, i) => Math.round(Math.exp(((i * 7919) % 100_000) / 8000)));
  for (const value of values.slice(100)) q.add(value);
  t.false(q.exact);
  t.is(q.count, 100_000);
  const all = [...values.slice(100), ...Array.from({ length: 100 }, (_, i) => i + 1)].sort((a, b) => a - b);
  t.is(q.max, all.at(-1)!);
  for (const p of [0.01, 0.25, 0.5, 0.9, 0.95, 0.99, 1]) {
    const exact = all[Math.ceil(p * all.length) - 1]!;
    const sketched = q.quantile(p);
    // As shown, a whole millisecond: within 1% of the exact value (or exact).
    t.true(Math.abs(sketched - exact) <= exact * RELATIVE_ACCURACY, `p${p * 100}: ${sketched} against ${exact}`);
  }
  // From a reports trial: every whole value from 1 ms to 20 s, each as the median of a sketched stream, comes back within 1%.
  for (let median = 1; median <= 20_000; median += median < 500 ? 1 : 37) {
    const one = new DurationQuantiles(10);
    for (let i = 0; i < 5; i++) one.add(Math.floor(median / 2));
    one.add(median);
    for (let i = 0; i < 5; i++) one.add(median * 2);
    t.true(Math.abs(one.quantile(0.5) - median) <= median * RELATIVE_ACCURACY, `${median} ms came back as ${one.quantile(0.5)}`);
  }
  // Small whole milliseconds come back exactly (a bucket narrower than 1 ms holds one value).
  const small = new DurationQuantiles(10);
  for (let i = 0; i < 10_000; i++) small.add(i % 40);
  t.is(small.quantile(0.5), 19);
  t.is(small.quantile(0.99), 39);
});

test('top n: the greatest, greatest first, in bounded memory', (t) => {
  const top = new TopN<number>(3, (n) => n);
  for (const n of [5, 1, 9, 3, 7, 9, 2]) top.add(n);
  t.deepEqual(top.items(), [9, 9, 7]);
  t.false(top.wouldHold(7));
  t.true(top.wouldHold(8));
});

test('bounded counts: a new key past the limit folds the least frequent half into other; the frequent key stays', (t) => {
  const counts = new BoundedCounts(2);
  // c folds b (a is kept, 2 to 1); d folds c (counted 1, and it may miss the 1 folded before it).
  for (const key of ['a', 'b', 'a', 'c', 'd', 'a']) counts.add(key);
  t.deepEqual(counts.top().map(({ key, count }) => [key, count]), [['a', 3], ['d', 1]]);
  t.is(counts.other, 2);
});

test('bounded counts: a rank keeps errors past any number of warnings', (t) => {
  const counts = new BoundedCounts<string>(4, 1, (level) => (level === 'E' ? 0 : 1));
  counts.add('E: disk', () => 'E');
  for (let i = 0; i < 100; i++) for (let j = 0; j <= i % 3; j++) counts.add(`W: warning ${i}`, () => 'W');
  counts.add('E: late', () => 'E');
  const keys = counts.top().map(({ key }) => key);
  t.true(keys.includes('E: disk') && keys.includes('E: late'), keys.join(', '));
});

test('bounded counts: the keys counted last are counted as the map alone counts them (recent 0), each with its one value, past the limit and its folds too', (t) => {
  for (const recent of [1, 2, 4, 7]) {
    const counts = new BoundedCounts<string, number | string>(6, recent);
    const mapOnly = new BoundedCounts<string, number | string>(6, 0);
    let seed = recent;
    for (let i = 0; i < 5000; i++) {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      // A handful of keys interleaved (numbers and texts, 0 and -0), and rarer ones past the limit.
      const pick = seed % 23;
      const key = pick < 8 ? [22943, 22944, 51800, 'NETWORK', 'ACCESS', 0, -0, 'text:x'][pick]! : pick < 20 ? 22943 + (pick % 3) : `rare ${seed % 97}`;
      const held = counts.add(key, () => `first ${String(key)} at ${i}`);
      const expected = mapOnly.add(key, () => `first ${String(key)} at ${i}`);
      t.is(held.count, expected.count);
      t.is(held.value, expected.value);
    }
    t.deepEqual(counts.top(), mapOnly.top());
    t.is(counts.other, mapOnly.other, `recent ${recent}`);
    t.true(counts.other > 0, 'rows were folded');
    // Every line is counted once: in a row or in "other".
    t.is(counts.top().reduce((sum, { count }) => sum + count, counts.other), 5000);
  }
});

const shapes: [string, string][] = [
  ['Failed to apply plan 42', 'Failed to apply plan #'],
  ['lsid 9b1e4c4e-6c55-4f5c-9a3e-0c7d5e3f2a11 gone', 'lsid <uuid> gone'],
  ['pointer 0x7f3a9c', 'pointer <hex>'],
  ['POINTER 0X7F3A9C, uuid 9B1E4C4E-6C55-4F5C-9A3E-0C7D5E3F2A11', 'POINTER <hex>, uuid <uuid>'],
  ['a-b 0xg 10x5 0x', 'a-b #xg #x# #x'],
  ['no digits at all', 'no digits at all'],
  // An HTTP status is what tells one failure from another (a field trial: 401 and 503 were one group).
  ['Error sending request : Expected status code to be 200, but was 503', 'Error sending request : Expected status code to be 200, but was 503'],
  ['Status: 400 (Bad Request), Detail: Invalid config for 12 processes', 'Status: 400 (Bad Request), Detail: Invalid config for # processes'],
  ['HTTP 503 after 1500 ms, 3 tries', 'HTTP 503 after # ms, # tries'],
  ['retry 503 of 900', 'retry # of #'],
  // Other numbers of a message that speaks of a status are masked (a review: an address and a duration split groups).
  ['Failed to get cluster status from 10.1.150.23: timed out after 250 ms', 'Failed to get cluster status from #.#.#.#: timed out after # ms'],
  ['replSetGetStatus took 431ms', 'replSetGetStatus took #ms'],
  ['GET /api/agents returned statusCode=401 after 300 ms', 'GET /api/agents returned statusCode=401 after # ms'],
];
for (const [message, shape] of shapes) {
  test(`message shape of "${message}"`, (t) => {
    t.is(messageShape(message), shape);
  });
}

test('text helpers: tables align, sparklines scale, activity folds to the width', (t) => {
  t.deepEqual(formatTable(['a', 'count'], [['xx', '1'], ['y', '100']], [false, true]), ['  a   count', '  xx      1', '  y     100']);
  t.is(sparkline([0, 1, 4, 8]), ' ▂▅█');
  const buckets = Array.from({ length: 10 }, (_, i) => ({ lines: i, errors: 0, warnings: 0, byType: {} }));
  t.deepEqual(foldActivity({ start: '2026-11-22T10:00:00.000Z', bucketMinutes: 1, buckets }, 4).lines, [3, 12, 21, 9]);
});

test("an agent's message written as a warning and as an error is two groups, each under its own level: no error counted as a warning", (t) => {
  const collector = new SummaryCollector();
  const line = (second: number, level: string, host: number): string => `[2026-11-27T10:00:0${second}.000+0000] [.${level}] [a.go:F:1] [10:00:0${second}.000] Server at host-${host}:27017 is down`;
  for (const [second, level, host] of [[0, 'warn', 1], [1, 'error', 2], [2, 'error', 3]] as const) collector.add('automation-agent', parseRecord('automation-agent', line(second, level, host)));
  const [problems] = collector.summary({ entries: 3, selected: 3, notEntries: 0 }).problems;
  t.deepEqual(
    problems!.messages.map(({ message, level, count, example }) => ({ message, level, count, example })),
    [
      { message: 'Server at host-#:# is down', level: 'error', count: 2, example: 'Server at host-2:27017 is down' },
      { message: 'Server at host-#:# is down', level: 'warn', count: 1, example: 'Server at host-1:27017 is down' },
    ],
  );
});

test("the sidecar's warnings in the summary name the log each is about (its source), and count apart for two logs", (t) => {
  const collector = new SummaryCollector();
  const lost = (source: string, position: number): string =>
    `{"level":40,"time":"2026-11-27T10:38:25.371Z","logType":"logtype-sidecar","event":"resume-lost","source":"${source}","path":"/logs/${source}.log","position":${position},"msg":"a file read before the restart (${position} bytes of it delivered) is not found"}`;
  for (const [source, position] of [['automation-agent', 330], ['mongodb', 12], ['mongodb', 99]] as const) collector.add('logtype-sidecar', parseRecord('logtype-sidecar', lost(source, position)));
  const [problems] = collector.summary({ entries: 3, selected: 3, notEntries: 0 }).problems;
  t.deepEqual(
    problems!.messages.map(({ message, count }) => [message, count]),
    [
      ['mongodb: a file read before the restart (# bytes of it delivered) is not found', 2],
      ['automation-agent: a file read before the restart (# bytes of it delivered) is not found', 1],
    ],
  );
});

test('a server line with an empty severity ("s":"") is counted under ?, not a blank', (t) => {
  const collector = new SummaryCollector();
  const line = (s: string): string => `{"t":{"$date":"2026-11-22T09:58:39.063Z"},"s":"${s}","c":"NETWORK","id":1,"ctx":"c","msg":"m"}`;
  for (const s of ['', 'I']) collector.add('mongodb', parseRecord('mongodb', line(s)));
  t.deepEqual(collector.summary({ entries: 2, selected: 2, notEntries: 0 }).server?.bySeverity.map((c) => c.key).sort(), ['?', 'I']);
});
