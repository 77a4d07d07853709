import test from 'ava';
import { bucketWords, chartFold, foldActivity, foldBuckets } from '../../src/summary/activity-fold.js';
import type { Activity, MinuteActivity } from '../../src/summary/summary.js';

const MINUTE = 60_000;
const DAY = 1440 * MINUTE;
/** 2024-03-13 14:40 UTC: a minute on no round step past 20 minutes. */
const START = Date.UTC(2024, 2, 13, 14, 40);

/** `count` buckets `bucketMinutes` wide from `start`, bucket i holding i + 1 lines of type a, every third an error. */
function activityOf(count: number, bucketMinutes = 1, start = START): Activity {
  const buckets: MinuteActivity[] = Array.from({ length: count }, (_, i) => ({ lines: i + 1, errors: i % 3 === 0 ? 1 : 0, warnings: 0, byType: { a: i + 1 } }));
  return { start: new Date(start).toISOString(), bucketMinutes, buckets };
}

const sum = (values: readonly number[]): number => values.reduce((a, b) => a + b, 0);

// [what, buckets, their minutes, bars at most, the folded buckets' minutes, their origin]
const folds: [string, number, number, number, number, number][] = [
  ['an hour of minutes: drawn as it is', 60, 1, 347, 1, START],
  ['as many minutes as bars: as it is', 347, 1, 347, 1, START],
  ['one minute more than bars: 2 min, from an even minute', 348, 1, 347, 2, START],
  ['a day of minutes: 5 min', 1440, 1, 347, 5, START],
  ['5 days and 16 minutes: 30 min, from the half hour', 5 * 1440 + 16, 1, 347, 30, Date.UTC(2024, 2, 13, 14, 30)],
  ['a week of minutes: 30 min', 7 * 1440, 1, 347, 30, Date.UTC(2024, 2, 13, 14, 30)],
  ['a day on a narrow plot (100 bars): 15 min', 1440, 1, 100, 15, Date.UTC(2024, 2, 13, 14, 30)],
  ['30 days in buckets of 5 min (activity-counter past a week): 3 hours', 8640, 5, 347, 180, Date.UTC(2024, 2, 13, 12)],
  ['4.5 years in buckets of 236 min: 7 days, from a multiple of a week since the epoch', 10_080, 236, 347, 7 * 1440, Math.floor(START / (7 * DAY)) * 7 * DAY],
];
for (const [what, count, minutes, most, wantMinutes, wantOrigin] of folds) {
  test(`chart fold: ${what}`, (t) => {
    const activity = activityOf(count, minutes);
    const fold = chartFold(activity, most);
    t.deepEqual(fold, { minutes: wantMinutes, origin: wantOrigin });
    const folded = foldBuckets(activity, fold.minutes, fold.origin);
    t.true(folded.buckets.length <= most, `${folded.buckets.length} bars of at most ${most}`);
    t.is(sum(folded.buckets.map((b) => b.lines)), sum(activity.buckets.map((b) => b.lines)), 'every line in one bar');
    t.is(sum(folded.buckets.map((b) => b.byType['a'] ?? 0)), sum(activity.buckets.map((b) => b.lines)), 'every line of a type in one bar');
    t.is(sum(folded.buckets.map((b) => b.errors)), sum(activity.buckets.map((b) => b.errors)));
    // The bars start at the origin and cover the activity: its first bucket in the first, its last in the last.
    t.is(Date.parse(folded.start!), wantOrigin);
    t.true(wantOrigin <= START && wantOrigin + folded.buckets.length * wantMinutes * MINUTE >= START + count * minutes * MINUTE);
  });
}

test('chart fold: an activity that fits is the same object, bucket for bucket', (t) => {
  const activity = activityOf(60);
  const { minutes, origin } = chartFold(activity, 347);
  t.is(foldBuckets(activity, minutes, origin), activity);
});

test('fold: each folded bucket the sum of the minutes it covers, from a round origin', (t) => {
  // Minutes 14:40 … 14:51 into 5 min from 14:40: 14:40-44, 14:45-49, 14:50-51.
  const folded = foldBuckets(activityOf(12), 5, Date.UTC(2024, 2, 13, 14, 40));
  t.deepEqual(folded.buckets.map((b) => b.lines), [1 + 2 + 3 + 4 + 5, 6 + 7 + 8 + 9 + 10, 11 + 12]);
  t.deepEqual(folded.buckets.map((b) => b.errors), [2, 2, 0]);
  // From 14:30 in 15 min: 14:30-44 holds 14:40-44, 14:45-59 the rest.
  const late = foldBuckets(activityOf(12), 15, Date.UTC(2024, 2, 13, 14, 30));
  t.is(late.start, '2024-03-13T14:30:00.000Z');
  t.is(late.bucketMinutes, 15);
  t.deepEqual(late.buckets.map((b) => b.lines), [15, 63]);
  t.deepEqual(late.buckets.map((b) => b.byType), [{ a: 15 }, { a: 63 }]);
});

test('fold: a folded bucket no bucket starts in is empty, not a hole', (t) => {
  // Buckets of 3 hours folded into 1 hour: two of every three are empty.
  const folded = foldBuckets(activityOf(2, 180, Date.UTC(2024, 2, 13, 12)), 60, Date.UTC(2024, 2, 13, 12));
  t.deepEqual(folded.buckets.map((b) => b.lines), [1, 0, 0, 2]);
});

test("text strip: the same fold, from the first minute, to the terminal's width", (t) => {
  t.deepEqual(foldActivity(activityOf(10), 4), { lines: [1 + 2 + 3, 4 + 5 + 6, 7 + 8 + 9, 10], errors: [1, 1, 1, 1], minutesPerColumn: 3 });
  t.deepEqual(foldActivity(activityOf(10, 31), 20).lines, activityOf(10).buckets.map((b) => b.lines));
});

const words: [number, string][] = [
  [1, 'minute'],
  [2, '2 min'],
  [30, '30 min'],
  [60, 'hour'],
  [180, '3 hours'],
  [1440, 'day'],
  [10_080, '7 days'],
  [31, '31 min'],
  [90, '90 min'],
];
for (const [minutes, said] of words) {
  test(`a bucket of ${minutes} min is said "${said}"`, (t) => {
    t.is(bucketWords(minutes), said);
  });
}
