/**
 * The summary's incident sections on real server logs (Hatchet's replica members rs1 and rs2,
 * test/fixtures/real/SOURCES.md), each checked against the lines themselves read with
 * JSON.parse (the text logs of mtools with their own words): the slowest single operations;
 * connections by client IP, drivers and appName, restarts with the version started; response
 * sizes by namespace, appName and client IP; the longest-lived connections.
 */
import path from 'node:path';
import test from 'ava';
import { parseRecord } from '../../src/parse/parse-record.js';
import { SummaryCollector } from '../../src/summary/summary-collector.js';
import { chartMarkers } from '../../src/summary/chart-markers.js';
import { cutLine } from '../../src/summary/slowest-operations.js';
import { remoteHost } from '../../src/summary/client-connections.js';
import { MAX_CLIENT_DRIVERS, MAX_CLIENT_IPS, MAX_LONG_LIVED_CONNECTIONS, MAX_MESSAGE_CHARS, MAX_RESPONSE_SIZE_KEYS, MAX_SLOWEST_LINE_CHARS, MAX_SLOWEST_OPERATIONS } from '../../src/summary/summary-limits.js';
import type { ResponseSize, Summary } from '../../src/summary/summary.js';
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

/** Entries by key, in key order: the order a table lists them in is tested on its own. */
const sorted = <V>(entries: Iterable<readonly [string, V]>): [string, V][] => [...entries].map(([k, v]): [string, V] => [k, v]).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));

const byKey = <T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> => {
  const map = new Map<string, T[]>();
  for (const item of items) map.set(key(item), [...(map.get(key(item)) ?? []), item]);
  return map;
};

for (const file of ['mongod-replica-rs1.log.gz', 'mongod-replica-rs2.log.gz']) {
  test(`${file}: connections by client IP, drivers with version and appName, and the restart with the version it started`, async (t) => {
    const { lines, summary } = await member(file);
    const server = summary.server!;
    const host = (line: ServerLine): string => (line.attr!['remote'] as string).replace(/:\d+$/, '');
    const accepted = byKey(lines.filter((l) => l.id === 22943), host);
    const ended = byKey(lines.filter((l) => l.id === 22944), host);
    t.deepEqual(
      sorted(server.clients.map((c) => [c.ip, [c.opened, c.ended]] as const)),
      sorted([...new Set([...accepted.keys(), ...ended.keys()])].map((ip) => [ip, [accepted.get(ip)?.length ?? 0, ended.get(ip)?.length ?? 0]] as const)),
    );
    t.true(server.clients.length > 0);
    const metadata = lines.filter((l) => l.id === 51800).map((l) => {
      const doc = l.attr!['doc'] as { driver: { name: string; version: string }; application?: { name: string } };
      return { key: `${doc.driver.name} ${doc.driver.version} ${doc.application?.name ?? '-'}`, ip: host(l) };
    });
    const drivers = byKey(metadata, (m) => m.key);
    t.deepEqual(
      sorted(server.drivers.map((d) => [`${d.driver} ${d.version} ${d.appName}`, [d.connections, d.ips]] as const)),
      sorted([...drivers].map(([key, ms]) => [key, [ms.length, [...new Set(ms.map((m) => m.ip))].sort()]] as const)),
    );
    t.true(server.drivers.some((d) => d.appName !== '-'), 'an appName is read');
    t.true(server.drivers.every((d, i) => i === 0 || server.drivers[i - 1]!.connections >= d.connections), 'the most connections first');
    const versions = lines.filter((l) => l.id === 23403).map((l) => (l.attr!['buildInfo'] as { version: string }).version);
    t.deepEqual(server.restarts.map((r) => r.version), versions);
    t.is(server.restarts.length, lines.filter((l) => l.id === 4615611).length);
  });
}

