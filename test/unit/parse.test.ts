import test from 'ava';
import fs from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { levelOf, parseLogTime, type Level, type LogRecord } from '../../src/parse/log-record.js';
import { parseServerLine } from '../../src/parse/parse-server-line.js';
import { slowOperationOf } from '../../src/parse/slow-operation.js';
import { parseAgentLine } from '../../src/parse/parse-agent-line.js';
import { parseAuditLine } from '../../src/parse/parse-audit-line.js';
import { parseOperatorLine, parseDiagnosticLine } from '../../src/parse/parse-operator-line.js';
import { parseRecord } from '../../src/parse/parse-record.js';
import { attrValue } from '../../src/parse/record-attributes.js';
import { REAL_DATA } from '../_helpers/sidecar-process.js';

const pick = (record: LogRecord | undefined) =>
  record && {
    time: record.time === undefined ? undefined : new Date(record.time).toISOString(),
    level: record.level,
    component: record.component,
    context: record.context,
    message: record.message,
  };

const cases: { name: string; parse: (line: string) => LogRecord | undefined; line: string; expected: ReturnType<typeof pick> }[] = [
  {
    name: 'server JSON, real padding',
    parse: parseServerLine,
    line: '{"t":{"$date":"2024-03-18T10:49:07.741-04:00"},"s":"W",  "c":"CONTROL",  "id":22184,   "ctx":"initandlisten","msg":"Soft rlimits for open file descriptors too low","attr":{"currentValue":4096,"recommendedMinimum":64000},"tags":["startupWarnings"]}',
    expected: { time: '2024-03-18T14:49:07.741Z', level: 'warn', component: 'CONTROL', context: 'initandlisten', message: 'Soft rlimits for open file descriptors too low' },
  },
  {
    name: 'server JSON, $date as $numberLong',
    parse: parseServerLine,
    line: '{"t":{"$date":{"$numberLong":"1763805600000"}},"s":"D2","c":"QUERY","id":1,"ctx":"conn1","msg":"x"}',
    expected: { time: '2025-11-22T10:00:00.000Z', level: 'debug', component: 'QUERY', context: 'conn1', message: 'x' },
  },
  {
    name: 'server text, 4.2 (two spaces)',
    parse: parseServerLine,
    line: '2022-07-29T06:09:45.380+0000 I  NETWORK  [listener] connection accepted from 10.120.6.12:60576 #26705 (68 connections now open)',
    expected: { time: '2022-07-29T06:09:45.380Z', level: 'info', component: 'NETWORK', context: 'listener', message: 'connection accepted from 10.120.6.12:60576 #26705 (68 connections now open)' },
  },
  {
    name: 'server text, 4.0 (one space)',
    parse: parseServerLine,
    line: '2019-06-18T11:58:58.387+0100 I CONTROL  [initandlisten] allocator: system',
    expected: { time: '2019-06-18T10:58:58.387Z', level: 'info', component: 'CONTROL', context: 'initandlisten', message: 'allocator: system' },
  },
  { name: 'server: not a server line', parse: parseServerLine, line: 'hello', expected: undefined },
  {
    name: 'agent, new time format, process and repeated time dropped',
    parse: parseAgentLine,
    line: '[2021-09-17T13:19:52.333+0000] [.info] [src/mongosqld/custodian.go:NewCustodian:138] <mongosqld custodian> [13:19:52.333] Started',
    expected: { time: '2021-09-17T13:19:52.333Z', level: 'info', component: 'src/mongosqld/custodian.go:NewCustodian:138', context: 'mongosqld custodian', message: 'Started' },
  },
  {
    name: 'agent, old time format',
    parse: parseAgentLine,
    line: '[2019/09/10 04:07:50.537] [.warn] [cm/mongot/maintainer.go:NewEmptyMaintainer:84] [04:07:50.537] Started',
    expected: { time: '2019-09-10T04:07:50.537Z', level: 'warn', component: 'cm/mongot/maintainer.go:NewEmptyMaintainer:84', context: undefined, message: 'Started' },
  },
  {
    name: 'agent banner',
    parse: parseAgentLine,
    line: '[2019/09/10 04:07:51.398] [header.info] [::0]        GitCommitId = 8df36b2f',
    expected: { time: '2019-09-10T04:07:51.398Z', level: 'info', component: undefined, context: undefined, message: 'GitCommitId = 8df36b2f' },
  },
  {
    name: "agent: stderr's free text with a head of its own starts a record",
    parse: parseAgentLine,
    line: 'Logging error occurred: rolling_file_appender: no space left on device',
    expected: { time: undefined, level: 'error', component: undefined, context: undefined, message: 'Logging error occurred: rolling_file_appender: no space left on device' },
  },
  { name: 'agent: free text (stderr) that starts no record', parse: parseAgentLine, line: 'goroutine 1 [running]:', expected: undefined },
  {
    name: 'audit, failed authentication',
    parse: parseAuditLine,
    line: '{"atype":"authenticate","ts":{"$date":"2026-09-29T10:00:00.500Z"},"local":{"ip":"10.0.0.5","port":27017},"remote":{"ip":"10.0.0.9","port":51000},"users":[],"roles":[],"param":{"user":"alice","db":"admin","mechanism":"SCRAM-SHA-256"},"result":18}',
    expected: { time: '2026-09-29T10:00:00.500Z', level: 'warn', component: 'authenticate', context: undefined, message: 'alice@admin from 10.0.0.9:51000 → authentication failed' },
  },
  {
    name: 'audit, system user',
    parse: parseAuditLine,
    line: '{"atype":"createCollection","ts":{"$date":"2026-09-29T10:00:01Z"},"local":{"isSystemUser":true},"remote":{"isSystemUser":true},"users":[{"user":"__system","db":"local"}],"param":{"ns":"a.b"},"result":0}',
    expected: { time: '2026-09-29T10:00:01.000Z', level: 'info', component: 'createCollection', context: undefined, message: '__system@local from system → ok' },
  },
  {
    name: 'operator (zap)',
    parse: parseOperatorLine,
    line: '{"level":"info","ts":"2026-11-22T10:00:00.123Z","caller":"operator/mongodbreplicaset_controller.go:100","msg":"-> ReplicaSet.Reconcile","ReplicaSet":"mongodb/my-replica-set"}',
    expected: { time: '2026-11-22T10:00:00.123Z', level: 'info', component: 'operator/mongodbreplicaset_controller.go:100', context: undefined, message: '-> ReplicaSet.Reconcile' },
  },
  {
    name: 'operator, time in seconds',
    parse: parseOperatorLine,
    line: '{"level":"error","ts":1763805600.5,"caller":"a.go:1","msg":"boom"}',
    expected: { time: '2025-11-22T10:00:00.500Z', level: 'error', component: 'a.go:1', context: undefined, message: 'boom' },
  },
  {
    name: 'sidecar diagnostic (pino)',
    parse: parseDiagnosticLine,
    line: '{"level":40,"time":"2026-11-22T10:00:00.000Z","logType":"logtype-sidecar","event":"truncated","source":"mongodb","path":"/x","msg":"file truncated; reading from its start"}',
    expected: { time: '2026-11-22T10:00:00.000Z', level: 'warn', component: 'mongodb', context: undefined, message: 'file truncated; reading from its start' },
  },
];

