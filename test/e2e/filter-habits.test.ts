/**
 * The filter as grep, jq, kubectl and stern users expect it (issue #20): each row spawns the
 * real `logtype` on real input and checks its exact output, stderr and exit status.
 */
import test from 'ava';
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import path from 'node:path';
import { FILTER_BIN, REAL_DATA, REPO, cleanEnv, tempDir } from '../_helpers/sidecar-process.js';
import { entryLine, runFilter } from '../_helpers/filter-process.js';
import { GREP, testWithTool } from '../_helpers/system-tool.js';
import { gunzipSync, gzipSync } from 'node:zlib';

const server = (time: string, severity: string, id: number, msg: string, attr?: Record<string, unknown>): string =>
  JSON.stringify({ t: { $date: `2026-11-22T10:00:${time}Z` }, s: severity, c: 'NETWORK', id, ctx: 'conn1', msg, ...(attr ? { attr } : {}) });

/** Entries and lines that are not: another container's output among them. */
const MIX = [
  entryLine('mongodb', server('00.000', 'W', 1, 'm1 warning')),
  'plain other line m1',
  entryLine('mongodb', server('01.000', 'I', 2, 'info line')),
  'another other line',
  entryLine('automation-agent', '[2026-11-22T10:00:02.000+0000] [.error] [x.go:f:1] m1 failed'),
].join('\n') + '\n';

const PRETTY = ['-o', 'pretty', '--color', 'never', '--utc'];
const WARNING_LINE = 'mongodb       2026-11-22 10:00:00.000Z WARN  NETWORK [conn1] m1 warning';
const INFO_LINE = 'mongodb       2026-11-22 10:00:01.000Z INFO  NETWORK [conn1] info line';
const AGENT_LINE = 'agent         2026-11-22 10:00:02.000Z ERROR x.go:f:1 m1 failed';

const lines = (text: string): string[] => text.split('\n').slice(0, -1);

test('-g, -m and -l apply to every line shown, lines that are not entries too, as grep would (pretty and --keep-other)', (t) => {
  const cases: { args: string[]; expected: string[] }[] = [
    // grep matches a line's text: another container's line that says m1 is shown, the other is not.
    { args: ['-g', 'm1', ...PRETTY], expected: [WARNING_LINE, 'plain other line m1', AGENT_LINE] },
    { args: ['-g', 'm1', '--keep-other'], expected: [server('00.000', 'W', 1, 'm1 warning'), 'plain other line m1', '[2026-11-22T10:00:02.000+0000] [.error] [x.go:f:1] m1 failed'] },
    { args: ['-g', 'm1', '-v', '--keep-other'], expected: [server('01.000', 'I', 2, 'info line'), 'another other line'] },
    // A line that is not an entry has no message but its text.
    { args: ['-m', 'm1', ...PRETTY], expected: [WARNING_LINE, 'plain other line m1', AGENT_LINE] },
    { args: ['-m', '^m1', ...PRETTY], expected: [WARNING_LINE, AGENT_LINE] },
    // Nor a level or a time: --level and --since leave it out, as they leave out entries without one.
    { args: ['-l', 'error', ...PRETTY], expected: [AGENT_LINE] },
    { args: ['-l', 'warn', '--keep-other'], expected: [server('00.000', 'W', 1, 'm1 warning'), '[2026-11-22T10:00:02.000+0000] [.error] [x.go:f:1] m1 failed'] },
    { args: ['--since', '2026-11-22T10:00:01Z', ...PRETTY], expected: [INFO_LINE, AGENT_LINE] },
    // Without a selection every line is shown, as before.
    { args: PRETTY, expected: [WARNING_LINE, 'plain other line m1', INFO_LINE, 'another other line', AGENT_LINE] },
  ];
  for (const { args, expected } of cases) {
    const result = runFilter(args, MIX);
    t.is(result.status, 0, args.join(' '));
    t.is(result.stderr, '', args.join(' '));
    t.deepEqual(lines(result.stdout), expected, args.join(' '));
  }
});

const TYPES = [
  entryLine('mongodb-audit', '{"atype":"logout","result":0}'),
  entryLine('automation-agent', 'agent line'),
  entryLine('automation-agent-verbose', 'verbose line'),
  '{"level":30,"time":"2026-11-22T10:00:01.000Z","logType":"logtype-sidecar","msg":"following file"}',
  entryLine('mongodb', 'server line'),
].join('\n') + '\n';

test('-t takes the short names pretty prints: audit, agent, sidecar (and -x too)', (t) => {
  const audit = runFilter(['-t', 'audit'], TYPES);
  t.is(audit.status, 0);
  t.is(audit.stderr, '');
  t.is(audit.stdout, '{"atype":"logout","result":0}\n');
  t.is(runFilter(['-t', 'agent'], TYPES).stdout, 'agent line\n');
  t.is(runFilter(['-t', 'sidecar'], TYPES).stdout, '{"level":30,"time":"2026-11-22T10:00:01.000Z","logType":"logtype-sidecar","msg":"following file"}\n');
  t.is(runFilter(['-t', 'agent*', '-x', 'agent-verbose'], TYPES).stdout, 'agent line\n');
  t.is(runFilter(['-x', 'audit,agent,agent-verbose,sidecar'], TYPES).stdout, 'server line\n');
});

// From an incident trial: `-c REPL,ELECTIO` showed REPL's lines and left out the elections
// without a word; `--atype authentcate` showed nothing, exit 0.
test('-c and --atype with a name the server does not write: one warning line each, with the nearest, the stream still read', (t) => {
  const server = (component: string) => entryLine('mongodb', `{"t":{"$date":"2026-11-22T10:00:00.000+00:00"},"s":"I","c":"${component}","id":1,"ctx":"x","msg":"${component} line"}`);
  const input = `${[server('REPL'), server('ELECTION'), entryLine('mongodb-audit', '{"atype":"authenticate","ts":{"$date":"2026-11-22T10:00:00.000Z"},"result":18}')].join('\n')}\n`;
  const typo = runFilter(['-c', 'REPL,ELECTIO', '-o', 'raw'], input);
  t.is(typo.status, 0);
  t.regex(typo.stdout, /REPL line/);
  t.is(typo.stderr, 'logtype: -c "ELECTIO" names no component the server writes; did you mean "ELECTION"?\n');
  t.is(runFilter(['--atype', 'authentcate'], input).stderr, 'logtype: --atype "authentcate" names no audit event type; did you mean "authenticate"?\n');
  // The setting's name for a component, as systemLog.component.replication spells it: the log's name.
  t.is(runFilter(['summary', '-c', 'replication'], input).stderr, `logtype summary: -c "replication" names no component the server writes; did you mean "REPL" (the log's name for replication)?\n`);
  t.regex(runFilter(['doctor', '-c', 'FOO'], input).stderr, /^logtype doctor: -c "FOO" names no component the server writes \(logtype knows \d+: -, ACCESS, .*; a newer server may write others\)\n$/);
  // Names it knows, in any case, and patterns that match one: no warning.
  for (const args of [['-c', 'repl,Election'], ['-c', 'WT*'], ['--atype', 'drop*,authenticate']]) t.is(runFilter(args, input).stderr, '', args.join(' '));
});

