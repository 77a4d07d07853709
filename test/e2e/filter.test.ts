import test from 'ava';
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { FILTER_BIN, REAL_DATA, SIDECAR_BIN, cleanEnv, tempDir } from '../_helpers/sidecar-process.js';
import { entryLine, runFilter } from '../_helpers/filter-process.js';

const STREAM = [
  entryLine('mongodb', '{"t":{"$date":"2026-11-22T10:00:00.000Z"},"s":"I","msg":"Connection accepted"}'),
  entryLine('automation-agent', '[2026-11-22T10:00:00.100+0000] [.info] All good'),
  'Skipping creating symlinks because this is not Static Containers Architecture',
  entryLine('mongodb-audit', '{"atype":"authenticate","result":18}'),
  entryLine('automation-agent-verbose', '[2026-11-22T10:00:00.200+0000] [.error] Failed to connect'),
  entryLine('mongodb', 'second server line'),
  '{"level":30,"time":"2026-11-22T10:00:01.000Z","logType":"logtype-sidecar","msg":"following file"}',
].join('\n') + '\n';

const selections: { name: string; args: string[]; expected: string[] }[] = [
  { name: 'one type, raw (the default into a pipe)', args: ['-t', 'mongodb'], expected: ['{"t":{"$date":"2026-11-22T10:00:00.000Z"},"s":"I","msg":"Connection accepted"}', 'second server line'] },
  { name: 'a comma list', args: ['-t', 'mongodb-audit,automation-agent'], expected: ['[2026-11-22T10:00:00.100+0000] [.info] All good', '{"atype":"authenticate","result":18}'] },
  { name: 'a glob', args: ['-t', 'automation-agent*'], expected: ['[2026-11-22T10:00:00.100+0000] [.info] All good', '[2026-11-22T10:00:00.200+0000] [.error] Failed to connect'] },
  { name: 'repeated -t', args: ['-t', 'mongodb-audit', '-t', 'logtype-sidecar'], expected: ['{"atype":"authenticate","result":18}', '{"level":30,"time":"2026-11-22T10:00:01.000Z","logType":"logtype-sidecar","msg":"following file"}'] },
  { name: 'exclude', args: ['-x', 'mongodb,automation*,logtype-sidecar'], expected: ['{"atype":"authenticate","result":18}'] },
  { name: 'grep', args: ['-g', 'fail'], expected: [] },
  { name: 'grep -i', args: ['-g', 'fail', '-i'], expected: ['[2026-11-22T10:00:00.200+0000] [.error] Failed to connect'] },
  { name: 'grep -v', args: ['-t', 'mongodb', '-g', 'second', '-v'], expected: ['{"t":{"$date":"2026-11-22T10:00:00.000Z"},"s":"I","msg":"Connection accepted"}'] },
  { name: 'json: an audit event as its object', args: ['-t', 'mongodb-audit', '-o', 'json'], expected: ['{"atype":"authenticate","result":18}'] },
  {
    name: 'json: server objects, other types as entries',
    args: ['-t', 'mongodb,automation-agent', '-o', 'json'],
    expected: [
      '{"t":{"$date":"2026-11-22T10:00:00.000Z"},"s":"I","msg":"Connection accepted"}',
      entryLine('automation-agent', '[2026-11-22T10:00:00.100+0000] [.info] All good'),
      entryLine('mongodb', 'second server line'),
    ],
  },
  { name: 'entry: the entry lines as they came', args: ['-t', 'mongodb-audit', '-o', 'entry'], expected: [entryLine('mongodb-audit', '{"atype":"authenticate","result":18}')] },
  {
    name: 'keep other lines',
    args: ['-t', 'mongodb-audit', '--keep-other'],
    expected: ['Skipping creating symlinks because this is not Static Containers Architecture', '{"atype":"authenticate","result":18}'],
  },
];

for (const { name, args, expected } of selections) {
  test(`select: ${name}`, (t) => {
    const result = runFilter(args, STREAM);
    t.is(result.status, 0, result.stderr);
    t.deepEqual(result.stdout.split('\n').slice(0, -1), expected);
  });
}

