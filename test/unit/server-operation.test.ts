/** Operations named as the server names them, applied oplog entries, query patterns, pre-4.4 text. */
import test from 'ava';
import fs from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { LogRecord } from '../../src/parse/log-record.js';
import { parseServerLine, parseServerLineInBytes } from '../../src/parse/parse-server-line.js';
import { attrsOf } from '../../src/parse/server-record.js';
import { commandQueryPattern, queryPattern, runsQuery } from '../../src/parse/query-pattern.js';
import { connectionEventOf } from '../../src/parse/server-connection.js';
import { appliedByValues, operationQueryPattern, serverOperationOf, type ServerOperation } from '../../src/parse/server-operation.js';
import { textMessageTemplate } from '../../src/parse/server-text-line.js';
import { shellDocumentAt } from '../../src/parse/shell-document.js';
import { slowOperationOf } from '../../src/parse/slow-operation.js';
import { literalOf } from '../_helpers/property.js';
import { readRecords } from '../_helpers/read-records.js';
import { REAL_DATA } from '../_helpers/sidecar-process.js';

const operationOf = (record: LogRecord | undefined): ServerOperation | undefined => {
  const slow = record && slowOperationOf(record);
  return slow && serverOperationOf(record, slow);
};

const line = (attr: Record<string, unknown>, id = 51803, extra = '') =>
  `{"t":{"$date":"2024-03-18T10:51:05.754-04:00"},"s":"I",  "c":"COMMAND",  "id":${id},   "ctx":"conn44","msg":"Slow query","attr":${JSON.stringify(attr)}${extra}}`;

const named: [string, Record<string, unknown>, number, { name: string; ns: string; kind?: string }][] = [
  ['an update statement is update, not q', { type: 'update', ns: 'testdb.dealers', command: { q: { _id: 'DEALER-1' }, u: { $set: { name: 'x' } }, multi: false, upsert: true }, durationMillis: 150 }, 51803, { name: 'update', ns: 'testdb.dealers' }],
  ['a delete statement is remove, as the server types it', { type: 'remove', ns: 'shop.orders', command: { q: { status: 'gone' }, limit: 0 }, durationMillis: 9 }, 51803, { name: 'remove', ns: 'shop.orders' }],
  ['a command is its name; on db.$cmd, the collection it names', { type: 'command', ns: 'testdb.$cmd', command: { update: 'employees', ordered: true, $db: 'testdb' }, durationMillis: 44 }, 51803, { name: 'update', ns: 'testdb.employees' }],
  ['a server command keeps db.$cmd', { type: 'command', ns: 'admin.$cmd', command: { replSetUpdatePosition: 1 }, durationMillis: 1 }, 51803, { name: 'replSetUpdatePosition', ns: 'admin.$cmd' }],
  ['getMore', { type: 'command', ns: 'local.oplog.rs', command: { getMore: 123, collection: 'oplog.rs' }, durationMillis: 1 }, 51803, { name: 'getMore', ns: 'local.oplog.rs' }],
  ['type none: the command', { type: 'none', ns: 'testdb.numbers', command: { createIndexes: 'numbers' }, durationMillis: 1 }, 51803, { name: 'createIndexes', ns: 'testdb.numbers' }],
  ['a command the server did not know', { type: 'command', ns: 'admin.$cmd', command: 'unrecognized', durationMillis: 0 }, 51803, { name: 'unrecognized', ns: 'admin.$cmd' }],
  ['a legacy query', { type: 'query', ns: 'shop.orders', command: { find: 'orders', filter: { a: 1 } }, durationMillis: 1 }, 51803, { name: 'query', ns: 'shop.orders' }],
  ['an applied insert', { CRUD: { lsid: { id: 1 }, op: 'i', ns: 'testdb.lookups', o: { _id: 1 } }, durationMillis: 0 }, 51801, { name: 'insert', ns: 'testdb.lookups', kind: 'applied' }],
  ['an applied update', { CRUD: { op: 'u', ns: 'config.transactions', o: {}, o2: { _id: 1 } }, durationMillis: 0 }, 51801, { name: 'update', ns: 'config.transactions', kind: 'applied' }],
  ['an applied command: its name, the collection it names', { command: { op: 'c', ns: 'config.$cmd', o: { create: 'transactions' } }, durationMillis: 236 }, 51801, { name: 'create', ns: 'config.transactions', kind: 'applied' }],
  ['an applied batch of inserts', { CRUD: { ts: [1, 2], t: [1, 1], o: [{ _id: 1 }, { _id: 2 }], op: 'i', ns: 'testdb.favorites' }, durationMillis: 0 }, 51801, { name: 'insert', ns: 'testdb.favorites', kind: 'applied' }],
];