test('-t with a name logtype does not know: one warning line with "did you mean", the stream still read; no entry of it either: a usage error, exit 2 (-q too)', (t) => {
  const typo = runFilter(['-t', 'mongdb'], TYPES);
  t.is(typo.status, 2);
  t.is(typo.stdout, '');
  t.is(typo.stderr, 'logtype: -t "mongdb" names no log type logtype knows; did you mean "mongodb"?\nlogtype: -t "mongdb" matched no entry of the input either (exit 2)\n');
  // From an incident trial: with -q the typo read as "no errors" (exit 1) in a script.
  t.is(runFilter(['-q', '-t', 'mongod', '-l', 'warn'], TYPES).status, 2);
  // Another name of the list selected something: what it selected is the answer.
  t.is(runFilter(['-q', '-t', 'mongod,mongodb'], TYPES).status, 0);
  // From a review: a known type beside it that selected nothing: nothing found (1), no usage error.
  t.is(runFilter(['-q', '-t', 'mongodb,my-type', '-l', 'fatal'], TYPES).status, 1);
  // A type the registry does not know is still matched by its name: the warning says so much and no more.
  const custom = runFilter(['-t', 'my-app'], `${entryLine('my-app', 'mine')}\n`);
  t.is(custom.status, 0);
  t.is(custom.stdout, 'mine\n');
  t.is(custom.stderr, 'logtype: -t "my-app" names no log type logtype knows (logtype --help lists them)\n');
  // summary and doctor take the same selection, and say the same; their report is written, then exit 2.
  const summary = runFilter(['summary', '-t', 'adit'], TYPES);
  t.is(summary.stderr, 'logtype summary: -t "adit" names no log type logtype knows; did you mean "audit"?\nlogtype summary: -t "adit" matched no entry of the input either (exit 2)\n');
  t.is(summary.status, 2);
  t.regex(summary.stdout, /0 selected/);
  const doctor = runFilter(['doctor', '-t', 'adit'], TYPES);
  t.is(doctor.status, 2);
  t.regex(doctor.stderr, /logtype doctor: -t "adit" matched no entry of the input either \(exit 2\)\n$/);
  t.is(runFilter(['summary', '-t', 'adit,mongodb'], TYPES).status, 0);
  t.is(runFilter(['summary', '--json', '-t', 'adit'], TYPES).status, 2);
  // The beginning of names: those names, and a pattern for them all.
  t.is(runFilter(['-t', 'mongo'], TYPES).stderr, 'logtype: -t "mongo" names no log type logtype knows; did you mean one of "mongodb", "mongodb-audit", or "mongo*" for them all?\nlogtype: -t "mongo" matched no entry of the input either (exit 2)\n');
  t.is(runFilter(['-x', 'automation-agent-verb'], TYPES).stderr, 'logtype: -x "automation-agent-verb" names no log type logtype knows; did you mean "automation-agent-verbose"?\n');
});

test('-f in a pipe writes the fields as JSON (pretty on a terminal, the same rule as without -f), not a usage error', (t) => {
  const input = `${entryLine('mongodb', server('00.000', 'W', 1, 'm1 warning'))}\n`;
  const piped = runFilter(['-t', 'mongodb', '-f', 'msg,s'], input);
  t.is(piped.status, 0, piped.stderr);
  t.is(piped.stdout, '{"msg":"m1 warning","s":"W"}\n');
  const dir = tempDir('fields-tty');
  fs.writeFileSync(path.join(dir, 'in'), input);
  // `script` gives the command a real terminal as stdout.
  const onTerminal = spawnSync('script', ['-qec', `"${process.execPath}" "${FILTER_BIN}" -t mongodb -f msg,s --color never --utc "${dir}/in"`, '/dev/null'], {
    encoding: 'utf8',
    env: cleanEnv(),
  });
  t.is(onTerminal.status, 0);
  t.is(onTerminal.stdout.replace(/\r\n/g, '\n'), 'mongodb       2026-11-22 10:00:00.000Z msg=m1 warning s=W\n');
  // Asked for raw output by name, fields are still a contradiction.
  const raw = runFilter(['-o', 'raw', '-f', 'msg'], input);
  t.is(raw.status, 2);
  t.is(raw.stderr, 'logtype: --fields needs -o json or -o pretty (see logtype --help)\n');
});

test('-f with fields no selected line has (an agent line has no "level"): the {} is explained on stderr, once, naming the fields lines go by', (t) => {
  const input = [
    entryLine('automation-agent', '[2026-11-22T10:00:00.000+0000] [.info] [director.go:1] [10:00:00.000] goal state reached'),
    entryLine('mongodb', server('01.000', 'W', 1, 'm1 warning')),
  ].join('\n') + '\n';
  const result = runFilter(['-f', 'msg,level,attr.none', '--utc'], input);
  t.is(result.status, 0, result.stderr);
  t.is(result.stdout, '{"msg":"goal state reached"}\n{"msg":"m1 warning"}\n');
  t.is(
    result.stderr,
    'logtype: --fields: no selected line has "level", "attr.none" (every log\'s lines go by the server\'s names: t, s, c, id, ctx, msg, attr.NAME; audit and operator lines by their own, as -o json shows them)\n',
  );
  // Every field found on some line: nothing said.
  const found = runFilter(['-f', 't,s,msg'], input);
  t.is(found.stderr, '');
  t.is(lines(found.stdout).length, 2);
});

test('-o pretty -f leaves out a field the line does not have, as the JSON projection does (no attr.ns=undefined)', (t) => {
  const input = `${entryLine('mongodb', server('00.000', 'W', 1, 'm1 warning'))}\n`;
  const pretty = runFilter(['-t', 'mongodb', '-o', 'pretty', '--color', 'never', '--utc', '-f', 'msg,attr.ns'], input);
  t.is(pretty.status, 0, pretty.stderr);
  t.is(pretty.stdout, 'mongodb       2026-11-22 10:00:00.000Z msg=m1 warning\n');
  t.is(runFilter(['-t', 'mongodb', '-o', 'json', '-f', 'msg,attr.ns'], input).stdout, '{"msg":"m1 warning"}\n');
});

const SLOW = [500, 80, 2500].map((ms, i) =>
  entryLine('mongodb', JSON.stringify({ t: { $date: `2026-11-22T10:00:0${i}.000Z` }, s: 'I', c: 'COMMAND', id: 51803, ctx: 'conn1', msg: 'Slow query', attr: { ns: 'app.x', durationMillis: ms } })),
).join('\n') + '\n';
const durations = (stdout: string): number[] => lines(stdout).map((line) => (JSON.parse(line) as { attr: { durationMillis: number } }).attr.durationMillis);

test('--slow takes ms and s units (100ms, 2s), alone before a file its default, and a bad value is a usage error', (t) => {
  const dir = tempDir('slow');
  const file = path.join(dir, 'pod.log');
  fs.writeFileSync(file, SLOW);
  t.deepEqual(durations(runFilter(['--slow', '100ms', file]).stdout), [500, 2500]);
  t.deepEqual(durations(runFilter(['--slow', '2s', file]).stdout), [2500]);
  t.deepEqual(durations(runFilter(['--slow=0.5s', file]).stdout), [500, 2500]);
  t.deepEqual(durations(runFilter(['--slow', '600', file]).stdout), [2500]);
  t.deepEqual(durations(runFilter(['--slow', file]).stdout), [500, 2500]);
  const bad = runFilter(['--slow', '100x', file]);
  t.is(bad.status, 2);
  t.is(bad.stdout, '');
  t.is(bad.stderr, 'logtype: --slow takes milliseconds (500) or a duration in ms or s (500ms, 2s), not "100x" (see logtype --help)\n');
  const negative = runFilter(['--slow', '-1', file]);
  t.is(negative.status, 2);
  t.is(negative.stderr, 'logtype: --slow must be at least 0 (see logtype --help)\n');
});