test('pretty: badges, other lines dimmed, no colour when asked for none', (t) => {
  const result = runFilter(['-o', 'pretty', '--color', 'never', '--utc'], STREAM);
  const lines = result.stdout.split('\n');
  t.is(lines[0], 'mongodb       2026-11-22 10:00:00.000Z INFO  Connection accepted');
  t.is(lines[2], 'Skipping creating symlinks because this is not Static Containers Architecture');
  t.is(lines[3], 'audit         WARN  authenticate unauthenticated → authentication failed');
  t.false(result.stdout.includes('\u001b'));
});

test('pretty with colour: FORCE_COLOR turns it on, NO_COLOR off', (t) => {
  t.true(runFilter(['-o', 'pretty'], STREAM, { FORCE_COLOR: '1' }).stdout.includes('\u001b[32mmongodb'));
  t.false(runFilter(['-o', 'pretty'], STREAM, { NO_COLOR: '1', FORCE_COLOR: '1' }).stdout.includes('\u001b['));
});

test('kubectl --prefix --timestamps: prefixes removed, kept with --keep-prefix, shown in pretty', (t) => {
  const input = `[pod/db-0/agent] 2026-11-22T10:00:00.123456789Z ${entryLine('mongodb', 'x')}\n`;
  t.is(runFilter(['-o', 'entry'], input).stdout, `${entryLine('mongodb', 'x')}\n`);
  t.is(runFilter(['-o', 'entry', '--keep-prefix'], input).stdout, input);
  t.is(runFilter(['-o', 'pretty', '--utc', '--color', 'never'], input).stdout, 'pod/db-0/agent mongodb       2026-11-22 10:00:00.123Z x\n');
});

test('split lines are joined, per type, across other types between the pieces', (t) => {
  const input = [
    entryLine('mongodb', 'abc', true),
    entryLine('automation-agent', 'between'),
    entryLine('mongodb', 'def', true),
    entryLine('mongodb', 'ghi'),
  ].join('\n') + '\n';
  t.is(runFilter(['-t', 'mongodb'], input).stdout, 'abcdefghi\n');
  t.is(runFilter(['-t', 'mongodb', '-o', 'entry'], input).stdout, `${entryLine('mongodb', 'abcdefghi')}\n`);
});

test('--summary: counts per type and other lines, on stderr', (t) => {
  const result = runFilter(['--summary', '-t', 'mongodb'], STREAM);
  t.regex(result.stderr, /logtype: 6 entries read, 2 written, 1 other line\n/);
  t.regex(result.stderr, /mongodb +2\n/);
  t.regex(result.stderr, /logtype-sidecar +1\n/);
});

test('--strict: other lines make the exit 1, with the count', (t) => {
  const result = runFilter(['--strict'], STREAM);
  t.is(result.status, 1);
  t.is(result.stderr, 'logtype: 1 line was not an entry (--strict)\n');
  t.is(runFilter(['--strict'], `${entryLine('a', 'b')}\n`).status, 0);
});

test('files, gzip files and - for stdin, in order', (t) => {
  const dir = tempDir('filter-files');
  fs.writeFileSync(path.join(dir, 'a.jsonl'), `${entryLine('mongodb', 'from a')}\n`);
  fs.writeFileSync(path.join(dir, 'b.jsonl.gz'), gzipSync(`${entryLine('mongodb', 'from gzip')}\n`));
  fs.writeFileSync(path.join(dir, 'c.log'), gzipSync(`${entryLine('mongodb', 'gzip whatever the name')}\n`));
  const result = runFilter([path.join(dir, 'a.jsonl'), path.join(dir, 'b.jsonl.gz'), '-', path.join(dir, 'c.log')], `${entryLine('mongodb', 'from stdin')}\n`);
  t.is(result.stdout, 'from a\nfrom gzip\nfrom stdin\ngzip whatever the name\n');
});

