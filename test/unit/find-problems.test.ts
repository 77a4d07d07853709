/**
 * doctor's ProblemFinder at its edges: what mutation testing of src/doctor found untested
 * (docs/mutation.md). The problems' own patterns are tested in known-problems.test.ts.
 */
import test from 'ava';
import { MAX_NAMED, ProblemFinder, SAME_EVENT_MS, eventsInTwoLogs, oneEventCount } from '../../src/doctor/find-problems.js';
import { KNOWN_PROBLEMS, remedyOf, type KnownProblem } from '../../src/doctor/known-problems.js';

const DISK_FULL = 'no space left on device';
const API_KEY = '[2026-11-22T10:00:00.123+0000] [.error] [main/components/agent.go:Iterate:230] [10:00:00.123] Error sending GET request: HTTP 401 unauthorized: invalid agent API key';

test('the example is the first line, cut at 400 characters with an ellipsis; 400 are kept whole', (t) => {
  const whole = `${DISK_FULL} ${'x'.repeat(400 - DISK_FULL.length - 1)}`;
  t.is(whole.length, 400);
  const long = `${whole}y`;
  for (const [line, example] of [
    [whole, whole],
    [long, `${whole}…`],
  ] as const) {
    const finder = new ProblemFinder();
    finder.look('automation-agent-stderr', line, () => undefined);
    finder.look('automation-agent-stderr', `${DISK_FULL} later`, () => undefined);
    t.deepEqual(
      finder.findings().map(({ problem, count, example, exampleType }) => ({ id: problem.id, count, example, exampleType })),
      [{ id: 'agent-disk-full', count: 2, example, exampleType: 'automation-agent-stderr' }],
    );
  }
});

test('the example type is the first line\'s; a line that is not an entry has none', (t) => {
  const finder = new ProblemFinder();
  finder.look(undefined, DISK_FULL, () => undefined);
  finder.look('automation-agent', DISK_FULL, () => undefined);
  const [finding] = finder.findings();
  t.is(finding?.exampleType, undefined);
  t.is(finding?.count, 2);
});

test('first and last: lines without a time count but move neither; the first timed line sets both', (t) => {
  const finder = new ProblemFinder();
  const at = (iso: string | undefined) => () => (iso === undefined ? undefined : Date.parse(iso));
  finder.look('automation-agent-stderr', DISK_FULL, at(undefined));
  finder.look('automation-agent-stderr', DISK_FULL, at('2026-11-22T10:00:05Z'));
  finder.look('automation-agent-stderr', DISK_FULL, at(undefined));
  let [finding] = finder.findings();
  t.deepEqual([finding?.count, finding?.first, finding?.last], [3, Date.parse('2026-11-22T10:00:05Z'), Date.parse('2026-11-22T10:00:05Z')]);
  finder.look('automation-agent-stderr', DISK_FULL, at('2026-11-22T10:00:05Z'));
  finder.look('automation-agent-stderr', DISK_FULL, at('2026-11-22T10:00:02Z'));
  finder.look('automation-agent-stderr', DISK_FULL, at('2026-11-22T10:00:07Z'));
  [finding] = finder.findings();
  t.deepEqual([finding?.count, finding?.first, finding?.last], [6, Date.parse('2026-11-22T10:00:02Z'), Date.parse('2026-11-22T10:00:07Z')]);
  // Lines out of time order (logs merged from several files): the earliest and the latest, not the last seen.
  finder.look('automation-agent-stderr', DISK_FULL, at('2026-11-22T10:00:03Z'));
  [finding] = finder.findings();
  t.deepEqual([finding?.count, finding?.first, finding?.last], [7, Date.parse('2026-11-22T10:00:02Z'), Date.parse('2026-11-22T10:00:07Z')]);
});

test('the time is asked for only of a line that shows a problem', (t) => {
  const finder = new ProblemFinder();
  let asked = 0;
  finder.look('automation-agent', 'all is well', () => (asked++, 0));
  t.is(asked, 0);
  finder.look('automation-agent', DISK_FULL, () => (asked++, 0));
  t.is(asked, 1);
});

