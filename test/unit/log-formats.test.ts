/** The registry of log formats: its names, the sidecar's view of it, and that every part reads it. */
import test from 'ava';
import fs from 'node:fs';
import path from 'node:path';
import { LOG_FORMATS, findLogFormat, logFormat, logTypesWrittenBy } from '../../src/formats/log-formats.js';
import { FILE_LOG_TYPES, KNOWN_LOG_TYPES } from '../../src/log-types.js';
import { parseRecord } from '../../src/parse/parse-record.js';
import { palette } from '../../src/render/colors.js';
import { typeBadge } from '../../src/render/render-pretty.js';
import { REAL_DATA, REPO } from '../_helpers/sidecar-process.js';

test('every name and short name means one format', (t) => {
  const owners = new Map<string, string>();
  for (const format of LOG_FORMATS) {
    for (const name of new Set([format.name, format.shortName])) {
      t.is(owners.get(name), undefined, `${name} names ${owners.get(name)} and ${format.name}`);
      owners.set(name, format.name);
    }
  }
});

test("the sidecar's files follow the operator's naming: MDB_LOG_FILE_<TYPE>, <type>.log", (t) => {
  for (const format of LOG_FORMATS.filter((f) => f.file)) {
    t.is(format.file!.variable, `MDB_LOG_FILE_${format.name.toUpperCase().replaceAll('-', '_')}`);
    t.is(format.file!.defaultName, `${format.name}.log`);
  }
});

test("the sidecar's view: its eight files in order, and the agent's stdout as a stream", (t) => {
  t.deepEqual(
    FILE_LOG_TYPES.map((type) => [type.name, type.envVar, type.defaultFile, type.holdsEntries]),
    [
      ['automation-agent-verbose', 'MDB_LOG_FILE_AUTOMATION_AGENT_VERBOSE', 'automation-agent-verbose.log', false],
      ['automation-agent-stderr', 'MDB_LOG_FILE_AUTOMATION_AGENT_STDERR', 'automation-agent-stderr.log', false],
      ['automation-agent', 'MDB_LOG_FILE_AUTOMATION_AGENT', 'automation-agent.log', false],
      ['monitoring-agent', 'MDB_LOG_FILE_MONITORING_AGENT', 'monitoring-agent.log', false],
      ['backup-agent', 'MDB_LOG_FILE_BACKUP_AGENT', 'backup-agent.log', false],
      ['mongodb', 'MDB_LOG_FILE_MONGODB', 'mongodb.log', false],
      ['mongodb-audit', 'MDB_LOG_FILE_MONGODB_AUDIT', 'mongodb-audit.log', false],
      ['agent-launcher-script', 'MDB_LOG_FILE_AGENT_LAUNCHER_SCRIPT', 'agent-launcher-script.log', true],
    ],
  );
  t.deepEqual(KNOWN_LOG_TYPES, [...FILE_LOG_TYPES.map((type) => type.name), 'automation-agent-stdout']);
});

test('a format is found by its name or its short name', (t) => {
  const cases: [string, string | undefined][] = [
    ['mongodb', 'mongodb'],
    ['audit', 'mongodb-audit'],
    ['mongodb-audit', 'mongodb-audit'],
    ['agent', 'automation-agent'],
    ['sidecar', 'logtype-sidecar'],
    ['launcher', 'agent-launcher-script'],
    ['mongdb', undefined],
  ];
  for (const [name, expected] of cases) t.is(findLogFormat(name)?.name, expected, name);
  // The exact lookup the readers use knows names only.
  t.is(logFormat('audit'), undefined);
});

test('every badge is its short name, padded to one width, in its colour', (t) => {
  for (const format of LOG_FORMATS) {
    t.is(typeBadge(format.name, palette(false)), format.shortName.padEnd(13));
    t.is(typeBadge(format.name, palette(true)), palette(true)[format.color](format.shortName.padEnd(13)));
  }
  t.is(typeBadge('something-else', palette(false)), 'something-else');
});

