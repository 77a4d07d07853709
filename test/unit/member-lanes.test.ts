/**
 * A member's lane from its state changes and restarts, and who was primary when from the lanes:
 * tables of the cases a replica set's logs have (a start, elections, a step-down, a restart, a
 * log that starts while the member is primary, two members claiming PRIMARY at once, a member
 * whose state is never said), and the member a pod's prefix or an input names.
 */
import test from 'ava';
import { DOWN_GAP_MS, laneSegments, primaryTimeline, type MemberRestart, type PrimaryInterval, type StateChange, type StateSegment } from '../../src/summary/member-lanes.js';
import { laneMarks } from '../../src/summary/lane-chart.js';
import { memberOfInput, memberOfPrefix, unrotatedInput, writtenOrder } from '../../src/summary/replica-members.js';
import { primaryWords } from '../../src/summary/render-summary-text.js';

/** Segments written `from-to STATE`, times in seconds. */
const lane = (...segments: string[]): StateSegment[] =>
  segments.map((s) => {
    const [span, state] = s.split(' ') as [string, string];
    const [from, to] = span.split('-').map((n) => Number(n) * 1000) as [number, number];
    return { from, to, state };
  });
const change = (seconds: number, from: string | undefined, to: string): StateChange => ({ time: seconds * 1000, from, to });
const restart = (seconds: number, before: number): MemberRestart => ({ time: seconds * 1000, before: before * 1000 });

// [what, first s, last s, changes, restarts, the lane]
const lanes: [string, number, number, StateChange[], MemberRestart[], StateSegment[]][] = [
  ['no change said: unknown throughout', 0, 100, [], [], lane('0-100 unknown')],
  ['the first change names the state before it', 0, 100, [change(40, 'SECONDARY', 'PRIMARY')], [], lane('0-40 SECONDARY', '40-100 PRIMARY')],
  ['a log that starts while the member is primary: primary from its first line', 10, 100, [change(30, 'PRIMARY', 'SECONDARY')], [], lane('10-30 PRIMARY', '30-100 SECONDARY')],
  ['a change without its old state leaves the stretch before it unknown', 0, 100, [change(40, undefined, 'PRIMARY')], [], lane('0-40 unknown', '40-100 PRIMARY')],
  [
    "a start (the start's own lines before it are one stretch with it), the states it went through",
    0,
    100,
    [change(5, 'STARTUP', 'STARTUP2'), change(6, 'STARTUP2', 'RECOVERING'), change(7, 'RECOVERING', 'SECONDARY'), change(20, 'SECONDARY', 'PRIMARY')],
    [restart(0.005, 0)],
    lane('0-5 STARTUP', '5-6 STARTUP2', '6-7 RECOVERING', '7-20 SECONDARY', '20-100 PRIMARY'),
  ],
  [
    'a restart after a pause: down from the last line before it, unknown until the next change, which names it',
    0,
    100,
    [change(10, 'SECONDARY', 'PRIMARY'), change(70, 'STARTUP2', 'SECONDARY')],
    [restart(60, 40)],
    lane('0-10 SECONDARY', '10-40 PRIMARY', '40-60 down', '60-70 STARTUP2', '70-100 SECONDARY'),
  ],
  [
    `a restart less than ${DOWN_GAP_MS} ms after the last line: no down stretch`,
    0,
    100,
    [change(10, 'SECONDARY', 'PRIMARY')],
    [restart(50, 49.5)],
    lane('0-10 SECONDARY', '10-50 PRIMARY', '50-100 unknown'),
  ],
  ['events out of order are taken in time order; two changes to one state are one segment', 0, 100, [change(50, 'SECONDARY', 'SECONDARY'), change(20, 'RECOVERING', 'SECONDARY')], [], lane('0-20 RECOVERING', '20-100 SECONDARY')],
  ['a change without a time is left out', 0, 100, [change(Number.NaN, 'SECONDARY', 'PRIMARY'), change(30, 'SECONDARY', 'ARBITER')], [], lane('0-30 SECONDARY', '30-100 ARBITER')],
  ['a change past the last line is taken at it', 0, 100, [change(150, 'SECONDARY', 'PRIMARY')], [], lane('0-100 SECONDARY')],
  ['no line with a time: no lane', Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, [change(5, 'SECONDARY', 'PRIMARY')], [], []],
];

