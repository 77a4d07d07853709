/**
 * A known problem that belongs to some logs (its `types`, as the agent's API key does: a 401
 * in the server's log or in pasted kubectl output is something else) is found in those logs'
 * entries only: not in other types' entries, not in lines that are no entries (pasted
 * kubectl, helm or event output, which belong to no type). A problem without types is found
 * in every line, entries and pasted lines alike.
 */
import test, { type ExecutionContext } from 'ava';
import { KNOWN_PROBLEMS, LOG_FORMATS } from '../../src/index.js';
import { entryLine, runFilter } from '../_helpers/filter-process.js';

/**
 * For each problem limited to some types: a line that shows it as its log writes it, and its
 * words alone, as they would stand in pasted output.
 */
const TYPED_SAMPLES: Readonly<Record<string, { readonly entry: string; readonly pasted: string }>> = {
  'agent-api-key': {
    entry:
      '[2026-11-22T10:00:00.123+0000] [.error] [main/components/agent.go:Iterate:230] [10:00:00.123] Error sending GET request to https://ops.example/agents/api/automation/conf/v1/6a1b: HTTP 401 unauthorized: invalid agent API key',
    pasted: 'Error from server: HTTP 401 unauthorized: invalid agent API key',
  },
  'authentication-failed': {
    entry:
      '{"t":{"$date":"2026-11-22T09:58:04.530+00:00"},"s":"I",  "c":"ACCESS",   "id":20249,   "ctx":"conn769","msg":"Authentication failed","attr":{"mechanism":"SCRAM-SHA-256","principalName":"mms-automation-agent","authenticationDatabase":"admin","remote":"10.42.4.44:54216","error":"AuthenticationFailed: SCRAM authentication failed, storedKey mismatch"}}',
    // A client's own words (mongosh) pasted: the client's, not the server's log.
    pasted: 'MongoServerError: Authentication failed.',
  },
  'server-disk-full': {
    entry:
      '{"t":{"$date":"2022-04-27T09:13:09.292+00:00"},"s":"E",  "c":"STORAGE",  "id":22435,   "ctx":"WTCheckpointThread","msg":"WiredTiger error","attr":{"error":28,"message":"[1651050789:292831][1:0x7f169df86100], file:collection-2--8597162973160007227.wt, WT_SESSION.checkpoint: __posix_file_write, 579: /data/collection-2--8597162973160007227.wt: handle-write: pwrite: failed to write 8192 bytes at offset 140288000: No space left on device"}}',
    // The same words elsewhere are the agents' full log disk (agent-disk-full), not this.
    pasted: 'write /var/log/mongodb-mms-automation/automation-agent-verbose.log: no space left on device',
  },
  'server-fatal': {
    entry: '{"t":{"$date":"2026-11-27T10:05:00.000+00:00"},"s":"F",  "c":"ASSERT",   "id":23089,   "ctx":"thread10","msg":"Fatal assertion","attr":{"msgid":50853,"file":"src/mongo/db/storage/wiredtiger/wiredtiger_util.cpp","line":712}}',
    // A Go program's own crash (an agent's, pasted): not the server's.
    pasted: 'fatal error: runtime: out of memory',
  },
  'server-unclean-shutdown': {
    entry: '{"t":{"$date":"2026-11-22T10:02:00.101+00:00"},"s":"W",  "c":"STORAGE",  "id":22271,   "ctx":"initandlisten","msg":"Detected unclean shutdown - Lock file is not empty","attr":{"lockFile":"/data/mongod.lock"}}',
    // Another program's words for its own crash (a shell's, pasted): not the server's.
    pasted: 'Detected unclean shutdown - Repairing...',
  },
  // logtype's own diagnostics: a pino line is its type's entry; pasted, its words alone.
  'sidecar-lines-lost': {
    entry: '{"level":40,"time":"2026-11-27T10:38:25.371Z","logType":"logtype-sidecar","event":"resume-lost","source":"mongodb","path":"/logs/mongodb.log","position":330,"msg":"a file read before the restart (330 bytes of it delivered) is not found"}',
    pasted: 'event resume-lost: a file read before the restart is not found',
  },
  'sidecar-lines-maybe-lost': {
    entry: '{"level":40,"time":"2026-11-27T10:38:25.371Z","logType":"logtype-sidecar","event":"resume-lost","source":"mongodb","path":"/logs/mongodb.log","position":1818,"afterKill":true,"msg":"a file read before the restart is not found"}',
    pasted: 'resume-lost afterKill true: a file read before the restart is not found',
  },
  'sidecar-lines-repeated': {
    entry: '{"level":40,"time":"2026-11-27T10:38:25.371Z","logType":"logtype-sidecar","event":"resume-lost","source":"mongodb","path":"/logs/mongodb.log","position":330,"inPlace":true,"msg":"truncated or rewritten while down"}',
    pasted: 'resume-lost inPlace true: truncated or rewritten while down',
  },
  'sidecar-unreadable': {
    entry: '{"level":40,"time":"2026-11-27T10:38:25.371Z","logType":"logtype-sidecar","event":"unreadable","source":"mongodb","path":"/logs/mongodb.log","msg":"cannot read /logs/mongodb.log: permission denied"}',
    pasted: 'cat: /logs/mongodb.log: Permission denied (unreadable)',
  },
  'sidecar-log-missing': {
    entry: '{"level":40,"time":"2026-11-27T10:38:25.371Z","logType":"logtype-sidecar","event":"missing","source":"mongodb","path":"/logs/mongodb.log","msg":"no file after 3 minutes"}',
    pasted: 'ls: cannot access /logs/mongodb.log: No such file or directory (missing-dir)',
  },
  'sidecar-file-missing': {
    entry: '{"level":40,"time":"2026-11-27T10:38:25.371Z","logType":"logtype-sidecar","event":"missing","source":"mongodb-audit","path":"/logs/mongodb-audit.log","msg":"no file after 3 minutes"}',
    pasted: 'ls: cannot access /logs/mongodb-audit.log: No such file or directory (missing)',
  },
  'sidecar-state': {
    entry: '{"level":40,"time":"2026-11-27T10:38:25.371Z","logType":"logtype-sidecar","event":"state-unwritable","path":"/data/state.json","msg":"cannot save the state file"}',
    pasted: 'state-unwritable: cannot save the state file',
  },
  'sidecar-compressed': {
    entry: '{"level":40,"time":"2026-11-27T10:38:25.371Z","logType":"logtype-sidecar","event":"compressed","source":"mongodb","path":"/logs/mongodb.log","msg":"holds gzip-compressed data"}',
    pasted: 'mongodb.log.1.gz: gzip compressed data',
  },
  'sidecar-stop-timeout': {
    entry: '{"level":40,"time":"2026-11-27T10:38:25.371Z","logType":"logtype-sidecar","event":"stop-timeout","cutEntryBytes":0,"msg":"the reader did not take everything in time"}',
    pasted: 'stop-timeout: the reader did not take everything in time',
  },
  'sidecar-killed': {
    entry: '{"level":30,"time":"2026-11-27T10:46:41.812Z","logType":"logtype-sidecar","event":"previous-run-killed","path":"st.json","pid":11612,"msg":"the last run (pid 11612) ended without its stop"}',
    pasted: 'previous-run-killed: the last run ended without its stop',
  },
  'logtype-other-warning': {
    entry: '{"level":50,"time":"2026-11-27T10:38:25.371Z","logType":"logtype-sidecar","event":"usage","msg":"logtype-sidecar: unknown option --log-dri (see logtype-sidecar --help)"}',
    pasted: 'logtype-sidecar: unknown option --log-dri (see logtype-sidecar --help)',
  },
  'pod-pipes-unavailable': {
    entry: '{"level":50,"time":"2026-11-27T10:37:53.000Z","logType":"logtype-pod","event":"pipe-unavailable","msg":"cannot make the named pipe /run/logtype/automation-agent-stdout.fifo"}',
    pasted: 'mkfifo: cannot create fifo /run/logtype/automation-agent-stdout.fifo: Read-only file system (pipe-unavailable)',
  },
  'pod-launcher-not-patched': {
    entry: '{"level":40,"time":"2026-11-27T10:37:53.000Z","logType":"logtype-pod","event":"launcher-missing","msg":"no launcher at /opt/scripts/agent-launcher.sh"}',
    pasted: 'launcher-missing: no launcher at /opt/scripts/agent-launcher.sh',
  },
};