for (const [name, attr, id, expected] of named) {
  test(`operation: ${name}`, (t) => {
    t.like(operationOf(parseServerLine(line(attr, id))), { kind: 'operation', ...expected });
  });
}

test('operation: an applied batch whose namespace the server cut says so', (t) => {
  const cut = line({ CRUD: { ts: [1, 2], t: [1, 1], o: [{ _id: 1 }, { _id: 2 }] }, durationMillis: 0 }, 51801, ',"truncated":{"CRUD":{"o":{"1":{"type":"string","size":36}}}},"size":{"CRUD":14553}');
  t.like(operationOf(parseServerLine(cut)), { kind: 'applied', name: 'insert', ns: '(truncated)' });
});

test("Hatchet's applied entries, read from the line's bytes and inside an entry's literal: as from the parsed line, and no line decoded", (t) => {
  let applied = 0;
  let cut = 0;
  for (const file of ['mongod-replica-rs1.log.gz', 'mongod-replica-rs2.log.gz']) {
    for (const text of gunzipSync(fs.readFileSync(path.join(REAL_DATA, file))).toString('utf8').split('\n')) {
      if (!text.includes('"id":51801,')) continue;
      const json = JSON.parse(text) as Record<string, unknown>;
      // The reference: the line parsed whole, its attributes as the object has them.
      const expected = appliedByValues({ id: json['id'] as number, message: json['msg'] as string, attrs: attrsOf(json) });
      applied++;
      if (json['truncated'] !== undefined) cut++;
      const line = Buffer.from(text);
      for (const [bytes, start, end, escaped] of [
        [line, 0, line.length, false],
        [Buffer.concat([Buffer.from('{"contents":"'), literalOf(line), Buffer.from('"}')]), 13, 13 + literalOf(line).length, true],
      ] as const) {
        let decoded = 0;
        const record = parseServerLineInBytes(bytes, start, end, escaped, {
          get contents() {
            decoded++;
            return text;
          },
        })!;
        t.deepEqual(operationOf(record), expected, text.slice(0, 300));
        t.is(decoded, 0, `decoded: ${text.slice(0, 300)}`);
      }
    }
  }
  t.is(applied, 2657);
  t.is(cut, 281 + 112 + 93 + 1);
});

test("operation: a slow transaction (4.4's 51802, 4.0's text)", (t) => {
  t.like(operationOf(parseServerLine(line({ parameters: { txnNumber: 1 }, terminationCause: 'committed', durationMillis: 5 }, 51802))), { kind: 'transaction', name: 'transaction', ns: '-' });
});

const patterns: [string, unknown, unknown, unknown, string][] = [
  ['values replaced, keys sorted', { status: 'open', email: 'a@b' }, undefined, undefined, '{email: 1, status: 1}'],
  ['comparisons and $in are the field', { age: { $gt: 30, $lt: 50 }, _id: { $in: [1, 2, 3] }, x: { $exists: true } }, undefined, undefined, '{_id: 1, age: 1, x: 1}'],
  ['other operators keep their name', { a: { $ne: 1 }, b: { $nin: [1] }, c: { $elemMatch: { d: 5 } } }, undefined, undefined, '{a: {$ne: 1}, b: {$nin: 1}, c: {$elemMatch: {d: 1}}}'],
  ['$or lists its branches', { $or: [{ a: 1 }, { b: { $gte: 2 } }], c: 'x' }, undefined, undefined, '{$or: [{a: 1}, {b: 1}], c: 1}'],
  ['extended JSON values are one value', { _id: { $oid: '65f854cfc9845c74eb20d2f8' }, at: { $date: '2024-01-01T00:00:00Z' }, n: { $numberLong: '5' } }, undefined, undefined, '{_id: 1, at: 1, n: 1}'],
  ['embedded documents keep their keys', { _id: { id: { $uuid: 'x' }, uid: { $binary: { base64: 'AA==', subType: '0' } } } }, undefined, undefined, '{_id: {id: 1, uid: 1}}'],
  ['sort and projection as written', { status: 'a' }, { created: -1 }, { name: 1, _id: 0 }, '{status: 1} sort {created: -1} projection {name: 1, _id: 0}'],
  ['no filter', undefined, undefined, undefined, '{}'],
];

for (const [name, filter, sort, projection, expected] of patterns) {
  test(`query pattern: ${name}`, (t) => {
    t.is(queryPattern(filter, sort, projection), expected);
  });
}