for (const [what, first, last, changes, restarts, expected] of lanes) {
  test(`a member's lane: ${what}`, (t) => {
    t.deepEqual(laneSegments(first * 1000, last * 1000, changes, restarts), expected);
  });
}

const interval = (from: number, to: number, primaries: string[], unknown: string[] = []): PrimaryInterval => ({ from: from * 1000, to: to * 1000, primaries, unknown });
/** A time no member's log covers: said so (from an incident trial: the table skipped it, and read as no time at all). */
const uncovered = (from: number, to: number, members: string[]): PrimaryInterval => ({ ...interval(from, to, [], members), uncovered: true });

// [what, lanes by member, who was primary when]
const timelines: [string, Record<string, StateSegment[]>, PrimaryInterval[]][] = [
  [
    'a step-down and the election that followed: one primary, then a moment with none, then the other',
    { rs1: lane('0-10 SECONDARY', '10-50 PRIMARY', '50-100 SECONDARY'), rs2: lane('2-52 SECONDARY', '52-90 PRIMARY', '90-100 SECONDARY') },
    // Before rs2's log begins, rs2 may have been primary: not "none".
    [interval(0, 2, [], ['rs2']), interval(2, 10, []), interval(10, 50, ['rs1']), interval(50, 52, []), interval(52, 90, ['rs2']), interval(90, 100, [])],
  ],
  [
    // From a reports trial: rows alike ("my-rs-0" twice) where the late member's log began, and that member "not known" in some rows only.
    'a member whose log begins late, its state not said at first, beside a known primary: one row, the primary alone',
    { a: lane('0-50 PRIMARY', '50-100 SECONDARY'), c: lane('30-40 unknown', '40-100 SECONDARY') },
    [interval(0, 50, ['a']), interval(50, 100, [])],
  ],
  [
    'overlapping claims: the old primary has not yet stepped down when the new one is elected',
    { a: lane('0-60 PRIMARY', '60-100 SECONDARY'), b: lane('0-40 SECONDARY', '40-100 PRIMARY') },
    [interval(0, 40, ['a']), interval(40, 60, ['a', 'b']), interval(60, 100, ['b'])],
  ],
  [
    'unknown starts: a member whose state is not said may be the primary',
    { a: lane('0-30 unknown', '30-100 SECONDARY'), b: lane('0-100 SECONDARY') },
    [interval(0, 30, [], ['a']), interval(30, 100, [])],
  ],
  [
    'a time no member\'s log covers is said so; a member down is not primary, one whose log does not cover the time may be',
    { a: lane('0-10 PRIMARY', '10-20 down', '20-30 SECONDARY'), b: lane('50-60 PRIMARY') },
    [interval(0, 10, ['a']), interval(10, 30, [], ['b']), uncovered(30, 50, ['a', 'b']), interval(50, 60, ['b'])],
  ],
  ['no lanes: no intervals', {}, []],
];

for (const [what, byMember, expected] of timelines) {
  test(`who was primary when: ${what}`, (t) => {
    t.deepEqual(
      primaryTimeline(Object.entries(byMember).map(([member, segments]) => ({ member, segments }))),
      expected,
    );
  });
}

test('who was primary when: a member whose log ends with its exit is down after it, not unknown', (t) => {
  const lanes = [
    { member: 'a', segments: lane('0-40 SECONDARY'), exited: true },
    { member: 'b', segments: lane('0-30 PRIMARY', '30-50 SECONDARY') },
  ];
  t.deepEqual(primaryTimeline(lanes), [interval(0, 30, ['b']), interval(30, 50, [])]);
  // Not exited: its log only ended; it may have been primary.
  t.deepEqual(primaryTimeline(lanes.map((l) => ({ ...l, exited: false }))), [interval(0, 30, ['b']), interval(30, 40, []), interval(40, 50, [], ['a'])]);
});