for (const { name, parse, line, expected } of cases) {
  test(`parse: ${name}`, (t) => {
    t.deepEqual(pick(parse(line)), expected);
  });
}

const levels: [string | number, Level | undefined][] = [
  ['F', 'fatal'], ['E', 'error'], ['W', 'warn'], ['I', 'info'], ['D1', 'debug'], ['D5', 'debug'],
  ['.warn', 'warn'], ['header.info', 'info'], ['.error', 'error'], ['dpanic', 'fatal'], [50, 'error'], [30, 'info'], ['x', undefined],
];
for (const [severity, level] of levels) {
  test(`level of ${JSON.stringify(severity)} is ${String(level)}`, (t) => {
    t.is(levelOf(severity), level);
  });
}

test('times: ISO with +0000, +00:00, Z, slashes, seconds', (t) => {
  t.is(parseLogTime('2021-09-17T13:19:52.333+0000'), Date.parse('2021-09-17T13:19:52.333Z'));
  t.is(parseLogTime('2022-11-14T20:23:00.611+08:00'), Date.parse('2022-11-14T12:23:00.611Z'));
  t.is(parseLogTime('2019/09/10 04:07:50.537'), Date.parse('2019-09-10T04:07:50.537Z'));
  t.is(parseLogTime(1763805600), Date.parse('2025-11-22T10:00:00.000Z'));
  t.is(parseLogTime('not a time'), undefined);
});