test('findings come in the order of the known problems, not the order found', (t) => {
  const finder = new ProblemFinder();
  finder.look('automation-agent', API_KEY, () => undefined);
  finder.look('automation-agent-stderr', DISK_FULL, () => undefined);
  const order = KNOWN_PROBLEMS.map((problem) => problem.id).filter((id) => id === 'agent-disk-full' || id === 'agent-api-key');
  t.deepEqual(finder.findings().map((finding) => finding.problem.id), order);
});

test('a type\'s problems are its own when types alternate, and past the types remembered', (t) => {
  const finder = new ProblemFinder();
  // The agent-only problem in the server's log between agent lines, then after 1,100 other types.
  finder.look('automation-agent', API_KEY, () => undefined);
  finder.look('mongodb', API_KEY, () => undefined);
  finder.look('automation-agent', API_KEY, () => undefined);
  for (let i = 0; i < 1100; i++) finder.look(`type-${i}`, 'nothing', () => undefined);
  finder.look('mongodb', API_KEY, () => undefined);
  finder.look('backup-agent', API_KEY, () => undefined);
  finder.look('type-1099', API_KEY, () => undefined);
  t.deepEqual(finder.findings().map(({ problem, count }) => [problem.id, count]), [['agent-api-key', 3]]);
});

test('a problem limited to types, even to every type (*), is never found in a line that is not an entry', (t) => {
  const anyType: KnownProblem = { id: 'any-entry', title: 't', where: 'w', types: ['*'], matches: /boom/, meaning: 'm', remedy: 'r' };
  const finder = new ProblemFinder([anyType]);
  finder.look(undefined, 'boom', () => undefined);
  t.deepEqual(finder.findings(), []);
  finder.look('undefined', 'boom', () => undefined);
  finder.look('mongodb', 'boom', () => undefined);
  t.deepEqual(finder.findings().map(({ count, exampleType }) => [count, exampleType]), [[2, 'undefined']]);
});

test('a finding names every type and source it showed in, first seen first; past the names kept, that there were more', (t) => {
  const rows: readonly { readonly lines: readonly (readonly [string | undefined, string | undefined])[]; readonly types: string[]; readonly sources: string[]; readonly other: boolean; readonly more: readonly [boolean, boolean] }[] = [
    // One pod's kubectl logs: no source named.
    { lines: [['automation-agent', undefined], ['monitoring-agent', undefined], ['automation-agent', undefined]], types: ['automation-agent', 'monitoring-agent'], sources: [], other: false, more: [false, false] },
    // Three pods, the problem in two.
    { lines: [['automation-agent', 'pod/my-rs-2/mongodb-agent'], [undefined, 'pod/my-rs-0/mongodb-agent'], ['automation-agent', 'pod/my-rs-2/mongodb-agent']], types: ['automation-agent'], sources: ['pod/my-rs-2/mongodb-agent', 'pod/my-rs-0/mongodb-agent'], other: true, more: [false, false] },
    // More pods than are named.
    {
      lines: Array.from({ length: MAX_NAMED + 2 }, (_, i) => ['automation-agent', `pod/my-rs-${i}/mongodb-agent`] as const),
      types: ['automation-agent'],
      sources: Array.from({ length: MAX_NAMED }, (_, i) => `pod/my-rs-${i}/mongodb-agent`),
      other: false,
      more: [false, true],
    },
  ];
  for (const row of rows) {
    const finder = new ProblemFinder();
    for (const [type, source] of row.lines) finder.look(type, DISK_FULL, () => undefined, () => source);
    const [finding] = finder.findings();
    t.deepEqual([finding?.types, finding?.sources, finding?.inOtherLines, [finding?.moreTypes, finding?.moreSources]], [row.types, row.sources, row.other, row.more]);
    t.is(finding?.count, row.lines.length);
  }
});

test('the source is asked for only of a line that shows a problem', (t) => {
  const finder = new ProblemFinder();
  let asked = 0;
  finder.look('automation-agent', 'all is well', () => undefined, () => (asked++, 'pod/a/b'));
  t.is(asked, 0);
  finder.look('automation-agent', DISK_FULL, () => undefined, () => (asked++, 'pod/a/b'));
  t.is(asked, 1);
});

