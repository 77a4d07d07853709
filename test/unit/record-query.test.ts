import test from 'ava';
import type { LogRecord } from '../../src/parse/log-record.js';
import { parseRecord } from '../../src/parse/parse-record.js';
import { contradiction, parseTimeBound, parseUntilBound, recordPredicate, queriesRecords, type RecordQuery } from '../../src/select/record-query.js';
import { knownTypesNamed } from '../../src/select/type-matcher.js';
import { parseFieldPaths, projectFields, recordObject, valueAt } from '../../src/parse/record-object.js';

const SLOW_COLLSCAN =
  '{"t":{"$date":"2026-11-22T10:00:05.000+00:00"},"s":"I",  "c":"COMMAND",  "id":51803,   "ctx":"conn42","msg":"Slow query","attr":{"type":"command","ns":"shop.orders","planSummary":"COLLSCAN","durationMillis":2500}}';
const SLOW_IXSCAN =
  '{"t":{"$date":"2026-11-22T10:00:06.000+00:00"},"s":"I",  "c":"COMMAND",  "id":51803,   "ctx":"conn7","msg":"Slow query","attr":{"type":"command","ns":"shop.carts","planSummary":"IXSCAN { a: 1 }","durationMillis":150}}';
const REPL_WARN = '{"t":{"$date":"2026-11-22T10:00:07.000+00:00"},"s":"W",  "c":"REPL",     "id":21402,   "ctx":"ReplCoord-1","msg":"Lost contact"}';
const TEXT_SERVER = '2022-07-29T06:09:45.380+0000 E  NETWORK  [listener] connection refused';
const AUDIT_FAILED =
  '{"atype":"authenticate","ts":{"$date":"2026-11-22T10:00:08.000Z"},"remote":{"ip":"10.0.0.9","port":51000},"users":[],"param":{"user":"alice","db":"admin"},"result":18}';
const AUDIT_OK = '{"atype":"createIndex","ts":{"$date":"2026-11-22T10:00:09.000Z"},"users":[{"user":"app","db":"shop"}],"param":{"ns":"shop.orders"},"result":0}';
const AGENT_ERROR = '[2026-11-22T10:00:10.000+0000] [.error] [director.go:1] [10:00:10.000] Failed to reach goal state';
const OPERATOR_WARN = '{"level":"warn","ts":"2026-11-22T10:00:11.000Z","caller":"webhook.go:71","msg":"webhook","ReplicaSet":"mongodb/my-replica-set"}';

const LINES: [string, string][] = [
  ['mongodb', SLOW_COLLSCAN],
  ['mongodb', SLOW_IXSCAN],
  ['mongodb', REPL_WARN],
  ['mongodb', TEXT_SERVER],
  ['mongodb-audit', AUDIT_FAILED],
  ['mongodb-audit', AUDIT_OK],
  ['automation-agent', AGENT_ERROR],
  ['operator', OPERATOR_WARN],
  // Free text that starts no record (a line of a Go trace): it does not parse.
  ['automation-agent-stderr', 'goroutine 1 [running]:'],
];
const NAMES = ['collscan', 'ixscan', 'repl-warn', 'text-error', 'audit-failed', 'audit-ok', 'agent-error', 'operator-warn', 'stderr-free-text'];