test('--as TYPE reads a raw log file, gzip too (a real rotated server log)', (t) => {
  const file = path.join(REAL_DATA, 'mongod-replica-rs1.log.gz');
  const result = runFilter(['--as', 'mongodb', '-t', 'mongodb', '-g', '"Slow query"', '--summary', file]);
  t.is(result.status, 0);
  t.regex(result.stderr, /7757 entries read/);
  // The oracle: the file's lines that hold the text, found apart from logtype.
  const expected = gunzipSync(fs.readFileSync(file)).toString('utf8').split('\n').filter((line) => line.includes('"Slow query"'));
  t.is(expected.length, 6576);
  t.true(expected.every((line) => (JSON.parse(line) as { msg: string }).msg === 'Slow query'));
  t.is(result.stdout, `${expected.join('\n')}\n`);
});

test('the sidecar piped into the filter: a round trip of every real sample line', (t) => {
  const dir = tempDir('roundtrip');
  const text = fs.readFileSync(path.join(REAL_DATA, 'mongod-4.2-text.log'));
  fs.writeFileSync(path.join(dir, 'mongodb.log'), text);
  const result = spawnSync('bash', ['-c', `"${process.execPath}" "${SIDECAR_BIN}" --once --log-dir "${dir}" 2>/dev/null | "${process.execPath}" "${FILTER_BIN}" -t mongodb`], {
    env: cleanEnv(),
    maxBuffer: 1 << 28,
  });
  t.is(result.status, 0);
  t.deepEqual(result.stdout, text);
});

const usage: { name: string; args: string[]; says: RegExp }[] = [
  { name: 'an unknown flag', args: ['--bogus'], says: /Unknown option '--bogus'/ },
  { name: 'a bad output mode', args: ['-o', 'yaml'], says: /--output takes raw, json, entry, pretty, not "yaml"/ },
  { name: 'a bad colour mode', args: ['--color', 'sometimes'], says: /--color takes auto, always, never, not "sometimes"/ },
  { name: 'a flag without its value', args: ['-t'], says: /Option '-t, --type <value>' argument missing/ },
  { name: 'a bad regular expression', args: ['-g', '('], says: /--grep: Invalid regular expression/ },
  { name: '-v without -g', args: ['-v'], says: /--invert-grep needs --grep/ },
];
for (const { name, args, says } of usage) {
  test(`usage error, ${name}: one line, exit 2`, (t) => {
    const result = runFilter(args);
    t.is(result.status, 2);
    t.regex(result.stderr, says);
    t.is(result.stderr.trim().split('\n').length, 1);
  });
}

test('--help teaches with examples', (t) => {
  const result = runFilter(['--help']);
  t.is(result.status, 0);
  t.regex(result.stdout, /Examples:/);
  t.regex(result.stdout, /kubectl logs POD \| logtype -t mongodb/);
});

test('| head -1: EPIPE is a quiet exit 0', (t) => {
  const big = `${entryLine('mongodb', 'x'.repeat(200))}\n`.repeat(200_000);
  const dir = tempDir('filter-epipe');
  fs.writeFileSync(path.join(dir, 'in'), big);
  const result = spawnSync('bash', ['-c', `"${process.execPath}" "${FILTER_BIN}" "${dir}/in" 2>"${dir}/err" | head -1 >/dev/null; echo "\${PIPESTATUS[0]}"`], {
    encoding: 'utf8',
    env: cleanEnv(),
  });
  t.is(result.stdout.trim(), '0');
  t.is(fs.readFileSync(`${dir}/err`, 'utf8'), '');
});

test('on a terminal, a crafted line cannot write control sequences (raw, json, entry and pretty)', (t) => {
  const crafted = `${entryLine('mongodb', 'evil \u001b[2J\u001b]0;pwned\u0007 \u009b31m \u202e end')}\n`;
  const dir = tempDir('tty');
  fs.writeFileSync(path.join(dir, 'in'), crafted);
  for (const mode of ['raw', 'json', 'entry', 'pretty']) {
    // `script` gives the command a real terminal as stdout.
    const result = spawnSync('script', ['-qec', `"${process.execPath}" "${FILTER_BIN}" -o ${mode} --color never "${dir}/in"`, '/dev/null'], {
      encoding: 'utf8',
      env: cleanEnv(),
    });
    t.is(result.status, 0, mode);
    const shown = result.stdout.replace(/\r\n/g, '\n');
    t.false(/[\u001b\u0007\u009b\u202e]/.test(shown), `${mode}: ${JSON.stringify(shown)}`);
    // Raw and pretty show ESC as \e; JSON already escapes it as \u001b.
    t.true(shown.includes(mode === 'json' || mode === 'entry' ? '\\u001b[2J' : '\\e[2J'), mode);
  }
});

