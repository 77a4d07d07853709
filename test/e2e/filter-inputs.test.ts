/**
 * Inputs as an engineer in an incident brings them to the filter: a file saved with a byte
 * order mark, a line longer than the filter holds, a shipper's record of each entry, a file
 * saved as UTF-16, and
 * names typed or globbed with control characters in them. Each test spawns the real command on
 * real lines (test/fixtures/real/).
 */
import test from 'ava';
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import zlib from 'node:zlib';
import { REAL_DATA, REPO, SIDECAR_BIN, cleanEnv, tempDir } from '../_helpers/sidecar-process.js';
import { runFilter } from '../_helpers/filter-process.js';
import { MAX_INPUT_LINE_BYTES } from '../../src/read/entry-reader.js';

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);
/** What `kubectl logs` showed of an agent container (six entries). */
const KUBECTL_LOGS = fs.readFileSync(path.join(REAL_DATA, 'kubectl-logs-enterprise-agent.log'), 'utf8');
const ENTRIES = KUBECTL_LOGS.split('\n').filter(Boolean);
/** Each entry's contents as jq -r .contents writes them. */
const CONTENTS = ENTRIES.map((line) => (JSON.parse(line) as { contents: string }).contents);
const SERVER_TEXT = fs.readFileSync(path.join(REAL_DATA, 'mongod-4.2-text.log'));
const lines = (text: string): string[] => text.split('\n').filter(Boolean);

test('a file saved with a UTF-8 byte order mark, or files joined each with one: each first entry is read as an entry, not dropped as another line', (t) => {
  const prefixed = ENTRIES.map((line, i) => `[pod/my-replica-set-0/mongodb-enterprise-database] 2019-09-10T04:07:5${i}.000000000Z ${line}\n`).join('');
  for (const input of [KUBECTL_LOGS, prefixed]) {
    const run = runFilter(['--summary'], Buffer.concat([BOM, Buffer.from(input)]));
    t.is(run.stdout, CONTENTS.join('\n') + '\n');
    t.regex(run.stderr, /^logtype: 6 entries read, 6 written, 0 other lines\n/);
    t.is(run.status, 0);
  }
  // A copied server log with one: with --as and without it (its lines are recognised).
  const withMark = Buffer.concat([BOM, SERVER_TEXT]);
  t.deepEqual(Buffer.from(runFilter(['--as', 'mongodb'], withMark).stdout), SERVER_TEXT);
  t.deepEqual(Buffer.from(runFilter([], withMark).stdout), SERVER_TEXT);
  // From a field trial: two such files joined (`cat a.log b.log`): the second file's mark stands mid-stream.
  const joined = Buffer.concat([BOM, Buffer.from(KUBECTL_LOGS), BOM, Buffer.from(KUBECTL_LOGS)]);
  const run = runFilter(['--summary'], joined);
  t.is(run.stdout, [...CONTENTS, ...CONTENTS].join('\n') + '\n');
  t.regex(run.stderr, /^logtype: 12 entries read, 12 written, 0 other lines\n/);
});

test('--as with a line longer than the filter holds: one line that is no entry, counted once and named on stderr with the limit; its tail is never a line of its own', (t) => {
  const [first, second] = SERVER_TEXT.toString('utf8').split('\n') as [string, string];
  // A real server line, its message padded past the longest line held.
  const long = `${second} ${'x'.repeat(MAX_INPUT_LINE_BYTES + 1000)}`;
  const dir = tempDir('filter-long-line');
  const file = path.join(dir, 'mongodb.log');
  fs.writeFileSync(file, `${first}\n${long}\n${first}\n`);
  const run = runFilter(['--as', 'mongodb', '--summary', file]);
  t.is(run.stdout, `${first}\n${first}\n`);
  t.regex(run.stderr, /^logtype: 2 entries read, 2 written, 1 other line\n/);
  t.regex(run.stderr, /^logtype: 1 line was longer than 64 MiB, the most logtype holds: its first 64 MiB read as a line that is no entry, the rest skipped$/m);
  // --keep-other writes that line once (its first 64 MiB), not its pieces as lines.
  const kept = runFilter(['--as', 'mongodb', '--keep-other', file]).stdout.split('\n');
  t.deepEqual(kept.map((line) => line.length), [first.length, MAX_INPUT_LINE_BYTES, first.length, 0]);
  for (const command of ['summary', 'doctor']) {
    const report = runFilter([command, '--as', 'mongodb', file]);
    t.regex(report.stderr, new RegExp(`^logtype ${command}: 1 line was longer than 64 MiB`, 'm'), command);
  }
  t.regex(runFilter(['doctor', '--as', 'mongodb', file]).stdout, / in 3 lines /);
  t.is(run.status, 0);
});