/** A real fixture's lines (a last empty line is the file's final newline, not a line). */
function fixtureLines(file: string): string[] {
  const raw = fs.readFileSync(path.join(REAL_DATA, file));
  const lines = (file.endsWith('.gz') ? gunzipSync(raw) : raw).toString('utf8').split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines;
}

/** The levels of the server's severities, spelled out apart from levelOf. */
const SERVER_LEVELS: Record<string, Level> = { F: 'fatal', E: 'error', W: 'warn', I: 'info', D: 'debug' };

test('every line of the real JSON server logs reads as JSON.parse reads it: time, level, component, context, message, id', (t) => {
  for (const file of ['mongod-replica-rs1.log.gz', 'mongod-replica-rs2.log.gz']) {
    const lines = fixtureLines(file);
    t.is(lines.length, file.includes('rs1') ? 7757 : 4599);
    const wrong: string[] = [];
    for (const [i, line] of lines.entries()) {
      const json = JSON.parse(line) as { t: { $date: string }; s: string; c: string; ctx: string; msg: string; id: number };
      const expected = { time: Date.parse(json.t.$date), level: SERVER_LEVELS[json.s[0]!], component: json.c, context: json.ctx, message: json.msg, id: json.id };
      const record = parseServerLine(line);
      const read = record && { time: record.time, level: record.level, component: record.component, context: record.context, message: record.message, id: record.id };
      if (JSON.stringify(read) !== JSON.stringify(expected)) wrong.push(`${file}:${i + 1}: ${JSON.stringify(read)} against ${JSON.stringify(expected)}`);
    }
    t.deepEqual(wrong.slice(0, 5), [], `${wrong.length} of ${lines.length} lines`);
  }
});

test('every line of the real text server logs (4.0, 4.2) reads as its fields are written', (t) => {
  // The pre-4.4 layout, read here by a pattern of its own: time with ±hhmm, severity (D1-D5), component, [context], message.
  const layout = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3})([+-]\d\d)(\d\d) ([FEWID])\d? +(\S+) +\[([^\]]*)\] (.*)$/;
  for (const file of ['mongod-4.2-text.log', 'mongod-4.0-text-slow-transactions.log']) {
    const lines = fixtureLines(file);
    t.is(lines.length, file.includes('4.2') ? 503 : 1414);
    const wrong: string[] = [];
    for (const [i, line] of lines.entries()) {
      const fields = layout.exec(line);
      const expected = fields && { time: Date.parse(`${fields[1]}${fields[2]}:${fields[3]}`), level: SERVER_LEVELS[fields[4]!], component: fields[5], context: fields[6], message: fields[7] };
      const record = parseServerLine(line);
      const read = record && { time: record.time, level: record.level, component: record.component, context: record.context, message: record.message };
      if (!expected || JSON.stringify(read) !== JSON.stringify(expected)) wrong.push(`${file}:${i + 1}: ${JSON.stringify(read)} against ${JSON.stringify(expected)}`);
    }
    t.deepEqual(wrong.slice(0, 5), [], `${wrong.length} of ${lines.length} lines`);
  }
});