test('-l WARN, -l W, -l warning: names in any case and the server\'s letters', (t) => {
  const input = [
    entryLine('mongodb', server('00.000', 'W', 1, 'a warning')),
    entryLine('mongodb', server('01.000', 'I', 2, 'an info')),
    entryLine('mongodb', server('02.000', 'E', 3, 'an error')),
    entryLine('mongodb', server('03.000', 'D2', 4, 'a debug line')),
  ].join('\n') + '\n';
  const messages = (args: string[]): string[] => lines(runFilter(['-t', 'mongodb', ...args], input).stdout).map((line) => (JSON.parse(line) as { msg: string }).msg);
  for (const level of ['WARN', 'W', 'warning', 'Warn', 'w']) t.deepEqual(messages(['-l', level]), ['a warning', 'an error'], level);
  t.deepEqual(messages(['-l', 'E']), ['an error']);
  t.deepEqual(messages(['-l', 'I']), ['a warning', 'an info', 'an error']);
  // A debug depth keeps no deeper lines: D2 is more verbose than D1.
  t.deepEqual(messages(['-l', 'D1']), ['a warning', 'an info', 'an error']);
  t.deepEqual(messages(['-l', 'd2']), ['a warning', 'an info', 'an error', 'a debug line']);
  t.deepEqual(messages(['-l', 'debug']), ['a warning', 'an info', 'an error', 'a debug line']);
  const bad = runFilter(['-l', 'loud'], input);
  t.is(bad.status, 2);
  t.is(bad.stderr, 'logtype: --level takes fatal, error, warn, info, debug, D1, D2, D3, D4, D5, not "loud" (see logtype --help)\n');
});

test('stern --timestamps: `POD CONTAINER TIME {entry}` is an entry, its time used for --since and pretty', (t) => {
  const input = [
    `my-rs-0 db 2026-11-22T10:00:00.123456789Z ${entryLine('automation-agent', 'no time of its own')}`,
    `my-rs-1 db 2026-11-22T10:00:05.000000000Z ${entryLine('automation-agent', 'later')}`,
    `\u001b[32mmy-rs-0\u001b[0m \u001b[36mdb\u001b[0m 2026-11-22T10:00:09.000000000Z ${entryLine('mongodb', 'coloured')}`,
  ].join('\n') + '\n';
  const result = runFilter([...PRETTY, '--strict'], input);
  t.is(result.status, 0, result.stderr);
  t.deepEqual(lines(result.stdout), [
    'my-rs-0 db agent         2026-11-22 10:00:00.123Z no time of its own',
    'my-rs-1 db agent         2026-11-22 10:00:05.000Z later',
    'my-rs-0 db mongodb       2026-11-22 10:00:09.000Z coloured',
  ]);
  t.is(runFilter(['--since', '2026-11-22T10:00:04Z', '-t', 'agent'], input).stdout, 'later\n');
  t.is(runFilter(['-o', 'entry', '--keep-prefix', '-t', 'agent', '-g', 'later'], input).stdout, `my-rs-1 db 2026-11-22T10:00:05.000000000Z ${entryLine('automation-agent', 'later')}\n`);
});

test('logtype entries.jsonl /nonexistent: what can be read is, what cannot is named where it stands, exit 2 at the end (as grep and cat)', (t) => {
  const dir = tempDir('unreadable');
  const first = path.join(dir, 'a.jsonl');
  const last = path.join(dir, 'b.jsonl');
  fs.writeFileSync(first, `${entryLine('mongodb', 'from a')}\n`);
  fs.writeFileSync(last, `${entryLine('mongodb', 'from b')}\n`);
  const result = runFilter([first, '/nonexistent', dir, last]);
  t.is(result.status, 2);
  t.is(result.stdout, 'from a\nfrom b\n');
  t.is(result.stderr, `logtype: cannot read /nonexistent: no such file or directory\nlogtype: cannot read ${dir}: is a directory\n`);
  // Only unreadable inputs: nothing written, the same lines, 2.
  const none = runFilter(['/nonexistent']);
  t.is(none.status, 2);
  t.is(none.stdout, '');
  t.is(none.stderr, 'logtype: cannot read /nonexistent: no such file or directory\n');
  // A gzip file cut short fails midway: what it held so far is read, and the next file too.
  const cut = path.join(dir, 'cut.gz');
  fs.writeFileSync(cut, Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03]));
  const midway = runFilter([cut, last]);
  t.is(midway.status, 2);
  t.is(midway.stdout, 'from b\n');
  t.is(midway.stderr, `logtype: read ${cut} up to where its gzip data ends early (the file was cut short)\n`);
  // -q: an answer found is 0, as grep -q says even after an error.
  t.is(runFilter(['-q', '-g', 'from', '/nonexistent', first]).status, 0);
  t.is(runFilter(['-q', '-g', 'nowhere', '/nonexistent', first]).status, 2);
});

test('logtype summary --html /nonexistent/x.html: a usage error before any input is read', (t) => {
  // stdin is never read: a stream that never ends would be read forever otherwise.
  const result = spawnSync(process.execPath, [FILTER_BIN, 'summary', '--html', '/nonexistent/x.html'], {
    stdio: ['ignore', 'pipe', 'pipe'],
    encoding: 'utf8',
    env: cleanEnv(),
    timeout: 10_000,
  });
  t.is(result.status, 2);
  t.is(result.stdout, '');
  t.is(result.stderr, 'logtype summary: --html /nonexistent/x.html: no directory /nonexistent (see logtype summary --help)\n');
  const dir = tempDir('html');
  const onDirectory = runFilter(['summary', '--html', dir], '');
  t.is(onDirectory.status, 2);
  t.is(onDirectory.stderr, `logtype summary: --html ${dir}: is a directory (see logtype summary --help)\n`);
});

test('logtype summary --html -: the page on stdout instead of the text (with --json, a usage error); a page that cannot be written is named, exit 1, the text whole', (t) => {
  // Run where a file named - would show.
  const dir = tempDir('html-stdout');
  const page = spawnSync(process.execPath, [FILTER_BIN, 'summary', '--html', '-'], { cwd: dir, input: MIX, encoding: 'utf8', env: cleanEnv() });
  t.is(page.status, 0, page.stderr);
  t.true(page.stdout.startsWith('<!doctype html>'), page.stdout.slice(0, 80));
  t.false(page.stdout.includes('logtype summary: 3 entries read'));
  t.deepEqual(fs.readdirSync(dir), []);
  const both = runFilter(['summary', '--html', '-', '--json'], MIX);
  t.is(both.status, 2);
  t.is(both.stderr, 'logtype summary: --html - and --json both write to stdout: give --html a file (--html pod.html) (see logtype summary --help)\n');
  if (fs.existsSync('/dev/full')) {
    const full = runFilter(['summary', '--html', '/dev/full'], MIX);
    t.is(full.status, 1);
    t.regex(full.stdout, /^logtype summary: 3 entries read/m);
    t.is(full.stderr, 'logtype summary: cannot write the page to /dev/full: no space left on device; the summary on stdout is whole\n');
  }
});

test('stdout that cannot be written (a full disk): the command named, and its exit table\'s failure status (doctor 2: its 1 means problems found)', (t) => {
  if (!fs.existsSync('/dev/full')) return t.pass('no /dev/full here');
  const dir = tempDir('dev-full');
  const input = path.join(dir, 'in.jsonl');
  fs.writeFileSync(input, MIX);
  const run = (args: string[]) => spawnSync('bash', ['-c', `"${process.execPath}" "${FILTER_BIN}" ${args.join(' ')} "${input}" > /dev/full`], { encoding: 'utf8', env: cleanEnv() });
  const cases: [args: string[], status: number, prefix: string][] = [
    [['doctor'], 2, 'logtype doctor'],
    [['summary'], 1, 'logtype summary'],
    [['-o', 'raw'], 1, 'logtype'],
  ];
  for (const [args, status, prefix] of cases) {
    const result = run(args);
    t.is(result.status, status, args.join(' '));
    t.regex(result.stderr, new RegExp(`^${prefix}: cannot write: ENOSPC`), args.join(' '));
  }
});