test("a shipper's record of an entry, as a store gives it back (Docker's and Fluent Bit's log, logcli's jsonl line, Vector's message): read as the entry it wraps", (t) => {
  const shapes: [string, (line: string) => unknown][] = [
    // Docker's json-file log driver, and Fluent Bit's tail of the container logs.
    ['docker', (line) => ({ log: `${line}\n`, stream: 'stdout', time: '2019-09-10T04:07:51.398Z' })],
    // sidecar/fluent-bit.yaml's records, exported from Elasticsearch: the logType its parser adds beside the entry.
    ['fluent-bit', (line) => ({ log: line, logType: (JSON.parse(line) as { logType: string }).logType, kubernetes: { pod_name: 'my-replica-set-0' } })],
    ['logcli jsonl', (line) => ({ labels: { job: 'logtype', pod: 'my-replica-set-0' }, line, timestamp: '2019-09-10T04:07:51.398Z' })],
    ['vector', (line) => ({ message: line, kubernetes: { pod_name: 'my-replica-set-0' } })],
    // From an incident trial: Elasticsearch's hits as exported (`_source` holds the record) were
    // 0 entries; a pipeline that lifts `contents` into `log`, its logType beside it, gave
    // entries whose contents were the whole record, never parsed.
    ['elasticsearch hit', (line) => ({ _index: 'logs-2024.03.18', _id: 'x1', _source: { log: line, logType: (JSON.parse(line) as { logType: string }).logType, kubernetes: { pod_name: 'my-replica-set-0' } } })],
    ['contents lifted into log', (line) => ({ log: `${(JSON.parse(line) as { contents: string }).contents}\n`, logType: (JSON.parse(line) as { logType: string }).logType, kubernetes: { pod_name: 'my-replica-set-0' } })],
  ];
  for (const [name, wrap] of shapes) {
    const wrapped = ENTRIES.map((line) => JSON.stringify(wrap(line))).join('\n') + '\n';
    const run = runFilter(['--summary'], wrapped);
    t.is(run.stdout, CONTENTS.join('\n') + '\n', name);
    t.regex(run.stderr, /^logtype: 6 entries read, 6 written, 0 other lines\n/, name);
    t.deepEqual(lines(runFilter(['-o', 'entry'], wrapped).stdout), ENTRIES, name);
  }
  // A log's own line a shipper wrapped (a container without the sidecar) is read as that log's.
  const server = SERVER_TEXT.toString('utf8').split('\n').filter(Boolean);
  const docker = server.map((line) => JSON.stringify({ log: `${line}\n`, stream: 'stdout' })).join('\n') + '\n';
  const run = runFilter(['--summary'], docker);
  t.is(run.stdout, server.join('\n') + '\n');
  t.regex(run.stderr, new RegExp(`^logtype: ${server.length} entries read, ${server.length} written, 0 other lines\n {2}entries read, by type:\n {2}mongodb +${server.length}\n`));
});

// From a field trial: --as took every line as it stood, so the runtime's CRI head, kubectl's and
// stern's prefixes stayed in the line (-l warn, --since gave 0 lines, in silence), and entries
// wrapped by a shipper or behind kubectl's prefix were read as server lines.
test('--as TYPE takes off what tools put around a line (CRI heads and pieces, kubectl, stern), and reads wrapped or prefixed entries as the entries they are', (t) => {
  const warn = '{"t":{"$date":"2024-03-18T10:49:07.140-04:00"},"s":"W",  "c":"CONTROL",  "id":22120,   "ctx":"initandlisten","msg":"Access control is not enabled for the database"}';
  const info = '{"t":{"$date":"2024-03-18T10:49:07.150-04:00"},"s":"I",  "c":"NETWORK",  "id":23016,   "ctx":"listener","msg":"Waiting for connections","attr":{"port":27017}}';
  const stamp = '2024-03-18T14:49:07.140000000Z';
  const shapes: [string, string[]][] = [
    ['plain', [warn, info]],
    ['CRI, the first line in two pieces', [`${stamp} stdout P ${warn.slice(0, 50)}`, `${stamp} stdout F ${warn.slice(50)}`, `${stamp} stdout F ${info}`]],
    ['kubectl --prefix --timestamps', [`[pod/db-0/mongod] ${stamp} ${warn}`, `[pod/db-0/mongod] ${stamp} ${info}`]],
    ['stern', [`db-0 mongod ${warn}`, `db-0 mongod ${info}`]],
  ];
  for (const [name, input] of shapes) {
    t.deepEqual(lines(runFilter(['-o', 'raw', '-l', 'warn', '--as', 'mongodb'], `${input.join('\n')}\n`).stdout), [warn], name);
    t.deepEqual(lines(runFilter(['-o', 'raw', '--as', 'mongodb'], `${input.join('\n')}\n`).stdout), [warn, info], name);
  }
  // A pre-4.4 line behind kubectl's pod alone keeps its own time; one without a prefix is not cut at its time.
  const text = '2019-09-10T04:07:51.398+0000 W NETWORK  [conn2] warn here';
  t.deepEqual(lines(runFilter(['-o', 'raw', '--as', 'mongodb'], `[pod/db-0/mongod] ${text}\n${text}\n`).stdout), [text, text]);
  const agent = ENTRIES.find((line) => line.includes('"automation-agent-verbose"'))!;
  const contents = (JSON.parse(agent) as { contents: string }).contents;
  const wrapped: [string, string][] = [
    ['kubectl --prefix', `[pod/db-0/c] ${stamp} ${agent}`],
    ['docker', JSON.stringify({ log: `${agent}\n`, stream: 'stdout', time: stamp })],
    ['logcli jsonl', JSON.stringify({ labels: { pod: 'db-0' }, line: agent, timestamp: stamp })],
    ['CRI', `${stamp} stdout F ${agent}`],
  ];
  for (const [name, line] of wrapped) t.deepEqual(lines(runFilter(['-o', 'raw', '-t', 'automation-agent-verbose', '--as', 'mongodb'], `${line}\n`).stdout), [contents], name);
  // From the review: a log's own line of two words and a `{` is not stern's prefix; its record keeps it.
  const own = ['[2026-11-22T10:00:00.000+0000] [.error] [a.go:f:1] [10:00:00.000] Failed to apply config:', 'desired config: {"processes":[]}'];
  t.deepEqual(lines(runFilter(['-o', 'raw', '-l', 'error', '--as', 'automation-agent'], `${own.join('\n')}\n`).stdout), own);
  // A shipper's record of a line with the runtime's head, a Docker record's time, a Vector file
  // record and an Elasticsearch hit: read as without --as.
  const agentError = '[2026-11-27T10:00:00.000+0000] [.error] [a.go:f:1] [10:00:00.000] boom';
  t.deepEqual(lines(runFilter(['-o', 'raw', '-l', 'error', '--as', 'automation-agent'], `${JSON.stringify({ log: `${stamp} stdout F ${agentError}`, kubernetes: { pod_name: 'p' } })}\n`).stdout), [agentError]);
  t.deepEqual(lines(runFilter(['-o', 'raw', '--since', '2024-03-18T14:00Z', '--as', 'automation-agent-stderr'], `${JSON.stringify({ log: 'panic: boom\n', stream: 'stderr', time: stamp })}\n`).stdout), ['panic: boom']);
  for (const record of [{ file: '/var/log/mongodb.log', host: 'h', message: warn, source_type: 'file', timestamp: stamp }, { _index: 'logs', _source: { log: warn, kubernetes: { pod_name: 'p' } } }]) {
    t.deepEqual(lines(runFilter(['-o', 'raw', '-l', 'warn', '--as', 'mongodb'], `${JSON.stringify(record)}\n`).stdout), [warn], JSON.stringify(record).slice(0, 40));
  }
});

