/**
 * Values a damaged or hostile line may hold that JSON allows: nesting thousands deep, numbers
 * past what a double holds. Each line is read and shown (or counted), the lines after it too,
 * and no report grows without bound.
 */
import test from 'ava';
import { runFilter } from '../_helpers/filter-process.js';

const DEPTH = 20_000;
const deepObject = `${'{"a":'.repeat(DEPTH)}1${'}'.repeat(DEPTH)}`;
const deepArray = `${'['.repeat(DEPTH)}${']'.repeat(DEPTH)}`;
const entry = (logType: string, contents: string): string => JSON.stringify({ logType, contents });
const server = (id: number, msg: string, attr: string, seconds = 39): string =>
  `{"t":{"$date":"2026-11-22T09:58:${seconds}.063Z"},"s":"I","c":"COMMAND","id":${id},"ctx":"conn1","msg":"${msg}","attr":${attr}}`;

const DEEP_INPUT = [
  entry('mongodb', server(51803, 'Slow query', `{"type":"command","durationMillis":500,"ns":"a.b","command":{"find":"b","filter":${deepObject},"sort":${deepObject}},"extra":${deepArray}}`)),
  entry('mongodb', server(51802, 'transaction', `{"durationMillis":700,"parameters":{"readConcern":${deepObject},"lsid":{"id":"${'x'.repeat(5000)}"}}}`, 40)),
  entry('mongodb-audit', `{"atype":"authCheck","ts":{"$date":"2026-11-22T09:58:41.000Z"},"local":{"ip":"10.0.0.1","port":27017},"remote":{"ip":"10.0.0.2","port":5},"users":[],"roles":[],"param":${deepObject},"result":13}`),
  entry('operator', `{"level":"error","ts":"2026-11-22T09:58:42.000Z","caller":"a.go:1","msg":"deep","x":${deepArray}}`),
  entry('mongodb', server(22943, 'Connection accepted', '{"remote":"10.0.0.3:5","connectionId":1,"connectionCount":1}', 43)),
].join('\n');