const cases: { name: string; query: RecordQuery; expected: string[] }[] = [
  { name: 'nothing asked: everything', query: {}, expected: NAMES },
  { name: '--level warn: warn and worse, every log', query: { level: 'warn' }, expected: ['repl-warn', 'text-error', 'audit-failed', 'agent-error', 'operator-warn'] },
  { name: '--level error', query: { level: 'error' }, expected: ['text-error', 'agent-error'] },
  { name: '--since', query: { since: new Date('2026-11-22T10:00:08.000Z') }, expected: ['audit-failed', 'audit-ok', 'agent-error', 'operator-warn'] },
  { name: '--until', query: { until: new Date('2026-11-22T10:00:05.500Z') }, expected: ['collscan', 'text-error'] },
  { name: '--component, any case, a list', query: { components: ['repl,network'] }, expected: ['repl-warn', 'text-error'] },
  { name: '--id', query: { ids: [51803] }, expected: ['collscan', 'ixscan'] },
  { name: '--ctx glob', query: { contexts: ['conn*'] }, expected: ['collscan', 'ixscan'] },
  { name: '--ns glob', query: { namespaces: ['shop.o*'] }, expected: ['collscan'] },
  { name: '--slow (100)', query: { slowMillis: 100 }, expected: ['collscan', 'ixscan'] },
  { name: '--slow 1000', query: { slowMillis: 1000 }, expected: ['collscan'] },
  { name: '--plan collscan', query: { plan: 'collscan' }, expected: ['collscan'] },
  { name: '--atype', query: { atypes: ['createIndex'] }, expected: ['audit-ok'] },
  { name: '--failed', query: { failed: true }, expected: ['audit-failed'] },
  { name: '--user, by name or name@db', query: { users: ['alice'] }, expected: ['audit-failed'] },
  { name: '--user app@shop', query: { users: ['app@shop'] }, expected: ['audit-ok'] },
  { name: '--user is case-sensitive, as the server\'s user names', query: { users: ['Alice', 'APP@shop'] }, expected: [] },
  { name: '--resource, by name', query: { resources: ['my-replica-set'] }, expected: ['operator-warn'] },
  { name: '--resource, namespace/name', query: { resources: ['mongodb/my-replica-set'] }, expected: ['operator-warn'] },
  { name: '--level with a server filter', query: { level: 'warn', components: ['REPL', 'COMMAND'] }, expected: ['repl-warn'] },
  { name: '--message: the parsed message, in every log', query: { message: /fail|lost/i }, expected: ['repl-warn', 'audit-failed', 'agent-error'] },
  { name: '--message: a line that does not parse is matched by its text', query: { message: /^goroutine/ }, expected: ['stderr-free-text'] },
];

for (const { name, query, expected } of cases) {
  test(`record query: ${name}`, (t) => {
    const matches = recordPredicate(query);
    const kept = LINES.map(([type, line], index) => {
      const record = parseRecord(type, line);
      return [NAMES[index]!, matches(type, record, undefined, record ? undefined : line)] as const;
    }).filter(([, keep]) => keep);
    t.deepEqual(kept.map(([n]) => n), expected);
  });
}

const DEBUG_LINES: [string, string, string][] = [
  ['D1', 'mongodb', '{"t":{"$date":"2026-11-22T10:00:05.000+00:00"},"s":"D1", "c":"NETWORK",  "id":1,   "ctx":"conn1","msg":"one"}'],
  ['D3', 'mongodb', '{"t":{"$date":"2026-11-22T10:00:05.000+00:00"},"s":"D3", "c":"NETWORK",  "id":1,   "ctx":"conn1","msg":"three"}'],
  ['D5', 'mongodb', '{"t":{"$date":"2026-11-22T10:00:05.000+00:00"},"s":"D5", "c":"NETWORK",  "id":1,   "ctx":"conn1","msg":"five"}'],
  ['text D2', 'mongodb', '2022-07-29T06:09:45.380+0000 D2 NETWORK  [conn1] two'],
  ['agent debug', 'automation-agent-verbose', '[2026-11-22T10:00:10.000+0000] [.debug] [director.go:1] [10:00:10.000] a debug line'],
  ['info', 'mongodb', REPL_WARN.replace('"s":"W"', '"s":"I"')],
];

const debugCases: { name: string; query: RecordQuery; expected: string[] }[] = [
  { name: '-l debug: every depth', query: { level: 'debug' }, expected: ['D1', 'D3', 'D5', 'text D2', 'agent debug', 'info'] },
  { name: '-l D1: no deeper', query: { level: 'debug', debugDepth: 1 }, expected: ['D1', 'agent debug', 'info'] },
  { name: '-l D3: D1 to D3, either form', query: { level: 'debug', debugDepth: 3 }, expected: ['D1', 'D3', 'text D2', 'agent debug', 'info'] },
  { name: '-l D5: every depth', query: { level: 'debug', debugDepth: 5 }, expected: ['D1', 'D3', 'D5', 'text D2', 'agent debug', 'info'] },
];

for (const { name, query, expected } of debugCases) {
  test(`record query: ${name}`, (t) => {
    const matches = recordPredicate(query);
    const kept = DEBUG_LINES.filter(([, type, line]) => matches(type, parseRecord(type, line)));
    t.deepEqual(kept.map(([n]) => n), expected);
  });
}