test("a member's name: the pod of kubectl's and stern's prefixes, an input's file name", (t) => {
  t.is(memberOfPrefix('pod/my-db-0/mongodb-agent'), 'my-db-0');
  t.is(memberOfPrefix('pod/my-db-1'), 'my-db-1');
  t.is(memberOfPrefix('my-db-2 mongod'), 'my-db-2');
  t.is(memberOfPrefix('prod my-db-2 mongod'), 'prod/my-db-2');
  t.is(memberOfInput('logs/my-db-0.log.gz'), 'my-db-0');
  t.is(memberOfInput('/var/log/mongodb/mongod.json'), 'mongod');
  t.is(memberOfInput('-'), 'stdin');
});

test("inputs of one file name: each named with the fewest directories that tell it apart, or as given", (t) => {
  const all = ['my-db-0/mongodb.log', 'my-db-1/mongodb.log', 'rs2.log.gz', '-'];
  t.deepEqual(all.map((input) => memberOfInput(input, all)), ['my-db-0/mongodb', 'my-db-1/mongodb', 'rs2', 'stdin']);
  const deep = ['a/pods/x/mongodb.log', 'b/pods/x/mongodb.log', './c/mongodb.log.gz'];
  t.deepEqual(deep.map((input) => memberOfInput(input, deep)), ['a/pods/x/mongodb', 'b/pods/x/mongodb', 'c/mongodb']);
  // Nothing tells them apart but what was given.
  const nested = ['pods/a/mongodb.log', 'x/pods/a/mongodb.log'];
  t.deepEqual(nested.map((input) => memberOfInput(input, nested)), ['pods/a/mongodb.log', 'x/pods/a/mongodb']);
});

test("a server's rotated logs and its current log are one member; another pod's are another", (t) => {
  const all = ['my-db-0/mongodb.log.2024-03-18T14-51-21.gz', 'my-db-0/mongodb.log.1', 'my-db-0/mongodb.log', 'my-db-1/mongodb.log.1.gz', 'my-db-1/mongodb.log'];
  t.deepEqual(all.map((input) => unrotatedInput(input, all)), ['my-db-0/mongodb.log', 'my-db-0/mongodb.log', 'my-db-0/mongodb.log', 'my-db-1/mongodb.log', 'my-db-1/mongodb.log']);
  t.deepEqual(all.map((input) => memberOfInput(input, all)), ['my-db-0/mongodb', 'my-db-0/mongodb', 'my-db-0/mongodb', 'my-db-1/mongodb', 'my-db-1/mongodb']);
  // Read in the order they were written, whatever order they were given in (a glob puts the current name first).
  t.deepEqual(
    writtenOrder(['-', 'my-db-0/mongodb.log', 'my-db-1/mongodb.log', 'my-db-0/mongodb.log.1', 'my-db-0/mongodb.log.2.gz', 'my-db-1/mongodb.log.2024-03-18T14-51-21.gz', 'my-db-1/mongodb.log.2024-03-17T09-00-00']),
    ['-', 'my-db-0/mongodb.log.2.gz', 'my-db-0/mongodb.log.1', 'my-db-0/mongodb.log', 'my-db-1/mongodb.log.2024-03-17T09-00-00', 'my-db-1/mongodb.log.2024-03-18T14-51-21.gz', 'my-db-1/mongodb.log'],
  );
  t.deepEqual(writtenOrder(['b.log', 'a.log', '-', 'c.log']), ['b.log', 'a.log', '-', 'c.log'], 'files of their own stay where they were given');
  // Alone, a rotated log is named after the file it was rotated from.
  t.is(memberOfInput('logs/mongodb.log.3.gz'), 'mongodb');
  const one = ['mongod.log.1', 'mongod.log'];
  t.deepEqual(one.map((input) => memberOfInput(input, one)), ['mongod', 'mongod']);
});