/** The type each fixture's raw lines are read as (an entry line says its own). */
const FIXTURE_TYPES: Record<string, string> = {
  'mongod-replica-rs1.log.gz': 'mongodb',
  'mongod-replica-rs2.log.gz': 'mongodb',
  'mongod-4.2-text.log': 'mongodb',
  'mongod-4.0-text-slow-transactions.log': 'mongodb',
  'mongod-3.6-text-restart.log': 'mongodb',
  'audit-json.log': 'mongodb-audit',
  'agent-community-operator.log': 'automation-agent',
  'agent-issue-threads.log': 'automation-agent',
  'agent-stderr-disk-full.log': 'automation-agent-stderr',
  'kubectl-logs-enterprise-agent.log': 'automation-agent',
  'operator-issue-threads.log': 'operator',
};

/** The real lines that are no record of their type, each with why (line numbers from 1). */
const NOT_RECORDS: Record<string, Record<number, string>> = {
  'agent-issue-threads.log': {
    12: 'the second physical line of the record on line 11 (the agent printed a value holding a newline): no fields of its own',
    15: "the agent's logger failing on a full disk writes free text to stderr: no time, no level",
  },
  'agent-stderr-disk-full.log': { 1: 'the same free text' },
};

test('every line of every real fixture is a record of its type, with a time and a level, except the lines named with why', (t) => {
  const files = fs.readdirSync(REAL_DATA).filter((name) => name !== 'SOURCES.md').sort();
  t.deepEqual(files, Object.keys(FIXTURE_TYPES).sort(), 'a new fixture needs its type here');
  for (const file of files) {
    const notRecords: number[] = [];
    for (const [i, line] of fixtureLines(file).entries()) {
      const entry = line.startsWith('{"logType":') ? (JSON.parse(line) as { logType: string; contents: string }) : undefined;
      const record = parseRecord(entry?.logType ?? FIXTURE_TYPES[file]!, entry?.contents ?? line);
      if (!record || typeof record.time !== 'number' || Number.isNaN(record.time) || !record.level) notRecords.push(i + 1);
    }
    t.deepEqual(notRecords, Object.keys(NOT_RECORDS[file] ?? {}).map(Number), file);
  }
  // Lines 5 and 6 are server lines the pod labelled automation-agent-verbose: read as the server's.
  for (const n of [5, 6]) {
    const { contents } = JSON.parse(fixtureLines('agent-issue-threads.log')[n - 1]!) as { contents: string };
    t.like(parseServerLine(contents), { component: n === 5 ? 'CONTROL' : 'NETWORK', level: n === 5 ? 'info' : 'error' });
  }
});

test('an agent time with an offset of hours only (-00) is read', (t) => {
  const line = fixtureLines('agent-issue-threads.log')[9]!;
  t.true(line.startsWith('[2020-12-04T16:39:07.258-00]'));
  t.like(parseAgentLine(line), { time: Date.parse('2020-12-04T16:39:07.258Z'), level: 'info', component: 'cm/util/sysdep_unix.go:LockAutomationLockFile:321', message: 'Locking automation lock file at /tmp/mongodb-mms-automation.lock' });
  t.is(parseLogTime('2020-12-04T16:39:07.258+05'), Date.parse('2020-12-04T11:39:07.258Z'));
});

test('slow operations: every slow operation line (51803, 51801, 51802) of the real JSON logs, as JSON.parse reads duration, namespace, plan and type; no other line with a durationMillis', (t) => {
  let slow = 0;
  const wrong: string[] = [];
  for (const file of ['mongod-replica-rs1.log.gz', 'mongod-replica-rs2.log.gz']) {
    for (const [i, line] of fixtureLines(file).entries()) {
      const json = JSON.parse(line) as { id: number; attr?: Record<string, unknown> };
      const attr = json.attr ?? {};
      const text = (key: string) => (typeof attr[key] === 'string' ? attr[key] : undefined);
      const operation = json.id === 51803 || json.id === 51801 || json.id === 51802;
      const expected = operation && typeof attr['durationMillis'] === 'number' ? { durationMillis: attr['durationMillis'], ns: text('ns'), plan: text('planSummary'), type: text('type') } : undefined;
      if (expected) slow++;
      const read = slowOperationOf(parseServerLine(line)!);
      if (JSON.stringify(read) !== JSON.stringify(expected)) wrong.push(`${file}:${i + 1}: ${JSON.stringify(read)} against ${JSON.stringify(expected)}`);
    }
  }
  t.deepEqual(wrong.slice(0, 5), [], `${wrong.length} lines`);
  // 11,072 lines have a durationMillis: 72 of them are no operation (index builds, TTL passes, WiredTiger, topology changes).
  t.is(slow, 11000);
  // One read by eye: the first slow query with a plan.
  const first = fixtureLines('mongod-replica-rs1.log.gz').map(parseServerLine).find((r) => r?.id === 51803 && attrValue(r, 'planSummary'));
  t.deepEqual(slowOperationOf(first!), FIRST_SLOW_QUERY);
});

