/**
 * The time charts' ticks: a round step for any span (a table of spans as real logs have them,
 * from seconds to weeks), every tick a multiple of its step, 3 to 8 ticks; their labels; and
 * the round ticks of a count axis.
 */
import test from 'ava';
import { DAY, MAX_TIME_TICKS, MONTH, TICK_STEPS_MS, countTicks, timeTickLabel, timeTicks } from '../../src/summary/time-ticks.js';
import { timeAxisTitle } from '../../src/summary/time-charts.js';

const at = (iso: string): number => Date.parse(iso);
const S = 1000;
const M = 60 * S;
const H = 60 * M;

// [from, to, step, first tick, ticks]
const spans: [string, string, number, string, number][] = [
  // Issue 19's ticks were at 14:50:10 and 14:51:20 on a span like this one.
  ['2024-03-18T14:49:13.000Z', '2024-03-18T14:56:04.000Z', 1 * M, '2024-03-18T14:50:00.000Z', 7],
  // Hatchet's rs1 log: 10:49:06 to 10:55:44 (-04:00), a minute's buckets to 10:56.
  ['2024-03-18T14:49:00.000Z', '2024-03-18T14:56:00.000Z', 1 * M, '2024-03-18T14:49:00.000Z', 8],
  ['2026-11-22T09:57:00.000Z', '2026-11-22T09:59:00.000Z', 30 * S, '2026-11-22T09:57:00.000Z', 5],
  ['2026-11-22T09:57:00.000Z', '2026-11-22T09:58:00.000Z', 10 * S, '2026-11-22T09:57:00.000Z', 7],
  ['2026-11-22T09:57:00.250Z', '2026-11-22T09:57:03.900Z', 1 * S, '2026-11-22T09:57:01.000Z', 3],
  ['2026-11-22T09:57:00.000Z', '2026-11-22T09:57:20.000Z', 5 * S, '2026-11-22T09:57:00.000Z', 5],
  ['2026-11-22T09:00:00.000Z', '2026-11-22T10:00:00.000Z', 10 * M, '2026-11-22T09:00:00.000Z', 7],
  ['2026-11-22T09:13:00.000Z', '2026-11-22T11:02:00.000Z', 15 * M, '2026-11-22T09:15:00.000Z', 8],
  ['2026-11-22T09:13:00.000Z', '2026-11-22T13:40:00.000Z', 1 * H, '2026-11-22T10:00:00.000Z', 4],
  // 3 h would make 9 ticks.
  ['2026-11-22T00:00:00.000Z', '2026-11-23T00:00:00.000Z', 6 * H, '2026-11-22T00:00:00.000Z', 5],
  ['2026-11-22T07:30:00.000Z', '2026-11-24T18:00:00.000Z', 12 * H, '2026-11-22T12:00:00.000Z', 5],
  ['2026-11-01T00:00:00.000Z', '2026-11-07T23:59:00.000Z', DAY, '2026-11-01T00:00:00.000Z', 7],
  ['2026-09-01T00:00:00.000Z', '2026-11-30T00:00:00.000Z', 14 * DAY, '2026-09-10T00:00:00.000Z', 6],
];

for (const [from, to, step, first, count] of spans) {
  test(`time ticks from ${from} to ${to}: every ${step / 1000} s from ${first}, ${count} of them`, (t) => {
    const ticks = timeTicks(at(from), at(to));
    t.is(ticks.stepMs, step);
    t.is(new Date(ticks.times[0]!).toISOString(), first);
    t.is(ticks.times.length, count);
  });
}

test('time ticks: any span from 10 s to a year gets 3 to 8 ticks, each on a multiple of its step (or the first of a month), the step the finest that does', (t) => {
  for (let span = 10_000; span < 400 * DAY; span = Math.ceil(span * 1.13)) {
    for (const offset of [0, 17_321, 3 * H + 7 * M + 13 * S]) {
      const min = at('2026-11-22T00:00:00.000Z') + offset;
      const { stepMs, months, times } = timeTicks(min, min + span);
      t.true(times.length >= 3 && times.length <= MAX_TIME_TICKS, `${span} ms: ${times.length} ticks`);
      t.true(times.every((time) => time >= min && time <= min + span));
      if (months !== undefined) {
        // Past two weeks' step: the first of a month, every `months` months.
        t.true(times.every((time, i) => new Date(time).toISOString().endsWith('-01T00:00:00.000Z') && (i === 0 || monthsBetween(times[i - 1]!, time) === months)), `${span} ms`);
        continue;
      }
      t.true(times.every((time) => time % stepMs === 0));
      t.true(times.every((time, i) => i === 0 || time - times[i - 1]! === stepMs));
      const finer = TICK_STEPS_MS.filter((s) => s < stepMs);
      // A finer step would have made more than MAX_TIME_TICKS.
      for (const s of finer) t.true(Math.floor((min + span) / s) - Math.ceil(min / s) + 1 > MAX_TIME_TICKS, `${span} ms: ${s} ms would do`);
    }
  }
});

