import test from 'ava';
import fs from 'node:fs';
import path from 'node:path';
import { entryLine, runFilter } from '../_helpers/filter-process.js';
import { REAL_DATA } from '../_helpers/sidecar-process.js';

const SAMPLES = path.resolve(import.meta.dirname, '../../../samples');
const SLOW =
  '{"t":{"$date":"2026-11-22T10:00:05.000+00:00"},"s":"I",  "c":"COMMAND",  "id":51803,   "ctx":"conn42","msg":"Slow query","attr":{"type":"command","ns":"shop.orders","planSummary":"COLLSCAN","durationMillis":2500,"command":{"find":"orders","filter":{"status":"open"}}}}';
const FAST =
  '{"t":{"$date":"2026-11-22T10:00:06.000+00:00"},"s":"I",  "c":"COMMAND",  "id":51803,   "ctx":"conn7","msg":"Slow query","attr":{"ns":"shop.carts","planSummary":"IXSCAN { a: 1 }","durationMillis":60}}';
const STREAM = [
  entryLine('mongodb', SLOW),
  entryLine('mongodb', FAST),
  entryLine('mongodb', '2022-07-29T06:09:45.380+0000 W  NETWORK  [listener] connection refused'),
  entryLine('automation-agent', '[2026-11-22T10:00:10.000+0000] [.error] [director.go:1] [10:00:10.000] Failed to reach goal state'),
  entryLine('mongodb-audit', '{"atype":"authenticate","ts":{"$date":"2026-11-22T10:00:08.000Z"},"remote":{"ip":"10.0.0.9","port":51000},"users":[],"param":{"user":"alice","db":"admin"},"result":18}'),
].join('\n') + '\n';

const lines = (stdout: string): string[] => stdout.split('\n').slice(0, -1);

test('--slow without a value means 100 ms, and is followed by other flags', (t) => {
  const result = runFilter(['--slow', '-o', 'json', '-f', 'attr.durationMillis'], STREAM);
  t.is(result.status, 0, result.stderr);
  t.deepEqual(lines(result.stdout), ['{"attr":{"durationMillis":2500}}']);
  t.deepEqual(lines(runFilter(['--slow', '50', '-o', 'json', '-f', 'attr.ns'], STREAM).stdout), ['{"attr":{"ns":"shop.orders"}}', '{"attr":{"ns":"shop.carts"}}']);
});

test('-o json: server objects as written, pre-4.4 text in the 4.4 shape, agents as entries', (t) => {
  const result = runFilter(['-o', 'json', '-x', 'mongodb-audit'], STREAM);
  t.deepEqual(lines(result.stdout), [
    SLOW,
    FAST,
    '{"t":{"$date":"2022-07-29T06:09:45.380Z"},"s":"W","c":"NETWORK","ctx":"listener","msg":"connection refused"}',
    entryLine('automation-agent', '[2026-11-22T10:00:10.000+0000] [.error] [director.go:1] [10:00:10.000] Failed to reach goal state'),
  ]);
  for (const line of lines(result.stdout)) t.notThrows(() => JSON.parse(line));
});

test('--level warn: warn and worse across logs; pretty shows level, component, message', (t) => {
  const result = runFilter(['--level', 'warn', '-o', 'pretty', '--color', 'never', '--utc'], STREAM);
  t.deepEqual(lines(result.stdout), [
    'mongodb       2022-07-29 06:09:45.380Z WARN  NETWORK [listener] connection refused',
    'agent         2026-11-22 10:00:10.000Z ERROR director.go:1 Failed to reach goal state',
    'audit         2026-11-22 10:00:08.000Z WARN  authenticate alice@admin from 10.0.0.9:51000 → authentication failed param={"user":"alice","db":"admin"}',
  ]);
});