/** One line of each format, as its reader reads it. */
const lines: [string, string, { level: string | undefined; message: string }][] = [
  ['mongodb', '{"t":{"$date":"2026-11-22T10:00:00.000Z"},"s":"W","c":"REPL","id":1,"ctx":"c","msg":"m"}', { level: 'warn', message: 'm' }],
  ['mongodb-audit', '{"atype":"logout","ts":{"$date":"2026-11-22T10:00:00.000Z"},"users":[{"user":"u","db":"d"}],"result":0}', { level: 'info', message: 'u@d → ok' }],
  ['automation-agent', '[2026-11-22T10:00:00.000+0000] [.error] [a.go:1] [10:00:00.000] m', { level: 'error', message: 'm' }],
  ['automation-agent-verbose', '[2026-11-22T10:00:00.000+0000] [.info] [a.go:1] m', { level: 'info', message: 'm' }],
  ['automation-agent-stderr', '[2026-11-22T10:00:00.000+0000] [.warn] [a.go:1] m', { level: 'warn', message: 'm' }],
  ['automation-agent-stdout', '[2026-11-22T10:00:00.000+0000] [.info] [a.go:1] m', { level: 'info', message: 'm' }],
  ['monitoring-agent', '[2026-11-22T10:00:00.000+0000] [.info] [a.go:1] m', { level: 'info', message: 'm' }],
  ['backup-agent', '[2026-11-22T10:00:00.000+0000] [.info] [a.go:1] m', { level: 'info', message: 'm' }],
  ['agent-launcher-script', '2026-11-22 10:00:00 Starting agent launcher', { level: undefined, message: 'Starting agent launcher' }],
  ['operator', '{"level":"error","ts":"2026-11-22T10:00:00Z","caller":"c.go:1","msg":"m"}', { level: 'error', message: 'm' }],
  ['versionhook', '2026-11-22T10:00:00.000Z\tINFO\tversionhook/main.go:39\tWaiting for agent health status...', { level: 'info', message: 'Waiting for agent health status...' }],
  ['logtype-sidecar', '{"level":40,"time":1763805600000,"logType":"logtype-sidecar","msg":"m"}', { level: 'warn', message: 'm' }],
  ['logtype-pod', '{"level":50,"time":"2026-11-22T10:00:00.000Z","logType":"logtype-pod","event":"pipe-unavailable","msg":"m"}', { level: 'error', message: 'm' }],
];

test("every format's reader reads its own lines", (t) => {
  t.deepEqual(lines.map(([name]) => name).sort(), LOG_FORMATS.map((format) => format.name).sort());
  for (const [name, line, expected] of lines) {
    const record = parseRecord(name, line);
    t.deepEqual(record && { level: record.level, message: record.message }, expected, name);
  }
});

test('a type logtype does not know has no reader, whatever its name looks like', (t) => {
  const agentLine = lines.find(([name]) => name === 'automation-agent')![1];
  t.is(parseRecord('automation-agent-new', agentLine), undefined);
  t.is(parseRecord('other-agent', agentLine), undefined);
});

test("doctor's agent rules look at the agent's modules and its launcher", (t) => {
  t.deepEqual(logTypesWrittenBy('agent').sort(), [
    'agent-launcher-script',
    'automation-agent',
    'automation-agent-stderr',
    'automation-agent-stdout',
    'automation-agent-verbose',
    'backup-agent',
    'monitoring-agent',
  ]);
});

/** A real fixture's lines, or a pasted one's (test/fixtures/pasted). */
const fileLines = (file: string): string[] => fs.readFileSync(file, 'utf8').split('\n').slice(0, -1);
const realLines = (file: string) => fileLines(path.join(REAL_DATA, file));

/**
 * What a Go program prints below a record: zap's stacktrace (a function, its position on a
 * tab-indented line) and the runtime's panic report, in their layout; the same pasted with its
 * tabs turned into spaces.
 */