test('pre-4.4 text logs: connections by client IP, drivers from the metadata text, the version a start wrote; a version a log rotation writes is no restart', async (t) => {
  for (const [file, restarts] of [
    ['mongod-4.0-text-slow-transactions.log', 1],
    ['mongod-4.2-text.log', 0],
  ] as const) {
    const { records } = await readRecords(path.join(REAL_DATA, file), 'mongodb');
    const collector = new SummaryCollector();
    for (const r of records) collector.add(r.logType, r.record, undefined, { contents: r.contents });
    const server = collector.summary({ entries: records.length, selected: records.length, notEntries: 0 }).server!;
    const text = records.map((r) => r.contents);
    const count = (words: string, ip: string): number => text.filter((l) => l.includes(`] ${words} ${ip}:`)).length;
    t.true(server.clients.length > 0, file);
    for (const c of server.clients) t.deepEqual([c.opened, c.ended], [count('connection accepted from', c.ip), count('end connection', c.ip)], `${file} ${c.ip}`);
    t.is(
      server.clients.reduce((n, c) => n + c.opened, 0),
      text.filter((l) => l.includes('] connection accepted from ')).length,
    );
    const metadata = text.filter((l) => l.includes('] received client metadata from '));
    t.is(server.drivers.reduce((n, d) => n + d.connections, 0), metadata.length, file);
    for (const d of server.drivers) {
      const mine = metadata.filter((l) => l.includes(`driver: { name: "${d.driver}", version: "${d.version}" }`) && (d.appName === '-' ? !l.includes('application: {') : l.includes(`application: { name: "${d.appName}" }`)));
      t.is(mine.length, d.connections, `${file} ${d.driver} ${d.version} ${d.appName}`);
    }
    const versions = text.filter((l) => l.includes('] db version v')).map((l) => l.slice(l.indexOf('db version v') + 'db version v'.length));
    t.deepEqual(server.restarts.map((r) => r.version), versions.slice(0, restarts), file);
  }
});

test('a remote without its port: IPv4, bracketed IPv6, and what has no port', (t) => {
  t.is(remoteHost('10.118.67.176:50202'), '10.118.67.176');
  t.is(remoteHost('[::1]:27017'), '::1');
  t.is(remoteHost('::1'), '::1');
  t.is(remoteHost('anonymous unix socket'), 'anonymous unix socket');
});

test('a remote without its port: as the expressions say, for every form', (t) => {
  // The reference: the expressions remoteHost was first written with.
  const reference = (remote: string): string => {
    const bracketed = /^\[([^\]]*)\](?::\d+)?$/.exec(remote);
    if (bracketed) return bracketed[1]!;
    const colon = remote.lastIndexOf(':');
    return colon > 0 && remote.indexOf(':') === colon && /^\d+$/.test(remote.slice(colon + 1)) ? remote.slice(0, colon) : remote;
  };
  const remotes = ['10.118.67.176:50202', 'host:1', '[::1]:27017', '[::1]', '[::1]:', '[::1]:x', '[fe80::1%eth0]:5', '[', '[]:1', '::1', 'fe80::1:27017', ':27017', 'host:', 'host:27017x', 'host:2701 7', 'host:-1', 'a:b:1', '', 'anonymous unix socket', '/tmp/mongodb-27017.sock', 'hôte:٣'];
  for (const remote of remotes) t.is(remoteHost(remote), reference(remote), remote);
});

test('client IPs and drivers are bounded: past their limits, the lightest rows are folded into one "(other)" row each, every connection counted once', async (t) => {
  const { records } = await member('mongod-replica-rs1.log.gz');
  const accepted = records.find((r) => r.record?.id === 22943)!.contents;
  const metadata = records.find((r) => r.record?.id === 51800)!.contents;
  const collector = new SummaryCollector();
  const extra = 37;
  for (let i = 0; i < MAX_CLIENT_IPS + extra; i++) {
    const ip = `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;
    collector.add('mongodb', parseRecord('mongodb', accepted.replace('"remote":"127.0.0.1:', `"remote":"${ip}:`)));
  }
  for (let i = 0; i < MAX_CLIENT_DRIVERS + extra; i++) collector.add('mongodb', parseRecord('mongodb', metadata.replace('"version":"4.3.3"', `"version":"4.3.${i}"`)));
  const server = collector.summary({ entries: 0, selected: 0, notEntries: 0 }).server!;
  t.true(server.clients.length <= MAX_CLIENT_IPS + 1);
  t.is(server.clients.at(-1)!.ip, '(other)');
  t.is(server.clients.reduce((sum, c) => sum + c.opened, 0), MAX_CLIENT_IPS + extra);
  // Each row made after the fold may miss the one connection a folded row had.
  t.true(server.clients.slice(0, -1).every((c) => c.opened === 1 && (c.missedAtMost ?? 0) <= 1));
  t.true(server.drivers.length <= MAX_CLIENT_DRIVERS + 1);
  t.is(server.drivers.at(-1)!.driver, '(other)');
  t.is(server.drivers.reduce((sum, d) => sum + d.connections, 0), MAX_CLIENT_DRIVERS + extra);
});