// From a field trial: Fluent Bit's JSON outputs stamp a record under `date` (seconds, or RFC
// 3339), and stern's --output json and OpenTelemetry-style Loki labels name the pod under keys of
// their own: the disk-full line was left out by --since, and context ran across pods.
test("a record's time under Fluent Bit's `date`, its pod under stern's podName or Loki's k8s_pod_name: --since keeps a line of no time of its own, context stays in its pod", (t) => {
  const diskFull = 'Logging error occurred: rolling_file_appender: Failed to write to /var/log/mongodb-mms-automation/automation-agent-verbose.log: no space left on device';
  const entry = JSON.stringify({ logType: 'automation-agent-stderr', contents: diskFull });
  for (const date of [1795341600.5, '2026-11-22T10:00:00.500000Z']) {
    const input = `${JSON.stringify({ date, log: `${entry}\n`, stream: 'stdout', kubernetes: { pod_name: 'db-0', container_name: 'logtype' } })}\n`;
    t.deepEqual(lines(runFilter(['-o', 'raw', '--since', '2026-11-22T10:00Z', '--until', '2026-11-22T10:00Z'], input).stdout), [diskFull], String(date));
  }
  const server = (pod: number, n: number, s = 'I'): string => JSON.stringify({ logType: 'mongodb', contents: `{"t":{"$date":"2026-11-22T10:00:0${n}.000Z"},"s":"${s}","c":"NETWORK","id":1,"ctx":"a","msg":"db${pod}-m${n}"}` });
  const records: [string, (pod: number, line: string) => unknown][] = [
    ['stern --output json', (pod, line) => ({ message: line, namespace: 'mongodb', podName: `db-${pod}`, containerName: 'logtype' })],
    ['Loki, OpenTelemetry labels', (pod, line) => ({ labels: { k8s_pod_name: `db-${pod}`, k8s_container_name: 'logtype' }, line, timestamp: '2026-11-22T10:00:00Z' })],
  ];
  for (const [name, wrap] of records) {
    const input = [0, 1, 2, 3].flatMap((n) => [0, 1].map((pod) => JSON.stringify(wrap(pod, server(pod, n, pod === 0 && n === 1 ? 'E' : 'I'))))).join('\n') + '\n';
    const out = lines(runFilter(['-o', 'raw', '-l', 'error', '-A', '2'], input).stdout).map((line) => (JSON.parse(line) as { msg: string }).msg);
    t.deepEqual(out, ['db0-m1', 'db0-m2', 'db0-m3'], name);
  }
});

test("Fluent Bit's tail of the runtime's files without its CRI parser (each record's log holds the CRI line, a long line cut in P pieces): read as the entries the lines are, pieces joined per pod and stream", (t) => {
  // From a field trial: 0 entries read, and doctor said it found no problem.
  const cri = (pod: string, tag: 'P' | 'F', text: string): string =>
    JSON.stringify({ date: 1764291723.5, log: `2026-11-27T10:15:37.123456789Z stdout ${tag} ${text}`, kubernetes: { pod_name: pod, container_name: 'logtype' } });
  const records: string[] = [];
  ENTRIES.forEach((line, i) => {
    const pod = `my-rs-${i % 2}`;
    if (line.length < 40) return void records.push(cri(pod, 'F', line));
    // Cut in three pieces, the other pod's record between them (records of pods interleave in a store).
    records.push(cri(pod, 'P', line.slice(0, 20)));
    records.push(cri(`my-rs-${(i + 1) % 2}`, 'F', '{"logType":"agent-launcher-script","contents":"between"}'));
    records.push(cri(pod, 'P', line.slice(20, 30)));
    records.push(cri(pod, 'F', line.slice(30)));
  });
  const input = `${records.join('\n')}\n`;
  const entries = lines(runFilter(['-o', 'entry'], input).stdout);
  t.deepEqual(entries.filter((line) => !line.includes('"between"')), ENTRIES);
  t.is(entries.length, ENTRIES.length * 2);
  const run = runFilter(['--summary', '-x', 'agent-launcher-script'], input);
  t.is(run.stdout, CONTENTS.join('\n') + '\n');
  t.regex(run.stderr, /^logtype: 12 entries read, 6 written, 0 other lines\n/);
});