test('slow operations lead with duration, namespace and plan; --expand shows the whole attributes', (t) => {
  const short = lines(runFilter(['--plan', 'COLLSCAN', '-o', 'pretty', '--color', 'never', '--utc'], STREAM).stdout);
  t.is(short.length, 1);
  t.true(short[0]!.startsWith('mongodb       2026-11-22 10:00:05.000Z INFO  COMMAND [conn42] 2500ms shop.orders COLLSCAN Slow query type=command'), short[0]);
  const expanded = lines(runFilter(['--plan', 'COLLSCAN', '-o', 'pretty', '--color', 'never', '--expand'], STREAM).stdout);
  t.true(expanded.length > 5);
  t.true(expanded.includes('        "filter": {'), expanded.join('\n'));
});

test('audit filters: --failed, --user, --atype', (t) => {
  t.is(lines(runFilter(['--failed', '--user', 'alice', '-o', 'raw'], STREAM).stdout).length, 1);
  t.is(lines(runFilter(['--atype', 'logout'], STREAM).stdout).length, 0);
  // From a field trial: a 5.0 logout names who logged out in param.initialUsers (users is empty): --user found none.
  const real = fs.readFileSync(path.join(REAL_DATA, 'audit-json.log'), 'utf8');
  const logout = lines(real).find((line) => line.includes('"logout"'))!;
  for (const user of ['__system', '__system@local']) t.deepEqual(lines(runFilter(['--as', 'mongodb-audit', '--user', user, '-o', 'raw'], real).stdout), [logout], user);
  t.regex(lines(runFilter(['--as', 'mongodb-audit', '--atype', 'logout', '-o', 'pretty', '--color', 'never'], real).stdout)[0]!, / logout __system@local from /);
});

test('--since and --until, relative and absolute', (t) => {
  t.is(lines(runFilter(['--since', '2026-11-22T10:00:06Z', '--until', '2026-11-22T10:00:09Z'], STREAM).stdout).length, 2);
  t.is(lines(runFilter(['--since', '1h'], STREAM).stdout).length, 0);
});

test("the operator's log is recognised without a flag, prefixed or not", (t) => {
  const operator = fs.readFileSync(path.join(SAMPLES, 'operator.log'), 'utf8');
  const result = runFilter(['--resource', 'my-replica-set', '--level', 'error', '-o', 'pretty', '--color', 'never', '--utc', '--summary'], operator);
  t.is(result.status, 0, result.stderr);
  const shown = lines(result.stdout);
  t.is(shown.length, 2);
  t.true(shown.every((line) => line.startsWith('operator      2026-11-22 ')), shown.join('\n'));
  t.regex(shown[0]!, /ERROR operator\/common_controller.go:152 Failed to deploy: Status: 400/);
  t.regex(result.stderr, /operator +8\n/);
  const prefixed = operator.split('\n').filter(Boolean).map((line) => `[pod/op-1/operator] 2026-11-22T10:00:00Z ${line}`).join('\n');
  t.is(lines(runFilter(['-t', 'operator', '--strict'], prefixed).stdout).length, 8);
});

const usage: { name: string; args: string[]; says: RegExp }[] = [
  { name: 'a bad --since', args: ['--since', 'yesterday'], says: /--since takes an RFC 3339 time \(2024-03-18T14:52Z, or as the output shows it: "2024-03-18 14:52:44"\) or a span back from now such as 15m, 2h, 1h30m, 1d, not "yesterday"/ },
  { name: 'a bad --level', args: ['--level', 'loud'], says: /--level takes fatal, error, warn, info, debug, D1, D2, D3, D4, D5, not "loud"/ },
  { name: 'a bad --id', args: ['--id', 'x1'], says: /--id takes whole numbers, not "x1"/ },
  { name: '--fields with raw', args: ['-o', 'raw', '-f', 'msg'], says: /--fields needs -o json or -o pretty/ },
];
for (const { name, args, says } of usage) {
  test(`usage error, ${name}: one line, exit 2`, (t) => {
    const result = runFilter(args, '');
    t.is(result.status, 2);
    t.regex(result.stderr, says);
    t.is(result.stderr.trim().split('\n').length, 1);
  });
}