const monthsBetween = (a: number, b: number): number => {
  const [from, to] = [new Date(a), new Date(b)];
  return (to.getUTCFullYear() - from.getUTCFullYear()) * 12 + to.getUTCMonth() - from.getUTCMonth();
};

// From an incident trial: an agent log of issue threads from 2019 to 2025 had ticks 314 days
// apart (2019-11-12, 2020-09-21, 2021-08-01), on no date anyone reads as round.
const longSpans: [string, string, number, string[]][] = [
  ['2019-11-12T08:00:00.000Z', '2025-06-30T00:00:00.000Z', 12, ['2020', '2021', '2022', '2023', '2024', '2025']],
  // Every other month from January: March, May, …
  ['2026-01-10T00:00:00.000Z', '2026-11-27T00:00:00.000Z', 2, ['2026-03', '2026-05', '2026-07', '2026-09', '2026-11']],
  ['2026-06-20T00:00:00.000Z', '2026-11-27T00:00:00.000Z', 1, ['2026-07', '2026-08', '2026-09', '2026-10', '2026-11']],
  ['1990-03-01T00:00:00.000Z', '2026-11-27T00:00:00.000Z', 60, ['1995', '2000', '2005', '2010', '2015', '2020', '2025']],
];

for (const [from, to, months, labels] of longSpans) {
  test(`time ticks from ${from} to ${to}: every ${months} months, on the first, labelled ${labels.join(' ')}`, (t) => {
    const ticks = timeTicks(at(from), at(to));
    t.is(ticks.months, months);
    t.is(ticks.stepMs, months * MONTH);
    t.deepEqual(ticks.times.map((time) => timeTickLabel(time, ticks.stepMs, at(to) - at(from))), labels);
  });
}

test('time tick labels: seconds for a step under a minute, the date for whole days or a span over a day, the year for a span of years', (t) => {
  const time = at('2026-11-22T09:57:30.000Z');
  t.is(timeTickLabel(time, 30 * S, 5 * M), '09:57:30');
  t.is(timeTickLabel(at('2026-11-22T09:57:00.000Z'), M, H), '09:57');
  // From a reports trial: an axis across midnight read 23:59, 00:00, 00:01 as one day; across New Year, as one year.
  t.is(timeTickLabel(at('2026-11-23T00:00:00.000Z'), M, 10 * M), '11-23 00:00');
  t.is(timeTickLabel(at('2026-01-01T00:00:00.000Z'), M, 10 * M), '2026-01-01 00:00');
  t.is(timeTickLabel(at('2026-01-01T00:01:00.000Z'), M, 10 * M), '00:01');
  t.is(timeTickLabel(at('2026-11-22T12:00:00.000Z'), 12 * H, 3 * DAY), '11-22 12:00');
  t.is(timeTickLabel(at('2026-11-22T00:00:00.000Z'), DAY, 7 * DAY), '11-22');
  t.is(timeTickLabel(at('2026-11-22T00:00:00.000Z'), 14 * DAY, 200 * DAY), '2026-11-22');
  t.is(timeTickLabel(at('2026-11-01T00:00:00.000Z'), 3 * MONTH, 2 * 365 * DAY), '2026-11');
  t.is(timeTickLabel(at('2026-01-01T00:00:00.000Z'), 12 * MONTH, 5 * 365 * DAY), '2026');
});

const counts: [number, number, number[]][] = [
  [0, 1, [0, 1]],
  [1, 1, [0, 1]],
  [3, 3, [0, 1, 2, 3]],
  [7, 8, [0, 2, 4, 6, 8]],
  [21, 25, [0, 5, 10, 15, 20, 25]],
  [5650, 6000, [0, 2000, 4000, 6000]],
  [123_456, 150_000, [0, 50_000, 100_000, 150_000]],
];

for (const [max, top, ticks] of counts) {
  test(`count ticks up to ${max}: 0 to ${top}`, (t) => {
    t.deepEqual(countTicks(max), { top, ticks });
  });
}

test('the time axis\' title says the days it covers, with their year: the ticks across midnight or over days do not', (t) => {
  t.is(timeAxisTitle(at('2023-12-31T23:56:00.000Z'), at('2024-01-01T00:03:00.000Z')), 'time (UTC), 2023-12-31 to 2024-01-01');
  t.is(timeAxisTitle(at('2026-11-22T09:50:00.000Z'), at('2026-11-22T10:20:00.000Z')), 'time (UTC), 2026-11-22');
  t.is(timeAxisTitle(at('2024-01-01T00:00:00.000Z'), at('2024-01-05T23:00:00.000Z')), 'time (UTC), 2024-01-01 to 2024-01-05');
});
