/**
 * From an incident trial: the summary had no failed-login breakdown for the server's own lines
 * (auditing is off by default in these pods); doctor flagged them, the summary said nothing.
 */
import test from 'ava';
import { parseServerLine } from '../../src/parse/parse-server-line.js';
import { failedLoginOf, ServerLogins } from '../../src/summary/server-logins.js';

const rows: [string, string, { user: string; source: string } | undefined][] = [
  [
    '5.0+ (5286307)',
    '{"t":{"$date":"2025-04-29T09:55:22.461+00:00"},"s":"I",  "c":"ACCESS",   "id":5286307, "ctx":"conn231150","msg":"Failed to authenticate","attr":{"client":"10.32.2.33:58258","isSpeculative":false,"isClusterMember":false,"mechanism":"SCRAM-SHA-256","user":"mms-automation-agent","db":"admin","error":"AuthenticationFailed: SCRAM authentication failed, storedKey mismatch","result":18}}',
    { user: 'mms-automation-agent@admin', source: '10.32.2.33' },
  ],
  [
    '5.0+, no user named ($external, abandoned)',
    '{"t":{"$date":"2024-08-22T17:27:29.705+08:00"},"s":"I",  "c":"ACCESS",   "id":5286307, "ctx":"conn136","msg":"Failed to authenticate","attr":{"client":"10.194.168.198:62224","isSpeculative":false,"isClusterMember":false,"mechanism":"GSSAPI","user":"","db":"$external","error":"AuthenticationAbandoned: Authentication session abandoned, client has likely disconnected","result":337}}',
    { user: '(none)@$external', source: '10.194.168.198' },
  ],
  [
    '4.4 (20249)',
    '{"t":{"$date":"2026-11-22T09:58:04.530+00:00"},"s":"I",  "c":"ACCESS",   "id":20249,   "ctx":"conn769","msg":"Authentication failed","attr":{"mechanism":"SCRAM-SHA-256","speculative":false,"principalName":"app","authenticationDatabase":"admin","remote":"10.42.4.44:54216","extraInfo":{},"error":"AuthenticationFailed: SCRAM authentication failed, storedKey mismatch"}}',
    { user: 'app@admin', source: '10.42.4.44' },
  ],
  [
    'text, before 4.4',
    '2019-06-20T08:02:11.402+0000 I ACCESS   [conn12] SASL SCRAM-SHA-1 authentication failed for mms-automation on admin from client 10.42.4.44:54216 ; AuthenticationFailed: SCRAM authentication failed, storedKey mismatch',
    { user: 'mms-automation@admin', source: '10.42.4.44' },
  ],
  ['a success (5286306)', '{"t":{"$date":"2025-04-29T09:55:22.470+00:00"},"s":"I",  "c":"ACCESS",   "id":5286306, "ctx":"conn1","msg":"Successfully authenticated","attr":{"client":"10.32.2.33:58260","user":"a","db":"admin","result":0}}', undefined],
  ['another ACCESS text line', '2019-06-20T08:02:11.402+0000 I ACCESS   [conn12] Successfully authenticated as principal app on admin from client 10.0.0.1:5', undefined],
];

test('the server\'s failed logins in each version\'s words: user@db and the client\'s address; nothing else is one', (t) => {
  for (const [what, line, expected] of rows) t.deepEqual(failedLoginOf(parseServerLine(line)!), expected, what);
});

test('counted by user and client, the most first', (t) => {
  const logins = new ServerLogins();
  for (const [, line] of [rows[0]!, rows[0]!, rows[2]!, rows[0]!]) logins.add(failedLoginOf(parseServerLine(line)!)!);
  t.deepEqual(logins.summary(), [
    { user: 'mms-automation-agent@admin', source: '10.32.2.33', count: 3 },
    { user: 'app@admin', source: '10.42.4.44', count: 1 },
  ]);
});