/** Pretty's level words, and its time with --utc, spelled out apart from the renderer. */
const PRETTY_LEVELS: Record<string, string> = { F: 'FATAL', E: 'ERROR', W: 'WARN ', I: 'INFO ', D: 'DEBUG', fatal: 'FATAL', error: 'ERROR', warn: 'WARN ', info: 'INFO ', debug: 'DEBUG' };
const prettyTime = (ms: number): string => new Date(ms).toISOString().replace('T', ' ');
/** The operations the server's text log (before 4.4) ends with a duration: shown as slow operations. */
const TEXT_OPERATION = /^(?:command|query|update|remove|insert|getmore|killcursors|delete|write) (\S+) .*?(\d+)ms$/;

/**
 * What pretty must show of a real line, read apart from logtype (JSON.parse, patterns of each
 * layout): the whole line up to its message, and the message. Attributes may follow as key=value.
 */
function prettyOracle(file: string, line: string): { head: string; message: string } {
  if (file.startsWith('mongod-replica')) {
    const json = JSON.parse(line) as { t: { $date: string }; s: string; c: string; ctx: string; msg: string; attr?: Record<string, unknown> };
    const attr = json.attr ?? {};
    const slow = typeof attr['durationMillis'] === 'number' ? [`${attr['durationMillis']}ms`, attr['ns'], attr['planSummary']].filter((part) => typeof part === 'string').join(' ') + ' ' : '';
    return { head: `mongodb       ${prettyTime(Date.parse(json.t.$date))} ${PRETTY_LEVELS[json.s[0]!]} ${json.c} [${json.ctx}] ${slow}`, message: json.msg };
  }
  if (file.startsWith('mongod-4')) {
    const [, time, hours, minutes, severity, component, context, message] = /^(\S+?)([+-]\d\d)(\d\d) ([FEWID])\d? +(\S+) +\[([^\]]*)\] (.*)$/.exec(line)!;
    const operation = TEXT_OPERATION.exec(message!);
    const plan = / planSummary: ([A-Z_]+(?: \{[^}]*\})?)/.exec(message!)?.[1];
    // A slow transaction and an applied oplog entry (4.0) lead with their duration too; they name no namespace.
    const transaction = /^(?:transaction parameters:.*?|applied op: \w+ .*?took )(\d+)ms$/.exec(message!);
    const slow = operation ? `${operation[2]}ms ${operation[1]} ${plan ? `${plan} ` : ''}` : transaction ? `${transaction[1]}ms ` : '';
    return { head: `mongodb       ${prettyTime(Date.parse(`${time}${hours}:${minutes}`))} ${PRETTY_LEVELS[severity!]} ${component} [${context}] ${slow}`, message: message! };
  }
  if (file.startsWith('agent-community')) {
    const [, time, level, source, process, message] = /^\[(\S+)\] \[\.(\w+)\] \[(\S+)\] (?:<([^>]+)> )?(?:\[[\d:.]+\] )?(.*)$/.exec(line)!;
    return { head: `agent         ${prettyTime(Date.parse(time!.replace(/(\d\d)(\d\d)$/, '$1:$2')))} ${PRETTY_LEVELS[level!]} ${source} ${process ? `[${process}] ` : ''}`, message: message! };
  }
  // The agent's logger failing, on stderr: no time, no level of its own; shown whole, as an error.
  return { head: 'agent-stderr  ERROR ', message: line };
}