test('one event in several logs (oneEventIn): per source, the most lines one of its logs shows; other lines as they are', (t) => {
  const key = (source: string, type: string) => `${source}\0${type}`;
  const rows: readonly (readonly [string, readonly (readonly [string, number])[], number])[] = [
    ['one pod, both logs alike', [[key('', 'mongodb'), 3], [key('', 'mongodb-audit'), 3]], 3],
    ['one pod, the audit log filtered to fewer', [[key('', 'mongodb'), 5], [key('', 'mongodb-audit'), 2]], 5],
    ['two pods: each counted, then added', [[key('db-0', 'mongodb'), 3], [key('db-0', 'mongodb-audit'), 3], [key('db-1', 'mongodb'), 2]], 5],
    ['a type of none of those logs, and lines that are no entries: each line', [[key('', 'mongodb'), 1], [key('', 'other'), 2], ['\0', 4]], 7],
  ];
  for (const [what, lines, count] of rows) t.is(oneEventCount(['mongodb', 'mongodb-audit'], new Map(lines)), count, what);
});

test('a problem of one event in several logs found by the finder: count and lines apart, and a remedy for where it showed', (t) => {
  const problem: KnownProblem = { id: 'twice', title: 't', where: 'w', matches: /failed/, meaning: 'm', remedy: 'generic', remedyIn: (types) => types.join('+'), oneEventIn: ['a', 'b'] };
  const finder = new ProblemFinder([problem]);
  for (const type of ['a', 'b', 'a', 'b']) finder.look(type, 'failed', () => undefined, () => 'pod-0');
  finder.look('a', 'failed', () => undefined, () => 'pod-1');
  const [finding] = finder.findings();
  t.like(finding, { count: 3, lines: 5 });
  t.is(remedyOf(problem, finding!.types), 'a+b');
  t.is(remedyOf({ ...problem, remedyIn: undefined }, finding!.types), 'generic');
});

test('one event in two logs, by time: a line of each within SAME_EVENT_MS is one event; a failure only one log wrote still counts', (t) => {
  const rows: readonly (readonly [string, readonly number[], readonly number[], number])[] = [
    ['both logs write each of 3 failures, a few ms apart', [0, 5000, 9000], [3, 5002, 9001], 3],
    ['5 failures in the server log, 1 in the audit log a day later (another user): 6', [0, 10, 20, 30, 40], [86_400_000], 6],
    ['a burst: the server writes 10 within a second, the audit log the same 10 just after', Array.from({ length: 10 }, (_, i) => i * 90), Array.from({ length: 10 }, (_, i) => 950 + i * 90), 10],
    ['the audit log filtered to fewer: the server\'s count', [0, 100_000, 200_000, 300_000, 400_000], [2, 200_001], 5],
    ['at the window\'s edge: one event; past it: two', [0], [SAME_EVENT_MS], 1],
    ['past the window: two', [0], [SAME_EVENT_MS + 1], 2],
    ['none in one log', [1, 2], [], 2],
  ];
  for (const [what, a, b, count] of rows) {
    t.is(eventsInTwoLogs(a, b), count, what);
    t.is(eventsInTwoLogs(b, a), count, `${what}, the logs swapped`);
  }
  const key = (type: string) => `\0${type}`;
  const lines = new Map([[key('mongodb'), 5], [key('mongodb-audit'), 1]]);
  t.is(oneEventCount(['mongodb', 'mongodb-audit'], lines), 5, 'without times: the most lines one log shows');
  t.is(oneEventCount(['mongodb', 'mongodb-audit'], lines, new Map([[key('mongodb'), [40, 0, 10, 30, 20]], [key('mongodb-audit'), [86_400_000]]])), 6, 'with times, unsorted');
});