test('record query: --ns finds a text log\'s (before 4.4) collection creation, index build and drop, as a JSON log\'s', (t) => {
  const matches = recordPredicate({ namespaces: ['app.orders'] });
  const kept = (line: string): boolean => matches('mongodb', parseRecord('mongodb', line));
  t.true(kept('2019-06-18T12:04:12.656+0100 I STORAGE  [conn2] createCollection: app.orders with generated UUID: 7181ca6c-5d29-400c-bb69-e5f0fddfd66c'));
  t.true(kept('2019-06-18T12:04:12.656+0100 I INDEX    [conn2] build index on: app.orders properties: { v: 2, key: { a: 1 }, name: "a_1" }'));
  t.true(kept('2019-06-18T12:04:12.656+0100 I COMMAND  [conn2] CMD: drop app.orders'));
  t.true(kept('{"t":{"$date":"2026-11-22T10:00:05.000+00:00"},"s":"I","c":"STORAGE","id":20320,"ctx":"conn1","msg":"createCollection","attr":{"namespace":"app.orders","uuidDisposition":"generated"}}'));
  t.false(kept('2019-06-18T12:04:12.656+0100 I STORAGE  [conn2] createCollection: app.other with generated UUID: 7181ca6c-5d29-400c-bb69-e5f0fddfd66c'));
  t.false(kept('2019-06-18T12:04:12.656+0100 I NETWORK  [conn2] received client metadata from app.orders conn2'));
});

// From an incident trial: an X.509 user's name holds commas, and --user split it into two names.
test('record query: --user takes an X.509 subject whole, commas and all; each flag one name', (t) => {
  const line = '{"atype":"authenticate","ts":{"$date":"2026-11-22T10:00:08.000Z"},"users":[{"user":"CN=client,OU=apps,O=example","db":"$external"}],"param":{"user":"CN=client,OU=apps,O=example","db":"$external","mechanism":"MONGODB-X509"},"result":0}';
  const record = parseRecord('mongodb-audit', line);
  const keeps = (users: string[]): boolean => recordPredicate({ users })('mongodb-audit', record);
  t.true(keeps(['CN=client,OU=apps,O=example']));
  t.true(keeps(['CN=client,OU=apps,O=example@$external']));
  t.true(keeps(['CN=client*']));
  t.false(keeps(['CN=client']));
  t.true(keeps(['alice', 'CN=client,OU=apps,O=example']));
});

test('record query: a line without a time is kept by --since when kubectl stamped it', (t) => {
  const matches = recordPredicate({ since: new Date('2026-11-22T10:00:00Z') });
  t.true(matches('automation-agent-stderr', undefined, Date.parse('2026-11-22T10:00:01Z')));
  t.false(matches('automation-agent-stderr', undefined, Date.parse('2026-11-22T09:59:59Z')));
  t.false(matches('automation-agent-stderr', undefined));
});

test('queriesRecords: only when something is asked', (t) => {
  t.false(queriesRecords({}));
  t.false(queriesRecords({ level: undefined, failed: undefined }));
  t.true(queriesRecords({ slowMillis: 0 }));
});

const now = new Date('2026-11-22T12:00:00.000Z');
const bounds: [string, string | undefined][] = [
  ['15m', '2026-11-22T11:45:00.000Z'],
  ['2h', '2026-11-22T10:00:00.000Z'],
  ['1d', '2026-11-21T12:00:00.000Z'],
  ['30s', '2026-11-22T11:59:30.000Z'],
  // Parts one after another, as kubectl logs --since takes them.
  ['1h30m', '2026-11-22T10:30:00.000Z'],
  ['1d12h', '2026-11-21T00:00:00.000Z'],
  ['2h45m30s', '2026-11-22T09:14:30.000Z'],
  ['1.5h', '2026-11-22T10:30:00.000Z'],
  ['1h 30m', '2026-11-22T10:30:00.000Z'],
  ['1h30', undefined],
  ['h30m', undefined],
  ['500ms', undefined],
  ['', undefined],
  ['2026-11-22T10:00:00+01:00', '2026-11-22T09:00:00.000Z'],
  ['2026-11-20T10:00:00Z', '2026-11-20T10:00:00.000Z'],
  ['2026-11-20 10:00:00-05', '2026-11-20T15:00:00.000Z'],
  ['yesterday', undefined],
  ['15x', undefined],
  ['2026-13-45', undefined],
  // Days the calendar does not have: refused, not rolled over into the next month (a trial's --until 2024-02-30 read as 1 March).
  ['2024-02-30T00:00:00Z', undefined],
  ['2023-02-29', undefined],
  ['2026-04-31T10:00:00+02:00', undefined],
  ['2024-02-29T23:59:59.999Z', '2024-02-29T23:59:59.999Z'],
];
for (const [text, expected] of bounds) {
  test(`time bound ${text}`, (t) => {
    t.is(parseTimeBound(text, now)?.toISOString(), expected);
  });
}