test('every server warning and error message in its own row, with its count and first and last time, also those the 15 most frequent leave out', async (t) => {
  // Both members in one summary, as `logtype summary rs1 rs2` reads them.
  const a = await member('mongod-replica-rs1.log.gz');
  const b = await member('mongod-replica-rs2.log.gz');
  const collector = new SummaryCollector();
  for (const r of [...a.records, ...b.records]) collector.add(r.logType, r.record);
  const server = collector.summary({ entries: 0, selected: 0, notEntries: 0 }).server!;
  const problems = [...a.lines, ...b.lines].filter((l) => l.s === 'W' || l.s === 'E' || l.s === 'F');
  const expected = sorted(
    [...byKey(problems, (l) => String(l.id))].map(([id, ls]) => {
      const times = ls.map((l) => Date.parse(l.t.$date));
      return [id, [ls.length, ls[0]!.msg, new Date(Math.min(...times)).toISOString(), new Date(Math.max(...times)).toISOString()]] as const;
    }),
  );
  t.deepEqual(sorted(server.problems.map((p) => [String(p.id), [p.count, p.msg, p.first, p.last]] as const)), expected);
  // The text lists the 15 most frequent messages; a warning among the rest is listed too.
  const top = new Set(server.messages.slice(0, 15).map((m) => m.id));
  t.true(server.problems.some((p) => !top.has(p.id)), 'a warning the most frequent messages leave out is listed');
  // From a review of the report: the JSON and the page had the 15 alone. Every id is there, with its count.
  t.deepEqual(sorted(server.messages.map((m) => [String(m.id), m.count] as const)), sorted([...byKey([...a.lines, ...b.lines], (l) => String(l.id))].map(([id, ls]) => [id, ls.length] as const)));
  t.true(server.problems.every((p, i) => i === 0 || server.problems[i - 1]!.count >= p.count || server.problems[i - 1]!.severity !== p.severity), 'the most frequent first within a severity');
});

for (const file of ['mongod-replica-rs1.log.gz', 'mongod-replica-rs2.log.gz']) {
  test(`${file}: the replica set's story, in time order: this member's state transitions and the other members' states as its lines say them`, async (t) => {
    const { lines, summary } = await member(file);
    const events = summary.server!.replication.filter((e) => !e.event.startsWith('election: '));
    const expected = lines
      .filter((l) => l.id === 21358 || l.id === 21215)
      .map((l) => ({
        time: new Date(l.t.$date).toISOString(),
        event: l.id === 21358 ? `this member: ${String(l.attr!['oldState'])} → ${String(l.attr!['newState'])}` : `${String(l.attr!['hostAndPort'])} is now ${String(l.attr!['newState'])}`,
      }))
      .sort((a, b) => (a.time < b.time ? -1 : a.time > b.time ? 1 : 0));
    t.true(expected.some((e) => e.event.endsWith('→ PRIMARY') || e.event.endsWith('is now PRIMARY')));
    t.deepEqual(events, expected);
  });
}

for (const file of ['mongod-replica-rs1.log.gz', 'mongod-replica-rs2.log.gz']) {
  test(`${file}: "Not starting an election, since we are shutting down" is no election: not in the story, not marked E on the charts`, async (t) => {
    const { lines, summary } = await member(file);
    const notStarting = lines.filter((l) => /^Not starting an election/.test(l.msg));
    t.true(notStarting.length > 0, 'the member says it at its shutdown');
    const elections = summary.server!.replication.filter((e) => e.event.startsWith('election: '));
    t.true(elections.some((e) => /Election succeeded/.test(e.event)), 'its real election is told');
    t.false(elections.some((e) => /Not starting an election/.test(e.event)));
    const shutdown = new Set(notStarting.map((l) => new Date(l.t.$date).getTime()));
    t.false(chartMarkers(summary.server).some((m) => m.kind === 'election' && shutdown.has(m.time)));
  });
}

