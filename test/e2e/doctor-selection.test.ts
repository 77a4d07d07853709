/**
 * From an incident trial: `doctor --since 30m` on a pod quiet for an hour said "No known problem
 * found in 146 lines" and exit 0, when it had looked at none of them. The report counts the
 * lines the selection let through, and says when it let none through. And a failed login that
 * both the server's log and the audit log write is one failure, not two; the remedy names only
 * commands that show the evidence where it was found.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { entryLine, runFilter } from '../_helpers/filter-process.js';
import { REPO, SIDECAR_BIN, cleanEnv, tempDir } from '../_helpers/sidecar-process.js';

/** The samples' pod as `kubectl logs` gives it: every log the sidecar follows, as entries. */
const POD = spawnSync(process.execPath, [SIDECAR_BIN, '--once', '--log-dir', path.join(REPO, 'samples')], { env: cleanEnv(), encoding: 'utf8' }).stdout;
const POD_LINES = POD.split('\n').length - 1;

interface DoctorJson {
  readonly linesRead: number;
  readonly linesLookedAt: number;
  readonly timesRead?: { readonly first: string; readonly last: string };
  readonly problems: readonly { readonly id: string; readonly count: number; readonly lines: number; readonly remedy: string; readonly types: readonly string[] }[];
}

const doctorJson = (args: readonly string[], input: string): DoctorJson => JSON.parse(runFilter(['doctor', '--json', ...args], input).stdout) as DoctorJson;

test('the samples hold problems, the lines the tests below select from', (t) => {
  t.true(POD_LINES > 100);
  const all = doctorJson([], POD);
  t.is(all.linesRead, POD_LINES);
  t.is(all.linesLookedAt, POD_LINES);
  t.true(all.problems.length > 0);
});

for (const [what, args] of [
  ['--until before every line', ['--until', '2020-01-01T00:00:00Z']],
  ['--since a span back from now, the lines older', ['--since', '30m']],
  ['-l fatal, no line that bad', ['-l', 'fatal']],
] as const) {
  test(`doctor ${args.join(' ')} (${what}): nothing looked at, said so, not "no known problem found"`, (t) => {
    const text = runFilter(['doctor', '--color', 'never', ...args], POD);
    t.is(text.status, 0);
    t.notRegex(text.stdout, /No known problem found/);
    // A time bound says when the entries it looked at were.
    const times = args[0] === '-l' ? '' : '; the entries the time bounds looked at run from 2026-11-22 09:57:50.112 to 2026-11-22 09:59:03.398 local time (UTC)';
    t.is(text.stdout, `Nothing looked at: the selection left out all ${POD_LINES} lines read${times}. Widen it (--since, --until, -t, -l, …) or leave it out to look at every line.\n`);
    const json = doctorJson(args, POD);
    t.deepEqual([json.linesRead, json.linesLookedAt, json.problems], [POD_LINES, 0, []]);
    // The JSON says when as the text does (and as summary's JSON does).
    t.deepEqual(json.timesRead, args[0] === '-l' ? undefined : { first: '2026-11-22T09:57:50.112Z', last: '2026-11-22T09:59:03.398Z' });
  });
}

test('doctor with a selection that lets part through: the count is of the lines looked at, of those read', (t) => {
  const selected = runFilter(['-t', 'backup-agent', '-o', 'entry'], POD).stdout.split('\n').length - 1;
  t.true(selected > 0 && selected < POD_LINES);
  const text = runFilter(['doctor', '--color', 'never', '-t', 'backup-agent'], POD);
  t.regex(text.stdout, new RegExp(`^No known problem found in ${selected} of the ${POD_LINES} lines read \\(\\d+ known problems looked for; the selection left out the rest\\)\\.$`, 'm'));
  t.like(doctorJson(['-t', 'backup-agent'], POD), { linesRead: POD_LINES, linesLookedAt: selected });
  // Problems found in part of the input: the header says which part.
  const since = '2026-11-22T09:58:30Z';
  const part = doctorJson(['--since', since], POD);
  t.true(part.linesLookedAt > 0 && part.linesLookedAt < POD_LINES);
  t.regex(runFilter(['doctor', '--color', 'never', '--since', since], POD).stdout, new RegExp(`^\\d+ known problems? found in ${part.linesLookedAt} of the ${POD_LINES} lines read \\(the selection left out the rest\\):$`, 'm'));
});

const SERVER_FAILURE = (time: string, user: string) =>
  `{"t":{"$date":"${time}"},"s":"I",  "c":"ACCESS",   "id":20249,   "ctx":"conn769","msg":"Authentication failed","attr":{"mechanism":"SCRAM-SHA-256","speculative":false,"principalName":"${user}","authenticationDatabase":"admin","remote":"10.42.6.180:37273","extraInfo":{},"error":"AuthenticationFailed: SCRAM authentication failed, storedKey mismatch"}}`;
const AUDIT_FAILURE = (time: string, user: string) =>
  `{"atype":"authenticate","ts":{"$date":"${time}"},"uuid":{"$binary":"Jv2cBoVqRYKXU6dwOqOyWA==","$type":"04"},"local":{"ip":"10.42.0.5","port":27017},"remote":{"ip":"10.42.6.180","port":37273},"users":[],"roles":[],"param":{"user":"${user}","db":"admin","mechanism":"SCRAM-SHA-256"},"result":18}`;
/** 5.0 and later: id 5286307, `Failed to authenticate`. */
const SERVER_FAILURE_5 = (time: string, user: string) =>
  `{"t":{"$date":"${time}"},"s":"I",  "c":"ACCESS",   "id":5286307, "ctx":"conn231150","msg":"Failed to authenticate","attr":{"client":"10.32.2.33:58258","isSpeculative":false,"isClusterMember":false,"mechanism":"SCRAM-SHA-256","user":"${user}","db":"admin","error":"AuthenticationFailed: SCRAM authentication failed, storedKey mismatch","result":18}}`;