test("a lane's marks: every restart and election, then the earliest errors, to the cap; how many were left out", (t) => {
  const event = (second: number, kind: 'restart' | 'election' | 'error') => ({ time: new Date(Date.UTC(2024, 2, 18, 14, 49, second)).toISOString(), kind, label: `${kind} at ${second}` });
  const events = [event(1, 'restart'), event(2, 'error'), event(3, 'error'), event(4, 'election'), event(5, 'error'), event(6, 'restart')];
  const { drawn, left } = laneMarks(events, 4);
  t.deepEqual(drawn, [event(1, 'restart'), event(2, 'error'), event(4, 'election'), event(6, 'restart')], 'in time order, the later errors left out');
  t.is(left, 2);
  t.deepEqual(laneMarks(events), { drawn: events, left: 0 });
});

test("a lane's strip and its key: the server's state names only; any other word is 'o' and reaches a terminal escaped", async (t) => {
  const { laneStrip, stripKey } = await import('../../src/summary/lane-strip.js');
  const lane = (state: string) => [{ from: '2026-11-22T10:00:00.000Z', to: '2026-11-22T10:01:00.000Z', state }];
  const member = (state: string) => ({ name: 'm', lane: lane(state) }) as unknown as Parameters<typeof stripKey>[0][number];
  t.is(laneStrip(lane('PRIMARY') as never, Date.parse('2026-11-22T10:00:00Z'), Date.parse('2026-11-22T10:01:00Z'), 4), 'PPPP');
  // A word that names a property of every object is no state of ours.
  t.is(laneStrip(lane('toString') as never, Date.parse('2026-11-22T10:00:00Z'), Date.parse('2026-11-22T10:01:00Z'), 4), 'oooo');
  t.is(stripKey([member('constructor')]), 'o constructor');
  const key = stripKey([member('\u001b]0;pwn\u0007')]);
  t.false(/[\u0000-\u001f\u007f]/.test(key), key);
});

// From a review: a column whose middle no state covers takes the state longest within it (a
// member whose log is shorter than a column), but a state that starts at the column's right
// edge is the next column's, and a column without a line stays blank.
test('a lane strip at the edges of its columns: blank where the member has no line, a single line counted where it lies', async (t) => {
  const { laneStrip } = await import('../../src/summary/lane-strip.js');
  const at = (seconds: number): string => new Date(Date.UTC(2026, 10, 22, 10, 0, seconds)).toISOString();
  const segments = (...rows: [number, number, string][]) => rows.map(([from, to, state]) => ({ from: at(from), to: at(to), state })) as never;
  const start = Date.parse(at(0));
  // Columns of 5 s over 40 s: [25, 30) has no line; S starts at its right edge.
  t.is(laneStrip(segments([0, 10, 'PRIMARY'], [30, 40, 'SECONDARY']), start, start + 40_000, 8), 'PP    SS');
  // A member with one line at 12 s among columns of 10 s: its column shows it, the others are blank.
  t.is(laneStrip(segments([12, 12, 'SECONDARY']), start, start + 40_000, 4), ' S');
  // Shorter than a column: the state longest within it.
  t.is(laneStrip(segments([1, 2, 'STARTUP2'], [2, 6, 'SECONDARY']), start, start + 40_000, 2), 'S');
});

// From a report trial: a time no member said PRIMARY, with a member whose state was not known
// there (its log covers other days), read "none said": the docs promise "unknown" for it.
test('who was primary when, in words: one, two at once, unknown where a member\'s state is not known, none where every state is known, unknown where no log covers', (t) => {
  const at = { from: '2024-01-01T00:00:00.000Z', to: '2024-01-01T01:00:00.000Z' };
  t.is(primaryWords({ ...at, primaries: ['my-db-0'], unknown: [] }), 'my-db-0');
  t.is(primaryWords({ ...at, primaries: ['my-db-0', 'my-db-1'], unknown: [] }), 'my-db-0 and my-db-1 (each said PRIMARY)');
  t.is(primaryWords({ ...at, primaries: [], unknown: ['my-db-2'] }), 'unknown: none said PRIMARY (my-db-2: state not known)');
  t.is(primaryWords({ ...at, primaries: [], unknown: [] }), 'none');
  t.is(primaryWords({ ...at, primaries: [], unknown: [], uncovered: true }), "unknown (no member's log covers this time)");
});
