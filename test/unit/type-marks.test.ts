/**
 * Which of the other logs' events a time chart marks: runs of one type and kind close in time
 * are one mark that counts them; errors before warnings before failures, the earliest first, to
 * a cap, drawn in time order; how many were left out.
 */
import test from 'ava';
import type { TypeMark } from '../../src/summary/summary.js';
import { TypeMarks, selectTypeMarks } from '../../src/summary/type-marks.js';
import { parseRecord } from '../../src/parse/parse-record.js';
import { levelRank } from '../../src/parse/log-record.js';
import { MAX_MEMBER_ERROR_MARKS, MAX_TYPE_MARKS } from '../../src/summary/summary-limits.js';
import { MemberStats } from '../../src/summary/replica-members.js';

const at = (second: number): string => new Date(Date.UTC(2024, 2, 18, 14, 49, second)).toISOString();
const mark = (second: number, logType: string, kind: TypeMark['kind']): TypeMark => ({ logType, time: at(second), kind, label: `${logType} ${kind} at ${second}` });
const drawn = (second: number, logType: string, kind: TypeMark['kind'], count = 1) => ({ logType, kind, time: Date.parse(at(second)), count, label: `${logType} ${kind} at ${second}` });

// [what, marks, close ms, cap, drawn, left]
const cases: [string, TypeMark[], number, number, ReturnType<typeof drawn>[], number][] = [
  ['every mark, when few and apart', [mark(1, 'operator', 'error'), mark(20, 'automation-agent', 'warning')], 1000, 10, [drawn(1, 'operator', 'error'), drawn(20, 'automation-agent', 'warning')], 0],
  [
    'a run of one type and kind within the close time is one mark counting them; another type in it is its own',
    [mark(1, 'operator', 'error'), mark(2, 'operator', 'error'), mark(2, 'automation-agent', 'error'), mark(3, 'operator', 'error'), mark(9, 'operator', 'error')],
    2000,
    10,
    [drawn(1, 'operator', 'error', 3), drawn(2, 'automation-agent', 'error'), drawn(9, 'operator', 'error')],
    0,
  ],
  ['a warning does not join an error run', [mark(1, 'operator', 'error'), mark(1, 'operator', 'warning')], 2000, 10, [drawn(1, 'operator', 'error'), drawn(1, 'operator', 'warning')], 0],
  [
    'past the cap: shared between each type and kind, none left out for another\'s many; the rest counted',
    [mark(1, 'automation-agent', 'warning'), mark(5, 'mongodb-audit', 'failure'), mark(10, 'operator', 'error'), mark(20, 'operator', 'error'), mark(30, 'automation-agent', 'warning')],
    1000,
    3,
    [drawn(1, 'automation-agent', 'warning'), drawn(5, 'mongodb-audit', 'failure'), drawn(10, 'operator', 'error')],
    2,
  ],
  [
    // From a reports trial: 47 failed logins over eight minutes drew only the first six (all in the first minute).
    'past the cap: a group spread over its time, its first and its last drawn',
    Array.from({ length: 10 }, (_, i) => mark(i * 10, 'mongodb-audit', 'failure')),
    1000,
    4,
    [drawn(0, 'mongodb-audit', 'failure'), drawn(30, 'mongodb-audit', 'failure'), drawn(60, 'mongodb-audit', 'failure'), drawn(90, 'mongodb-audit', 'failure')],
    6,
  ],
  [
    'a group with fewer than its share gives the rest to the others',
    [mark(1, 'operator', 'error'), ...Array.from({ length: 6 }, (_, i) => mark(10 + i * 10, 'mongodb-audit', 'failure'))],
    1000,
    4,
    [drawn(1, 'operator', 'error'), drawn(10, 'mongodb-audit', 'failure'), drawn(40, 'mongodb-audit', 'failure'), drawn(60, 'mongodb-audit', 'failure')],
    3,
  ],
  ['marks out of time order are taken in it; a mark without a time is left out', [mark(9, 'operator', 'error'), { ...mark(0, 'operator', 'error'), time: 'never' }, mark(8, 'operator', 'error')], 2000, 10, [drawn(8, 'operator', 'error', 2)], 0],
];

