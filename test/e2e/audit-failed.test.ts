/**
 * `--failed` keeps the audit events whose result is not 0, whatever the code: the server
 * writes many (18 AuthenticationFailed, 11 UserNotFound, 13 Unauthorized, 26
 * NamespaceNotFound, 48 NamespaceExists, 334 MechanismUnavailable, ...), in the compact and the
 * spaced spelling of the audit log. An event without a result, or with 0, is no failure.
 */
import test from 'ava';
import { entryLine, runFilter } from '../_helpers/filter-process.js';

const TS = '{"$date":"2026-11-22T10:00:00.000+00:00"}';

interface AuditEvent {
  readonly atype: string;
  readonly result: number | undefined;
  readonly spaced: boolean;
}

/** An audit event as the server writes it, compact (`{"atype":…}`) or spaced (`{ "atype" : … }`). */
function auditLine({ atype, result, spaced }: AuditEvent): string {
  const members = [
    ['atype', JSON.stringify(atype)],
    ['ts', TS],
    ['local', '{"ip":"10.0.0.5","port":27017}'],
    ['remote', '{"ip":"10.0.0.9","port":51234}'],
    ['users', '[{"user":"alice","db":"admin"}]'],
    ['roles', '[]'],
    ['param', '{"user":"alice","db":"admin","mechanism":"SCRAM-SHA-256"}'],
    ...(result === undefined ? [] : [['result', String(result)]]),
  ];
  return spaced ? `{ ${members.map(([k, v]) => `"${k}" : ${v}`).join(', ')} }` : `{${members.map(([k, v]) => `"${k}":${v}`).join(',')}}`;
}

const RESULTS = [0, 18, 11, 13, 26, 48, 334, 1, 2, 276, undefined];
const ATYPES = ['authenticate', 'createCollection', 'dropCollection', 'createUser'];

/** Every result with every type, both spellings. */
const EVENTS: AuditEvent[] = RESULTS.flatMap((result) => ATYPES.flatMap((atype) => [false, true].map((spaced) => ({ atype, result, spaced }))));
const STREAM = [
  ...EVENTS.map((event) => entryLine('mongodb-audit', auditLine(event))),
  // Other logs' lines are not audit events, whatever they say about results.
  entryLine('mongodb', '{"t":{"$date":"2026-11-22T10:00:00.000Z"},"s":"E","c":"ACCESS","id":20249,"ctx":"conn1","msg":"Authentication failed","attr":{"result":"AuthenticationFailed: SCRAM authentication failed"}}'),
  entryLine('automation-agent', '[2026-11-22T10:00:00.000+0000] [.error] [a.go:f:1] [10:00:00.000] result 18'),
].join('\n') + '\n';

const failed = (event: AuditEvent): boolean => event.result !== undefined && event.result !== 0;

test('--failed keeps every event with a non-zero result, of every type and spelling, and nothing else', (t) => {
  const result = runFilter(['--failed'], STREAM);
  t.is(result.status, 0, result.stderr);
  t.deepEqual(result.stdout.split('\n').slice(0, -1), EVENTS.filter(failed).map(auditLine));
});

test('--failed with --atype: the failures of that type only', (t) => {
  const result = runFilter(['--failed', '--atype', 'authenticate'], STREAM);
  t.deepEqual(
    result.stdout.split('\n').slice(0, -1),
    EVENTS.filter((e) => failed(e) && e.atype === 'authenticate').map(auditLine),
  );
});

test('--failed read --as mongodb-audit from a raw audit log: the same events', (t) => {
  const raw = `${EVENTS.map(auditLine).join('\n')}\n`;
  const result = runFilter(['--as', 'mongodb-audit', '--failed', '-'], raw);
  t.is(result.status, 0, result.stderr);
  t.deepEqual(result.stdout.split('\n').slice(0, -1), EVENTS.filter(failed).map(auditLine));
});

test('without --failed, -l warn keeps the same failures (a failed event is a warning)', (t) => {
  const result = runFilter(['-t', 'mongodb-audit', '-l', 'warn'], STREAM);
  t.deepEqual(result.stdout.split('\n').slice(0, -1), EVENTS.filter(failed).map(auditLine));
});