test('the members\' shutdowns are marked on their lanes and on the time charts, where each began (its signal), with its cause and exit code', async (t) => {
  const collector = new SummaryCollector();
  const shutdowns: { member: string; time: string }[] = [];
  for (const name of ['rs1', 'rs2']) {
    const input = path.join(REAL_DATA, `mongod-replica-${name}.log.gz`);
    const { records } = await readRecords(input, 'mongodb');
    // One file per member, as `logtype summary rs1.log.gz rs2.log.gz` reads them.
    collector.input(input);
    for (const r of records) {
      collector.add(r.logType, r.record, undefined, { contents: r.contents });
      const line = JSON.parse(r.contents) as ServerLine;
      if (line.id === 23377) shutdowns.push({ member: `mongod-replica-${name}`, time: new Date(line.t.$date).toISOString() });
    }
  }
  t.is(shutdowns.length, 2, 'each member was stopped by a signal');
  const server = collector.summary({ entries: 0, selected: 0, notEntries: 0 }).server!;
  for (const { member, time } of shutdowns) {
    const lane = server.members!.find((m) => m.name === member)!;
    // The lane's mark is made at the signal, before the exit code is logged.
    t.deepEqual(lane.events.filter((e) => e.kind === 'shutdown'), [{ time, kind: 'shutdown', label: 'shutdown: signal 15 (Terminated: 15)' }]);
    t.true(chartMarkers(server).some((m) => m.kind === 'shutdown' && m.time === Date.parse(time) && m.label === `${member}: shutdown: signal 15 (Terminated: 15) (exit code 0)`));
  }
});

// From a review: a pre-4.4 text line says why it holds no election in its message, and the
// reason may hold election words; the story, the marks and the members' table must agree.
test('a text log\'s "Not starting an election … waiting for stepdown period to end" is no election anywhere in the report', async (t) => {
  const { records } = await readRecords(path.join(REAL_DATA, 'mongod-4.2-text.log'), 'mongodb');
  const notStarting = '2020-03-12T00:00:05.000+0000 I  ELECTION [replexec-3] Not starting an election, since we are not electable due to: Not standing for election because I am still waiting for stepdown period to end at 2020-03-12T00:01:05.000+0000';
  const collector = new SummaryCollector();
  for (const r of records.slice(0, 20)) collector.add(r.logType, r.record, undefined, { contents: r.contents });
  collector.add('mongodb', parseRecord('mongodb', notStarting)!, undefined, { contents: notStarting });
  const server = collector.summary({ entries: 21, selected: 21, notEntries: 0 }).server!;
  t.false(server.replication.some((e) => e.event.startsWith('election: ')));
  t.false(chartMarkers(server).some((m) => m.kind === 'election'));
  t.true((server.members ?? []).every((m) => m.elections === 0));
});

/** The namespace a slow operation's group names: a command on `db.$cmd` names its collection (as mongod's own `ns` does not). */
function namespaceOf(line: ServerLine): string {
  const ns = line.attr!['ns'] as string;
  // A command the server did not know is written as a string: `"command":"unrecognized"`.
  const command = line.attr!['command'];
  const [name, value] = typeof command === 'object' && command !== null ? (Object.entries(command)[0] ?? []) : [];
  const byCommand = [undefined, 'command', 'none'].includes(line.attr!['type'] as string | undefined);
  // Commands whose string names no collection (the replica set's name, a log's): the line stays
  // on `db.$cmd` (an incident trial saw `admin.replset` made up of replSetHeartbeat's argument).
  const namesNoCollection = ['replSetHeartbeat', 'getLog'].includes(name as string);
  return ns.endsWith('.$cmd') && byCommand && name !== 'q' && !namesNoCollection && typeof value === 'string' && value !== '' ? `${ns.slice(0, -'$cmd'.length)}${value}` : ns;
}

/** A key with its count, total and max of sizes. */
type Sizes = [string, number, number, number];
const byFirst = (a: Sizes, b: Sizes): number => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0);

/** Each key's count, total and max of the items' sizes, in key order. */
function sizesBy<T>(items: readonly T[], key: (item: T) => string, size: (item: T) => number): Sizes[] {
  return [...byKey(items, key)].map(([k, group]): Sizes => [k, group.length, group.reduce((n, i) => n + size(i), 0), Math.max(...group.map(size))]).sort(byFirst);
}

/** The summary's rows the same way, in key order (the order they are listed in is tested on its own). */
const rowsOf = (rows: readonly ResponseSize[]): Sizes[] => rows.map((r): Sizes => [r.key, r.count, r.totalBytes, r.maxBytes]).sort(byFirst);

