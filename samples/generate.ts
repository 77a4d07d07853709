/**
 * Writes samples/: one small log per type, generated with a fixed seed (so a re-run gives the
 * same bytes) plus real lines from test/fixtures/real. `npm run samples` runs it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { LogClock, agentLine, auditLine, seededRandom, serverLine, serverLogLine, slowQueryLine } from '../bench/log-lines.js';
import { encodeEntry } from '../src/encode/encode-entry.js';

const out = path.resolve(import.meta.dirname, '../../samples');
const random = seededRandom(20261122);
const clock = new LogClock(Date.parse('2026-11-22T09:58:00.000Z'));
const files = new Map<string, string[]>();
const add = (type: string, line: string): void => {
  files.set(type, [...(files.get(type) ?? []), line]);
};

// The server starts, wins an election and becomes primary (the lines real 7.0 servers write).
const utc = (iso: string): Date => new Date(`2026-11-22T${iso}Z`);
add('mongodb', serverLine(utc('09:57:50.112'), 'I', 'CONTROL', 20698, 'thread1', '***** SERVER RESTARTED *****'));
add('mongodb', serverLine(utc('09:57:50.119'), 'I', 'CONTROL', 4615611, 'initandlisten', 'MongoDB starting', { pid: 1, port: 27017, dbPath: '/data', architecture: '64-bit', host: 'my-replica-set-0' }));
add('mongodb', serverLine(utc('09:57:55.401'), 'I', 'ELECTION', 4615652, 'ReplCoord-0', "Starting an election, since we've seen no PRIMARY in election timeout period", { electionTimeoutPeriodMillis: 10000 }));
add('mongodb', serverLine(utc('09:57:55.502'), 'I', 'ELECTION', 21450, 'ReplCoord-1', 'Election succeeded, assuming primary role', { term: 3 }));
add('mongodb', serverLine(utc('09:57:55.503'), 'I', 'REPL', 21358, 'ReplCoord-1', 'Replica set state transition', { newState: 'PRIMARY', oldState: 'SECONDARY' }));
add('mongodb', serverLine(utc('09:57:59.870'), 'I', 'COMMAND', 51803, 'conn12', 'Slow query', {
  type: 'command', ns: 'shop.orders', appName: 'reporting', command: { aggregate: 'orders', pipeline: [{ $match: { 'customer.email': 'x@example.com' } }], $db: 'shop' },
  planSummary: 'COLLSCAN', keysExamined: 0, docsExamined: 1_843_220, nreturned: 3, queryHash: 'B81A7C2E', numYields: 1440, reslen: 2100, remote: '10.42.3.17:51022', protocol: 'op_msg', durationMillis: 4312,
}));
for (let i = 0; i < 60; i++) {
  const time = clock.tick(random, 2000);
  add('mongodb', i % 15 === 7 ? slowQueryLine(random, time, 1500) : serverLogLine(random, time, 0));
  if (i % 4 === 0) add('mongodb-audit', auditLine(random, time));
  if (i % 3 === 0) add('automation-agent', agentLine(random, time));
  if (i % 2 === 0) add('automation-agent-verbose', agentLine(random, time));
  if (i % 10 === 0) add('monitoring-agent', agentLine(random, time));
  if (i % 20 === 0) add('backup-agent', agentLine(random, time));
}
// Real lines (re-timed into this pod's minutes): the agents' two time formats and banner, a full disk.
add('automation-agent-verbose', '[2026/11/22 09:59:03.398] [header.info] [::0]        GitCommitId = 8df36b2fdbe7d2ea98fdc1850ba76d9362cdf2cc');
add('automation-agent', '[2026-11-22T09:59:03.333+0000] [.info] [main/components/agent.go:NewAgent:123] [09:59:03.333] Constructing new agent object with desiredClusterConfigPath=/var/lib/automation/config/cluster-config.json');
add(
  'automation-agent-stderr',
  'Logging error occurred: rolling_file_appender: Failed to write to /var/log/mongodb-mms-automation/automation-agent-verbose.log: write /var/log/mongodb-mms-automation/automation-agent-verbose.log: no space left on device',
);
for (const line of ['Starting agent launcher', 'Downloading automation agent from the Ops Manager', 'Launching automation agent with pid 42']) {
  // The launcher's script_log writes entries into its own file.
  add('agent-launcher-script', encodeEntry('agent-launcher-script', `2026-11-22 09:58:00 ${line}`).trimEnd());
}

fs.mkdirSync(out, { recursive: true });
for (const [type, lines] of files) fs.writeFileSync(path.join(out, `${type}.log`), lines.join('\n') + '\n');

// What `kubectl logs --timestamps --prefix` prints for such a pod: the entries of every type,
// interleaved in time, behind the pod/container prefix and kubectl's time, with the plain lines
// the launcher echoes before the sidecar starts.
const stream: { time: number; line: string }[] = [];
let at = Date.parse('2026-11-22T09:58:00.000Z');
const stamp = (ms: number): string => new Date(ms).toISOString().replace('Z', `${String(Math.floor(random() * 1e6)).padStart(6, '0')}Z`);
stream.push({ time: at, line: 'Skipping creating symlinks because this is not Static Containers Architecture' });
for (const [type, lines] of files) {
  lines.forEach((line, index) => {
    const entry = type === 'agent-launcher-script' ? line : encodeEntry(type, line).trimEnd();
    stream.push({ time: at + index * 900 + Math.floor(random() * 800), line: entry });
  });
}
stream.sort((a, b) => a.time - b.time);
at = stream.at(-1)!.time;
fs.writeFileSync(
  path.join(out, 'kubectl-logs-timestamps-prefix.txt'),
  stream.map(({ time, line }) => `[pod/my-replica-set-0/mongodb-enterprise-database] ${stamp(time)} ${line}`).join('\n') + '\n',
);

// The operator's own log (kubectl logs deployment/mongodb-enterprise-operator): zap JSON lines,
// with the known problems of docs/formats.md §7 among ordinary reconciliation lines.
const operator = (ms: number, level: string, caller: string, msg: string, extra: Record<string, unknown> = {}): string =>
  JSON.stringify({ level, ts: new Date(ms).toISOString(), caller, msg, ReplicaSet: 'mongodb/my-replica-set', ...extra });
let t = Date.parse('2026-11-22T09:55:00.000Z');
const step = (): number => (t += 1000 + Math.floor(random() * 9000));
const operatorLines = [
  operator(step(), 'info', 'operator/mongodbreplicaset_controller.go:100', '-> ReplicaSet.Reconcile'),
  operator(step(), 'warn', 'operator/webhook.go:71', 'Failed to configure admission webhooks: failed to create the validating webhook configuration: validatingwebhookconfigurations.admissionregistration.k8s.io is forbidden'),
  operator(step(), 'info', 'agents/agents.go:118', 'Waiting for agents to reach version 42'),
  operator(step(), 'error', 'operator/common_controller.go:152', 'Failed to deploy: Status: 400 (Bad Request), Detail: Invalid config: MongoDB 8.0.4-ent is not available.', {
    stacktrace: 'github.com/mongodb/mongodb-enterprise-kubernetes/controllers/operator.(*ReconcileCommonController).updateStatus\n\t/go/src/controllers/operator/common_controller.go:152',
  }),
  operator(step(), 'info', 'operator/mongodbreplicaset_controller.go:100', '-> ReplicaSet.Reconcile'),
  operator(step(), 'error', 'agents/agents.go:201', 'Agent my-replica-set-1 reported: TLS attempt failed : x509: certificate is valid for my-replica-set-0.my-replica-set-svc.mongodb.svc.cluster.local, not my-replica-set-1.my-replica-set-svc.mongodb.svc.cluster.local'),
  operator(step(), 'info', 'operator/mongodbreplicaset_controller.go:254', 'Applying automatic recovery: pushing the automation configuration, the resource has been Failed for longer than MDB_AUTOMATIC_RECOVERY_BACKOFF_TIME_S (1200s)'),
  operator(step(), 'info', 'operator/mongodbreplicaset_controller.go:301', 'Finished reconciliation for MongoDB replica set!'),
];
fs.writeFileSync(path.join(out, 'operator.log'), operatorLines.join('\n') + '\n');
process.stdout.write(`wrote ${[...files.values()].reduce((n, l) => n + l.length, 0)} log lines, a kubectl stream and an operator log to ${out}\n`);