const GO_TRACE = [
  'github.com/go-logr/zapr.(*zapLogger).Error',
  '\t/go/pkg/mod/github.com/go-logr/zapr@v0.4.0/zapr.go:132',
  'sigs.k8s.io/controller-runtime/pkg/internal/controller.(*Controller[...]).reconcileHandler',
  '    /go/pkg/mod/sigs.k8s.io/controller-runtime@v0.15.0/pkg/internal/controller/controller.go:329',
  'panic: runtime error: invalid memory address or nil pointer dereference [recovered]',
  '\tpanic: runtime error: invalid memory address or nil pointer dereference',
  '    panic: runtime error: invalid memory address or nil pointer dereference',
  '[signal SIGSEGV: segmentation violation code=0x1 addr=0x18 pc=0x1a2b3c4]',
  '',
  'goroutine 412 [running]:',
  'goroutine 1 [chan receive, 12 minutes]:',
  'panic({0x1c2d3e0?, 0x2f4a5b0?})',
  '\t/usr/local/go/src/runtime/panic.go:884 +0x213',
  'github.com/mongodb/mongodb-kubernetes-operator/controllers.(*ReplicaSetReconciler).Reconcile(0xc000a1b2c0, {0x1f0e2a8, 0xc0004d5e90}, {{{0xc000a40f60, 0x5}, {0xc000a40f50, 0xf}}})',
  'created by sigs.k8s.io/controller-runtime/pkg/internal/controller.(*Controller[...]).Start.func2 in goroutine 97',
  'main.main()',
  'runtime.goexit()',
  '\t/usr/local/go/src/runtime/asm_amd64.s:1598 +0x1',
  'fatal error: concurrent map writes',
  '...additional frames elided...',
];

/** kubectl's output pasted into an input (`kubectl describe` events, an admission webhook's refusal). */
const KUBECTL_OUTPUT = fileLines(path.join(REPO, 'test/fixtures/pasted/kubectl-output.log'));

/** Lines of other logs and pasted output, which a console record never goes on with. */
const NOT_A_TRACE = [
  ...realLines('agent-stderr-disk-full.log'),
  realLines('agent-issue-threads.log')[11]!,
  realLines('mongod-4.2-text.log')[0]!,
  ...realLines('audit-json.log').slice(0, 1),
  ...KUBECTL_OUTPUT,
  'Skipping creating symlinks because this is not Static Containers Architecture',
  'failed to create pod: pvc not found to schedule the pod',
  '    Port:       27017/TCP',
  'NAME               READY   STATUS    RESTARTS   AGE',
  'Done.',
  '3.14',
];

/**
 * For each log read as it is whose records go on over several lines: the lines that are its
 * after one of its records (`continuesWith`), and the lines that end the record and stand on
 * their own.
 */
const CONTINUATIONS: Record<string, { readonly continues: readonly string[]; readonly ends: readonly string[] }> = {
  operator: { continues: GO_TRACE, ends: NOT_A_TRACE },
  versionhook: { continues: GO_TRACE, ends: NOT_A_TRACE },
  // The agent's stdout and stderr: its lines are the agent's, its free text too (its details
  // after `…failed to validate:`, its disk-full complaint, which starts a record of its own);
  // kubectl's output pasted after them is not (its events would be found in the agent's log).
  'automation-agent-stdout': {
    continues: [realLines('agent-issue-threads.log')[11]!, ...realLines('agent-stderr-disk-full.log'), ...GO_TRACE, 'Skipping creating symlinks because this is not Static Containers Architecture', 'Done.'],
    ends: [...KUBECTL_OUTPUT.filter((line) => line !== ''), 'NAME               READY   STATUS    RESTARTS   AGE', 'Events:  <none>', 'error: the server doesn\'t have a resource type "mdb"', 'Warning: resource mongodbcommunity is deprecated'],
  },
};

test('after a record of a log read as it is, a line that is no entry is its only when the format says so', (t) => {
  const joining = LOG_FORMATS.filter((format) => format.continuesRecords && format.recognizesLine);
  t.deepEqual(joining.map((format) => format.name).sort(), Object.keys(CONTINUATIONS).sort(), 'each such format needs its row here');
  t.true(NOT_A_TRACE.length > 15);
  for (const format of joining) {
    const { continues, ends } = CONTINUATIONS[format.name]!;
    t.truthy(format.continuesWith, format.name);
    for (const line of continues) t.true(format.continuesWith!(line), `${format.name} goes on with ${JSON.stringify(line)}`);
    for (const line of ends) t.false(format.continuesWith!(line), `${format.name} ends before ${JSON.stringify(line)}`);
  }
});