for (const file of ['mongod-replica-rs1.log.gz', 'mongod-replica-rs2.log.gz']) {
  test(`${file}: response sizes (reslen) of the slow operations by namespace, by appName and by client IP, as their lines say`, async (t) => {
    const { lines, summary } = await member(file);
    const slow = lines.filter((l) => l.id === 51803 && typeof l.attr?.['reslen'] === 'number');
    t.true(slow.length > 100, `${slow.length} slow operations with a reslen`);
    const reslen = (l: ServerLine): number => l.attr!['reslen'] as number;
    const { byNamespace, byAppName, byClient } = summary.server!.responseSizes;
    t.deepEqual(rowsOf(byNamespace), sizesBy(slow, namespaceOf, reslen));
    t.deepEqual(rowsOf(byAppName), sizesBy(slow, (l) => (l.attr!['appName'] as string | undefined) ?? '-', reslen));
    t.deepEqual(rowsOf(byClient), sizesBy(slow.filter((l) => typeof l.attr!['remote'] === 'string'), (l) => (l.attr!['remote'] as string).replace(/:\d+$/, ''), reslen));
    t.true(byClient.length > 0);
    t.true(byNamespace.every((r, i) => i === 0 || byNamespace[i - 1]!.totalBytes >= r.totalBytes), 'the most bytes first');
  });
}

test('response sizes of a 4.0 text log: by appName as its lines write `reslen:N` and `appName: "…"`', async (t) => {
  const { records } = await readRecords(path.join(REAL_DATA, 'mongod-4.0-text-slow-transactions.log'), 'mongodb');
  const collector = new SummaryCollector();
  for (const r of records) collector.add(r.logType, r.record);
  const server = collector.summary({ entries: 0, selected: 0, notEntries: 0 }).server!;
  // Operations (clients' and the server's own, as its session refresh): `command …`, `query …`, `update …` lines with a duration (not transactions').
  const slow = records.map((r) => r.contents).filter((l) => / I (COMMAND|WRITE|QUERY) +\[[^\]]+\] (command|query|update|remove|insert|getmore) .* reslen:\d+ .*\d+ms$/.test(l));
  t.true(slow.length > 100, `${slow.length} lines`);
  const size = (l: string): number => Number(/ reslen:(\d+) /.exec(l)![1]);
  const app = (l: string): string => / appName: "([^"]*)"/.exec(l)?.[1] ?? '-';
  t.deepEqual(rowsOf(server.responseSizes.byAppName), sizesBy(slow, app, size));
});

test('response sizes are bounded: past MAX_RESPONSE_SIZE_KEYS namespaces, those with the fewest bytes are folded into one "(other)" row', async (t) => {
  const { records } = await member('mongod-replica-rs1.log.gz');
  const line = records.find((r) => r.record?.id === 51803 && r.contents.includes('"ns":"local.system.replset"') && r.contents.includes('"reslen":38'))!.contents;
  const collector = new SummaryCollector();
  const extra = 7;
  for (let i = 0; i < MAX_RESPONSE_SIZE_KEYS + extra; i++) collector.add('mongodb', parseRecord('mongodb', line.replace('"ns":"local.system.replset"', `"ns":"db${i}.c"`)));
  const { byNamespace, byAppName, byClient } = collector.summary({ entries: 0, selected: 0, notEntries: 0 }).server!.responseSizes;
  t.true(byNamespace.length <= MAX_RESPONSE_SIZE_KEYS + 1);
  const other = byNamespace.at(-1)!;
  t.like(other, { key: '(other)', totalBytes: 38 * other.count, maxBytes: 38 });
  t.is(byNamespace.reduce((sum, r) => sum + r.count, 0), MAX_RESPONSE_SIZE_KEYS + extra);
  t.deepEqual(byAppName, [{ key: 'mlaunch v1.7.2', count: MAX_RESPONSE_SIZE_KEYS + extra, totalBytes: 38 * (MAX_RESPONSE_SIZE_KEYS + extra), maxBytes: 38 }]);
  t.deepEqual(byClient, [{ key: '127.0.0.1', count: MAX_RESPONSE_SIZE_KEYS + extra, totalBytes: 38 * (MAX_RESPONSE_SIZE_KEYS + extra), maxBytes: 38 }]);
});