test('-o json never writes broken JSON: a server line cut short (in its message or its attributes) is no record, and leaves as its entry', (t) => {
  const cutInMessage = '{"t":{"$date":"2026-11-22T10:00:00.000Z"},"s":"I",  "c":"NETWORK",  "id":22943,   "ctx":"listener","msg":"Connection acc';
  const cutInAttributes = '{"t":{"$date":"2026-11-22T10:00:00.000Z"},"s":"I",  "c":"NETWORK",  "id":22943,   "ctx":"listener","msg":"Connection accepted","attr":{"remote":"10.0.0';
  const result = runFilter(['-o', 'json'], `${entryLine('mongodb', cutInMessage)}\n${entryLine('mongodb', cutInAttributes)}\n`);
  t.deepEqual(lines(result.stdout), [entryLine('mongodb', cutInMessage), entryLine('mongodb', cutInAttributes)]);
  // From an incident trial: a slow query cut mid-JSON was counted as parsed, and shown as a bare
  // "Slow query": it is counted as not parsed, and shown as it is.
  const slow = '{"t":{"$date":"2024-01-01T00:00:00Z"},"s":"I","c":"COMMAND","id":51803,"ctx":"conn1","msg":"Slow query","attr":{"durationMillis":5,"ns":"a.b"';
  const summary = JSON.parse(runFilter(['summary', '--json'], `${entryLine('mongodb', slow)}\n`).stdout) as { types: { unparsed: number }[] };
  t.is(summary.types[0]!.unparsed, 1);
  t.is(runFilter(['-o', 'pretty', '--color', 'never'], `${entryLine('mongodb', slow)}\n`).stdout, `mongodb       ${slow}\n`);
});

// From an incident trial: --slow took any line with attr.durationMillis for an operation, and
// on two real members' logs its slowest was a 79-second topology change, not an operation.
test('--slow selects slow operations only (slow queries, oplog entries applied, transactions): not the other lines that time themselves', (t) => {
  const REAL = path.resolve(import.meta.dirname, '../../../test/fixtures/real');
  const members = [path.join(REAL, 'mongod-replica-rs1.log.gz'), path.join(REAL, 'mongod-replica-rs2.log.gz')];
  const ids = lines(runFilter(['--slow', '0', '-f', 'id', ...members]).stdout).map((line) => (JSON.parse(line) as { id: number }).id);
  const counted = new Map<number, number>();
  for (const id of ids) counted.set(id, (counted.get(id) ?? 0) + 1);
  // As jq counts them on the same lines: 8,343 slow queries and 2,657 oplog entries applied.
  t.deepEqual([...counted].sort(), [[51801, 2657], [51803, 8343]]);
  // The same lines the summary counts as slow.
  const summary = JSON.parse(runFilter(['summary', '--json', ...members]).stdout) as { server: { slowOperations: { count: number }[]; appliedOperations: { count: number }[] } };
  const slow = [...summary.server.slowOperations, ...summary.server.appliedOperations].reduce((sum, g) => sum + g.count, 0);
  t.is(slow, ids.length);
  // A line that times itself and is no operation, alone: not selected.
  const topology = '{"t":{"$date":"2024-03-18T14:52:44.000+00:00"},"s":"I",  "c":"-",        "id":6006301, "ctx":"ReplCoord-0","msg":"Replica set primary server change detected","attr":{"replicaSet":"rs","topologyType":"ReplicaSetWithPrimary","primary":"db-1:27017","durationMillis":79311}}';
  t.is(runFilter(['--slow', '0'], `${entryLine('mongodb', topology)}\n`).stdout, '');
});