test('query pattern: by the operation, from its command', (t) => {
  t.is(commandQueryPattern('find', { find: 'c', filter: { email: 'x', status: 'y' }, sort: { at: -1 } }), '{email: 1, status: 1} sort {at: -1}');
  t.is(commandQueryPattern('update', { q: { _id: 'DEALER-1' }, u: { $set: { a: 1 } } }), '{_id: 1}');
  t.is(commandQueryPattern('remove', { q: { status: 'gone' }, limit: 0 }), '{status: 1}');
  t.is(commandQueryPattern('update', { update: 'orders', updates: [] }), undefined);
  t.is(commandQueryPattern('count', { count: 'c', query: { a: 1 } }), '{a: 1}');
  t.is(commandQueryPattern('findAndModify', { findAndModify: 'c', query: { a: 1 }, sort: { b: 1 } }), '{a: 1} sort {b: 1}');
  t.is(commandQueryPattern('aggregate', { aggregate: 'c', pipeline: [{ $match: { a: 5 } }, { $group: {} }, { $sort: { n: -1 } }] }), '{a: 1} sort {n: -1}');
  t.is(commandQueryPattern('aggregate', { aggregate: 'c', pipeline: [{ $group: {} }] }), undefined);
  t.is(commandQueryPattern('getMore', { getMore: 5 }, { find: 'oplog.rs', filter: { ts: { $gte: 1 } } }), '{ts: 1}');
  t.is(commandQueryPattern('insert', { insert: 'c' }), undefined);
  t.is(commandQueryPattern('hello', { hello: 1 }), undefined);
});

test('query pattern: only the operations that run a query have one, so no other command is read', (t) => {
  // A command holding every place a pattern is read from, and an origin that has one.
  const command = { filter: { a: 1 }, query: { b: 1 }, q: { c: 1 }, $query: { d: 1 }, pipeline: [{ $match: { e: 1 } }] };
  const origin = { find: 'c', filter: { f: 1 } };
  const names = ['find', 'count', 'distinct', 'findAndModify', 'findandmodify', 'update', 'remove', 'delete', 'aggregate', 'query', 'getMore', 'getmore'];
  for (const name of names) {
    t.true(runsQuery(name), name);
    t.not(commandQueryPattern(name, command, origin), undefined, name);
  }
  for (const name of ['insert', 'replSetUpdatePosition', 'replSetHeartbeat', 'hello', 'isMaster', 'createIndexes', 'ping', 'q', '?', 'transaction', 'operation']) {
    t.false(runsQuery(name), name);
    t.is(commandQueryPattern(name, { [name]: 1, ...command }, origin), undefined, name);
  }
});

test("Hatchet's replica logs: no operation named q, no applied op without its namespace", async (t) => {
  for (const [file, applied, truncated] of [
    ['mongod-replica-rs1.log.gz', 447, 72],
    ['mongod-replica-rs2.log.gz', 2210, 209],
  ] as const) {
    const { records } = await readRecords(path.join(REAL_DATA, file), 'mongodb');
    const operations = records.map((r) => (r.record && (r.record.id === 51803 || r.record.id === 51801) ? operationOf(r.record) : undefined)).filter((o) => o !== undefined);
    t.false(operations.some((o) => o.name === 'q' || o.name === '?'), file);
    const appliedOps = operations.filter((o) => o.kind === 'applied');
    t.is(appliedOps.length, applied, file);
    t.false(appliedOps.some((o) => o.ns === '?'), file);
    // The namespaces the server cut off (batches of inserts longer than its 10 KB limit) say so.
    t.is(appliedOps.filter((o) => o.ns === '(truncated)').length, truncated, file);
  }
});

test("Hatchet's rs1: update statements are update, and each slow shape has its pattern", async (t) => {
  const { records } = await readRecords(path.join(REAL_DATA, 'mongod-replica-rs1.log.gz'), 'mongodb');
  const counts = new Map<string, number>();
  const patternsSeen = new Set<string>();
  for (const { record } of records) {
    if (record?.id !== 51803) continue;
    const operation = operationOf(record)!;
    counts.set(operation.name, (counts.get(operation.name) ?? 0) + 1);
    const pattern = operationQueryPattern(record, operation);
    if (pattern) patternsSeen.add(`${operation.ns} ${operation.name} ${pattern}`);
  }
  // 1,025 statements of updates (type update) and 42 update commands on testdb.$cmd.
  t.is(counts.get('update'), 1067);
  t.is(counts.get('getMore'), 2604);
  t.is(counts.get('q'), undefined);
  t.true(patternsSeen.has('testdb.employees update {_id: 1}'));
  t.true(patternsSeen.has('local.oplog.rs getMore {ts: 1}'));
  t.true(patternsSeen.has('config.transactions find {parentLsid: {id: 1, uid: 1}} sort {_id.txnNumber: -1} projection {_id: 1}'));
});