for (const file of ['mongod-replica-rs1.log.gz', 'mongod-replica-rs2.log.gz']) {
  test(`${file}: the longest-lived connections, from their accepted and ended lines, with the appName their metadata said`, async (t) => {
    const { lines, summary } = await member(file);
    const key = (l: ServerLine): string => `${String(l.attr!['connectionId'])} ${String(l.attr!['remote'])}`;
    const time = (l: ServerLine): number => Date.parse(l.t.$date);
    const last = Math.max(...lines.map(time));
    // The server's exit (23138) ends those still open then (rs1 and rs2 end on a SIGTERM).
    const exit = lines.findLast((l) => l.id === 23138);
    const ended = new Map(lines.filter((l) => l.id === 22944).map((l) => [key(l), l]));
    const apps = new Map(
      lines
        .filter((l) => l.id === 51800)
        .map((l) => [`${l.ctx.slice('conn'.length)} ${String(l.attr!['remote'])}`, ((l.attr!['doc'] as { application?: { name: string } }).application?.name ?? null) as string | null]),
    );
    const expected = lines
      .filter((l) => l.id === 22943)
      .map((l) => {
        const end = ended.get(key(l)) ?? (exit && time(exit) >= time(l) ? exit : undefined);
        return {
          connectionId: l.attr!['connectionId'] as number,
          remote: l.attr!['remote'] as string,
          appName: apps.get(key(l)) ?? null,
          opened: new Date(time(l)).toISOString(),
          closed: end ? new Date(time(end)).toISOString() : null,
          end: end === undefined ? ('still open' as const) : end === exit ? ('shutdown' as const) : ('closed' as const),
          durationMillis: (end ? time(end) : last) - time(l),
        };
      })
      .sort((a, b) => b.durationMillis - a.durationMillis);
    const got = summary.server!.longLivedConnections;
    t.is(got.length, Math.min(MAX_LONG_LIVED_CONNECTIONS, expected.length));
    t.deepEqual(got.map((c) => c.durationMillis), expected.slice(0, got.length).map((c) => c.durationMillis));
    // Ties in duration may come in either order: compare each by its number.
    const byId = new Map(expected.map((c) => [`${c.connectionId} ${c.remote}`, c]));
    for (const c of got) t.deepEqual(c, byId.get(`${c.connectionId} ${c.remote}`)!);
    t.true(got.some((c) => c.appName !== null), 'an appName from client metadata');
    t.true(got.every((c, i) => i === 0 || got[i - 1]!.durationMillis >= c.durationMillis), 'the longest first');
    t.is(summary.server!.connectionsNotFollowed, 0);
  });
}

test('long-lived connections in pre-4.4 text logs: `#N` accepted, `[connN] end connection`', async (t) => {
  for (const file of ['mongod-4.0-text-slow-transactions.log', 'mongod-4.2-text.log']) {
    const { records } = await readRecords(path.join(REAL_DATA, file), 'mongodb');
    const collector = new SummaryCollector();
    for (const r of records) collector.add(r.logType, r.record);
    const summary = collector.summary({ entries: 0, selected: 0, notEntries: 0 });
    const got = summary.server!.longLivedConnections;
    const text = records.map((r) => r.contents);
    const at = (line: string): number => Date.parse(line.slice(0, 28).replace(/([+-]\d\d)(\d\d)$/, '$1:$2'));
    const accepted = text.filter((l) => l.includes('] connection accepted from '));
    t.true(got.length > 0 && got.length <= Math.min(MAX_LONG_LIVED_CONNECTIONS, accepted.length), file);
    for (const c of got) {
      const open = accepted.find((l) => l.includes(`connection accepted from ${c.remote} #${c.connectionId} `));
      t.truthy(open, `${file}: conn${c.connectionId} ${c.remote} was accepted`);
      t.is(c.opened, new Date(at(open!)).toISOString());
      const end = text.find((l) => l.includes(`[conn${c.connectionId}] end connection ${c.remote} `));
      if (c.end === 'closed') t.is(c.closed, new Date(at(end!)).toISOString(), `${file}: conn${c.connectionId}`);
      else t.is(end, undefined, `${file}: conn${c.connectionId} has no end line`);
      t.is(c.durationMillis, (c.closed === null ? Date.parse(summary.last!) : Date.parse(c.closed)) - Date.parse(c.opened));
    }
  }
});