for (const args of [['-o', 'pretty'], ['-o', 'pretty', '-e'], ['-o', 'pretty', '--color', 'always'], ['-o', 'json'], ['-o', 'json', '-f', 'attr.command,attr.extra,param,x'], ['-o', 'pretty', '-f', 'attr,param,x'], ['--slow', '1'], ['summary'], ['summary', '--json'], ['summary', '--html', '-'], ['doctor']]) {
  test(`values nested ${DEPTH} deep: logtype ${args.join(' ')} reads every line`, (t) => {
    const run = runFilter(args, `${DEEP_INPUT}\n`);
    t.is(run.stderr, '');
    t.true(run.status === 0 || (args[0] === 'doctor' && run.status === 1), `exit ${run.status}`);
    // (Tested, not matched by t.regex: a failure would print megabytes.)
    if (args[0] === 'summary' && args.length === 1) {
      t.true(run.stdout.includes('5 entries read, 5 selected'), 'every entry read');
      // The query's pattern is read as far as it is shown, and cut.
      t.true(/\{a: \{a: \{a: .*…/.test(run.stdout), 'the pattern cut');
    } else if (args[0] === 'summary' && args[1] === '--json') {
      const summary = JSON.parse(run.stdout) as { server: { slowestTransactions: { readConcern: string; lsid: string }[] } };
      const [transaction] = summary.server.slowestTransactions;
      t.true(transaction!.readConcern.length <= 200 && transaction!.lsid.length <= 200, 'parameters cut');
    } else if (args[0] === '--slow') {
      t.is(run.stdout.split('\n').filter(Boolean).length, 2, 'the slow query and the slow transaction');
    } else if (args.includes('-f')) {
      t.is(run.stdout.split('\n').filter(Boolean).length, 5, 'a line for each entry');
    } else if (args[0] === '-o') {
      // The last line, after the deep ones, is there.
      t.true(/Connection accepted|10\.0\.0\.3/.test(run.stdout), 'the line after the deep ones');
    }
  });
}

test('-o json writes a value nested past JSON.stringify\'s reach exactly as the line has it', (t) => {
  const run = runFilter(['-o', 'json', '-f', 'x'], `${DEEP_INPUT}\n`);
  t.is(run.status, 0);
  t.true(run.stdout.includes(`{"x":${deepArray}}`));
});

test('a slow operation whose duration is past a double (1e400) is no slow operation: the page is made, its size bounded', (t) => {
  const input = [
    entry('mongodb', server(51803, 'Slow query', '{"type":"command","durationMillis":1e400,"ns":"a.b"}')),
    entry('mongodb', server(51803, 'Slow query', '{"type":"command","durationMillis":-5,"ns":"a.b"}', 40)),
    entry('mongodb', server(51803, 'Slow query', '{"type":"command","durationMillis":250,"ns":"a.c"}', 41)),
  ].join('\n');
  const text = runFilter(['summary', '--color', 'never'], `${input}\n`);
  t.is(text.status, 0);
  t.notRegex(text.stdout, /Infinity/);
  t.regex(text.stdout, /COLLSCANs: none among the 1 slow operation/);
  const page = runFilter(['summary', '--html', '-'], `${input}\n`);
  t.is(page.status, 0);
  t.is(page.stderr, '');
  t.true(page.stdout.length < 2_000_000, `${page.stdout.length} characters`);
  t.regex(page.stdout, /<\/html>\s*$/);
  t.is(runFilter(['--slow', '1', '-o', 'raw'], `${input}\n`).stdout.split('\n').filter(Boolean).length, 1);
});

test('--expand on a value megabytes wide: cut at MAX_EXPANDED_CHARS with a note, and the next line shown', (t) => {
  const wide = `${'['.repeat(31)}${Array.from({ length: 400_000 }, () => '1').join(',')}${']'.repeat(31)}`;
  const input = `${entry('mongodb', server(22943, 'wide', `{"x":${wide}}`))}\n${entry('mongodb', 'next')}\n`;
  const run = runFilter(['-o', 'pretty', '-e', '--color', 'never'], input);
  t.is(run.status, 0);
  t.true(run.stdout.includes("… (cut: the value's text is longer than 1,048,576 characters)"), 'the cut is said');
  t.true(run.stdout.endsWith('mongodb       next\n'), 'the next line is shown');
  t.true(run.stdout.length < 1_200_000, `${run.stdout.length} characters`);
});

// From an incident trial: one entry whose slow query held a broken escape (`\x` in a key of its
// command, a byte changed in transit) ended summary with `Bad escaped character in JSON`, exit
// 1, no report of the 7,851 good lines before it.
test('a slow operation with a broken escape in its command: summary and doctor report every line, that one too', (t) => {
  const good = Array.from({ length: 20 }, (_, i) => entry('mongodb', server(22943, 'Connection accepted', `{"remote":"10.0.0.${i}:5","connectionId":${i},"connectionCount":${i + 1}}`)));
  // As a store or a pipe damaged it: the entry's literal holds \x, which JSON does not have.
  const broken = '{"logType":"mongodb","contents":"{\\"t\\":{\\"$date\\":\\"2024-03-18T10:49:26.490-04:00\\"},\\"s\\":\\"I\\",\\"c\\":\\"COMMAND\\",\\"id\\":51803,\\"ctx\\":\\"conn1\\",\\"msg\\":\\"Slow query\\",\\"attr\\":{\\"ns\\":\\"a.b\\",\\"command\\":{\\"find\\":\\"b\\",\\"q\\xfig\\":1},\\"durationMillis\\":283}}"}';
  const input = `${[...good, broken].join('\n')}\n`;
  const summary = runFilter(['summary', '--json'], input);
  t.is(summary.status, 0, summary.stderr);
  const report = JSON.parse(summary.stdout) as { lines: { entries: number }; server: { connections: { opened: number }; slowest: { durationMillis: number; ns: string }[] } };
  t.is(report.lines.entries, 21);
  t.is(report.server.connections.opened, 20);
  t.deepEqual(report.server.slowest.map((o) => [o.durationMillis, o.ns]), [[283, 'a.b']]);
  t.is(runFilter(['summary'], input).status, 0);
  const doctor = runFilter(['doctor'], input);
  t.is(doctor.status, 0, doctor.stderr);
});

test('entries that are no valid JSON as they came (a raw control, a bad escape, a cut \\u, two writers\' lines garbled into one) are written anew by -o entry and -o json, and said; valid ones as they came', (t) => {
  const lines = [
    '{"logType":"automation-agent","contents":"[2026-11-22T09:58:39.063+0000] [.info] [a.go:1] [x] bad \\x escape"}',
    '{"logType":"automation-agent","contents":"[2026-11-22T09:58:39.063+0000] [.info] [a.go:1] [x] a raw\ttab"}',
    '{"logType":"automation-agent","contents":"[2026-11-22T09:58:39.063+0000] [.info] [a.go:1] [x] cut \\u12"}',
    // Valid, with a member after the contents (a quote not escaped in the literal the bytes name).
    '{"logType":"automation-agent","contents":"[2026-11-22T09:58:39.063+0000] [.info] [a.go:1] [x] ok","pod":"p"}',
    entry('automation-agent', '[2026-11-22T09:58:39.063+0000] [.info] [a.go:1] [x] "quoted" \\ é \u0001'),
    // Two writers' lines garbled into one (the old pipelines into one pipe): an entry's shape, another's quotes inside.
    '{"logType":"automation-agent","contents":"[2026-11-22T09:58:39.063+0000] [.info] [a.go:1] [x] cut{"logType":"mongodb","contents":"rest"}',
  ];
  for (const mode of ['entry', 'json']) {
    const run = runFilter(['-o', mode], `${lines.join('\n')}\n`);
    t.is(run.status, 0);
    const out = run.stdout.split('\n').filter(Boolean);
    t.is(out.length, 6, `${mode}: every entry written`);
    const parsed = out.map((line) => JSON.parse(line) as { logType: string; contents: string });
    t.deepEqual(
      parsed.map((e) => e.contents.split('[x] ')[1]),
      ['bad \\x escape', 'a raw\ttab', 'cut \\u12', 'ok', '"quoted" \\ é \u0001', 'cut{"logType":"mongodb","contents":"rest'],
      `${mode}: the contents as far as they could be read`,
    );
    t.is(out[3], lines[3], `${mode}: a valid line as it came`);
    t.is(out[4], lines[4], `${mode}: a valid line as it came`);
    t.regex(run.stderr, /^logtype: 4 entries were not valid JSON as they came \(a raw control character, a bad escape or a quote not escaped in the contents: a line garbled by two writers\): written anew/m);
  }
});

// From a CLI trial: the server writes a double attribute that is NaN or infinite as fmt does
// (`"ratio":nan`, `inf`, `-inf`), which JSON.parse refuses: -f said no line had the line's own
// fields, and -o json -f wrote nothing of it.
test('a server line with a NaN or infinite double as the server writes it (nan, inf, -inf): -f and summary read its fields, the doubles as extended JSON', (t) => {
  const line = entry('mongodb', server(51803, 'Slow query', '{"type":"command","ns":"a.b","ratio":nan,"max":inf,"min":-inf,"durationMillis":120}'));
  const fields = runFilter(['-o', 'json', '-f', 'msg,attr.ns,attr.ratio,attr.min'], `${line}\n`);
  t.is(fields.stderr, '');
  t.deepEqual(JSON.parse(fields.stdout), { msg: 'Slow query', attr: { ns: 'a.b', ratio: { $numberDouble: 'NaN' }, min: { $numberDouble: '-Infinity' } } });
  const pretty = runFilter(['-o', 'pretty', '--color', 'never', '-f', 'attr.max'], `${line}\n`);
  t.regex(pretty.stdout, /Infinity/);
  const summary = JSON.parse(runFilter(['summary', '--json'], `${line}\n`).stdout) as { server: { slowOperations: { ns: string; operation: string; count: number }[] } };
  t.like(summary.server.slowOperations[0], { ns: 'a.b', operation: 'command', count: 1 });
});

// From a CLI trial: -o json into a file or a pipe wrote a server line's raw control characters
// as they were: jq refused the line, and `cat` of the file let the log set the terminal's title
// and clear its screen. (On a terminal they were escaped already.)
test('-o json into a pipe: a server line with raw control characters is written with each in a string as its \\u escape; one with a control outside its strings leaves as its entry, said; every line is JSON', (t) => {
  const inString = server(51803, 'raw\u0001ctl\u001b]0;owned\u0007 \u001b[2J', '{"ns":"a.b","durationMillis":1}');
  const outside = `{"t":{"$date":"2026-11-22T09:58:39.063Z"},\u0001"s":"I","c":"COMMAND","id":1,"ctx":"conn1","msg":"x"}`;
  const plain = server(22943, 'Connection accepted', '{"remote":"10.0.0.1:5"}');
  // A tab between members is JSON's whitespace (a review): as it came, not taken for no JSON.
  const tabbed = server(22944, 'Connection ended', '{"remote":"10.0.0.1:5",\t"connectionId":1}');
  const run = runFilter(['-o', 'json'], `${[inString, outside, plain, tabbed].map((line) => entry('mongodb', line)).join('\n')}\n`);
  const lines = run.stdout.trimEnd().split('\n');
  t.is(lines.length, 4);
  t.is(lines[3], tabbed);
  for (const line of lines.slice(0, 3)) t.false(/[\u0000-\u001f]/.test(line), line);
  t.is((JSON.parse(lines[0]!) as { msg: string }).msg, 'raw\u0001ctl\u001b]0;owned\u0007 \u001b[2J');
  t.deepEqual(JSON.parse(lines[1]!), { logType: 'mongodb', contents: outside });
  t.is(lines[2], plain, 'a line without controls as it came');
  t.regex(run.stderr, /^logtype: 1 line of a JSON log was no JSON \(a raw control character outside its strings\): written as its entry/m);
});

// From a review: the server's own lines read bare (a file of them, not entries) with a bare NaN
// or a raw control were taken for broken JSON, not for server lines.
test('bare server lines with a NaN or infinite double, or a raw control: read as server lines, their fields with the doubles as extended JSON', (t) => {
  const lines = [server(1, 'esc \u001b[31m red', '{"ratio":nan,"x":-inf}'), server(2, 'ok', '{"ratio":nan,"y":inf}', 40)].join('\n');
  const summary = JSON.parse(runFilter(['summary', '--json'], `${lines}\n`).stdout) as { lines: { entries: number; notEntries: number }; types: { logType: string }[] };
  t.like(summary.lines, { entries: 2, notEntries: 0 });
  t.deepEqual(summary.types.map((type) => type.logType), ['mongodb']);
  const fields = runFilter(['-o', 'json', '-f', 'attr'], `${lines}\n`).stdout.trimEnd().split('\n').map((line) => JSON.parse(line) as unknown);
  t.deepEqual(fields, [{ attr: { ratio: { $numberDouble: 'NaN' }, x: { $numberDouble: '-Infinity' } } }, { attr: { ratio: { $numberDouble: 'NaN' }, y: { $numberDouble: 'Infinity' } } }]);
});