test('the finder matches a problem of one event in two logs by the lines\' times; a line without a time falls back to the most lines one log shows', (t) => {
  const problem: KnownProblem = { id: 'twice', title: 't', where: 'w', matches: /failed/, meaning: 'm', remedy: 'r', oneEventIn: ['a', 'b'] };
  const timed = new ProblemFinder([problem]);
  for (const [type, time] of [['a', 0], ['b', 2], ['a', 100_000], ['a', 200_000], ['b', 300_000]] as const) timed.look(type, 'failed', () => time, () => 'pod-0');
  t.like(timed.findings()[0], { count: 4, lines: 5 });
  const untimed = new ProblemFinder([problem]);
  for (const [type, time] of [['a', 0], ['b', undefined], ['a', 100_000], ['a', 200_000], ['b', 300_000]] as const) untimed.look(type, 'failed', () => time, () => 'pod-0');
  t.like(untimed.findings()[0], { count: 3, lines: 5 });
});

test('a problem that can be over (sidecar-log-missing): dropped once every log it named was followed after all; kept while one is still missing', (t) => {
  const missing = (source: string) => `{"level":40,"time":"2026-11-27T10:03:00.000Z","logType":"logtype-sidecar","event":"missing","source":"${source}","path":"/logs/${source}.log","msg":"no file after 3 minutes"}`;
  const opened = (source: string) => `{"level":30,"time":"2026-11-27T10:04:00.000Z","logType":"logtype-sidecar","event":"opened","source":"${source}","path":"/logs/${source}.log","position":0,"msg":"following file"}`;
  const ids = (lines: readonly string[]): string[] => {
    const finder = new ProblemFinder(KNOWN_PROBLEMS);
    for (const line of lines) finder.look('logtype-sidecar', line, () => undefined);
    return finder.findings().map((f) => f.problem.id).filter((id) => id.startsWith('sidecar-log'));
  };
  t.deepEqual(ids([missing('mongodb'), opened('mongodb')]), [], 'the server log came after the warning');
  t.deepEqual(ids([missing('mongodb'), opened('mongodb'), missing('mongodb')]), ['sidecar-log-missing'], 'missing again');
  t.deepEqual(ids([missing('mongodb'), missing('automation-agent'), opened('mongodb')]), ['sidecar-log-missing'], "the agent's log is still missing");
  t.deepEqual(ids([missing('mongodb'), opened('mongodb-audit')]), ['sidecar-log-missing'], 'another log followed');
  t.deepEqual(ids([missing('mongodb')]), ['sidecar-log-missing']);
});

test('a problem whose event writes several lines (a crash\'s fatal lines): a pod\'s lines within the window of its last are one event; a line without a time is one of its own', (t) => {
  const within = KNOWN_PROBLEMS.find((p) => p.id === 'server-fatal')!.oneEventWithin!.ms;
  const fatal = (id: number) => `{"t":{"$date":"2026-11-27T10:05:00.000+00:00"},"s":"F",  "c":"ASSERT",   "id":${id},   "ctx":"thread10","msg":"Fatal assertion"}`;
  const finder = new ProblemFinder();
  const at = (time: number | undefined, pod: string) => finder.look('mongodb', fatal(23089), () => time, () => pod, () => pod);
  at(0, 'db-0');
  at(2, 'db-0');
  at(2 + within, 'db-0'); // within the window of the line before it (2), not of the first: the same stop
  at(2 + within * 2 + 1, 'db-0'); // past it: a second stop
  at(1, 'db-1'); // another pod's stop at the same time
  at(undefined, 'db-1');
  const [finding] = finder.findings();
  t.like(finding, { lines: 6, count: 4 });
});

test('a crash\'s fatal lines are counted a stop by source: two input files (no pod named) stopping together are two stops', (t) => {
  const fatal = '{"t":{"$date":"2026-11-27T10:05:00.000+00:00"},"s":"F",  "c":"ASSERT",   "id":23089,   "ctx":"thread10","msg":"Fatal assertion"}';
  const finder = new ProblemFinder();
  finder.look('mongodb', fatal, () => 0, () => 'rs0-0.log', () => undefined);
  finder.look('mongodb', fatal, () => 3000, () => 'rs0-1.log', () => undefined);
  finder.look('mongodb', fatal, () => 3001, () => 'rs0-1.log', () => undefined);
  t.like(finder.findings()[0], { lines: 3, count: 2 });
});
