import test from 'ava';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { FILTER_BIN, REAL_DATA, REPO, SIDECAR_BIN, cleanEnv, tempDir } from '../_helpers/sidecar-process.js';
import { entryLine, runFilter } from '../_helpers/filter-process.js';
import { CHROMIUM, testWithTool } from '../_helpers/system-tool.js';
import { KNOWN_PROBLEMS } from '../../src/doctor/known-problems.js';
import type { DoctorProblem, DoctorReport } from '../../src/index.js';

const SAMPLES = path.join(REPO, 'samples');
/** What `kubectl logs` prints for the sample pod: the sidecar over samples/. */
const POD_STREAM = spawnSync(process.execPath, [SIDECAR_BIN, '--once', '--log-dir', SAMPLES], { env: cleanEnv(), maxBuffer: 1 << 26 }).stdout.toString('utf8');
const OPERATOR_LOG = fs.readFileSync(path.join(SAMPLES, 'operator.log'), 'utf8');

test('summary of the sample pod: every section, in text', (t) => {
  const result = runFilter(['summary', '--utc', '--color', 'never'], POD_STREAM);
  t.is(result.status, 0, result.stderr);
  for (const heading of ['Log types', 'Activity', 'Server (mongodb)', 'Slow operations, by total time', 'Audit (mongodb-audit)']) {
    t.true(result.stdout.includes(`\n${heading}`), heading);
  }
  // The server's log begins with its start: no restart the input shows.
  t.regex(result.stdout, /restarts: none after the log begins\n {2}started where its log begins \(what ran before is not in the input\): 2026-11-22 09:57:50\n/);
  // The query's pattern, as mtools shows it, beside its hash.
  t.regex(result.stdout, /\n +4312ms +1 .* shop\.orders +aggregate +\{customer\.email: 1\} +B81A7C2E COLLSCAN ◀\n/);
  t.regex(result.stdout, /election: Election succeeded, assuming primary role/);
  t.is(result.stderr, '', 'no progress on a pipe');
});

test('summary --json: the same, as one document', (t) => {
  const result = runFilter(['summary', '--json'], POD_STREAM);
  t.is(result.status, 0, result.stderr);
  const summary = JSON.parse(result.stdout) as {
    lines: { entries: number };
    types: { logType: string; entries: number }[];
    server: { restarts: { time: string | null; version: string | null; atLogStart?: true }[]; slowOperations: { collscan: boolean; ns: string }[]; connections: { opened: number } };
    audit: { failedAuthentications: { count: number }[] };
  };
  const sampleLines = fs.readdirSync(SAMPLES).filter((f) => f.endsWith('.log') && f !== 'operator.log');
  const expected = sampleLines.reduce((n, f) => n + fs.readFileSync(path.join(SAMPLES, f), 'utf8').split('\n').filter(Boolean).length, 0);
  t.is(summary.lines.entries, expected);
  t.is(summary.types.reduce((n, type) => n + type.entries, 0), expected);
  t.deepEqual(summary.server.restarts, [{ time: '2026-11-22T09:57:50.112Z', version: null, atLogStart: true }]);
  t.like(summary.server.slowOperations[0], { collscan: true, ns: 'shop.orders' });
  t.is(summary.audit.failedAuthentications.reduce((n, f) => n + f.count, 0), 4);
});

test('summary takes the selection: -t and --since narrow it', (t) => {
  const summary = JSON.parse(runFilter(['summary', '--json', '-t', 'mongodb', '--since', '2026-11-22T09:58:30Z'], POD_STREAM).stdout) as {
    types: { logType: string; first: string }[];
    audit?: unknown;
  };
  t.deepEqual(summary.types.map((type) => type.logType), ['mongodb']);
  t.true(summary.types[0]!.first >= '2026-11-22T09:58:30');
  t.is(summary.audit, undefined);
});