test('logtype sumary: "unknown command \'sumary\'; did you mean \'summary\'?" (a file of that name is a file)', (t) => {
  const typo = runFilter(['sumary']);
  t.is(typo.status, 2);
  t.is(typo.stdout, '');
  t.is(typo.stderr, "logtype: unknown command 'sumary'; did you mean 'summary'? (see logtype --help)\n");
  t.is(runFilter(['doctr']).stderr, "logtype: unknown command 'doctr'; did you mean 'doctor'? (see logtype --help)\n");
  const dir = tempDir('sumary');
  fs.writeFileSync(path.join(dir, 'sumary'), `${entryLine('mongodb', 'a file named sumary')}\n`);
  const file = spawnSync(process.execPath, [FILTER_BIN, 'sumary'], { cwd: dir, encoding: 'utf8', env: cleanEnv() });
  t.is(file.status, 0, file.stderr);
  t.is(file.stdout, 'a file named sumary\n');
  // A word near no command is a file, read or named as one.
  t.is(runFilter(['pod.log']).stderr, 'logtype: cannot read pod.log: no such file or directory\n');
});

test('-e: attributes holding control characters keep their indentation, the characters escaped', (t) => {
  const input = `${entryLine('mongodb', server('00.000', 'I', 1, 'hello', { note: 'a\u001b[31mred\nnext', bidi: 'x\u202ey', c1: '\u0085' }))}\n`;
  const result = runFilter(['-e', ...PRETTY], input);
  t.is(result.status, 0);
  t.is(
    result.stdout,
    [
      'mongodb       2026-11-22 10:00:00.000Z INFO  NETWORK [conn1] hello',
      '    {',
      '      "note": "(its lines below)",',
      '      "bidi": "x\\u{202e}y",',
      '      "c1": "\\x85"',
      '    }',
      // A text of several lines shown as its lines, each escaped.
      '    note:',
      '      a\\e[31mred',
      '      next',
      '',
    ].join('\n'),
  );
});

test('--strict with one odd line says "1 line was not an entry"; with two, "2 lines were not entries"; --summary counts so too', (t) => {
  const one = runFilter(['--strict', '--summary'], `${entryLine('mongodb', 'x')}\nodd\n`);
  t.is(one.status, 1);
  t.is(one.stderr, 'logtype: 1 entry read, 1 written, 1 other line\n  entries read, by type:\n  mongodb          1\nlogtype: 1 line was not an entry (--strict)\n');
  const two = runFilter(['--strict'], 'odd\nodder\n');
  t.is(two.status, 1);
  t.is(two.stderr, 'logtype: 2 lines were not entries (--strict)\n');
});

test('100,000 distinct logType values: the --summary type table is capped ("… N more types"), memory bounded', async (t) => {
  const input = Array.from({ length: 100_000 }, (_, i) => entryLine(`t${i}`, 'x')).join('\n') + `\n${entryLine('t1', 'end')}\n`;
  const child = spawn(process.execPath, [FILTER_BIN, '--summary', '-t', 't1'], { env: cleanEnv(), stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const ended = once(child, 'close');
  child.stdin.write(input);
  // Every line read (its last entry written), stdin still open: the peak memory is the process's now.
  await new Promise<void>((resolve) => {
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (stdout.endsWith('end\n')) resolve();
    });
  });
  const peakKiB = Number(/VmHWM:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1]);
  child.stdin.end();
  const [status] = (await ended) as [number];
  t.is(status, 0, stderr);
  t.is(stdout, 'x\nend\n');
  const [warning, ...out] = stderr.split('\n');
  t.is(warning, 'logtype: -t "t1" names no log type logtype knows (logtype --help lists them)');
  t.is(out[0], 'logtype: 100001 entries read, 2 written, 0 other lines');
  t.is(out[1], '  entries read, by type:');
  // The 30 largest (t1, then the others of one entry each, by name), then the rest, counted.
  t.regex(out[2]!, /^ {2}t1 +2$/);
  t.is(out.length, 2 + 30 + 2 + 1);
  t.regex(out[32]!, /^ {2}… 970 more types +970$/);
  t.regex(out[33]!, /^ {2}… types after the first 1000 +99000$/);
  // Measured 60 MB with the cap, 115 MB before it: as much as a stream of a handful of types takes.
  t.true(peakKiB < 90 * 1024, `${peakKiB} KiB`);
});

/** Two logs interleaved, as kubectl logs gives them; "match" in some lines, and another container's line. */
const CONTEXT = [
  entryLine('mongodb', 's1'),
  entryLine('automation-agent', 'a1'),
  entryLine('mongodb', 's2'),
  entryLine('mongodb', 's3 match'),
  entryLine('automation-agent', 'a2 match'),
  entryLine('mongodb', 's4'),
  entryLine('automation-agent', 'a3'),
  entryLine('mongodb', 's5'),
  entryLine('mongodb', 's6'),
  entryLine('mongodb', 's7 match'),
  entryLine('mongodb', 's8'),
  'another container says match',
].join('\n') + '\n';

test('a command after options or files, or an option of another command: one line saying where it belongs, exit 2, nothing read', (t) => {
  const cases: [string[], string][] = [
    [['-t', 'mongodb', 'summary'], "logtype: 'summary' is a command, not a file: write it first (logtype summary [options] [FILE ...]) (see logtype --help)\n"],
    [['--json'], "logtype: Unknown option '--json': it is an option of logtype summary and logtype doctor (logtype summary --json ...) (see logtype --help)\n"],
    [['summary', '-o', 'json'], "logtype summary: Unknown option '-o': it is an option of logtype itself, not of logtype summary (see logtype summary --help)\n"],
    // summary and doctor say so before looking for the files.
    [['doctor', '-t', 'mongodb', 'summary'], "logtype doctor: 'summary' is a command, not a file: write it first (logtype summary [options] [FILE ...]) (see logtype doctor --help)\n"],
    // After --, a name is a file's.
    [['--', 'summary'], 'logtype: cannot read summary: no such file or directory\n'],
  ];
  for (const [args, stderr] of cases) {
    const run = runFilter(args, MIX);
    t.is(run.status, 2, args.join(' '));
    t.is(run.stdout, '', args.join(' '));
    t.is(run.stderr, stderr);
  }
  // A file named summary is a file.
  const dir = tempDir('summary-file');
  fs.writeFileSync(path.join(dir, 'summary'), `${entryLine('mongodb', 'a file named summary')}\n`);
  const file = spawnSync(process.execPath, [FILTER_BIN, '-t', 'mongodb', 'summary'], { cwd: dir, encoding: 'utf8', env: cleanEnv() });
  t.is(file.status, 0, file.stderr);
  t.is(file.stdout, 'a file named summary\n');
});

test('an xz, bzip2, zstd or lz4 file is named with the command that reads it, not read as lines that are no entries; exit 2', (t) => {
  const dir = path.join(REPO, 'test/fixtures/compressed');
  for (const [file, command] of [['mongodb.log.xz', 'xz -dc'], ['mongodb.log.bz2', 'bzip2 -dc'], ['mongodb.log.zst', 'zstd -dc'], ['mongodb.log.lz4', 'lz4 -dc']] as const) {
    const name = path.join(dir, file);
    const run = runFilter([name]);
    t.is(run.status, 2, file);
    t.is(run.stdout, '', file);
    t.is(run.stderr, `logtype: cannot read ${name}: compressed with ${command.split(' ')[0]}; logtype reads gzip only (${command} ${name} | logtype ...)\n`);
  }
  // From a pipe: the same, the file unnamed; summary says so too, naming what it covers.
  const piped = runFilter([], fs.readFileSync(path.join(dir, 'mongodb.log.xz')));
  t.is(piped.status, 2);
  t.is(piped.stderr, 'logtype: cannot read stdin: compressed with xz; logtype reads gzip only (xz -dc FILE | logtype ...)\n');
  // A pipe whose first read brings fewer bytes than the magic: told once the rest comes.
  const xz = path.join(dir, 'mongodb.log.xz');
  const split = spawnSync('bash', ['-c', `{ head -c 3 "${xz}"; sleep 0.3; tail -c +4 "${xz}"; } | "${process.execPath}" "${FILTER_BIN}"`], { encoding: 'utf8', env: cleanEnv() });
  t.is(split.status, 2);
  t.is(split.stderr, 'logtype: cannot read stdin: compressed with xz; logtype reads gzip only (xz -dc FILE | logtype ...)\n');
  // summary and doctor check their files before reading any: a usage error, as for a missing file.
  for (const command of ['summary', 'doctor']) {
    const name = path.join(dir, 'mongodb.log.bz2');
    const report = runFilter([command, name]);
    t.is(report.status, 2, command);
    t.is(report.stdout, '', command);
    t.is(report.stderr, `logtype ${command}: cannot read ${name}: compressed with bzip2; logtype reads gzip only (bzip2 -dc ${name} | logtype ...) (see logtype ${command} --help)\n`);
  }
});