test('pretty: every real sample is rendered, one line out for every line in, each showing its own time, level, source and message', (t) => {
  const samples: [string, string][] = [
    ['mongod-replica-rs1.log.gz', 'mongodb'],
    ['mongod-replica-rs2.log.gz', 'mongodb'],
    ['mongod-4.2-text.log', 'mongodb'],
    ['mongod-4.0-text-slow-transactions.log', 'mongodb'],
    ['agent-community-operator.log', 'automation-agent'],
    ['agent-stderr-disk-full.log', 'automation-agent-stderr'],
  ];
  for (const [file, type] of samples) {
    const result = runFilter(['--as', type, '-o', 'pretty', '--color', 'never', '--utc', '--summary', path.join(REAL_DATA, file)]);
    t.is(result.status, 0, file);
    const raw = fs.readFileSync(path.join(REAL_DATA, file));
    const lines = (file.endsWith('.gz') ? gunzipSync(raw) : raw).toString('utf8').split('\n').slice(0, -1);
    t.regex(result.stderr, new RegExp(`^logtype: ${lines.length} entr(?:y|ies) read`, 'm'), file);
    const shown = result.stdout.split('\n').slice(0, -1);
    t.is(shown.length, lines.length, file);
    const wrong: string[] = [];
    for (const [i, line] of lines.entries()) {
      const { head, message } = prettyOracle(file, line);
      const out = shown[i] ?? '';
      // The message whole (a text line's own figures may be shown as key=value after it).
      if (!out.startsWith(head) || !out.slice(head.length).startsWith(message.split(' planSummary:')[0]!)) wrong.push(`${file}:${i + 1}: ${JSON.stringify(out.slice(0, 200))} against ${JSON.stringify((head + message).slice(0, 200))}`);
    }
    t.deepEqual(wrong.slice(0, 3), [], `${wrong.length} of ${lines.length} lines`);
  }
  // kubectl logs of a pod (entries, the old agent time style, banners): each line as it must read.
  const kubectl = runFilter(['-o', 'pretty', '--color', 'never', '--utc', path.join(REAL_DATA, 'kubectl-logs-enterprise-agent.log')]);
  t.deepEqual(kubectl.stdout.split('\n'), [
    'agent-verbose 2019-09-10 04:07:50.537Z INFO  main/components/agent.go:NewAgent:110 Constructing new agent object with desiredClusterConfigPath=https://cloud.mongodb.com/agents/api/automation/conf/v1/<org-id>?ah=mongod-0.mongod-svc.mongod-debug.svc.cluster.local&ahs=mongod-0&av=10.3.3.5885&aos=linux&aa=x86_64&ab=64&at=1568088470537',
    'agent-verbose 2019-09-10 04:07:50.537Z INFO  cm/mongosqld/custodian.go:NewCustodian:137 [mongosqld custodian] Started',
    'agent-verbose 2019-09-10 04:07:50.537Z INFO  cm/mongot/maintainer.go:NewEmptyMaintainer:84 Started',
    'agent-verbose 2019-09-10 04:07:50.537Z INFO  cm/mmssettings/mmssettings.go:New:68 Start MMS Settings gatherer',
    'agent-verbose 2019-09-10 04:07:51.398Z INFO  GitCommitId = 8df36b2fdbe7d2ea98fdc1850ba76d9362cdf2cc',
    'agent-verbose 2019-09-10 04:07:51.398Z INFO  AutomationVersion = 10.3.3.5885',
    '',
  ]);
});

test('pretty: a server line reads as time, level, component, context, message, key=value', (t) => {
  const line = '{"t":{"$date":"2024-03-18T10:49:07.741-04:00"},"s":"W",  "c":"CONTROL",  "id":22184,   "ctx":"initandlisten","msg":"Soft rlimits too low","attr":{"currentValue":4096}}';
  const result = runFilter(['-o', 'pretty', '--color', 'never', '--utc'], `${entryLine('mongodb', line)}\n`);
  t.is(result.stdout, 'mongodb       2024-03-18 14:49:07.741Z WARN  CONTROL [initandlisten] Soft rlimits too low currentValue=4096\n');
});