/** A problem without types, and a line that shows it, for the contrast. */
const UNTYPED = { id: 'admission-denied', line: 'Error from server (Forbidden): error when creating "rs.yaml": admission webhook "mdbpolicy.mongodb.com" denied the request: spec.members: must be greater than 0' };

const TYPED = KNOWN_PROBLEMS.filter((problem) => problem.types !== undefined);

interface DoctorReport {
  readonly linesRead: number;
  readonly problems: readonly { readonly id: string; readonly count: number; readonly lines: number; readonly exampleType: string | null; readonly informational: boolean }[];
}

/** doctor --json on `input`; its exit status says whether it found something. */
function doctor(t: ExecutionContext, input: string): DoctorReport {
  const result = runFilter(['doctor', '--json'], input);
  const report = JSON.parse(result.stdout) as DoctorReport;
  // Informational findings alone are nothing to fix: exit 0.
  t.is(result.status, report.problems.some((p) => !p.informational) ? 1 : 0, result.stderr);
  return report;
}

/** Every type logtype reads: the sidecar's, the operator's, logtype's own diagnostics. */
const EVERY_LOG_TYPE = LOG_FORMATS.map((format) => format.name);

/** The known types a problem's globs name (a glob's `*` is any run of characters). */
const typesMatching = (globs: readonly string[]): string[] =>
  EVERY_LOG_TYPE.filter((type) => globs.some((glob) => new RegExp(`^${glob.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`).test(type)));