test('a UTF-16 file (a log saved by a Windows editor) is named with the iconv command that reads it; doctor finds no "no known problem" in it; exit 2', (t) => {
  const dir = tempDir('utf16');
  const text = `${entryLine('mongodb', server('00.000', 'E', 1, 'an error'))}\n`;
  const name = path.join(dir, 'pod.log');
  fs.writeFileSync(name, Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]));
  const run = runFilter([name]);
  t.is(run.status, 2);
  t.is(run.stderr, `logtype: cannot read ${name}: UTF-16 text; logtype reads UTF-8 (iconv -f UTF-16 -t UTF-8 ${name} | logtype ...)\n`);
  for (const command of ['summary', 'doctor']) {
    const report = runFilter([command, name]);
    t.is(report.status, 2, command);
    t.is(report.stdout, '', command);
    t.is(report.stderr, `logtype ${command}: cannot read ${name}: UTF-16 text; logtype reads UTF-8 (iconv -f UTF-16 -t UTF-8 ${name} | logtype ...) (see logtype ${command} --help)\n`);
  }
  // Compressed with gzip too: the command reads it out of the gzip first.
  const gz = path.join(dir, 'pod.log.gz');
  fs.writeFileSync(gz, gzipSync(fs.readFileSync(name)));
  t.is(runFilter([gz]).stderr, `logtype: cannot read ${gz}: UTF-16 text; logtype reads UTF-8 (gzip -dc ${gz} | iconv -f UTF-16 -t UTF-8 | logtype ...)\n`);
  // From a pipe, without a byte order mark.
  const piped = runFilter([], Buffer.from(text, 'utf16le'));
  t.is(piped.status, 2);
  t.is(piped.stderr, 'logtype: cannot read stdin: UTF-16 text; logtype reads UTF-8 (iconv -f UTF-16LE -t UTF-8 FILE | logtype ...)\n');
});

test('-A, -B, -C: entries around each match from its own log (and pod), -- between runs that do not follow on, as grep', (t) => {
  const cases: { args: string[]; expected: string[] }[] = [
    // a1 is the agent's line before a2: between s3 and s4 in the input, it is not the server's context.
    { args: ['-C', '1'], expected: ['s2', 's3 match', 'a1', 'a2 match', 's4', 'a3', '--', 's6', 's7 match', 's8'] },
    { args: ['-B', '2'], expected: ['s1', 's2', 's3 match', 'a1', 'a2 match', '--', 's5', 's6', 's7 match'] },
    { args: ['-A', '1', '-t', 'mongodb'], expected: ['s3 match', 's4', '--', 's7 match', 's8'] },
    // Runs that meet are one run: no -- between them.
    { args: ['-A', '4', '-t', 'mongodb'], expected: ['s3 match', 's4', 's5', 's6', 's7 match', 's8'] },
    // json stays one JSON value a line: no -- in it.
    { args: ['-A', '1', '-t', 'mongodb', '-o', 'entry'], expected: [entryLine('mongodb', 's3 match'), entryLine('mongodb', 's4'), entryLine('mongodb', 's7 match'), entryLine('mongodb', 's8')] },
  ];
  for (const { args, expected } of cases) {
    const result = runFilter(['-g', 'match', ...args], CONTEXT);
    t.is(result.status, 0, args.join(' '));
    t.deepEqual(lines(result.stdout), expected, args.join(' '));
  }
  // --summary's written count has the context entries too (the -- lines are no entries).
  const counted = runFilter(['-g', 'match', '-A', '1', '-t', 'mongodb', '--summary'], CONTEXT);
  t.deepEqual(lines(counted.stdout), ['s3 match', 's4', '--', 's7 match', 's8']);
  t.regex(counted.stderr, /^logtype: \d+ entries read, 4 written \(2 as context\), /);
  // Pretty: the separator dimmed like other lines; another container's line that matches shown as always (-t chooses among entries).
  const pretty = runFilter(['-g', 'match', '-A', '1', '-t', 'mongodb', '-o', 'pretty', '--color', 'never'], CONTEXT);
  t.deepEqual(lines(pretty.stdout), ['mongodb       s3 match', 'mongodb       s4', '--', 'mongodb       s7 match', 'mongodb       s8', 'another container says match']);
  // Context by pod too: the same type from another pod is not context.
  const pods = [
    `[pod/db-0/c] ${entryLine('mongodb', 'db-0 before')}`,
    `[pod/db-1/c] ${entryLine('mongodb', 'db-1 before')}`,
    `[pod/db-0/c] ${entryLine('mongodb', 'db-0 match')}`,
  ].join('\n') + '\n';
  t.deepEqual(lines(runFilter(['-g', 'match', '-B', '1'], pods).stdout), ['db-0 before', 'db-0 match']);
  // From an incident trial: one pod's run, then another's, with no -- between them read as one
  // run in raw output (which names no pod).
  const twoRuns = [
    `[pod/db-0/c] ${entryLine('mongodb', 'db-0 before')}`,
    `[pod/db-0/c] ${entryLine('mongodb', 'db-0 match')}`,
    `[pod/db-1/c] ${entryLine('mongodb', 'db-1 before')}`,
    `[pod/db-1/c] ${entryLine('mongodb', 'db-1 match')}`,
  ].join('\n') + '\n';
  t.deepEqual(lines(runFilter(['-g', 'match', '-B', '1'], twoRuns).stdout), ['db-0 before', 'db-0 match', '--', 'db-1 before', 'db-1 match']);
});

testWithTool(GREP, 'on one log, -A/-B/-C and --max-count write what GNU grep writes, byte for byte (a real server log)', (t, grep) => {
  const dir = tempDir('context-grep');
  const log = path.join(dir, 'mongod.log');
  // The first 3000 lines of a real replica-set member's log: slow queries among them.
  fs.writeFileSync(log, gunzipSync(fs.readFileSync(path.join(REAL_DATA, 'mongod-replica-rs1.log.gz'))).toString('utf8').split('\n').slice(0, 3000).join('\n') + '\n');
  for (const args of [['-B', '2', '-A', '3'], ['-C', '1', '--max-count', '3'], ['-A', '1', '--max-count', '1'], ['-B', '5']]) {
    const grepArgs = args.map((arg) => (arg === '--max-count' ? '-m' : arg));
    const ours = runFilter(['--as', 'mongodb', '-g', '"Slow query"', ...args, log]);
    const theirs = spawnSync(grep, [...grepArgs, '"Slow query"', log], { encoding: 'utf8', maxBuffer: 1 << 28 });
    t.is(ours.status, 0, ours.stderr);
    t.true(theirs.stdout.length > 0);
    t.is(ours.stdout, theirs.stdout, args.join(' '));
  }
});