test('a restart ends the connections open before it: rs2 without its exit line (as a killed server leaves its log), then its own start line again after its last line', async (t) => {
  const { records, lines } = await member('mongod-replica-rs2.log.gz');
  const collector = new SummaryCollector();
  // Its exit (23138, Shutting down) would end them first (summary-shutdowns.test.ts).
  for (const r of records) if (r.record?.id !== 23138) collector.add(r.logType, r.record);
  const last = Math.max(...lines.map((l) => Date.parse(l.t.$date)));
  const restartAt = new Date(last + 1000).toISOString();
  const start = records.find((r) => r.record?.id === 4615611)!.contents.replace(/"\$date":"[^"]*"/, `"$date":"${restartAt}"`);
  collector.add('mongodb', parseRecord('mongodb', start));
  const got = collector.summary({ entries: 0, selected: 0, notEntries: 0 }).server!.longLivedConnections;
  const ended = new Set(lines.filter((l) => l.id === 22944).map((l) => String(l.attr!['connectionId'])));
  const open = lines.filter((l) => l.id === 22943 && !ended.has(String(l.attr!['connectionId'])));
  t.true(open.length > 0, 'rs2 ends with a connection open');
  for (const l of open) {
    const c = got.find((g) => g.connectionId === l.attr!['connectionId']);
    // Ended when the server went down: its last line before the start (a field trial: a crash's
    // connections lived on to the next start, minutes after the server died).
    t.like(c, { end: 'restart', closed: new Date(last).toISOString(), durationMillis: last - Date.parse(l.t.$date) });
  }
  t.false(got.some((c) => c.end === 'still open'));
});

// From a trial: a server line whose msg a program wrote whole (a megabyte) put that megabyte in
// the text report twice, in the warnings and in the most frequent messages.
test('a server message of a megabyte is reported cut at its limit, in the warnings and the most frequent messages alike', async (t) => {
  const { records } = await readRecords(path.join(REAL_DATA, 'mongod-replica-rs1.log.gz'), 'mongodb');
  const warning = records.find((r) => (JSON.parse(r.contents) as ServerLine).s === 'W')!;
  const line = JSON.parse(warning.contents) as ServerLine;
  const huge = `${line.msg} ${'é'.repeat(1 << 19)}`;
  const contents = JSON.stringify({ ...line, msg: huge });
  const collector = new SummaryCollector();
  for (let i = 0; i < 3; i++) collector.add('mongodb', parseRecord('mongodb', contents)!, undefined, { contents });
  const server = collector.summary({ entries: 3, selected: 3, notEntries: 0 }).server!;
  const reported = [server.problems.find((p) => p.id === line.id)!, server.messages.find((m) => m.id === line.id)!];
  for (const row of reported) {
    t.is(row.count, 3);
    t.is(row.msg, cutLine(huge, MAX_MESSAGE_CHARS));
    t.true(row.msg.length <= MAX_MESSAGE_CHARS && row.msg.startsWith(line.msg) && row.msg.endsWith('…'));
  }
});

// From an incident trial: `admin.replset` (729 replSetHeartbeat, the replica set's name) and
// `admin.startupWarnings` (getLog's argument) were listed as namespaces, in every output.
test('a command whose argument names no collection stays on db.$cmd: no admin.replset, no admin.startupWarnings', async (t) => {
  const { summary } = await member('mongod-replica-rs1.log.gz');
  const keys = summary.server!.responseSizes.byNamespace.map((row) => row.key);
  t.true(keys.includes('admin.$cmd'));
  t.false(keys.some((key) => key === 'admin.replset' || key === 'admin.startupWarnings'), keys.join(' '));
  const { records } = await readRecords(path.join(REAL_DATA, 'mongod-4.0-text-slow-transactions.log'), 'mongodb');
  const collector = new SummaryCollector();
  for (const r of records) collector.add(r.logType, r.record);
  const text = collector.summary({ entries: 0, selected: 0, notEntries: 0 }).server!;
  t.false(text.responseSizes.byNamespace.some((row) => row.key === 'admin.startupWarnings'));
  // A command on a collection keeps naming it.
  t.true(keys.some((key) => !key.endsWith('.$cmd') && key.startsWith('admin.') === false));
});