test('64-bit integers keep their digits in --fields, --expand and pre-4.4 text lines (cursor ids match their getMore)', (t) => {
  const getMore = (id: string): string =>
    `{"t":{"$date":"2024-03-18T14:49:24.933+00:00"},"s":"I",  "c":"COMMAND",  "id":51803,   "ctx":"conn22","msg":"Slow query","attr":{"type":"command","ns":"local.oplog.rs","command":{"getMore":${id},"collection":"oplog.rs"},"cursorid":${id},"durationMillis":5003}}`;
  const input = [
    entryLine('mongodb', getMore('2187658113137273877')),
    entryLine('mongodb', getMore('-9223372036854775807')),
    entryLine('mongodb', '2020-03-12T00:00:05.000+0000 I  COMMAND  [conn1] command local.oplog.rs command: getMore { getMore: 7314488630307709873, collection: "oplog.rs", $db: "local" } planSummary: COLLSCAN cursorid:7314488630307709873 keysExamined:0 docsExamined:0 numYields:0 nreturned:0 reslen:292 protocol:op_msg 5003ms'),
  ].join('\n') + '\n';
  t.deepEqual(lines(runFilter(['-o', 'json', '-f', 'attr.cursorid,attr.command.getMore'], input).stdout), [
    '{"attr":{"cursorid":2187658113137273877,"command":{"getMore":2187658113137273877}}}',
    '{"attr":{"cursorid":-9223372036854775807,"command":{"getMore":-9223372036854775807}}}',
    '{"attr":{"cursorid":7314488630307709873,"command":{"getMore":7314488630307709873}}}',
  ]);
  const expanded = runFilter(['-o', 'pretty', '-e', '--color', 'never'], input).stdout;
  for (const id of ['2187658113137273877', '-9223372036854775807', '7314488630307709873']) t.true(expanded.includes(`"getMore": ${id}`), id);
  const json = runFilter(['summary', '--json'], input);
  t.is(json.status, 0, json.stderr);
  t.notThrows(() => JSON.parse(json.stdout));
  // A count past 2^53 is still counted (its nearest double), not left out.
  const huge = entryLine('mongodb', getMore('1').replace('"durationMillis":5003', '"docsExamined":9007199254740993,"nreturned":1,"reslen":9007199254740993,"durationMillis":5003'));
  const summary = JSON.parse(runFilter(['summary', '--json'], `${huge}\n`).stdout) as { server: { slowOperations: { docsExamined?: number; examined?: number }[] } };
  t.true(JSON.stringify(summary.server.slowOperations[0]).includes('9007199254740992'), JSON.stringify(summary.server.slowOperations[0]));
});

test('a CRLF line end and a byte-order mark are no part of the line a reader reads (the sidecar keeps both in contents)', (t) => {
  const text42 = '2020-03-12T00:00:05.000+0000 I  ACCESS   [conn1] Successfully authenticated as principal __system on local';
  const slow40 = '2020-03-12T00:00:06.000+0000 I  COMMAND  [conn2] command shop.orders command: find { find: "orders" } planSummary: COLLSCAN keysExamined:0 docsExamined:10 numYields:0 nreturned:1 reslen:292 protocol:op_msg 2500ms';
  const json44 = '{"t":{"$date":"2024-03-18T10:49:06.979-04:00"},"s":"W",  "c":"CONTROL",  "id":23285,   "ctx":"main","msg":"Automatically disabling TLS 1.0"}';
  const agent = '[2021-09-17T13:19:52.333+0000] [.error] [src/util/sysdep_unix.go:LockAutomationLockFile:321] [13:19:52.333] Failed to lock';
  const entries = [
    entryLine('mongodb', `${text42}\r`),
    entryLine('mongodb', `${slow40}\r`),
    entryLine('mongodb', `\uFEFF${json44}`),
    entryLine('automation-agent-verbose', `\uFEFF${agent}\r`),
  ].join('\n') + '\n';
  t.is(lines(runFilter(['-c', 'ACCESS'], entries).stdout).length, 1);
  t.is(lines(runFilter(['--slow'], entries).stdout).length, 1);
  t.is(lines(runFilter(['-l', 'warn'], entries).stdout).length, 2, 'the 4.4 line after its BOM, and the agent line');
  t.deepEqual(lines(runFilter(['-l', 'info', '-o', 'json', '-f', 's'], entries).stdout), ['{"s":"I"}', '{"s":"I"}', '{"s":"W"}', '{"s":".error"}']);
  // A file read bare, CRLF: the same.
  t.is(lines(runFilter(['--as', 'mongodb', '-c', 'ACCESS'], `${text42}\r\n${slow40}\r\n`).stdout).length, 1);
  t.is(lines(runFilter(['--as', 'mongodb', '--slow'], `${text42}\r\n${slow40}\r\n`).stdout).length, 1);
  // Raw output keeps the bytes.
  t.is(runFilter(['-o', 'raw', '-t', 'mongodb'], entries).stdout.split('\n')[0], `${text42}\r`);
});