test('every problem limited to some types has a sample line here', (t) => {
  t.deepEqual(TYPED.map((p) => p.id).sort(), Object.keys(TYPED_SAMPLES).sort());
  t.true(TYPED.length > 0);
});

for (const problem of TYPED) {
  const { entry: line, pasted } = TYPED_SAMPLES[problem.id]!;
  const own = typesMatching(problem.types!);
  const others = [...EVERY_LOG_TYPE.filter((type) => !own.includes(type)), 'custom-type'];

  // Only this problem is looked at: its words may be another problem's elsewhere (the server's disk full, the agents').
  const mine = (report: DoctorReport) => report.problems.filter(({ id }) => id === problem.id);

  test(`${problem.id}: not found in pasted lines that are no entries`, (t) => {
    const report = doctor(t, `${pasted}\n${pasted} (again)\n`);
    t.is(report.linesRead, 2);
    t.deepEqual(mine(report), []);
  });

  test(`${problem.id}: not found in entries of the types it does not belong to (${others.length} types)`, (t) => {
    const report = doctor(t, others.map((type) => `${entryLine(type, line)}\n${entryLine(type, pasted)}\n`).join(''));
    t.is(report.linesRead, 2 * others.length);
    t.deepEqual(mine(report), []);
  });

  test(`${problem.id}: found in the entries of each type it belongs to (${own.join(', ')})`, (t) => {
    t.true(own.length > 0);
    for (const type of own) {
      const report = doctor(t, `${entryLine(type, line)}\n`);
      t.deepEqual(
        mine(report).map(({ id, count, exampleType }) => ({ id, count, exampleType })),
        [{ id: problem.id, count: 1, exampleType: type }],
        type,
      );
    }
  });

  test(`${problem.id}: among pasted lines and other types, only its own types' lines are counted`, (t) => {
    const other = others[0]!;
    const input = [pasted, entryLine(other, line), entryLine(own[0]!, line), pasted, entryLine(own.at(-1)!, line)].join('\n');
    const report = doctor(t, `${input}\n`);
    // Two of its lines; one event where both types write each event (a failed login: the server's
    // line and the audit log's), or where one event writes several lines at once (a crash's fatal lines: here at one time).
    const oneEvent = (own.length > 1 && own.every((type) => problem.oneEventIn?.includes(type) === true)) || problem.oneEventWithin !== undefined;
    t.deepEqual(
      mine(report).map(({ id, count, lines, exampleType }) => ({ id, count, lines, exampleType })),
      [{ id: problem.id, count: oneEvent ? 1 : 2, lines: 2, exampleType: own[0]! }],
    );
  });
}

test('a problem without types is found in pasted lines and in entries of any type', (t) => {
  const report = doctor(t, [UNTYPED.line, entryLine('mongodb', UNTYPED.line), entryLine('custom-type', UNTYPED.line)].join('\n') + '\n');
  t.deepEqual(
    report.problems.map(({ id, count, exampleType }) => ({ id, count, exampleType })),
    [{ id: UNTYPED.id, count: 3, exampleType: null }],
  );
});