testWithTool(CHROMIUM, 'summary --html: a self-contained page whose plots render in headless Chromium', async (t, executablePath) => {
  const dir = tempDir('html');
  const page = path.join(dir, 'summary.html');
  const result = runFilter(['summary', '--html', page], POD_STREAM);
  t.is(result.status, 0, result.stderr);
  const html = fs.readFileSync(page, 'utf8');
  t.false(/<script[^>]*\bsrc=|<link|src="http|href="http/.test(html), 'nothing to fetch');
  t.is(html.match(/<script/g)?.length, 1, 'one inline script (table sorting), nothing else to run');
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({ executablePath, args: ['--no-sandbox'] });
  try {
    const tab = await browser.newPage();
    await tab.goto(`file://${page}`);
    // Runs in the page (a string: the tests are compiled without the DOM's types).
    const plots = (await tab.evaluate(`[...document.querySelectorAll('svg.plot')].map((svg) => ({
      id: svg.id,
      marks: svg.querySelectorAll('.slow-point, rect.bar').length,
      drawn: [...svg.querySelectorAll('.slow-point, rect.bar')].filter((mark) => {
        const box = mark.getBoundingClientRect();
        return box.width > 0 && box.height > 0;
      }).length,
      width: svg.getBoundingClientRect().width,
    }))`)) as { id: string; marks: number; drawn: number; width: number }[];
    t.deepEqual(plots.map((p) => p.id).sort(), ['plot-severity', 'plot-slow', 'plot-types']);
    for (const plot of plots) {
      t.true(plot.width > 300, `${plot.id} is laid out`);
      t.true(plot.marks > 0 && plot.drawn === plot.marks, `${plot.id}: ${plot.drawn} of ${plot.marks} marks drawn`);
    }
    t.is(await tab.locator('svg#plot-slow .slow-point.collscan').count(), 1);
  } finally {
    await browser.close();
  }
});

test('summary on a terminal shows progress on stderr, then erases it', (t) => {
  const dir = tempDir('progress');
  const input = path.join(dir, 'pod.log');
  // Several chunks of input: more than one read.
  fs.writeFileSync(input, POD_STREAM.repeat(Math.ceil((3 << 20) / POD_STREAM.length)));
  const result = spawnSync('script', ['-qec', `"${process.execPath}" "${FILTER_BIN}" summary --color never "${input}" > "${dir}/out"`, '/dev/null'], {
    encoding: 'utf8',
    env: cleanEnv(),
  });
  t.is(result.status, 0, result.stderr);
  t.regex(result.stdout, /reading \d+\.\d MB of 3\.\d MB \(\d+%\), \d+ MB\/s/);
  t.true(result.stdout.trimEnd().endsWith('\r\u001b[K'), JSON.stringify(result.stdout.slice(-40)));
  t.regex(fs.readFileSync(`${dir}/out`, 'utf8'), /^logtype summary: /);
});