test('pretty on a terminal: control sequences inside a server line\'s JSON are shown escaped', (t) => {
  const server = '{"t":{"$date":"2026-11-22T10:00:00Z"},"s":"I","c":"NETWORK","id":1,"ctx":"conn1","msg":"evil \\u001b[2J\\u001b]0;pwned\\u0007","attr":{"k\\u001b":"v\\u009b"}}';
  const dir = tempDir('tty-record');
  fs.writeFileSync(path.join(dir, 'in'), `${entryLine('mongodb', server)}\n`);
  const result = spawnSync('script', ['-qec', `"${process.execPath}" "${FILTER_BIN}" -o pretty --color never "${dir}/in"`, '/dev/null'], { encoding: 'utf8', env: cleanEnv() });
  t.false(/[\u001b\u0007\u009b]/.test(result.stdout), JSON.stringify(result.stdout));
  t.true(result.stdout.includes('evil \\e[2J\\e]0;pwned\\x07'));
});

// Serial: the file's other tests run the filter with spawnSync, which blocks this worker's event
// loop (the wait below, and the reading of the child's output) while they run: under a full
// suite, the first entry was read only after the 10 s wait. A failure leaves no child behind.
test.serial('stdin as a pipe: each entry is written as its line arrives, not at the end', async (t) => {
  const child = spawn(process.execPath, [FILTER_BIN, '-t', 'mongodb'], { env: cleanEnv(), stdio: ['pipe', 'pipe', 'pipe'] });
  t.teardown(() => child.kill('SIGKILL'));
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (text: string) => (out += text));
  child.stdin.write(`${entryLine('mongodb', 'first')}\n`);
  const deadline = Date.now() + 10_000;
  while (!out.includes('first') && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  t.is(out, 'first\n', 'the first entry came out while the pipe stayed open');
  child.stdin.end(`${entryLine('mongodb', 'second')}\n`);
  const [code] = (await once(child, 'exit')) as [number];
  t.is(code, 0);
  t.is(out, 'first\nsecond\n');
});

test('stdin as a pipe: gzip is read through gunzip, and a large stream as a file is', (t) => {
  const dir = tempDir('pipe');
  const lines = Array.from({ length: 20_000 }, (_, i) => entryLine(i % 3 === 0 ? 'mongodb' : 'automation-agent', `line ${i} "quoted" \\ ${'x'.repeat(i % 200)}`));
  const file = path.join(dir, 'big.jsonl');
  fs.writeFileSync(file, `${lines.join('\n')}\n`);
  fs.writeFileSync(`${file}.gz`, gzipSync(fs.readFileSync(file)));
  // The oracle: each mongodb entry's contents, read by JSON.parse.
  const expected = lines
    .map((line) => JSON.parse(line) as { logType: string; contents: string })
    .filter((entry) => entry.logType === 'mongodb')
    .map((entry) => `${entry.contents}\n`)
    .join('');
  const fromFile = runFilter(['-t', 'mongodb', file]).stdout;
  t.is(fromFile, expected);
  for (const source of [file, `${file}.gz`]) {
    // cat makes stdin a pipe, as kubectl logs does.
    const piped = spawnSync('bash', ['-c', `cat "${source}" | "${process.execPath}" "${FILTER_BIN}" -t mongodb`], { env: cleanEnv(), encoding: 'utf8', maxBuffer: 1 << 28 });
    t.is(piped.status, 0, piped.stderr);
    t.true(piped.stdout === expected, source);
  }
});

test('stdin as a pipe left non-blocking by the writer: read as a stream, nothing lost', (t) => {
  const lines = Array.from({ length: 5000 }, (_, i) => entryLine('mongodb', `line ${i}`));
  // The parent makes process.stdin (which sets O_NONBLOCK on the pipe) and hands the pipe on.
  const parent = `process.stdin; process.exitCode = require('node:child_process').spawnSync(process.execPath, [${JSON.stringify(FILTER_BIN)}, '-t', 'mongodb'], { stdio: 'inherit' }).status;`;
  const result = spawnSync('bash', ['-c', `{ sleep 0.3; cat; } | "${process.execPath}" -e "${parent.replaceAll('"', '\\"')}"`], {
    env: cleanEnv(),
    input: `${lines.join('\n')}\n`,
    encoding: 'utf8',
    maxBuffer: 1 << 26,
  });
  t.is(result.status, 0, result.stderr);
  t.is(result.stdout, Array.from({ length: 5000 }, (_, i) => `line ${i}\n`).join(''));
});
