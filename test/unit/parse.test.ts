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
    expected: { time: '2019-09-10T04:07:51.398Z', level: 'info', component: undefined, context: undefined, message: '       GitCommitId = 8df36b2f' },
  },
  { name: 'agent: free text (stderr)', parse: parseAgentLine, line: 'Logging error occurred: rolling_file_appender: no space left on device', expected: undefined },
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

test('every line of the real server logs parses, with a time and a level', (t) => {
  for (const file of ['mongod-replica-rs1.log.gz', 'mongod-replica-rs2.log.gz', 'mongod-4.2-text.log', 'mongod-4.0-text-slow-transactions.log']) {
    const raw = fs.readFileSync(path.join(REAL_DATA, file));
    const lines = (file.endsWith('.gz') ? gunzipSync(raw) : raw).toString('utf8').split('\n').filter(Boolean);
    const failed = lines.filter((line) => {
      const record = parseServerLine(line);
      return !record || !record.time || !record.level;
    });
    // Text logs hold multi-line messages (a stack trace goes on below its line): those are shown as they are.
    t.true(failed.length <= lines.length * 0.01, `${file}: ${failed.length} of ${lines.length} did not parse, e.g. ${failed[0]?.slice(0, 120)}`);
  }
});

test('slow operations: duration, namespace and plan', (t) => {
  const line = fs
    .readFileSync(path.join(REAL_DATA, 'mongod-replica-rs1.log.gz'))
    .subarray(0);
  const slow = gunzipSync(line).toString('utf8').split('\n').map(parseServerLine).find((r) => r?.id === 51803 && r.attrs?.['planSummary']);
  const op = slow && slowOperationOf(slow);
  t.truthy(op);
  t.is(typeof op!.durationMillis, 'number');
  t.truthy(op!.ns);
  t.truthy(op!.plan);
});

test('every real agent line parses', (t) => {
  for (const line of fs.readFileSync(path.join(REAL_DATA, 'agent-community-operator.log'), 'utf8').split('\n').filter(Boolean)) {
    t.truthy(parseAgentLine(line), line);
  }
  for (const line of fs.readFileSync(path.join(REAL_DATA, 'kubectl-logs-enterprise-agent.log'), 'utf8').split('\n').filter(Boolean)) {
    t.truthy(parseAgentLine((JSON.parse(line) as { contents: string }).contents), line);
  }
});