test("Docker records (and entries) written with spaces, as a tool that re-writes them does (Python's json.dumps): read as they are without --as, and with --as as well", (t) => {
  const server = SERVER_TEXT.toString('utf8').split('\n').filter(Boolean);
  const spaced = (value: object): string => JSON.stringify(value).replaceAll('","', '", "').replace(/^\{"(\w+)":/, '{"$1": ');
  const docker = server.map((line) => spaced({ log: `${line}\n`, stream: 'stdout', time: '2026-11-27T10:00:00.000000000Z' })).join('\n') + '\n';
  t.true(docker.startsWith('{"log": "'));
  for (const args of [[], ['--as', 'mongodb']]) t.is(runFilter(['-o', 'raw', ...args], docker).stdout, `${server.join('\n')}\n`, args.join(' '));
  const entries = ENTRIES.map((line) => spaced(JSON.parse(line) as object)).join('\n') + '\n';
  t.true(entries.startsWith('{"logType": "'));
  t.is(runFilter(['-o', 'raw', '--as', 'mongodb'], entries).stdout, runFilter(['-o', 'raw'], `${ENTRIES.join('\n')}\n`).stdout);
});

test("the time a shipper's record was stamped with places a line that has none of its own (the agent's disk-full line), as kubectl's --timestamps does: --since keeps it, doctor says when", (t) => {
  const diskFull = fs.readFileSync(path.join(REPO, 'test/fixtures/real/agent-stderr-disk-full.log'), 'utf8').split('\n')[0]!;
  const entry = JSON.stringify({ logType: 'automation-agent-stderr', contents: diskFull });
  const stamp = '2026-11-27T10:00:00.123456789Z';
  const records: [string, object][] = [
    ['docker', { log: `${entry}\n`, stream: 'stdout', time: stamp }],
    ['fluent-bit', { log: `${entry}\n`, stream: 'stdout', time: stamp, kubernetes: { pod_name: 'my-rs-0', container_name: 'logtype' } }],
    ['logcli jsonl', { labels: { pod: 'my-rs-0', container: 'logtype' }, line: entry, timestamp: stamp }],
    ['vector', { message: entry, timestamp: stamp, kubernetes: { pod_name: 'my-rs-0' } }],
  ];
  for (const [name, record] of records) {
    const input = `${JSON.stringify(record)}\n`;
    t.is(runFilter(['-o', 'raw', '--since', '2026-11-27T09:00:00Z'], input).stdout, `${diskFull}\n`, name);
    t.is(runFilter(['-o', 'raw', '--until', '2026-11-27T09:00:00Z'], input).stdout, '', name);
    const doctor = JSON.parse(runFilter(['doctor', '--json'], input).stdout) as { problems: { first: string | null }[] };
    t.is(doctor.problems[0]?.first, '2026-11-27T10:00:00.123Z', name);
  }
});

test("logcli's default output runs newest first (no --forward): the filter says so, and how to give the lines oldest first; oldest first it says nothing", (t) => {
  const agent = (i: number): string => JSON.stringify({ logType: 'automation-agent-verbose', contents: `[2020-12-04T16:39:${String(i).padStart(2, '0')}.000-00] [.info] [cm/x.go:f:1] [16:39:${String(i).padStart(2, '0')}.000] step ${i}` });
  const lines = Array.from({ length: 40 }, (_, i) => `2026-11-27T10:00:${String(i).padStart(2, '0')}Z {container="mongodb-agent", pod="my-rs-0"} ${agent(i)}`);
  const forward = runFilter(['-o', 'raw'], `${lines.join('\n')}\n`);
  t.is(forward.stderr, '');
  const backward = runFilter(['-o', 'raw'], `${[...lines].reverse().join('\n')}\n`);
  t.is(backward.status, 0);
  t.regex(backward.stderr, /^logtype: the lines run newest first \(39 of 39 steps between a pod's stamped lines go back in time\): .*logcli query --forward/);
  t.is(backward.stdout.split('\n').length, 41, 'every line still written');
});

test("logcli's default output (TIME {LABELS} LINE): each line read as the entry it holds, its pod label its source", (t) => {
  // As logcli writes it: times in seconds, the labels the streams do not share, padded to the longest.
  const lines = ENTRIES.map((line, i) => `2026-11-27T10:15:3${i}+00:00 {pod="my-replica-set-${i % 2}"${i % 2 === 0 ? ', job="logtype"' : ''}}${i % 2 === 0 ? ' ' : '               '}${line}`);
  const run = runFilter(['--summary'], `${lines.join('\n')}\n`);
  t.is(run.stdout, CONTENTS.join('\n') + '\n');
  t.regex(run.stderr, /^logtype: 6 entries read, 6 written, 0 other lines\n/);
  // Context stays within a pod: the label is the line's source, as kubectl's --prefix is.
  const pretty = runFilter(['-o', 'pretty', '--color', 'never'], `${lines.join('\n')}\n`).stdout.split('\n').filter(Boolean);
  t.true(pretty.every((line, i) => line.startsWith(`my-replica-set-${i % 2} `)), pretty.join('\n'));
});

test("the sidecar's diagnostics in a shipper's record (its stderr, in the same container log): read as the sidecar's lines, as kubectl logs gives them", (t) => {
  const diagnostic = '{"level":40,"time":"2026-11-27T10:15:37.201Z","logType":"logtype-sidecar","event":"resume-lost","source":"automation-agent","path":"/logs/automation-agent.log","position":330,"msg":"a file read before the restart is not found"}';
  const shapes: [string, unknown][] = [
    ['docker', { log: `${diagnostic}\n`, stream: 'stderr', time: '2026-11-27T10:15:37.3Z' }],
    ['fluent-bit', { '@timestamp': '2026-11-27T10:15:37.3Z', stream: 'stderr', log: diagnostic, kubernetes: { pod_name: 'p0' }, logType: 'logtype-sidecar' }],
    ['logcli jsonl', { labels: { job: 'logtype', logType: 'logtype-sidecar' }, line: diagnostic, timestamp: '2026-11-27T10:15:37.3+00:00' }],
    ['vector', { file: 'f', kubernetes: { pod_name: 'p0' }, logType: 'logtype-sidecar', message: diagnostic, stream: 'stderr' }],
  ];
  const plain = runFilter(['-l', 'warn', '-o', 'pretty', '--color', 'never'], `${diagnostic}\n`).stdout;
  t.regex(plain, /^sidecar +2026-11-27 10:15:37\.201 WARN +automation-agent a file read before the restart is not found/);
  for (const [name, record] of shapes) {
    const input = `${JSON.stringify(record)}\n`;
    // (A record that names its pod shows it first, as kubectl's --prefix does.)
    t.is(runFilter(['-l', 'warn', '-o', 'pretty', '--color', 'never'], input).stdout.replace(/^pod\/\S+ /, ''), plain, name);
    t.is(runFilter(['-t', 'sidecar', '-o', 'raw'], input).stdout, `${diagnostic}\n`, name);
    const doctor = JSON.parse(runFilter(['doctor', '--json'], input).stdout) as { problems: { id: string }[] };
    t.deepEqual(doctor.problems.map((p) => p.id), ['sidecar-lines-lost'], name);
  }
  // Two pods' records (Fluent Bit's and Vector's kubernetes fields): each line's pod is its source, as kubectl's --prefix names it.
  const twoPods = ['rs-0', 'rs-1'].map((pod) => JSON.stringify({ message: diagnostic, logType: 'logtype-sidecar', kubernetes: { pod_name: pod, container_name: 'logtype' } })).join('\n');
  const found = JSON.parse(runFilter(['doctor', '--json'], `${twoPods}\n`).stdout) as { problems: { id: string; sources: string[] }[] };
  t.deepEqual(found.problems.map((p) => [p.id, p.sources]), [['sidecar-lines-lost', ['pod/rs-0/logtype', 'pod/rs-1/logtype']]]);
  // A shipper's record kept inside another's (Fluent Bit's own container file) names a type of a
  // log, not of logtype's: it is no entry of that type with the record as its contents.
  const inner = JSON.stringify({ date: 1, log: '{"logType":"mongodb","contents":"x"}', logType: 'mongodb' });
  const nested = runFilter(['--summary', '-o', 'raw'], `${JSON.stringify({ log: `${inner}\n`, stream: 'stdout', time: '2026-11-27T10:15:37.3Z' })}\n`);
  t.is(nested.stdout, '');
  t.regex(nested.stderr, /^logtype: 0 entries read, 0 written, 1 other line\n/);
});

test('input with lines but not one entry (notes, a listing piped in by mistake): one line on stderr says so, where the output drops them', (t) => {
  const text = Buffer.from('total 12\ndrwxr-xr-x 2 mongodb mongodb 4096 Nov 22 10:00 logs\n-rw-r--r-- 1 mongodb mongodb 81 Nov 22 10:00 notes\n');
  const notice = 'logtype: no entry in the 3 lines read: not one is an entry or a line of a log logtype knows (--keep-other writes them, -o pretty shows them); on a pod that runs logtype-sidecar, its entries are in its own container: kubectl logs POD -c logtype\n';
  const raw = runFilter([], text);
  t.deepEqual([raw.stdout, raw.stderr, raw.status], ['', notice, 0]);
  const quiet = runFilter(['-q', '-l', 'error'], text);
  t.deepEqual([quiet.stdout, quiet.stderr, quiet.status], ['', notice, 1]);
  // Where the lines are written or shown, or some were entries: no word.
  t.is(runFilter(['--keep-other'], text).stderr, '');
  t.is(runFilter(['-o', 'pretty', '--color', 'never'], text).stderr, '');
  t.is(runFilter(['-t', 'mongodb'], Buffer.concat([Buffer.from(KUBECTL_LOGS), text])).stderr, '');
});

test('a file name or a value with control characters in it reaches stderr escaped, as log contents reach a terminal', (t) => {
  const dir = tempDir('filter-escaped-names');
  const missing = path.join(dir, 'pod\u001b[2J\u001b]0;title\u0007.log');
  const runs = [runFilter([missing], KUBECTL_LOGS), runFilter(['-t', 'mongo\u001b[31mdb'], KUBECTL_LOGS), runFilter(['--since', '\u009b2J'], KUBECTL_LOGS)];
  t.true(runs[0]!.stderr.includes('pod\\e[2J\\e]0;title\\x07.log: no such file or directory'));
  t.true(runs[1]!.stderr.includes('-t "mongo\\e[31mdb"'));
  t.true(runs[2]!.stderr.includes('not "\\x9b2J"'));
  for (const run of runs) t.notRegex(run.stderr, /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
});

/**
 * A container runtime's log file read on the node (/var/log/pods/…/0.log): every line behind the
 * runtime's `<time> <stream> <F|P> ` head, a long line cut in P pieces. Its head was read as
 * stern's three words (the time as a namespace), so every line was a source of its own, and a
 * line in pieces was dropped from raw output without a word.
 */
// Found in a field trial: a Docker json-file log of the agent's container read its record's second
// line (no head of its own) alone, as no entry; `--as automation-agent` read every record as text.
test("Docker's json-file log of the agent's container: a record over two lines joined, with and without --as", (t) => {
  const agent = fs.readFileSync(path.join(REAL_DATA, 'agent-issue-threads.log'), 'utf8').split('\n').slice(10, 12);
  const docker = (line: string): string => JSON.stringify({ log: `${line}\n`, stream: 'stderr', time: '2026-11-22T09:58:00.000000001Z' });
  const input = [docker(ENTRIES[1]!), ...agent.map(docker), docker(ENTRIES[2]!)].join('\n') + '\n';
  const raw = runFilter(['-o', 'raw', '--keep-other'], input);
  t.is(raw.status, 0, raw.stderr);
  t.deepEqual(raw.stdout.split('\n').slice(0, -1), [CONTENTS[1], ...agent, CONTENTS[2]]);
  const errors = runFilter(['-l', 'error', '-o', 'raw'], input);
  t.deepEqual(errors.stdout.split('\n').slice(0, -1), agent, 'the record whole, its second line too');
  const pretty = runFilter(['-o', 'pretty', '--color', 'never', '--utc'], input).stdout.split('\n').slice(0, -1);
  t.is(pretty.length, 4, pretty.join('\n'));
  t.regex(pretty[1]!, /^agent-stdout +2020-12-04 16:39:07\.259Z ERROR /);
  t.is(pretty[2]!.trim(), agent[1]!);
  const summary = JSON.parse(runFilter(['summary', '--json'], input).stdout) as { lines: { entries: number; selected: number; notEntries: number } };
  t.deepEqual(summary.lines, { entries: 4, selected: 4, notEntries: 0 });
  const as = agent.map(docker).join('\n') + '\n';
  t.deepEqual(runFilter(['--as', 'automation-agent', '-l', 'error'], as).stdout.split('\n').slice(0, -1), agent, '--as: the lines Docker wrapped');
  const asSummary = JSON.parse(runFilter(['summary', '--json', '--as', 'automation-agent'], as).stdout) as { types: { logType: string; errors: number; unparsed: number }[] };
  t.like(asSummary.types[0], { logType: 'automation-agent', errors: 1, unparsed: 0 });
});

// From the review: Docker's json-file driver cuts a line longer than 16 KiB into records, each
// but the last without the newline; a slow query's line (often longer: large $in lists) was
// read as pieces, so --slow missed it. A real slow query of rs1, cut the same way, here in three.
test("Docker's json-file pieces of a long line (each but the last without its newline) are read as the line, with and without --as", (t) => {
  const server = zlib.gunzipSync(fs.readFileSync(path.join(REAL_DATA, 'mongod-replica-rs1.log.gz'))).toString('utf8').split('\n');
  const slow = server.filter((line) => line.includes('"Slow query"')).sort((a, b) => b.length - a.length)[0]!;
  const before = server.find((line) => line.includes('"Connection accepted"'))!;
  const third = Math.ceil(slow.length / 3);
  const record = (log: string, stream = 'stdout'): string => JSON.stringify({ log, stream, time: '2026-11-22T09:58:00.000000001Z' });
  const pieces = [slow.slice(0, third), slow.slice(third, 2 * third), `${slow.slice(2 * third)}\n`];
  // stderr's line written between the pieces of stdout's, as the driver may.
  const input = [record(`${before}\n`), record(pieces[0]!), record('a line on stderr\n', 'stderr'), record(pieces[1]!), record(pieces[2]!)].join('\n') + '\n';
  const slowRaw = runFilter(['--slow', '0', '-o', 'raw', '--summary'], input);
  t.deepEqual(slowRaw.stdout.split('\n').slice(0, -1), [slow]);
  t.regex(slowRaw.stderr, /^logtype: 2 entries read, 1 written, 1 other line\n/);
  t.deepEqual(runFilter(['--as', 'mongodb', '--slow', '0', '-o', 'raw'], input).stdout.split('\n').slice(0, -1), [slow]);
  const summary = JSON.parse(runFilter(['summary', '--json'], input).stdout) as { lines: { entries: number }; server: { slowOperations: unknown[] } };
  t.is(summary.lines.entries, 2);
  t.is(summary.server.slowOperations.length, 1);
  // The input ends inside a line: what came of it is read as it is.
  const cut = [record(`${before}\n`), record(pieces[0]!)].join('\n') + '\n';
  t.deepEqual(runFilter(['--as', 'mongodb', '-o', 'raw'], cut).stdout.split('\n').slice(0, -1), [before, pieces[0]]);
});

// From the review of the change above: records of a store that mixes pods (Loki's, here) name
// their pod in fields, not in a prefix, so a line after the agent's error may be another pod's.
test("a store's records of several pods: another pod's line is never joined to the agent's record; --as keeps a log's own JSON that starts with log", (t) => {
  const agent = fs.readFileSync(path.join(REAL_DATA, 'agent-issue-threads.log'), 'utf8').split('\n').slice(10, 11);
  const logcli = (pod: string, container: string, line: string): string => JSON.stringify({ labels: { pod, container }, line, timestamp: '2026-11-22T09:58:00Z' });
  const nginx = '10.0.0.1 - - "GET /healthz HTTP/1.1" 200';
  const input = [logcli('db-0', 'mongodb-agent', agent[0]!), logcli('web-7', 'nginx', nginx)].join('\n') + '\n';
  const errors = runFilter(['-l', 'error', '-o', 'raw', '--summary'], input);
  t.deepEqual(errors.stdout.split('\n').slice(0, -1), agent);
  t.regex(errors.stderr, /^logtype: 1 entry read, 1 written, 1 other line\n/);
  // An application's own JSON lines whose first key is `log`: no Docker record (no stream), kept whole.
  const own = ['{"log":"started","level":"info","user":"alice","ts":1}', '{"log":"failed","level":"error","user":"bob","ts":2}'];
  t.deepEqual(runFilter(['--as', 'automation-agent', '-o', 'raw'], own.join('\n') + '\n').stdout.split('\n').slice(0, -1), own);
});

// From a field trial: `tail -f` of several CRI files (on a node) gives each file's new lines
// under a header; a line whose pieces stood in two sections of its file, another file's between,
// was two broken lines.
test("tail -f of several CRI files: a line in pieces across two sections of its file is read whole; tail's headers are no entries", (t) => {
  const stamp = (i: number) => `2026-11-22T09:58:00.${String(i).padStart(9, '0')}Z`;
  const [a, b] = [ENTRIES[0]!, ENTRIES[1]!];
  const input = [
    '==> /var/log/containers/my-rs-0_mongodb_mongodb-agent-1.log <==',
    `${stamp(1)} stdout P ${a.slice(0, 40)}`,
    '',
    '==> /var/log/containers/my-rs-1_mongodb_mongodb-agent-2.log <==',
    `${stamp(2)} stdout F ${ENTRIES[2]}`,
    `${stamp(3)} stdout P ${b.slice(0, 30)}`,
    '',
    '==> /var/log/containers/my-rs-0_mongodb_mongodb-agent-1.log <==',
    `${stamp(4)} stdout F ${a.slice(40)}`,
    '',
    '==> /var/log/containers/my-rs-1_mongodb_mongodb-agent-2.log <==',
    `${stamp(5)} stdout F ${b.slice(30)}`,
  ].join('\n') + '\n';
  const raw = runFilter(['-o', 'raw', '--summary'], input);
  t.is(raw.status, 0, raw.stderr);
  t.deepEqual(raw.stdout.split('\n').slice(0, -1), [CONTENTS[2], CONTENTS[0], CONTENTS[1]]);
  t.regex(raw.stderr, /^logtype: 3 entries read, 3 written/);
});

test("a CRI log file: the runtime's head taken off, a line cut in pieces read whole, an agent's record over two lines joined", (t) => {
  const stamp = (i: number) => `2026-11-22T09:58:00.${String(i).padStart(9, '0')}Z`;
  const agent = fs.readFileSync(path.join(REAL_DATA, 'agent-issue-threads.log'), 'utf8').split('\n').slice(10, 12);
  const entry = ENTRIES[0]!;
  const lines = [
    `${stamp(1)} stdout F ${ENTRIES[1]}`,
    `${stamp(2)} stdout P ${entry.slice(0, 40)}`,
    `${stamp(3)} stdout P ${entry.slice(40, 90)}`,
    `${stamp(4)} stdout F ${entry.slice(90)}`,
    ...agent.map((line, i) => `${stamp(5 + i)} stderr F ${line}`),
    `${stamp(7)} stdout F ${ENTRIES[2]}`,
  ];
  const input = lines.join('\n') + '\n';
  const raw = runFilter(['-o', 'raw', '--keep-other'], input);
  t.is(raw.status, 0, raw.stderr);
  t.deepEqual(raw.stdout.split('\n').slice(0, -1), [CONTENTS[1], CONTENTS[0], ...agent, CONTENTS[2]]);
  const pretty = runFilter(['-o', 'pretty', '--color', 'never', '--utc'], input).stdout.split('\n').slice(0, -1);
  t.is(pretty.length, 5, pretty.join('\n'));
  t.false(pretty.some((line) => / std(?:out|err) [FP] /.test(line)), pretty.join('\n'));
  t.regex(pretty[2]!, /^agent-stdout +2020-12-04 16:39:07\.259Z ERROR /);
  t.is(pretty[3]!.trim(), agent[1]!);
  const summary = JSON.parse(runFilter(['summary', '--json'], input).stdout) as { lines: { entries: number; selected: number; notEntries: number } };
  t.deepEqual(summary.lines, { entries: 5, selected: 5, notEntries: 0 });
});

// From an incident trial: `summary pod.log pod.log` read 292 entries of 146, every election twice, and said nothing.
test('the same file given twice, or by another name (a link): read once, and stderr says so, in the filter, summary and doctor', (t) => {
  const dir = tempDir('logtype-repeated-input-');
  try {
    const file = path.join(dir, 'pod.log');
    fs.writeFileSync(file, `${ENTRIES.join('\n')}\n`);
    const link = path.join(dir, 'again.log');
    fs.symlinkSync('pod.log', link);
    const once = runFilter(['-o', 'raw', file]);
    const twice = runFilter(['-o', 'raw', file, link, file]);
    t.is(twice.status, 0, twice.stderr);
    t.is(twice.stdout, once.stdout, 'its lines once');
    t.deepEqual(lines(twice.stderr), [`logtype: ${link} is the same file as ${file}, given before: read once`, `logtype: ${file} is given twice: read once`]);
    const summaryOnce = JSON.parse(runFilter(['summary', '--json', file]).stdout) as { lines: { entries: number } };
    const summary = runFilter(['summary', '--json', file, file]);
    t.is(summary.status, 0, summary.stderr);
    t.deepEqual((JSON.parse(summary.stdout) as { lines: unknown }).lines, summaryOnce.lines);
    t.true(summaryOnce.lines.entries === ENTRIES.length);
    t.is(summary.stderr, `logtype summary: ${file} is given twice: read once\n`);
    const doctor = runFilter(['doctor', '--json', file, link]);
    t.regex(doctor.stderr, /^logtype doctor: .*again\.log is the same file as .*pod\.log, given before: read once\n$/);
    t.deepEqual(JSON.parse(doctor.stdout), JSON.parse(runFilter(['doctor', '--json', file]).stdout));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

// From an incident trial: `--as mongodb` on a file that already held the sidecar's entries read
// every entry as a server line, so `-l warn` selected nothing, without a word.
test('--as TYPE on a file of entries (the sidecar\'s output): each is read as the entry it is, as without --as', (t) => {
  const pod = spawnSync(process.execPath, [SIDECAR_BIN, '--once', '--log-dir', path.join(REPO, 'samples')], { env: cleanEnv(), encoding: 'utf8' }).stdout;
  for (const args of [['-l', 'warn'], ['-l', 'warn', '-t', 'mongodb'], ['-o', 'pretty', '--color', 'never', '--utc']]) {
    const plain = runFilter(args, pod);
    t.true(plain.stdout.length > 0, args.join(' '));
    t.is(runFilter(['--as', 'mongodb', ...args], pod).stdout, plain.stdout, args.join(' '));
  }
  // Split pieces stay pieces: joined as they are without --as.
  const pieces = `${JSON.stringify({ logType: 'mongodb', contents: 'one ', partial: true })}\n${JSON.stringify({ logType: 'mongodb', contents: 'line' })}\n`;
  t.is(runFilter(['--as', 'automation-agent', '-o', 'raw'], pieces).stdout, 'one line\n');
});

test('an entry whose line goes on after its contents (keys a tool added, contents written twice): -o raw writes what jq -r .contents writes', (t) => {
  const lines = [
    '{"logType":"mongodb","contents":"b","x":"y"}',
    '{"logType":"mongodb","contents":"dup","contents":"dup2"}',
    '{"logType":"mongodb","contents":"{\\"t\\":1}","pod":"my-replica-set-0"}',
    '{"logType":"mongodb","contents":"a \\"quoted\\" word","note":"x\\"y"}',
    '{"logType":"mongodb","contents":"plain"}',
  ];
  const jq = lines.map((line) => (JSON.parse(line) as { contents: string }).contents);
  t.is(runFilter(['-o', 'raw'], `${lines.join('\n')}\n`).stdout, `${jq.join('\n')}\n`);
  t.is(runFilter(['-o', 'pretty', '--color', 'never'], `${lines.join('\n')}\n`).stdout, jq.map((contents) => `mongodb       ${contents}\n`).join(''));
});

// From a CLI trial: another container's own JSON that happens to have a `logType` key was
// taken as an entry of a made-up type (a "billing" row in summary, its line in -o raw).
test("an application's JSON with a logType of its own and no contents is another line; logtype's own diagnostics (no contents: the line is its contents) and re-serialised entries are entries", (t) => {
  const app = '{"logType":"billing","level":"info","msg":"charged","amount":3}';
  const diagnostic = '{"level":40,"time":"2026-11-27T10:38:25.371Z","logType":"logtype-sidecar","event":"missing","source":"mongodb-audit","path":"/logs/mongodb-audit.log","msg":"no file after 3 minutes"}';
  const reserialised = '{"contents":"[2026-11-22T10:00:00.123+0000] [.info] [a.go:b:1] [10:00:00.123] hello","logType":"automation-agent"}';
  const input = `${[app, diagnostic, reserialised].join('\n')}\n`;
  const summary = JSON.parse(runFilter(['summary', '--json'], input).stdout) as { lines: { entries: number; notEntries: number }; types: { logType: string }[] };
  t.deepEqual(summary.types.map((type) => type.logType).sort(), ['automation-agent', 'logtype-sidecar']);
  t.like(summary.lines, { entries: 2, notEntries: 1 });
  t.is(runFilter(['-o', 'raw'], input).stdout, `${diagnostic}\n[2026-11-22T10:00:00.123+0000] [.info] [a.go:b:1] [10:00:00.123] hello\n`);
  t.is(runFilter(['-o', 'raw', '--keep-other'], input).stdout.split('\n')[0], app);
});

// From a CLI trial: two pods' server logs given as two FILEs looked alike in pretty output;
// which pod's line was which could not be told.
test('pretty output of several FILEs names each line\'s FILE before it, as grep does (lines that are not entries too); one FILE, and raw output, name none', (t) => {
  const dir = tempDir('pretty-files');
  const line = (n: number) => `{"t":{"$date":"2026-11-22T10:00:0${n}.000+00:00"},"s":"I",  "c":"REPL",     "id":21358,   "ctx":"conn1","msg":"Replica set state transition","attr":{"newState":"PRIMARY","oldState":"SECONDARY"}}`;
  const a = path.join(dir, 'rs0-0.log');
  const b = path.join(dir, 'rs0-1.log');
  fs.writeFileSync(a, `${line(1)}\n`);
  fs.writeFileSync(b, `${line(2)}\nnot a log line\n`);
  const pretty = runFilter(['--as', 'mongodb', '-o', 'pretty', '--color', 'never', a, b]).stdout.split('\n').filter(Boolean);
  t.is(pretty.length, 3);
  t.true(pretty[0]!.startsWith(`${a}: mongodb `), pretty[0]);
  t.true(pretty[1]!.startsWith(`${b}: mongodb `), pretty[1]);
  t.regex(pretty[2]!, new RegExp(`^${b.replace(/[.]/g, '\\.')}: `));
  t.false(runFilter(['--as', 'mongodb', '-o', 'pretty', '--color', 'never', a]).stdout.includes(a));
  t.false(runFilter(['--as', 'mongodb', '-o', 'raw', a, b]).stdout.includes(dir));
});