test('--since/--until leave out lines without a time of their own, and say how many (logtype, summary, doctor): a panic is never hidden in silence', (t) => {
  const input = [
    entryLine('automation-agent-verbose', '[2026-11-22T10:00:00.000+0000] [.warn] [src/x.go:f:1] [10:00:00.000] agent warning'),
    entryLine('automation-agent-stderr', 'panic: runtime error: invalid memory address or nil pointer dereference'),
    entryLine('automation-agent-stderr', 'goroutine 1 [running]:'),
    entryLine('mongodb', '{"t":{"$date":"2026-11-22T10:00:05.000+00:00"},"s":"W",  "c":"NETWORK",  "id":1, "ctx":"main","msg":"late"}'),
  ].join('\n') + '\n';
  const since = ['--since', '2026-11-22T09:30:00Z'];
  const filtered = runFilter(['-o', 'raw', ...since], input);
  t.is(lines(filtered.stdout).length, 2);
  // The panic and its goroutine line are one record.
  t.regex(filtered.stderr, /^logtype: 1 record has no time of its own \(a Go panic, a line of an agent's stderr; a record over several lines counts once\), so --since\/--until left it out \(not written\); without those options it is in$/m);
  // Only those the rest of the selection kept: -t mongodb keeps no stderr line.
  t.notRegex(runFilter(['-t', 'mongodb', ...since], input).stderr, /no time/);
  t.regex(runFilter(['summary', ...since], input).stderr, /^logtype summary: 1 record has no time .*\(not counted\)/m);
  t.regex(runFilter(['doctor', ...since], input).stderr, /^logtype doctor: 1 record has no time .*\(not looked at for problems\)/m);
  // Without --since: nothing to say.
  t.notRegex(runFilter(['-o', 'raw'], input).stderr, /no time/);
});

test('a line whose partial pieces came without their last one is read as far as it goes, and said (logtype, summary, doctor)', (t) => {
  const piece = (contents: string) => `${JSON.stringify({ logType: 'mongodb', contents, partial: true })}\n`;
  const input = `${entryLine('mongodb', 'whole')}\n${piece('{"t":{"$date":"2024-03-18T10:49:07.000-04:00"},"s":"W",  "c":"COMMAND", ')}${piece('"id":51803, "ctx":"conn9","msg":"Slow qu')}`;
  const raw = runFilter(['-o', 'raw'], input);
  t.deepEqual(lines(raw.stdout), ['whole', '{"t":{"$date":"2024-03-18T10:49:07.000-04:00"},"s":"W",  "c":"COMMAND", "id":51803, "ctx":"conn9","msg":"Slow qu']);
  t.regex(raw.stderr, /^logtype: 1 line's last piece never came \(the input ended, or was interrupted, first: the sidecar stopped mid-line, or the capture was cut\)/m);
  t.regex(runFilter(['summary'], input).stderr, /^logtype summary: 1 line's last piece never came/m);
  t.regex(runFilter(['doctor'], input).stderr, /^logtype doctor: 1 line's last piece never came/m);
  t.notRegex(runFilter([], `${entryLine('mongodb', 'whole')}\n`).stderr, /last piece/);
});

// From a field trial: a pre-4.4 server's crash report (an invariant's abort message, a signal's
// backtrace: lines of no head after its fatal lines) stood as lines of its own: -l fatal showed
// an empty message and no backtrace, --since left them out, and -g on a frame gave no head.
test('a pre-4.4 crash report: the lines of no head after a fatal line are its record, as the sidecar sends them and as a copied log', (t) => {
  const text = [
    '2020-03-12T00:05:00.100+0000 I  NETWORK  [conn12] end connection 10.0.0.1:5000 (3 connections now open)',
    '2020-03-12T00:05:01.200+0000 F  -        [conn13] Invariant failure opCtx->lockState()->isW() src/mongo/db/catalog/database_impl.cpp 512',
    '2020-03-12T00:05:01.200+0000 F  -        [conn13] ',
    '',
    '***aborting after invariant() failure',
    '',
    '',
    '2020-03-12T00:05:01.250+0000 F  -        [conn13] Got signal: 6 (Aborted).',
    ' 0x55d1c2a3f1e1 0x55d1c2a3e8a4 0x7f0a1b2c3d4e',
    '----- BEGIN BACKTRACE -----',
    '{"backtrace":[{"b":"55D1C0E00000","o":"1C3F1E1","s":"_ZN5mongo15printStackTraceERSo"}],"processInfo":{"mongodbVersion":"4.2.3"}}',
    ' mongod(_ZN5mongo15printStackTraceERSo+0x41) [0x55d1c2a3f1e1]',
    ' libc.so.6(abort+0x12B) [0x7f0a1b2c3d4e]',
    '-----  END BACKTRACE  -----',
    '2020-03-12T00:05:30.000+0000 I  CONTROL  [main] ***** SERVER RESTARTED *****',
    '2020-03-12T00:05:30.020+0000 W  STORAGE  [initandlisten] Detected unclean shutdown - /data/mongod.lock is not empty.',
  ];
  const crash = text.slice(1, 14);
  const entries = text.map((line) => JSON.stringify({ logType: 'mongodb', contents: line })).join('\n') + '\n';
  for (const [name, input, args] of [
    ['entries', entries, []],
    ['a copied log', `${text.join('\n')}\n`, []],
    ['a copied log, --as', `${text.join('\n')}\n`, ['--as', 'mongodb']],
  ] as const) {
    t.deepEqual(lines(runFilter(['-l', 'fatal', '-o', 'raw', ...args], input).stdout), crash, `${name}: -l fatal`);
    t.deepEqual(lines(runFilter(['--since', '2020-03-12T00:05:01Z', '--until', '2020-03-12T00:05:02Z', '-o', 'raw', ...args], input).stdout), crash, `${name}: --since/--until`);
    t.deepEqual(lines(runFilter(['-g', 'printStackTrace', '-o', 'raw', ...args], input).stdout), crash.slice(6), `${name}: -g on a frame`);
  }
  // A report reads out of order: the record held was ended by the next line with a head, not by
  // the input's end (a review: an hour of lines later a stray line was joined to it, and its
  // late delivery read as the clock stepping back).
  const later = Array.from({ length: 200 }, (_, i) => `2020-03-12T0${1 + Math.floor(i / 60)}:${String(i % 60).padStart(2, '0')}:00.000+0000 I  NETWORK  [conn2] end connection 10.0.0.1:5000 (1 connection now open)`);
  const report = JSON.parse(runFilter(['summary', '--json', '--as', 'mongodb'], `${[...text, ...later, 'a stray line of no head'].join('\n')}\n`).stdout) as { server: { clockSteps?: unknown }; types: { logType: string; unparsed: number }[] };
  t.is(report.server.clockSteps, undefined);
  t.is(report.types.find((type) => type.logType === 'mongodb')?.unparsed, 1, 'the stray line is its own');
  const summary = runFilter(['summary', '--utc'], entries).stdout;
  t.regex(summary, /F {2}2020-03-12 00:05:01 {2}2020-03-12 00:05:01 {2}\*\*\*aborting after invariant\(\) failure\n/);
  t.regex(summary, /F {2}2020-03-12 00:05:01 {2}2020-03-12 00:05:01 {2}Got signal: # \(Aborted\)\.\n/);
});