test('--max-count N: the first N selected entries (and the context owed after the last, as grep -m)', (t) => {
  t.deepEqual(lines(runFilter(['-g', 'match', '--max-count', '2'], CONTEXT).stdout), ['s3 match', 'a2 match']);
  t.deepEqual(lines(runFilter(['-g', 'match', '--max-count', '1', '-A', '2'], CONTEXT).stdout), ['s3 match', 's4', 's5']);
  const none = runFilter(['--max-count', '0'], CONTEXT);
  t.is(none.status, 0);
  t.is(none.stdout, '');
  const bad = runFilter(['--max-count', '-1'], CONTEXT);
  t.is(bad.status, 2);
  t.is(bad.stderr, 'logtype: --max-count must be at least 0 (see logtype --help)\n');
});

test('--max-count counts records, whatever selects them: a Go panic with its trace is one, in raw, json and entry output, with -t, -l or nothing', (t) => {
  const panic = ['panic: runtime error: invalid memory address or nil pointer dereference', '[signal SIGSEGV: segmentation violation code=0x1 addr=0x0 pc=0x8d2f7a]', '', 'goroutine 1 [running]:', 'main.main()', '\t/data/mci/src/main/main.go:42 +0x3a'];
  const input = [...panic, 'panic: a second one', ''].map((contents) => `${JSON.stringify({ logType: 'automation-agent-stderr', contents })}\n`).join('');
  for (const args of [[], ['-t', 'agent-stderr'], ['-l', 'error'], ['-g', '.']]) {
    for (const output of ['raw', 'json', 'entry']) {
      const run = runFilter(['-o', output, '--max-count', '1', ...args], input);
      t.is(run.status, 0, run.stderr);
      const written = run.stdout.split('\n').slice(0, -1);
      t.is(written.length, panic.length, `-o ${output} --max-count 1 ${args.join(' ')}`);
      if (output === 'raw') t.deepEqual(written, panic);
    }
  }
});