test('time bound without a zone: in the zone the output shows times in, local, or UTC with --utc (a time copied from the output selects what it says)', (t) => {
  // A zone an hour from UTC (Node reads TZ when it changes): local and UTC must differ for this to tell them apart.
  const zone = process.env['TZ'];
  process.env['TZ'] = 'Europe/Berlin';
  t.teardown(() => {
    if (zone === undefined) delete process.env['TZ'];
    else process.env['TZ'] = zone;
  });
  t.is(new Date(2026, 10, 20).toISOString(), '2026-11-19T23:00:00.000Z');
  // Local: as the pretty and summary output show times without --utc.
  t.is(parseTimeBound('2026-11-20 10:00:00', now)?.getTime(), new Date(2026, 10, 20, 10, 0, 0).getTime());
  t.is(parseTimeBound('2026-11-20T10:00:00.250', now)?.getTime(), new Date(2026, 10, 20, 10, 0, 0, 250).getTime());
  t.is(parseTimeBound('2026-11-20', now)?.getTime(), new Date(2026, 10, 20).getTime());
  // --utc: as its output shows them.
  t.is(parseTimeBound('2026-11-20 10:00:00', now, true)?.toISOString(), '2026-11-20T10:00:00.000Z');
  t.is(parseTimeBound('2026-11-20', now, true)?.toISOString(), '2026-11-20T00:00:00.000Z');
  // A zone given is the zone, whatever --utc says.
  t.is(parseTimeBound('2026-11-20T10:00:00+01:00', now, true)?.toISOString(), '2026-11-20T09:00:00.000Z');
  t.is(parseTimeBound('2026-11-20 10:00:00.5Z', now)?.toISOString(), '2026-11-20T10:00:00.500Z');
});

test('fields: nested projection keeps the shape; missing paths are left out', (t) => {
  const object = { t: { $date: 'x' }, attr: { ns: 'a.b', durationMillis: 5, other: 1 }, msg: 'm' };
  t.deepEqual(projectFields(object, parseFieldPaths(['t.$date,attr.ns', 'attr.durationMillis', 'nope.x'])), {
    t: { $date: 'x' },
    attr: { ns: 'a.b', durationMillis: 5 },
  });
});

// From an incident trial: -f users.0.user wrote {"users":{"0":{…}}}, which jq '.users[0]' cannot read.
test('fields: an index into an array keeps the array (the indexes before it null, as jq writes them)', (t) => {
  const object = { users: [{ user: 'app', db: 'shop' }, { user: 'ops', db: 'admin' }], attr: { command: { pipeline: [{ $match: { a: 1 } }] } } };
  t.deepEqual(projectFields(object, parseFieldPaths(['users.0.user'])), { users: [{ user: 'app' }] });
  t.deepEqual(projectFields(object, parseFieldPaths(['users.1.db'])), { users: [null, { db: 'admin' }] });
  t.deepEqual(projectFields(object, parseFieldPaths(['users.0.user,users.1.user'])), { users: [{ user: 'app' }, { user: 'ops' }] });
  t.deepEqual(projectFields(object, parseFieldPaths(['attr.command.pipeline.0'])), { attr: { command: { pipeline: [{ $match: { a: 1 } }] } } });
  t.is(JSON.stringify(projectFields(object, parseFieldPaths(['users.1.db']))), '{"users":[null,{"db":"admin"}]}');
});

test('record object: JSON lines are themselves; text lines take the server shape', (t) => {
  t.deepEqual(recordObject(parseRecord('mongodb', REPL_WARN)!), JSON.parse(REPL_WARN) as object);
  t.deepEqual(recordObject(parseRecord('mongodb', TEXT_SERVER)!), {
    t: { $date: '2022-07-29T06:09:45.380Z' },
    s: 'E',
    c: 'NETWORK',
    ctx: 'listener',
    msg: 'connection refused',
  });
  const agent: LogRecord = parseRecord('automation-agent', AGENT_ERROR)!;
  t.is(recordObject(agent)['s'], '.error');
});