test('the 4.0 text log: operations, applied entries and transactions read, with their durations', async (t) => {
  const { records } = await readRecords(path.join(REAL_DATA, 'mongod-4.0-text-slow-transactions.log'), 'mongodb');
  const withDuration = records.filter((r) => r.record && r.contents.endsWith('ms'));
  t.is(withDuration.length, 988);
  const operations = withDuration.map((r) => operationOf(r.record));
  t.true(operations.every((o) => o !== undefined));
  const kinds = new Map<string, number>();
  for (const o of operations) kinds.set(`${o!.kind} ${o!.name}`, (kinds.get(`${o!.kind} ${o!.name}`) ?? 0) + 1);
  t.is(kinds.get('transaction transaction'), 39);
  t.is(kinds.get('applied command'), 12);
  t.false([...kinds.keys()].some((k) => k.endsWith(' q') || k.endsWith(' ?')));
  const statement = records.find((r) => r.contents.includes('] update local.myCollection'))!.record!;
  t.like(operationOf(statement), { name: 'update', ns: 'local.myCollection' });
  t.is(operationQueryPattern(statement, operationOf(statement)!), '{name: 1}');
});

test('connections, as grep counts them: 4.4 ids and the text of older servers', (t) => {
  const accepted = parseServerLine('2019-06-18T12:13:16.150+0100 I NETWORK  [listener] connection accepted from 127.0.0.1:53524 #1 (1 connection now open)')!;
  const ended = parseServerLine('2020-03-12T00:00:02.272+0000 I  NETWORK  [conn6677804] end connection 10.118.25.211:44262 (6305 connections now open)')!;
  t.deepEqual(connectionEventOf(accepted), { opened: true, open: 1 });
  t.deepEqual(connectionEventOf(ended), { opened: false, open: 6305 });
  t.deepEqual(connectionEventOf(parseServerLine(line({ remote: '1.2.3.4:5', connectionId: 3, connectionCount: 7 }, 22943))!), { opened: true, open: 7 });
  t.is(connectionEventOf(parseServerLine('2019-06-18T12:13:16.150+0100 I COMMAND  [conn1] connection accepted from nowhere')!), undefined);
});

test('text messages grouped by their template: documents cut, operations by their command', (t) => {
  const cases: [string, string][] = [
    ['command config.$cmd command: update { update: "system.sessions", ordered: false } numYields:0 reslen:171 locks:{ Global: { acquireCount: { r: 3 } } } protocol:op_msg 1ms', 'command config.$cmd command: update'],
    ['command local.$cmd appName: "MongoDB Shell" command: isMaster { isMaster: 1.0 } numYields:0 0ms', 'command local.$cmd command: isMaster'],
    ['update config.system.sessions command: { q: { _id: 1 } } planSummary: IDHACK 0ms', 'update config.system.sessions'],
    ['applied op: command { ... }, took 112ms', 'applied op: command'],
    ['transaction parameters:{ lsid: {} }, terminationCause:aborted timeActiveMicros:1 5ms', 'transaction aborted'],
    ['received client metadata from 127.0.0.1:52088 conn1: { application: { name: "MongoDB Shell" }, os: {} }', 'received client metadata from 127.0.0.1:52088 conn1: {…}'],
    ['options: { net: { bindIp: "127.0.0.1" }, storage: { dbPath: "db" } }', 'options: {…}'],
    ['', ''],
  ];
  for (const [message, template] of cases) t.is(textMessageTemplate(message), template, message);
});

test("the shell's notation: values, constructors, quotes; a document cut short or elided is none", (t) => {
  const text = `x { find: "myCollection", filter: { a: { $gt: 5 }, 'b c': /ab+/i, d: [ 1, 2.5, "s" ] }, lsid: { id: UUID("edbf6089-da9b") }, ts: Timestamp(0, 0), ok: true, n: null, $db: "local" } rest`;
  const read = shellDocumentAt(text, 2);
  t.deepEqual(read?.value, {
    find: 'myCollection',
    filter: { a: { $gt: 5 }, 'b c': '/ab+/i', d: [1, 2.5, 's'] },
    lsid: { id: 'UUID("edbf6089-da9b")' },
    ts: 'Timestamp(0, 0)',
    ok: true,
    n: null,
    $db: 'local',
  });
  t.is(text.slice(read!.end), ' rest');
  t.is(shellDocumentAt('{ ... }', 0), undefined);
  t.is(shellDocumentAt('{ a: { b: 1 }', 0), undefined);
  t.is(shellDocumentAt('{ a: "open', 0), undefined);
});
