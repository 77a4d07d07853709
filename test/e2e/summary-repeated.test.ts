/**
 * From an incident trial: one member's log given twice (a rotated copy that overlaps the
 * current file, a `kubectl logs` capture appended to itself) doubled every count, and told two
 * shutdowns of a member that never restarted, without a word.
 */
import test from 'ava';
import fs from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { entryLine, runFilter } from '../_helpers/filter-process.js';
import { REAL_DATA, tempDir } from '../_helpers/sidecar-process.js';

const RS1 = gunzipSync(fs.readFileSync(path.join(REAL_DATA, 'mongod-replica-rs1.log.gz'))).toString('utf8');
const RS1_LINES = RS1.split('\n').filter(Boolean).length;
const RS2 = gunzipSync(fs.readFileSync(path.join(REAL_DATA, 'mongod-replica-rs2.log.gz'))).toString('utf8');

interface Repeated {
  readonly server: { readonly repeatedLines?: readonly { readonly member: string; readonly lines: number }[] };
}

test("a member's log given twice, as two files or as one stream: the summary says about how many lines repeat, in text, JSON and the page", (t) => {
  const dir = tempDir('summary-repeated');
  const pod = path.join(dir, 'db-0');
  fs.mkdirSync(pod);
  fs.writeFileSync(path.join(pod, 'mongodb.log'), RS1);
  fs.writeFileSync(path.join(pod, 'mongodb.log.1'), RS1);
  const files = [path.join(pod, 'mongodb.log'), path.join(pod, 'mongodb.log.1')];
  const stream = RS1.split('\n').filter(Boolean).map((line) => `[pod/db-0/mongod] ${entryLine('mongodb', line)}`);
  const doubled = `${[...stream, ...stream].join('\n')}\n`;
  for (const [what, args, input] of [['two files', ['--as', 'mongodb', ...files], undefined], ['one stream', [], doubled]] as const) {
    const json = JSON.parse(runFilter(['summary', '--json', ...args], input).stdout) as Repeated;
    const [repeated] = json.server.repeatedLines ?? [];
    t.truthy(repeated, what);
    // Sampled: within a tenth of the truth (every line of one copy).
    t.true(Math.abs(repeated!.lines - RS1_LINES) < RS1_LINES / 10, `${what}: ${repeated!.lines} against ${RS1_LINES}`);
    t.regex(runFilter(['summary', '--color', 'never', ...args], input).stdout, /^repeated: about [\d,]+ of \S+'s lines repeat lines before them \(the same log given twice, or a copy that overlaps it\): every count below includes the repeats; give each log once$/m, what);
  }
  t.regex(runFilter(['summary', '--html', '-', '--as', 'mongodb', ...files]).stdout, /<b>Repeated:<\/b> about [\d,]+ of mongodb&#39;s lines repeat lines before them/);
});

test('two members\' logs each given once (real lines, bursts in one millisecond among them): nothing said to repeat', (t) => {
  const input = [
    ...RS1.split('\n').filter(Boolean).map((line) => `[pod/db-0/mongod] ${entryLine('mongodb', line)}`),
    ...RS2.split('\n').filter(Boolean).map((line) => `[pod/db-1/mongod] ${entryLine('mongodb', line)}`),
  ].join('\n');
  const json = JSON.parse(runFilter(['summary', '--json'], `${input}\n`).stdout) as Repeated;
  t.is(json.server.repeatedLines, undefined);
});

// From an incident trial: one pod's log saved under two names made two members, both PRIMARY at
// once in who was primary when: a split brain that never happened, and nothing said of the copy.
test('one member\'s log given twice under two names (two files, or stdin and the file): said to be the other\'s again, and no second primary', (t) => {
  const dir = tempDir('summary-copied');
  const [first, copy] = [path.join(dir, 'my-db-0.log'), path.join(dir, 'saved', 'rs1-again.log')];
  fs.mkdirSync(path.dirname(copy));
  fs.writeFileSync(first, RS1);
  fs.writeFileSync(copy, RS1);
  interface Primaries extends Repeated {
    readonly server: Repeated['server'] & { readonly primaries?: readonly { readonly primaries: readonly string[] }[] };
  }
  for (const [what, args, input] of [['two files', ['--as', 'mongodb', first, copy], undefined], ['stdin and the file', ['--as', 'mongodb', '-', first], RS1]] as const) {
    const json = JSON.parse(runFilter(['summary', '--json', ...args], input).stdout) as Primaries;
    const [repeated] = json.server.repeatedLines ?? [];
    t.like(repeated, { lines: RS1_LINES }, what);
    t.truthy((repeated as { sameAs?: string } | undefined)?.sameAs, what);
    t.false((json.server.primaries ?? []).some((p) => p.primaries.length > 1), `${what}: never two primaries`);
    t.regex(runFilter(['summary', '--color', 'never', ...args], input).stdout, /^repeated: \S+'s [\d,]+ lines are \S+'s again \(one log given twice, under two names\)/m, what);
  }
});

/** A log's first `count` lines. */
const head = (log: string, count: number): string => `${log.split('\n').slice(0, count).join('\n')}\n`;

// From a review of the report: the sample (a line in 64) needs 8 repeated lines to say anything,
// so a log of up to about 500 lines given twice was not found: under two pod names, both were
// PRIMARY at once. Every line of a member's first 4096 is now looked at too.
test('a small log (450 real lines) given twice, under two names or appended to itself: said, about its size, and no second primary', (t) => {
  const small = head(RS1, 450).split('\n').filter(Boolean);
  const named = (pod: string): string[] => small.map((line) => `[pod/${pod}/mongod] ${entryLine('mongodb', line)}`);
  interface Primaries extends Repeated {
    readonly server: Repeated['server'] & { readonly primaries?: readonly { readonly primaries: readonly string[] }[] };
  }
  const twoNames = JSON.parse(runFilter(['summary', '--json'], `${[...named('c-0'), ...named('c-1')].join('\n')}\n`).stdout) as Primaries;
  t.deepEqual(twoNames.server.repeatedLines, [{ member: 'c-1', lines: 450, sameAs: 'c-0' }]);
  t.false((twoNames.server.primaries ?? []).some((p) => p.primaries.length > 1), 'never two primaries');
  const appended = JSON.parse(runFilter(['summary', '--json'], `${[...named('c-0'), ...named('c-0')].join('\n')}\n`).stdout) as Repeated;
  const [repeated] = appended.server.repeatedLines ?? [];
  // Every line looked at: the copy's 450, but for the second of a line the server wrote twice in one millisecond (a burst, no repeat).
  t.true(repeated?.member === 'c-0' && repeated.lines >= 445 && repeated.lines <= 450, JSON.stringify(appended.server.repeatedLines));
});

test('the real 4.0 log, one block of 108 lines written 13 times (a test file of mtools): said to repeat', (t) => {
  const json = JSON.parse(runFilter(['summary', '--json', path.join(REAL_DATA, 'mongod-4.0-text-slow-transactions.log')]).stdout) as Repeated;
  const [repeated] = json.server.repeatedLines ?? [];
  t.true(repeated !== undefined && repeated.lines > 1200, JSON.stringify(json.server.repeatedLines));
});

test('small real logs each given once (the first 450 lines of two members, the 3.6 and 4.2 text logs): nothing said to repeat', (t) => {
  const members = [
    ...head(RS1, 450).split('\n').filter(Boolean).map((line) => `[pod/db-0/mongod] ${entryLine('mongodb', line)}`),
    ...head(RS2, 450).split('\n').filter(Boolean).map((line) => `[pod/db-1/mongod] ${entryLine('mongodb', line)}`),
  ];
  t.is((JSON.parse(runFilter(['summary', '--json'], `${members.join('\n')}\n`).stdout) as Repeated).server.repeatedLines, undefined);
  for (const log of ['mongod-3.6-text-restart.log', 'mongod-4.2-text.log']) {
    t.is((JSON.parse(runFilter(['summary', '--json', path.join(REAL_DATA, log)]).stdout) as Repeated).server.repeatedLines, undefined, log);
  }
});