test('doctor on the sample pod and its operator: each problem, its meaning, fix and evidence; exit 1', (t) => {
  const result = runFilter(['doctor', '--json'], POD_STREAM + OPERATOR_LOG);
  t.is(result.status, 1, result.stderr);
  const report = JSON.parse(result.stdout) as DoctorReport;
  // The document is the exported DoctorReport, member for member (docs/formats.md names it for scripts).
  t.deepEqual(Object.keys(report).sort(), ['linesLookedAt', 'linesRead', 'problems']);
  const members: (keyof DoctorProblem)[] = ['count', 'example', 'exampleType', 'first', 'id', 'inOtherLines', 'informational', 'last', 'lines', 'meaning', 'moreSources', 'moreTypes', 'remedy', 'sources', 'title', 'types', 'where'];
  // `first` and `last` only where its lines had times.
  for (const problem of report.problems) t.deepEqual(Object.keys(problem).sort(), members.filter((m) => (m !== 'first' && m !== 'last') || problem[m] !== undefined), problem.id);
  t.true(report.problems.some((p) => typeof p.first === 'string'));
  t.deepEqual(report.problems.map((p) => p.id).sort(), [
    'agent-api-key',
    'agent-disk-full',
    'authentication-failed',
    'automatic-recovery',
    'tls-certificate-name',
    'validation-webhook-missing',
    'version-not-available',
  ]);
  const tls = report.problems.find((p) => p.id === 'tls-certificate-name')!;
  t.is(tls.count, 1);
  const tlsLine = OPERATOR_LOG.split('\n').find((line) => line.includes('x509'))!;
  t.is(tls.first, (JSON.parse(tlsLine) as { ts: string }).ts);
  t.regex(tls.example, /x509: certificate is valid for/);
  const text = runFilter(['doctor', '--color', 'never', '--utc'], POD_STREAM + OPERATOR_LOG).stdout;
  t.regex(text, /^7 known problems found in \d+ lines:/);
  // The sample's four failed authentications, as summary counts them (Audit: failed authentications).
  t.is(report.problems.find((p) => p.id === 'authentication-failed')?.count, 4);
  t.regex(text, /! The agents' log disk is full {2}\[agent-disk-full\]\n {2}Seen: {5}1 time, time unknown, in automation-agent-stderr/);
  t.regex(text, /Fix: {6}Reissue each member's certificate/);
});

test('doctor reads pasted kubectl output, lines that are not entries', (t) => {
  const pasted = [
    entryLine('mongodb', '{"t":{"$date":"2026-11-22T10:00:00.000Z"},"s":"I","c":"NETWORK","id":22943,"ctx":"listener","msg":"Connection accepted"}'),
    'Error from server (Forbidden): error when creating "rs.yaml": admission webhook "mdbpolicy.mongodb.com" denied the request: spec.members: must be greater than 0',
    '2026-11-22T10:01:00Z Warning FailedScheduling pod/my-replica-set-2 0/3 nodes are available: 3 Insufficient cpu.',
  ].join('\n');
  const report = JSON.parse(runFilter(['doctor', '--json'], pasted).stdout) as { problems: { id: string; first?: string; exampleType: string | null }[] };
  t.deepEqual(
    report.problems.map((p) => [p.id, p.exampleType, p.first]),
    [
      ['pod-pending-resources', null, '2026-11-22T10:01:00.000Z'],
      ['admission-denied', null, undefined],
    ],
  );
});

test('doctor finds nothing in a healthy log: exit 0', (t) => {
  const result = runFilter(['doctor', '--color', 'never'], `${entryLine('mongodb', 'all is well')}\n`);
  t.is(result.status, 0);
  t.true(result.stdout.startsWith(`No known problem found in 1 line (${KNOWN_PROBLEMS.length} known problems looked for).`), result.stdout);
});

const usage: [string[], RegExp][] = [
  [['doctor', '--bogus'], /^logtype doctor: Unknown option '--bogus' \(see logtype doctor --help\)\n$/],
  [['summary', '--since', 'soon'], /^logtype summary: --since takes an RFC 3339 time/],
  [['summary', '/no/such/file'], /^logtype summary: cannot read \/no\/such\/file: no such file or directory \(see logtype summary --help\)\n$/],
];
for (const [args, says] of usage) {
  test(`usage: logtype ${args.join(' ')} is one line and exit 2`, (t) => {
    const result = runFilter(args, '');
    t.is(result.status, 2);
    t.regex(result.stderr, says);
  });
}

// From a reports trial: a server killed without a word (no shutdown logged, no "Detected unclean
// shutdown" either: a storage engine that keeps no lock file) was not told.
test('doctor: a server that starts again after running with no shutdown logged was killed or crashed, counted once with its unclean-shutdown line; a clean restart is not', (t) => {
  const lines = gunzipSync(fs.readFileSync(path.join(REAL_DATA, 'mongod-replica-rs1.log.gz'))).toString('utf8').split('\n').filter(Boolean);
  const signal = lines.findIndex((l) => l.includes('"msg":"Received signal"'));
  const startAt = lines.findIndex((l) => l.includes('"msg":"MongoDB starting"'));
  // Its run up to the signal, then (ten minutes on) its start's lines again: killed, not shut down.
  const later = (l: string) => l.replace('2024-03-18T10:49:', '2024-03-18T10:59:');
  const restart = lines.slice(0, startAt + 40).map(later);
  const killed = [...lines.slice(0, signal), ...restart].map((l) => entryLine('mongodb', l)).join('\n') + '\n';
  const report = (input: string) => JSON.parse(runFilter(['doctor', '--json'], input).stdout) as { problems: { id: string; count: number; example: string }[] };
  const found = report(killed).problems.find((p) => p.id === 'server-unclean-shutdown');
  t.is(found?.count, 1);
  t.regex(found!.example, /"msg":"MongoDB starting"/);
  // With WiredTiger's own line at that start too: the same event.
  const unclean = '{"t":{"$date":"2024-03-18T10:59:07.500-04:00"},"s":"W",  "c":"STORAGE",  "id":22271,   "ctx":"initandlisten","msg":"Detected unclean shutdown - Lock file is not empty","attr":{"lockFile":"/ws/data/replset/rs1/db/mongod.lock"}}';
  const both = [...lines.slice(0, signal), ...restart, unclean].map((l) => entryLine('mongodb', l)).join('\n') + '\n';
  t.is(report(both).problems.find((p) => p.id === 'server-unclean-shutdown')?.count, 1);
  // The whole log, which ends with its clean shutdown, then the same start: nothing.
  const clean = [...lines, ...restart].map((l) => entryLine('mongodb', l)).join('\n') + '\n';
  t.false(report(clean).problems.some((p) => p.id === 'server-unclean-shutdown'));
});

// From a CLI trial: a pod's previous log and its current one, saved as two files, were two
// sources to doctor: the killed run in one and the start in the other were never put together
// (found with the files concatenated, not given apart).
test('doctor: a pod\'s previous and current logs as two files are one server: a start in the second after the first ran on with no shutdown is a crash; after a clean shutdown, none; two servers\' files are not joined', (t) => {
  const lines = gunzipSync(fs.readFileSync(path.join(REAL_DATA, 'mongod-replica-rs1.log.gz'))).toString('utf8').split('\n').filter(Boolean);
  const signal = lines.findIndex((l) => l.includes('"msg":"Received signal"'));
  const startAt = lines.findIndex((l) => l.includes('"msg":"MongoDB starting"'));
  const dir = tempDir('doctor-previous');
  const write = (name: string, text: string[]): string => {
    const file = path.join(dir, name);
    fs.writeFileSync(file, `${text.map((l) => entryLine('mongodb', l)).join('\n')}\n`);
    return file;
  };
  // The current log: the same start's lines (its preamble before the start line too), ten minutes on.
  const current = write('current.log', lines.slice(0, startAt + 40).map((l) => l.replace('2024-03-18T10:49:', '2024-03-18T10:59:')));
  const killed = write('previous.log', lines.slice(0, signal));
  const clean = write('previous-clean.log', lines);
  const crashes = (files: string[]) => (JSON.parse(runFilter(['doctor', '--json', ...files]).stdout) as { problems: { id: string; count: number; sources: string[] }[] }).problems.find((p) => p.id === 'server-unclean-shutdown');
  t.like(crashes([killed, current]), { count: 1, sources: [current] });
  // In either order (a glob puts current.log first; a review).
  t.like(crashes([current, killed]), { count: 1, sources: [current] });
  t.is(crashes([clean, current]), undefined);
  // Another server's log (another host) before it: not this server's run.
  const other = write('other.log', lines.slice(0, signal).map((l) => l.replace('"host":"', '"host":"other-')));
  t.is(crashes([other, current]), undefined);
  // A start written as two lines, SERVER RESTARTED and then MongoDB starting with the host (the
  // sample's shape, a review): the host is the second's.
  const sample = fs.readFileSync(path.join(REPO, 'samples/mongodb.log'), 'utf8').split('\n').filter(Boolean).slice(0, 30);
  t.true(sample[0]!.includes('SERVER RESTARTED') && sample[1]!.includes('MongoDB starting'));
  const samplePrevious = write('sample-previous.log', sample);
  const sampleCurrent = write('sample-current.log', sample.map((l) => l.replace('"2026-11-22T09:', '"2026-11-22T10:')));
  t.like(crashes([samplePrevious, sampleCurrent]), { count: 1, sources: [sampleCurrent] });
});

// From an incident trial: a server that stopped on a fatal assertion (disk full) was told only
// as "killed or crashed", whose fix leads with OOMKilled; its fatal lines were in no finding.
test('doctor: a fatal assertion before a restart is its own finding, one a stop for its three fatal lines, and the crash\'s fix starts there', (t) => {
  const lines = gunzipSync(fs.readFileSync(path.join(REAL_DATA, 'mongod-replica-rs1.log.gz'))).toString('utf8').split('\n').filter(Boolean);
  const signal = lines.findIndex((l) => l.includes('"msg":"Received signal"'));
  const startAt = lines.findIndex((l) => l.includes('"msg":"MongoDB starting"'));
  const later = (l: string) => l.replace('2024-03-18T10:49:', '2024-03-18T10:59:');
  const at = JSON.parse(lines[signal - 1]!) as { t: { $date: string } };
  const fatal = (id: number, c: string, msg: string, attr = '') =>
    `{"t":{"$date":"${at.t.$date}"},"s":"F",  "c":"${c}",${' '.repeat(Math.max(1, 9 - c.length))}"id":${id},   "ctx":"thread10","msg":"${msg}"${attr}}`;
  const crash = [
    fatal(23089, 'ASSERT', 'Fatal assertion', ',"attr":{"msgid":50853,"file":"src/mongo/db/storage/wiredtiger/wiredtiger_util.cpp","line":712}'),
    fatal(23090, '-', '\\n\\n***aborting after fassert() failure\\n\\n'),
    fatal(4757800, 'CONTROL', 'Writing fatal message', ',"attr":{"message":"Got signal: 6 (Aborted).\\n"}'),
  ];
  const input = [...lines.slice(0, signal), ...crash, ...lines.slice(0, startAt + 40).map(later)].map((l) => entryLine('mongodb', l)).join('\n') + '\n';
  const report = JSON.parse(runFilter(['doctor', '--json'], input).stdout) as { problems: { id: string; count: number; lines: number; remedy: string }[] };
  const fatalFound = report.problems.find((p) => p.id === 'server-fatal');
  t.like(fatalFound, { count: 1, lines: 3 });
  t.regex(fatalFound!.remedy, /logtype -t mongodb -l fatal -B 20 -o pretty/);
  const ids = report.problems.map((p) => p.id);
  t.true(ids.indexOf('server-fatal') < ids.indexOf('server-unclean-shutdown'), ids.join(' '));
  t.regex(report.problems.find((p) => p.id === 'server-unclean-shutdown')!.remedy, /^It logged a fatal error \(server-fatal, above\): start there\. See what ended it/);
  const text = runFilter(['doctor', '--color', 'never'], input).stdout;
  t.regex(text, /\[server-fatal\]\n {2}Seen: {5}1 time \(3 lines: a stop writes several, counted once\)/);
  // The command it gives shows the fatal lines with the error before them.
  const shown = runFilter(['-t', 'mongodb', '-l', 'fatal', '-B', '20', '-o', 'pretty', '--color', 'never'], input).stdout;
  t.regex(shown, /FATAL ASSERT \[thread10\] Fatal assertion/);
  // Killed without a fatal line: the fix is the kill's.
  const killed = [...lines.slice(0, signal), ...lines.slice(0, startAt + 40).map(later)].map((l) => entryLine('mongodb', l)).join('\n') + '\n';
  const plain = JSON.parse(runFilter(['doctor', '--json'], killed).stdout) as { problems: { id: string; remedy: string }[] };
  t.false(plain.problems.some((p) => p.id === 'server-fatal'));
  t.regex(plain.problems.find((p) => p.id === 'server-unclean-shutdown')!.remedy, /^See what ended it: kubectl describe pod/);
});

// From a reports trial: "The validation webhook is missing" (informational) alone exited 1, and `doctor || page` paged.
test('doctor: informational findings alone exit 0; with a problem to fix, 1', (t) => {
  const webhook = 'ERROR\tcontrollers/operator.go:42\tFailed to configure admission webhook: validatingwebhookconfigurations is forbidden\n';
  const informational = KNOWN_PROBLEMS.filter((p) => p.informational).map((p) => p.id);
  const only = runFilter(['doctor', '--json'], OPERATOR_LOG.split('\n').filter((l) => /webhook|automatic recovery/i.test(l)).join('\n') + '\n' + webhook);
  const report = JSON.parse(only.stdout) as { problems: { id: string }[] };
  t.true(report.problems.length > 0, 'something found');
  t.true(report.problems.every((p) => informational.includes(p.id)), report.problems.map((p) => p.id).join(' '));
  t.is(only.status, 0);
  t.is(runFilter(['doctor'], POD_STREAM).status, 1);
});

test('--help of summary and doctor teaches with examples', (t) => {
  t.regex(runFilter(['summary', '--help']).stdout, /Examples:\n {2}kubectl logs POD \| logtype summary\n/);
  const doctor = runFilter(['doctor', '--help']).stdout;
  t.regex(doctor, /Known problems:\n {2}tls-certificate-name/);
  t.regex(runFilter(['--help']).stdout, /logtype doctor \[options\] \[FILE \.\.\.\]/);
});

test('summary of input with no entry says why, not an empty table: empty, not logs (a JSON array of real entries), all left out', (t) => {
  const real = fs.readFileSync(path.join(REPO, 'test/fixtures/real/kubectl-logs-enterprise-agent.log'), 'utf8');
  const array = `${JSON.stringify(real.split('\n').filter(Boolean).map((line) => JSON.parse(line) as unknown), null, 2)}\n`;
  for (const [input, args, why] of [
    ['', [], 'none: the input was empty'],
    [array, [], "none: no line read was a log entry: it starts as JSON printed over several lines (a saved search result, an array): give logtype one document a line, as jq -c writes them: jq -c '.hits.hits[]' FILE | logtype (an Elasticsearch or OpenSearch search), jq -c '.[]' FILE | logtype (an array)"],
    ['plain text, no log\n', [], 'none: no line read was a log entry or a log line logtype knows (logtype --keep-other -o raw shows it)'],
    [real, ['-t', 'mongodb'], 'none: the selection left out every entry read'],
  ] as const) {
    const result = runFilter(['summary', '--color', 'never', ...args], input);
    t.is(result.status, 0, result.stderr);
    t.true(result.stdout.includes(`\nLog types\n  ${why}\n`), result.stdout);
    t.false(result.stdout.includes('type  entries'), 'no table without rows');
  }
});

// From a CLI trial: an Elasticsearch search saved as it was shown (pretty-printed) gave only
// "not one is an entry", with no word of what it was or how to read it.
test('no entry read: a search result or array, pretty-printed or as one document, is named with the jq that gives logtype its entries, in the filter and summary', (t) => {
  const hit = { _index: 'logs', _id: 'a', _source: { logType: 'mongodb', contents: '{"t":{"$date":"2026-11-22T10:00:00.000+00:00"},"s":"I",  "c":"NETWORK",  "id":22943,   "ctx":"listener","msg":"Connection accepted","attr":{"remote":"10.0.0.1:5000"}}' } };
  const response = { took: 5, timed_out: false, hits: { total: { value: 1, relation: 'eq' }, hits: [hit] } };
  const pretty = `${JSON.stringify(response, null, 2)}\n`;
  const compact = `${JSON.stringify(response)}\n`;
  t.regex(runFilter(['-o', 'raw'], pretty).stderr, /^logtype: no entry in the \d+ lines read: it starts as JSON printed over several lines .*jq -c '\.hits\.hits\[\]' FILE \| logtype/);
  t.regex(runFilter(['-o', 'raw'], compact).stderr, /^logtype: no entry in the 1 line read: it is an Elasticsearch or OpenSearch search response/);
  t.regex(runFilter(['summary', '--color', 'never'], pretty).stdout, /\n {2}none: no line read was a log entry: it starts as JSON printed over several lines/);
  t.regex(JSON.parse(runFilter(['summary', '--json'], compact).stdout).lines.notLogs as string, /search response/);
  // What the hint says to run reads the entry.
  t.regex(runFilter(['-o', 'raw'], `${JSON.stringify(hit)}\n`).stdout, /"msg":"Connection accepted"/);
});

// From an incident trial: with failed logins only in the server's log (the audit log is opt-in),
// doctor's fix pointed at an audit filter that showed nothing, and the user and address were nowhere.
test("doctor's fix for failed authentications names a command that shows who and from where in the server's own lines", (t) => {
  const failed = (n: number) =>
    entryLine(
      'mongodb',
      `{"t":{"$date":"2026-11-20T10:0${n}:00.000+00:00"},"s":"I",  "c":"ACCESS",   "id":20249,   "ctx":"conn1${n}","msg":"Authentication failed","attr":{"mechanism":"SCRAM-SHA-256","speculative":false,"principalName":"app","authenticationDatabase":"admin","remote":"10.0.0.7:5123${n}","extraInfo":{},"error":"AuthenticationFailed: SCRAM authentication failed, storedKey mismatch"}}`,
    );
  const input = `${[1, 2, 3].map(failed).join('\n')}\n`;
  const report = JSON.parse(runFilter(['doctor', '--json'], input).stdout) as { problems: { id: string; remedy: string }[] };
  const remedy = report.problems.find((p) => p.id === 'authentication-failed')!.remedy;
  const command = /logtype (-t mongodb -m "authentication failed\|failed to authenticate" -i -o pretty)/.exec(remedy);
  t.truthy(command, remedy);
  const shown = runFilter([...command![1]!.split(/ (?=(?:[^"]*"[^"]*")*[^"]*$)/).map((arg) => arg.replace(/^"|"$/g, '')), '--utc', '--color', 'never'], input);
  t.is(shown.status, 0, shown.stderr);
  t.is(shown.stdout.split('\n').filter((l) => l.includes('Authentication failed')).length, 3);
  t.regex(shown.stdout, /app/);
  t.regex(shown.stdout, /10\.0\.0\.7/);
});

// From an incident trial: logcli without --forward (and Kibana's default sort) gives lines newest
// first; the reports read them in order and told restarts, shutdowns and states backwards,
// without a word.
test('newest first (the sample pod reversed): summary and doctor say so and how to give the lines oldest first; oldest first they say nothing', (t) => {
  const reversed = `${POD_STREAM.trimEnd().split('\n').reverse().join('\n')}\n`;
  const summary = JSON.parse(runFilter(['summary', '--json'], reversed).stdout) as { newestFirst?: { backward: number; forward: number }; lines: { entries: number } };
  t.truthy(summary.newestFirst);
  t.true(summary.newestFirst!.backward > 10 * summary.newestFirst!.forward);
  const forward = JSON.parse(runFilter(['summary', '--json'], POD_STREAM).stdout) as { newestFirst?: unknown; lines: { entries: number } };
  t.is(forward.newestFirst, undefined);
  t.is(summary.lines.entries, forward.lines.entries, 'the counts stand');
  const text = runFilter(['summary', '--color', 'never'], reversed).stdout;
  t.regex(text, /^order: the input runs newest first \(\d+ of \d+ steps .*logcli query --forward.*tac FILE/m);
  t.notRegex(runFilter(['summary', '--color', 'never'], POD_STREAM).stdout, /^order:/m);
  const doctor = runFilter(['doctor', '--color', 'never'], reversed).stdout;
  t.regex(doctor, /^order: the input runs newest first/m);
  t.notRegex(runFilter(['doctor', '--color', 'never'], POD_STREAM).stdout, /^order:/m);
  const doctorJson = JSON.parse(runFilter(['doctor', '--json'], reversed).stdout) as { newestFirst?: unknown };
  t.truthy(doctorJson.newestFirst);
});