for (const [what, marks, closeMs, most, expected, left] of cases) {
  test(`the other logs' marks drawn: ${what}`, (t) => {
    const found = selectTypeMarks(marks, closeMs, most);
    t.deepEqual(found.drawn, expected, "a run says its first mark's words");
    t.is(found.left, left);
  });
}

test('marks stay bounded whatever the types: those past the type cap are kept under the shared row', async (t) => {
  const { SummaryCollector } = await import('../../src/summary/summary-collector.js');
  const { MAX_TYPES, MAX_TYPE_MARKS, OTHER_TYPES } = await import('../../src/summary/summary-limits.js');
  const collector = new SummaryCollector();
  const types = MAX_TYPES + 400;
  for (let i = 0; i < types; i++) {
    for (let n = 0; n < 3; n++) {
      const record = { time: Date.parse('2026-11-22T10:00:00Z') + n, level: 'warn', message: `type ${i} warns ${n}` };
      collector.add(`made-up-${i}`, record as never);
    }
  }
  const marks = collector.summary({ entries: types * 3, selected: types * 3, notEntries: 0 }).marks ?? [];
  const shared = marks.filter((m) => m.logType === OTHER_TYPES).length;
  t.true(shared > 0 && shared <= MAX_TYPE_MARKS, `shared row: ${shared}`);
  t.true(marks.length <= MAX_TYPES * 3 + MAX_TYPE_MARKS, `marks: ${marks.length}`);
  t.false(marks.some((m) => m.logType === `made-up-${types - 1}`));
});

// From a review: past the bound of marks a type keeps, a server's last words (its fatal line
// after hundreds of errors) were not marked.
test('a server\'s errors past the bound: its last error is marked in place of the one kept last, the rest counted', (t) => {
  const marks = new TypeMarks();
  const error = (second: number, severity: string, id: number, msg: string) =>
    parseRecord('mongodb', `{"t":{"$date":"2024-03-18T14:${String(Math.floor(second / 60)).padStart(2, '0')}:${String(second % 60).padStart(2, '0')}.000Z"},"s":"${severity}","c":"WT","id":${id},"ctx":"conn9","msg":"${msg}","attr":{"error":28}}`)!;
  for (let i = 0; i < MAX_TYPE_MARKS + 100; i++) {
    const record = error(i % 3000, 'E', 22435, 'WiredTiger error message');
    marks.serverError('mongodb', record, record.time, levelRank('error'));
  }
  const fatal = error(3001, 'F', 23089, 'Fatal assertion');
  marks.serverError('mongodb', fatal, fatal.time, levelRank('fatal'));
  const { marks: kept = [], marksNotKept } = marks.summary();
  t.is(kept.length, MAX_TYPE_MARKS);
  t.is(kept.at(-1)?.label, '23089: Fatal assertion (error: 28)');
  t.is(marksNotKept, 101);
  // Info and warning lines are not marked.
  const info = parseRecord('mongodb', '{"t":{"$date":"2024-03-18T14:00:00.000Z"},"s":"W","c":"WT","id":1,"ctx":"c","msg":"m"}')!;
  const none = new TypeMarks();
  none.serverError('mongodb', info, info.time, levelRank('warn'));
  t.deepEqual(none.summary(), {});
});

test('a member\'s errors past its bound: its last error is on its lane in place of the one marked last', (t) => {
  const member = new MemberStats('my-db-0', 'pod');
  const at = Date.parse('2024-03-18T14:00:00.000Z');
  for (let i = 0; i < MAX_MEMBER_ERROR_MARKS + 50; i++) member.error(at + i * 1000, `22435: WiredTiger error message ${i}`);
  member.error(at + 999_000, '23089: Fatal assertion');
  const events = member.summary().events.filter((e) => e.kind === 'error');
  t.is(events.length, MAX_MEMBER_ERROR_MARKS);
  t.is(events.at(-1)?.label, '23089: Fatal assertion');
  t.is(events.at(-2)?.label, `22435: WiredTiger error message ${MAX_MEMBER_ERROR_MARKS - 2}`);
});