test('--max-count and -q stop reading: a stream that stays open ends the command at once, also when the line selected may begin a record (an agent\'s panic, held for its trace)', async (t) => {
  const panic = { logType: 'automation-agent-stderr', contents: 'panic: runtime error: invalid memory address or nil pointer dereference' };
  for (const [args, line, written] of [
    [['-q', '-g', 'match'], entryLine('mongodb', 'a match'), ''],
    [['--max-count', '1', '-g', 'match'], entryLine('mongodb', 'a match'), 'a match\n'],
    [['-q', '-l', 'error'], JSON.stringify(panic), ''],
    [['-q', '-g', 'panic'], JSON.stringify(panic), ''],
    [['--max-count', '1', '-l', 'error', '-o', 'raw'], JSON.stringify(panic), `${panic.contents}\n`],
  ] as const) {
    const child = spawn(process.execPath, [FILTER_BIN, ...args], { env: cleanEnv(), stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    const ended = once(child, 'close');
    // Never ended by the writer: as kubectl logs -f.
    child.stdin.write(`${line}\n`);
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    const [status, signal] = (await ended) as [number | null, NodeJS.Signals | null];
    clearTimeout(timer);
    child.stdin.destroy();
    t.is(signal, null, `${args.join(' ')}: still reading`);
    t.is(status, 0, args.join(' '));
    t.is(stdout, written);
  }
});

test('-q: nothing written; exit 0 when an entry is selected, 1 when none is', (t) => {
  const found = runFilter(['-q', '-g', 'match'], CONTEXT);
  t.is(found.status, 0);
  t.is(found.stdout, '');
  t.is(found.stderr, '');
  const missing = runFilter(['-q', '-l', 'error'], CONTEXT);
  t.is(missing.status, 1);
  t.is(missing.stdout, '');
  t.is(missing.stderr, '');
});

test('--no-color: no colour even when FORCE_COLOR asks for it', (t) => {
  const forced = runFilter(['-o', 'pretty'], CONTEXT, { FORCE_COLOR: '1' });
  t.true(forced.stdout.includes('\u001b['));
  const plain = runFilter(['-o', 'pretty', '--no-color'], CONTEXT, { FORCE_COLOR: '1' });
  t.false(plain.stdout.includes('\u001b['));
  t.is(lines(plain.stdout)[0], 'mongodb       s1');
});

// From an incident trial: `summary --no-color` was an unknown option; summary and doctor took only --color never.
test('--no-color in summary and doctor too: no colour even when FORCE_COLOR asks for it, the same text as --color never', (t) => {
  for (const command of ['summary', 'doctor']) {
    const forced = runFilter([command, '--utc'], CONTEXT, { FORCE_COLOR: '1' });
    t.true(forced.stdout.includes('\u001b['), command);
    const plain = runFilter([command, '--utc', '--no-color'], CONTEXT, { FORCE_COLOR: '1' });
    t.false(plain.stdout.includes('\u001b['), command);
    t.is(plain.stdout, runFilter([command, '--utc', '--color', 'never'], CONTEXT, { FORCE_COLOR: '1' }).stdout, command);
  }
});

test('--help lists every log type of the registry with its short name, and each command its exit statuses', (t) => {
  const help = runFilter(['--help']).stdout;
  const types = /Log types[^\n]*\n((?: {2}\S+ +\S+\n)+)/.exec(help)?.[1];
  t.deepEqual(types?.trim().split('\n').map((line) => line.trim().split(/ +/)), [
    ['automation-agent-verbose', 'agent-verbose'],
    ['automation-agent-stderr', 'agent-stderr'],
    ['automation-agent', 'agent'],
    ['monitoring-agent', 'monitoring'],
    ['backup-agent', 'backup'],
    ['mongodb', 'mongodb'],
    ['mongodb-audit', 'audit'],
    ['agent-launcher-script', 'launcher'],
    ['automation-agent-stdout', 'agent-stdout'],
    ['operator', 'operator'],
    ['versionhook', 'versionhook'],
    ['logtype-sidecar', 'sidecar'],
    ['logtype-pod', 'logtype-pod'],
  ]);
  for (const command of [[], ['summary'], ['doctor'], ['completion']]) {
    const text = runFilter([...command, '--help']).stdout;
    t.regex(text, /\nExit status:\n {2}0 +\S.*\n(?: {2}1 +\S.*\n)? {2}2 +\S.*\n(?: {2}130 {2}\S.*\n)?$/, command.join(' '));
  }
});

test('--since and --until without a zone are read in the zone times are shown in: local (TZ), or UTC with --utc; a time copied from either output selects what it says', (t) => {
  const lines = ['00', '20', '40'].map((minute) => entryLine('mongodb', JSON.stringify({ t: { $date: `2026-11-22T10:${minute}:00.000Z` }, s: 'I', c: 'NETWORK', id: 1, ctx: 'conn1', msg: `at ${minute}` })));
  const input = lines.join('\n') + '\n';
  const berlin = { TZ: 'Europe/Berlin' };
  const shown = (args: string[]): string[] => runFilter(['-o', 'pretty', '--color', 'never', ...args], input, berlin).stdout.trimEnd().split('\n');
  // Berlin is UTC+1 in November: the pretty output shows 11:20 local, 10:20Z with --utc.
  t.regex(shown([])[1]!, /2026-11-22 11:20:00\.000 /);
  t.regex(shown(['--utc'])[1]!, /2026-11-22 10:20:00\.000Z /);
  t.deepEqual(shown(['--since', '2026-11-22 11:20:00', '--until', '2026-11-22 11:20:00']).map((line) => line.slice(-5)), ['at 20']);
  t.deepEqual(shown(['--utc', '--since', '2026-11-22 10:20:00', '--until', '2026-11-22T10:20']).map((line) => line.slice(-5)), ['at 20']);
  // A zone given is the zone, with --utc or not; a date alone is its day in the zone shown
  // (--since from its midnight, --until to its end).
  t.deepEqual(shown(['--since', '2026-11-22T10:20:00Z']).map((line) => line.slice(-5)), ['at 20', 'at 40']);
  t.deepEqual(shown(['--utc', '--since', '2026-11-22T11:20:00+01:00']).map((line) => line.slice(-5)), ['at 20', 'at 40']);
  t.is(shown(['--until', '2026-11-21']).join(''), '');
  t.is(shown(['--until', '2026-11-22']).length, 3);
  t.is(shown(['--utc', '--since', '2026-11-22']).length, 3);
});

// From a CLI trial: a local time in the hour the clocks skip was read as JavaScript reads it
// (02:30 in Berlin's skipped hour as 03:30), so --since left out the lines from 03:00 to 03:30;
// in the hour they repeat, --until kept only its first pass.
test('--since and --until at the changes of a local zone: a skipped time is the skip\'s end, a repeated one --since\'s first pass and --until\'s second; no line left out', (t) => {
  // Europe/Berlin: 2026-03-29 01:00Z the clocks go from 02:00 to 03:00; 2026-10-25 01:00Z from 03:00 back to 02:00.
  const at = (iso: string) => entryLine('mongodb', JSON.stringify({ t: { $date: iso }, s: 'I', c: 'NETWORK', id: 1, ctx: 'conn1', msg: iso }));
  const spring = ['2026-03-29T00:50:00.000Z', '2026-03-29T01:10:00.000Z', '2026-03-29T01:40:00.000Z'];
  const autumn = ['2026-10-25T00:20:00.000Z', '2026-10-25T00:40:00.000Z', '2026-10-25T01:20:00.000Z', '2026-10-25T01:40:00.000Z'];
  const selected = (times: string[], args: string[]): string[] =>
    runFilter(['-o', 'raw', ...args], `${times.map(at).join('\n')}\n`, { TZ: 'Europe/Berlin' }).stdout.trimEnd().split('\n').filter(Boolean).map((line) => (JSON.parse(line) as { msg: string }).msg);
  // 02:30 does not exist: --since keeps 03:10 (01:10Z) on, --until everything before 03:00.
  t.deepEqual(selected(spring, ['--since', '2026-03-29T02:30']), spring.slice(1));
  t.deepEqual(selected(spring, ['--until', '2026-03-29T02:30']), spring.slice(0, 1));
  t.deepEqual(selected(spring, ['--since', '2026-03-29 02:30:00', '--until', '2026-03-29T03:15']), spring.slice(1, 2));
  // 02:30 happens twice (00:30Z and 01:30Z): --since from the first, --until to the second.
  t.deepEqual(selected(autumn, ['--since', '2026-10-25T02:30']), autumn.slice(1));
  t.deepEqual(selected(autumn, ['--until', '2026-10-25T02:30']), autumn.slice(0, 3));
  // Both in the skipped hour: no time between them, said as that (a review), not "swap them?".
  const skipped = runFilter(['--since', '2026-03-29T02:15', '--until', '2026-03-29T02:45'], '', { TZ: 'Europe/Berlin' });
  t.is(skipped.status, 2);
  t.regex(skipped.stderr, /both in the hour the clocks skipped here \(summer time\): no time is between them/);
    // Both: from the minute's first pass to its second, and the hour between them.
  t.deepEqual(selected(autumn, ['--since', '2026-10-25T02:30', '--until', '2026-10-25T02:30']), autumn.slice(1, 3));
});

// From a CLI trial: --since 15m on a file of last week left out every line, and summary and
// doctor said only "the selection left out" every one: when the lines were was nowhere.
test('a time selection that leaves out every entry: summary and doctor say when the entries read were', (t) => {
  const input = ['2026-11-22T09:58:00.000+00:00', '2026-11-22T09:59:00.000+00:00'].map((time) => entryLine('mongodb', `{"t":{"$date":"${time}"},"s":"I","c":"REPL","id":1,"ctx":"x","msg":"m"}`)).join('\n') + '\n';
  const when = /the entries the time bounds looked at run from 2026-11-22 09:58:00\.000Z to 2026-11-22 09:59:00\.000Z/;
  t.regex(runFilter(['summary', '--utc', '--since', '15m'], input).stdout, new RegExp(`none: the selection left out every entry read; ${when.source}`));
  t.regex(runFilter(['doctor', '--utc', '--since', '15m'], input).stdout, new RegExp(`^Nothing looked at: the selection left out all 2 lines read; ${when.source}\\. Widen it`));
});

test('--since after --until: one usage line saying so, exit 2 (not an empty output read as "nothing happened")', (t) => {
  for (const command of [[], ['summary'], ['doctor']]) {
    const run = runFilter([...command, '--since', '2026-11-22T11:00:00Z', '--until', '2026-11-22T10:00:00Z'], `${entryLine('mongodb', 'x')}\n`);
    t.is(run.status, 2, command.join(' '));
    t.is(run.stdout, '');
    t.regex(run.stderr, /^logtype( summary| doctor)?: --since 2026-11-22T11:00:00Z is after --until 2026-11-22T10:00:00Z: no line can be both \(swap them\?\)/);
  }
  t.is(runFilter(['--since', '1h', '--until', '2h'], '').status, 2);
  t.is(runFilter(['--since', '2h', '--until', '1h'], '').status, 0);
});

// From an incident trial: habits of other tools met a bare "Unknown option" or regex error.
test('other tools\' habits are named: -n N is --max-count, (?i) is -i', (t) => {
  t.is(runFilter(['-n', '10']).stderr, "logtype: Unknown option '-n'; did you mean '--max-count'? (see logtype --help)\n");
  t.regex(runFilter(['-g', '(?i)slow']).stderr, /JavaScript has no inline flags; for \(\?i\), give -i/);
});

test('--max-count stops reading mid-chunk: the line cut there is no line of the input (--strict passes, none counted as other)', (t) => {
  // Larger than a read's chunk, every line an entry: reading stops with a line's start in hand.
  const input = Array.from({ length: 40_000 }, (_, i) => entryLine('mongodb', `line ${i} ${'x'.repeat(i % 200)}`)).join('\n') + '\n';
  for (const count of ['1', '2', '1000']) {
    const strict = runFilter(['--strict', '--summary', '--max-count', count], input);
    t.is(strict.status, 0, strict.stderr);
    t.regex(strict.stderr, /, 0 other lines\n/);
    t.notRegex(strict.stderr, /--strict|cut short/);
  }
});

test('a line that starts as JSON but is cut short or broken is said on stderr, not left out in silence', (t) => {
  const whole = entryLine('mongodb', '{"t":{"$date":"2024-03-18T10:55:44.463-04:00"},"s":"I",  "c":"CONTROL",  "id":23138,   "ctx":"SignalHandler","msg":"Shutting down"}');
  const cut = whole.slice(0, 90);
  const raw = runFilter([], `${whole}\n${cut}`);
  t.is(raw.stdout.split('\n').length, 2, 'the whole line only');
  t.regex(raw.stderr, /^logtype: 1 line starts as JSON but is cut short or broken .*left out \(--keep-other writes them\); the first: \{"logType":"mongodb","contents":/m);
  // A server file read bare whose last line was cut while it was written; two of them, after kubectl's prefix.
  const server = '{"t":{"$date":"2024-03-18T10:55:44.463-04:00"},"s":"I",  "c":"CONTROL",  "id":23138,   "ctx":"SignalHandler","msg"';
  t.regex(runFilter(['-o', 'json'], `[pod/db-0/mongodb] ${server}\n[pod/db-1/mongodb] ${server}\n`).stderr, /2 lines start as JSON but are cut short or broken/);
  // Shown, they are not said again; plain lines of other containers and whole JSON objects are no broken lines.
  t.notRegex(runFilter(['--keep-other'], `${cut}\n`).stderr, /cut short/);
  t.notRegex(runFilter(['-o', 'pretty'], `${cut}\n`).stderr, /cut short/);
  t.notRegex(runFilter([], `${whole}\nplain line\n{"other":"json"}\n`).stderr, /cut short/);
  // Another container's JSON over several lines, a Go struct printed with %+v: no cut entries.
  t.notRegex(runFilter([], `${whole}\n{\n  "a": 1\n}\n2026-11-22T10:00:00.000000000Z {\n{Name:foo Size:3}\n{ not json\n`).stderr, /cut short/);
  t.regex(runFilter(['summary'], `${whole}\n${cut}`).stderr, /logtype summary: 1 line starts as JSON but is cut short/);
  t.regex(runFilter(['doctor'], `${whole}\n${cut}`).stderr, /logtype doctor: 1 line starts as JSON but is cut short/);
});

test('--summary is written when the reader goes away (| head), and the exit is still a quiet 0', async (t) => {
  const input = Array.from({ length: 200_000 }, (_, i) => entryLine('mongodb', `line ${i}`)).join('\n') + '\n';
  const file = path.join(tempDir('summary-epipe'), 'in.jsonl');
  fs.writeFileSync(file, input);
  const child = spawn(process.execPath, [FILTER_BIN, '--summary', file], { env: cleanEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  // As head -1 does: the first bytes, then the pipe closed.
  await once(child.stdout, 'data');
  child.stdout.destroy();
  const [status] = (await once(child, 'exit')) as [number | null];
  t.is(status, 0);
  t.regex(stderr, /^logtype: [\d,]+ entries read, [\d,]+ written, 0 other lines\n  entries read, by type:\n  mongodb +[\d,]+\n$/);
});

// From a CLI trial: -f 'a..b' wrote {} for every line, exit 0; jq's `.msg` did the same.
test("-f with an empty part in a path (a..b), or jq's leading dot (.msg): a usage error naming the fix", (t) => {
  const doubled = runFilter(['-f', 'a..b'], `${entryLine('mongodb', 'x')}\n`);
  t.is(doubled.status, 2);
  t.is(doubled.stderr, 'logtype: --fields a..b: a path with an empty part names no field; name each part (-f attr.ns, attr.command.filter) (see logtype --help)\n');
  const jq = runFilter(['-f', 'msg,.attr.ns'], `${entryLine('mongodb', 'x')}\n`);
  t.is(jq.status, 2);
  t.is(jq.stderr, "logtype: --fields .attr.ns: a path starts with its field's name, not jq's dot: -f attr.ns (see logtype --help)\n");
});

test("-f '' or -f ',' names no field: a usage error, not {} for every line", (t) => {
  for (const fields of ['', ',', ' , ']) {
    const result = runFilter(['-f', fields], `${entryLine('mongodb', 'x')}\n`);
    t.is(result.status, 2, fields);
    t.is(result.stdout, '');
    t.is(result.stderr, 'logtype: --fields names no field: give the fields to keep (-f msg,attr.ns) (see logtype --help)\n');
  }
});

// From a field trial: files given one after another ran into each other: -A showed another
// member's first lines as context of the first file's last, and an agent's record at a file's
// end took the next file's first line of no head. grep keeps files apart; so does the filter.
test('several files: context, records and split lines never run from one file into the next', (t) => {
  const dir = tempDir('files-apart');
  const server = (member: string, seconds: number, s: string, msg: string): string => entryLine('mongodb', `{"t":{"$date":"2026-11-22T10:00:0${seconds}.000Z"},"s":"${s}","c":"REPL","id":1,"ctx":"a","msg":"${member}: ${msg}"}`);
  const first = path.join(dir, 'db-0.log');
  const second = path.join(dir, 'db-1.log');
  const agentError = '[2026-11-22T10:00:00.000+0000] [.error] [director/director.go:f:1] [10:00:00.000] db-0 agent: Error validating cluster config:';
  fs.writeFileSync(first, [server('db-0', 1, 'I', 'one'), server('db-0', 2, 'W', 'stepping down'), entryLine('automation-agent', agentError)].join('\n') + '\n');
  fs.writeFileSync(second, [entryLine('automation-agent', '&{builds 0xc00013cdc0} : a line of no head, db-1\'s'), server('db-1', 3, 'I', 'two'), server('db-1', 4, 'I', 'three')].join('\n') + '\n');
  const raw = (args: string[]): string[] => runFilter(['-o', 'raw', ...args, first, second]).stdout.split('\n').filter(Boolean);
  t.deepEqual(raw(['-l', 'warn', '-A', '2', '-t', 'mongodb']).map((line) => (JSON.parse(line) as { msg: string }).msg), ['db-0: stepping down']);
  t.deepEqual(raw(['-l', 'error', '-t', 'automation-agent']), [agentError]);
  // Context before: the second file's first lines have none from the first.
  t.deepEqual(raw(['-g', 'two', '-B', '2', '-t', 'mongodb']).map((line) => (JSON.parse(line) as { msg: string }).msg), ['db-1: two']);
});

// From a field trial: `logtype < dir/` said nothing and exited 0, as if the input were empty.
test('stdin a directory: one line naming it, exit 2, as a FILE that is one', (t) => {
  const dir = tempDir('stdin-dir');
  const fd = fs.openSync(dir, 'r');
  t.teardown(() => fs.closeSync(fd));
  const result = spawnSync(process.execPath, [FILTER_BIN], { stdio: [fd, 'pipe', 'pipe'], encoding: 'utf8', env: cleanEnv() });
  t.is(result.status, 2);
  t.is(result.stdout, '');
  t.regex(result.stderr, /^logtype: cannot read stdin: is a directory\n/);
});

// From a field trial: -g matched only a line that is no entry (the launcher's plain line), and raw
// output left it out as its help says, but said nothing: an empty answer read as "no such line".
test('-g matching only lines that are no entries: raw and json output say they were left out and how to see them; pretty shows them', (t) => {
  const input = `Skipping creating symlinks\n${entryLine('mongodb', 'x')}\n`;
  for (const mode of ['raw', 'json', 'entry']) {
    const run = runFilter(['-o', mode, '-g', 'Skipping'], input);
    t.is(run.stdout, '');
    t.regex(run.stderr, /^logtype: 1 line that is no entry matched --grep and was left out \(--keep-other writes them, -o pretty shows them\)$/m, mode);
  }
  t.is(runFilter(['-o', 'raw', '-g', 'Skipping', '--keep-other'], input).stdout, 'Skipping creating symlinks\n');
  t.notRegex(runFilter(['-o', 'raw', '-g', 'x'], input).stderr, /matched --grep/);
  // -v: the lines that did not match are no lines that matched.
  t.notRegex(runFilter(['-o', 'raw', '-v', '-g', 'zzz'], input).stderr, /matched --grep/);
});

// From a field trial: a record over several lines shown as context (-A/-B) was one line in pretty
// output, its detail after a literal \n; selected, it shows its detail below it.
test('a record over several lines shown as context in pretty output: its lines below it, as when it is selected', (t) => {
  const agent = [
    '[2020-12-04T16:39:07.258-00] [.info] [cm/util/sysdep_unix.go:LockAutomationLockFile:321] [16:39:07.258] Locking automation lock file at /tmp/mongodb-mms-automation.lock',
    '[2020-12-04T16:39:07.259-00] [.error] [cm/config/config.go:ReadClusterConfig:416] [16:39:07.259] Error validating syntax of cluster config : clusterConfig failed to validate:',
    '&{builds 0xc00013cdc0} : Invalid type. Expected: array, given: null',
  ];
  const input = agent.map((line) => entryLine('automation-agent-verbose', line)).join('\n') + '\n';
  const pretty = (args: string[]): string[] => runFilter([...args, '-o', 'pretty', '--color', 'never', '--utc'], input).stdout.split('\n').slice(0, -1);
  const asContext = pretty(['-g', 'Locking automation', '-A', '1']);
  const selected = pretty(['-g', 'Error validating']);
  t.is(asContext.length, 3, asContext.join('\n'));
  t.deepEqual(asContext.slice(1), selected);
  t.false(asContext.some((line) => line.includes('\\n')), asContext.join('\n'));
  t.is(selected[1]!.trim(), agent[2]!);
});