// From an incident trial: summary says "to 2024-03-18 14:55:44"; --until with that dropped the
// 24 lines of that second (the shutdown among them).
test('--until takes in all of its last unit: a second, a minute, a day; a fraction to its digits; a span is its moment', (t) => {
  const now = new Date('2026-11-22T12:00:00Z');
  const rows: readonly (readonly [string, string])[] = [
    ['2024-03-18T14:55:44Z', '2024-03-18T14:55:44.999Z'],
    ['2024-03-18 14:55:44', '2024-03-18T14:55:44.999Z'],
    ['2024-03-18T14:55Z', '2024-03-18T14:55:59.999Z'],
    ['2024-03-18T14:55:44.5Z', '2024-03-18T14:55:44.599Z'],
    ['2024-03-18T14:55:44.123Z', '2024-03-18T14:55:44.123Z'],
    ['2024-03-18T14:55:44-04:00', '2024-03-18T18:55:44.999Z'],
    ['2024-03-18', '2024-03-18T23:59:59.999Z'],
    ['2h', '2026-11-22T10:00:00.000Z'],
  ];
  for (const [text, until] of rows) t.is(parseUntilBound(text, now, true)?.toISOString(), until, text);
  // --since is where its unit starts.
  t.is(parseTimeBound('2024-03-18 14:55:44', now, true)?.toISOString(), '2024-03-18T14:55:44.000Z');
  t.is(parseUntilBound('not a time', now, true), undefined);
});

// From an incident trial: each of these printed nothing and exited 0, as if nothing had happened.
test('a selection that can select nothing is said before reading; one that may select something is not', (t) => {
  const none: [string[], string[], RecordQuery, RegExp][] = [
    [['mongodb'], ['mongodb'], {}, /^-t mongodb and -x mongodb leave no type to select/],
    [['operator'], [], { slowMillis: 100 }, /^--slow keeps only mongodb lines, and -t operator leaves them out; add -t mongodb/],
    [['mongodb'], [], { atypes: ['authenticate'] }, /^--atype keeps only mongodb-audit lines/],
    [['mongodb'], [], { users: ['alice'], failed: true }, /^--user --failed keep only mongodb-audit lines/],
    [[], [], { slowMillis: 1, atypes: ['authenticate'] }, /^--slow \(mongodb\) and --atype \(mongodb-audit\) select nothing together/],
    // From a second incident trial: -x leaving out the one log the filters keep.
    [[], ['mongodb'], { slowMillis: 100 }, /^--slow keeps only mongodb lines, and -x mongodb leaves them out/],
    [[], ['mongodb*'], { failed: true }, /^--failed keeps only mongodb-audit lines, and -x mongodb\* leaves them out/],
  ];
  for (const [types, exclude, query, says] of none) t.regex(contradiction(types, exclude, query, knownTypesNamed) ?? '', says, JSON.stringify([types, exclude, query]));
  const some: [string[], string[], RecordQuery][] = [
    [['mongodb,operator'], [], { slowMillis: 100 }],
    [['mongo*'], ['mongodb'], {}],
    [['audit'], [], { failed: true }],
    // A type logtype does not know may be anything: not decided.
    [['my-app'], [], { slowMillis: 5 }],
    // From a review: a glob may match a type logtype does not know (mongodb-custom).
    [['mongodb*'], ['mongodb', 'mongodb-audit'], {}],
    [[], ['mongodb'], { atypes: ['authenticate'] }],
  ];
  for (const [types, exclude, query] of some) t.is(contradiction(types, exclude, query, knownTypesNamed), undefined, JSON.stringify([types, exclude, query]));
});

test('--fields reads a line\'s own keys only: __proto__, constructor and toString are its keys of that name, never inherited', (t) => {
  const line = JSON.parse('{"attr":{"__proto__":{"p":1},"ns":"a.b"},"msg":"m"}') as Record<string, unknown>;
  t.deepEqual(valueAt(line, ['attr', '__proto__']), { p: 1 });
  t.is(valueAt(line, ['constructor']), undefined);
  t.is(valueAt(line, ['msg', 'toString']), undefined);
  // An array's length is no field of the line (jq's .users.length is an error too).
  t.is(valueAt({ users: [{ user: 'a' }] }, ['users', 'length']), undefined);
  t.deepEqual(projectFields({ users: [{ user: 'a' }] }, [['users', 'length'], ['users', '0', 'user']]), { users: [{ user: 'a' }] });
  const projected = projectFields(line, [['attr', '__proto__'], ['attr', 'ns'], ['__proto__']]);
  t.is(JSON.stringify(projected), '{"attr":{"__proto__":{"p":1},"ns":"a.b"}}');
  // Nothing was set on any prototype.
  t.is(Object.getPrototypeOf(projected['attr']), Object.prototype);
  t.is(({} as Record<string, unknown>)['p'], undefined);
});