test('every real agent line reads as written: time, level, source, process, message', (t) => {
  const lines = [
    ...fixtureLines('agent-community-operator.log'),
    ...fixtureLines('kubectl-logs-enterprise-agent.log').map((line) => (JSON.parse(line) as { contents: string }).contents),
  ];
  const read = lines.map((line) => {
    const record = parseAgentLine(line);
    return record && [new Date(record.time!).toISOString(), record.level, record.component, record.context, record.message];
  });
  t.deepEqual(read, [
    ['2021-09-17T13:19:52.333Z', 'info', 'src/util/sysdep_unix.go:LockAutomationLockFile:321', undefined, 'Locking automation lock file at /tmp/mongodb-mms-automation.lock'],
    ['2021-09-17T13:19:52.333Z', 'info', 'main/components/agent.go:NewAgent:123', undefined, 'Constructing new agent object with desiredClusterConfigPath=/var/lib/automation/config/cluster-config.json'],
    ['2021-09-17T13:19:52.333Z', 'info', 'src/mongosqld/custodian.go:NewCustodian:138', 'mongosqld custodian', 'Started'],
    ['2021-09-17T13:19:52.335Z', 'info', 'realtime/rtcollector/rtcollector.go:controlLoop:87', 'rtCollector', 'Starting control loop'],
    ['2021-09-17T13:19:52.335Z', 'info', 'src/dataexplorer/dataexplorer.go:controlLoop:108', 'dataExplorer', 'Starting control loop'],
    ['2021-09-17T13:19:52.335Z', 'info', 'src/kmipproxy/custodian.go:mainLoop:205', 'kmipProxyMaintainer', 'Starting main loop'],
    ['2021-09-17T13:19:52.459Z', 'info', 'main/components/agent.go:LoadClusterConfig:259', undefined, 'New cluster config received! 0 (<nil>) -> 1 (2021-09-17 13:19:45.453316698 +0000 UTC)'],
    [
      '2019-09-10T04:07:50.537Z',
      'info',
      'main/components/agent.go:NewAgent:110',
      undefined,
      'Constructing new agent object with desiredClusterConfigPath=https://cloud.mongodb.com/agents/api/automation/conf/v1/<org-id>?ah=mongod-0.mongod-svc.mongod-debug.svc.cluster.local&ahs=mongod-0&av=10.3.3.5885&aos=linux&aa=x86_64&ab=64&at=1568088470537',
    ],
    ['2019-09-10T04:07:50.537Z', 'info', 'cm/mongosqld/custodian.go:NewCustodian:137', 'mongosqld custodian', 'Started'],
    ['2019-09-10T04:07:50.537Z', 'info', 'cm/mongot/maintainer.go:NewEmptyMaintainer:84', undefined, 'Started'],
    ['2019-09-10T04:07:50.537Z', 'info', 'cm/mmssettings/mmssettings.go:New:68', undefined, 'Start MMS Settings gatherer'],
    ['2019-09-10T04:07:51.398Z', 'info', undefined, undefined, 'GitCommitId = 8df36b2fdbe7d2ea98fdc1850ba76d9362cdf2cc'],
    ['2019-09-10T04:07:51.398Z', 'info', undefined, undefined, 'AutomationVersion = 10.3.3.5885'],
  ]);
});

/** rs1's first slow query with a plan, as its line says (line 275 of the file, read by eye). */
const FIRST_SLOW_QUERY = { durationMillis: 0, ns: 'local.oplog.rs', plan: 'COLLSCAN', type: 'command' };