const TEXT_FAILURE = '2019-06-20T08:02:11.402+0000 I ACCESS   [conn12] SASL SCRAM-SHA-1 authentication failed for mms-automation on admin from client 10.42.4.44:54216 ; AuthenticationFailed: SCRAM authentication failed, storedKey mismatch';

/** Three failed logins, as a pod with auditing on writes them: each in the server's log and in the audit log. */
function failures(prefix = ''): string[] {
  const times = ['2026-11-22T09:58:04.529Z', '2026-11-22T09:58:09.100Z', '2026-11-22T09:59:00.001Z'];
  return times.flatMap((time, i) => [
    `${prefix}${entryLine('mongodb-audit', AUDIT_FAILURE(time, `user${i}`))}`,
    `${prefix}${entryLine('mongodb', SERVER_FAILURE(time.replace('Z', '+00:00'), `user${i}`))}`,
  ]);
}

test('a failed login in the server log and the audit log is one failure: three logins, six lines, counted 3', (t) => {
  const [finding] = doctorJson([], `${failures().join('\n')}\n`).problems;
  t.like(finding, { id: 'authentication-failed', count: 3, lines: 6 });
  t.deepEqual(finding?.types, ['mongodb-audit', 'mongodb']);
  t.regex(runFilter(['doctor', '--color', 'never'], `${failures().join('\n')}\n`).stdout, /^ {2}Seen: {5}3 times \(6 lines: each of its logs writes it, counted once\), from /m);
});

test('two pods, each with its failed logins in both logs: each pod counted once, together', (t) => {
  const input = [...failures('[pod/db-0/mongodb] '), ...failures('[pod/db-1/mongodb] ').slice(0, 4)];
  t.like(doctorJson([], `${input.join('\n')}\n`).problems[0], { count: 5, lines: 10 });
  // Only the server's log, without auditing: each line a failure.
  const serverOnly = failures().filter((_, i) => i % 2 === 1);
  t.like(doctorJson([], `${serverOnly.join('\n')}\n`).problems[0], { count: 3, lines: 3 });
  t.notRegex(runFilter(['doctor', '--color', 'never'], `${serverOnly.join('\n')}\n`).stdout, /counted once/);
});

/** The `logtype …` commands a remedy suggests, as argument lists. */
function suggestedCommands(remedy: string): string[][] {
  return [...remedy.matchAll(/\blogtype ((?:[^ ()"]+|"[^"]*")(?: (?:[^ ()"]+|"[^"]*"))*)/g)].map((match) => [...match[1]!.matchAll(/"([^"]*)"|(\S+)/g)].map((arg) => arg[1] ?? arg[2]!));
}

for (const [where, lines] of [
  ['the server log alone (4.4)', [entryLine('mongodb', SERVER_FAILURE('2026-11-22T09:58:04.529+00:00', 'alice'))]],
  ['the server log alone (5.0+)', [entryLine('mongodb', SERVER_FAILURE_5('2026-11-22T09:58:04.529+00:00', 'alice'))]],
  ['the server log alone (before 4.4, text)', [entryLine('mongodb', TEXT_FAILURE)]],
  ['the audit log alone', [entryLine('mongodb-audit', AUDIT_FAILURE('2026-11-22T09:58:04.529Z', 'alice'))]],
  ['both logs', failures()],
] as const) {
  test(`failed logins in ${where}: every command the remedy suggests shows them`, (t) => {
    const input = `${lines.join('\n')}\n`;
    const [finding] = doctorJson([], input).problems;
    t.is(finding?.id, 'authentication-failed');
    const commands = suggestedCommands(finding!.remedy);
    t.true(commands.length > 0, finding!.remedy);
    for (const args of commands) {
      const shown = runFilter([...args, '--color', 'never'], input);
      t.is(shown.status, 0, `logtype ${args.join(' ')}: ${shown.stderr}`);
      t.regex(shown.stdout, /uthentication failed|"result":18|authenticate/, `logtype ${args.join(' ')} showed nothing`);
    }
  });
}

test("one pod's server log and audit log given as two files: each failed login counted once, not once a file", (t) => {
  const dir = tempDir('doctor-two-files');
  const both = failures();
  const audit = path.join(dir, 'mongodb-audit.jsonl');
  const server = path.join(dir, 'mongodb.jsonl');
  fs.writeFileSync(audit, `${both.filter((_, i) => i % 2 === 0).join('\n')}\n`);
  fs.writeFileSync(server, `${both.filter((_, i) => i % 2 === 1).join('\n')}\n`);
  const json = JSON.parse(runFilter(['doctor', '--json', server, audit]).stdout) as DoctorJson;
  t.like(json.problems[0], { id: 'authentication-failed', count: 3, lines: 6 });
});

test('a line joined from its pieces (partial entries) is as many lines looked at as it was read: no selection, nothing "left out"', (t) => {
  const line = SERVER_FAILURE('2026-11-22T09:58:04.529+00:00', 'alice');
  const pieces = [entryLine('mongodb', line.slice(0, 40), true), entryLine('mongodb', line.slice(40, 90), true), entryLine('mongodb', line.slice(90))];
  const input = `${[...pieces, entryLine('mongodb', '{"t":{"$date":"2026-11-22T09:58:05.000+00:00"},"s":"I","c":"REPL","id":1,"ctx":"x","msg":"m"}')].join('\n')}\n`;
  t.like(doctorJson([], input), { linesRead: 4, linesLookedAt: 4 });
  t.regex(runFilter(['doctor', '--color', 'never'], input).stdout, /^1 known problem found in 4 lines:$/m);
});
