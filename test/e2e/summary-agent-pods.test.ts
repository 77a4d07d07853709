/**
 * An agent's or the operator's messages in a stream of several pods: whose they are.
 */
import test from 'ava';
import { entryLine, runFilter } from '../_helpers/filter-process.js';

// From an incident trial: with several pods in one stream, the agents' errors did not say whose
// they were (the server's did), and a pod with only agent lines was named nowhere.
test("several pods' agent logs: each error and warning message says which pods wrote it, in text, JSON and the page", (t) => {
  const agent = (pod: string, level: string, words: string) => `[pod/${pod}/mongodb-agent] ${entryLine('automation-agent-verbose', `[2026-11-22T10:00:00.123+0000] [.${level}] [src/director/director.go:planAndExecute:500] <${pod}> [10:00:00.123] ${words}`)}`;
  const input = [
    ...Array.from({ length: 3 }, () => agent('db-1', 'error', 'Failed to planAndExecute : Server at db-0:27017 is down')),
    ...Array.from({ length: 2 }, () => agent('db-2', 'error', 'Failed to planAndExecute : Server at db-0:27017 is down')),
    agent('db-2', 'warn', 'Retry 1 of 10 after 100ms'),
  ].join('\n');
  const json = JSON.parse(runFilter(['summary', '--json'], `${input}\n`).stdout) as { problems: { messages: { count: number; members?: { name: string; count: number }[] }[] }[] };
  t.deepEqual(json.problems[0]!.messages.map((m) => [m.count, m.members]), [
    [5, [{ name: 'db-1', count: 3 }, { name: 'db-2', count: 2 }]],
    [1, [{ name: 'db-2', count: 1 }]],
  ]);
  t.regex(runFilter(['summary', '--color', 'never'], `${input}\n`).stdout, /^ {18}pods: db-1 3, db-2 2$/m);
  t.regex(runFilter(['summary', '--html', '-'], `${input}\n`).stdout, /<th[^>]*>pods<\/th>/);
  // One pod's lines (or none named): no pods to tell apart, none said.
  const one = JSON.parse(runFilter(['summary', '--json'], `${agent('db-1', 'error', 'x failed')}\n`).stdout) as { problems: { messages: { members?: unknown }[] }[] };
  t.is(one.problems[0]!.messages[0]!.members, undefined);
});

// From an incident trial: one pod's agent panicked, another's only warned. The panic's log
// (automation-agent-stderr) had lines of that one pod alone, and its row named no pod.
test("several pods' problems: a log whose problems came from one pod still says whose they are", (t) => {
  const verbose = (pod: string, level: string, words: string) => `[pod/${pod}/mongodb-agent] ${entryLine('automation-agent-verbose', `[2026-11-22T10:00:00.123+0000] [.${level}] [src/director/director.go:planAndExecute:500] <${pod}> [10:00:00.123] ${words}`)}`;
  const stderr = (pod: string, words: string) => `[pod/${pod}/mongodb-agent] ${entryLine('automation-agent-stderr', words)}`;
  const input = [
    verbose('db-1', 'warn', 'Retry 1 of 10 after 100ms'),
    stderr('db-2', 'panic: runtime error: invalid memory address or nil pointer dereference'),
    stderr('db-2', '[signal SIGSEGV: segmentation violation code=0x1 addr=0x0 pc=0x4a1b2c]'),
  ].join('\n');
  const json = JSON.parse(runFilter(['summary', '--json'], `${input}\n`).stdout) as { problems: { logType: string; messages: { members?: { name: string; count: number }[] }[] }[] };
  const panic = json.problems.find((p) => p.logType === 'automation-agent-stderr');
  t.deepEqual(panic?.messages[0]?.members, [{ name: 'db-2', count: 1 }]);
  t.regex(runFilter(['summary', '--color', 'never'], `${input}\n`).stdout, /fatal {2}panic: runtime error.*\n {18}pods: db-2$/m);
});

// From an incident trial: failed logins in the server's own lines (auditing off, the default)
// had no breakdown in the summary; the audit log's had one.
test("summary: the server's own failed logins by user and client, 5.0+ and 4.4 lines alike, in text, JSON and the page", (t) => {
  const failed = (n: number, user: string, client: string) =>
    entryLine('mongodb', `{"t":{"$date":"2025-04-29T09:55:2${n}.461+00:00"},"s":"I",  "c":"ACCESS",   "id":5286307, "ctx":"conn${n}","msg":"Failed to authenticate","attr":{"client":"${client}:5825${n}","isSpeculative":false,"isClusterMember":false,"mechanism":"SCRAM-SHA-256","user":"${user}","db":"admin","error":"AuthenticationFailed: SCRAM authentication failed, storedKey mismatch","result":18}}`);
  const old = entryLine('mongodb', '{"t":{"$date":"2025-04-29T09:55:29.530+00:00"},"s":"I",  "c":"ACCESS",   "id":20249,   "ctx":"conn9","msg":"Authentication failed","attr":{"mechanism":"SCRAM-SHA-256","speculative":false,"principalName":"app","authenticationDatabase":"admin","remote":"10.0.0.9:54216","extraInfo":{},"error":"AuthenticationFailed: SCRAM authentication failed, storedKey mismatch"}}');
  const input = `${[failed(1, 'mms-automation-agent', '10.0.0.1'), failed(2, 'mms-automation-agent', '10.0.0.1'), failed(3, 'app', '10.0.0.9'), old].join('\n')}\n`;
  const json = JSON.parse(runFilter(['summary', '--json'], input).stdout) as { server: { failedAuthentications: unknown[] } };
  t.deepEqual(json.server.failedAuthentications, [
    { user: 'app@admin', source: '10.0.0.9', count: 2 },
    { user: 'mms-automation-agent@admin', source: '10.0.0.1', count: 2 },
  ]);
  t.regex(runFilter(['summary', '--color', 'never'], input).stdout, /^ {2}failed authentications \(the server's own lines\), by user and client:\n {4}count {2}user +from\n +2 {2}app@admin +10\.0\.0\.9$/m);
  t.regex(runFilter(['summary', '--html', '-'], input).stdout, /<h3>Failed authentications \(the server's own lines\)<\/h3>\s*<table class="failed-logins">/);
});
