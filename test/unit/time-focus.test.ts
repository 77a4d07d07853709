import test from 'ava';
import { FOCUS_MIN_SPAN_MINUTES, FOCUS_RATIO, timeFocus } from '../../src/summary/time-focus.js';

const MINUTE = 60_000;
const iso = (minute: number): string => new Date(minute * MINUTE).toISOString();
const isoEnd = (minute: number): string => new Date((minute + 1) * MINUTE - 1).toISOString();
/** `lines` in each of `minutes` minutes from `start`. */
const run = (start: number, minutes: number, lines: number): [number, number][] => Array.from({ length: minutes }, (_, i) => [start + i, lines]);

const INCIDENT = 28_500_000; // a minute of 2024

test('two stale lines two years before a seven-minute incident: the incident, and the two before it', (t) => {
  const counts = [[INCIDENT - 1_000_000, 1], [INCIDENT - 999_995, 1], ...run(INCIDENT, 7, 300)] as [number, number][];
  t.deepEqual(timeFocus(counts), { from: iso(INCIDENT), to: isoEnd(INCIDENT + 6), lines: 2100, before: 2, after: 0 });
});

test('lines far on both sides: counted apart, before and after', (t) => {
  const counts = [[INCIDENT - 5000, 3], ...run(INCIDENT, 30, 100), [INCIDENT + 9000, 4]] as [number, number][];
  t.deepEqual(timeFocus(counts), { from: iso(INCIDENT), to: isoEnd(INCIDENT + 29), lines: 3000, before: 3, after: 4 });
});

test('no lines far from the rest: no focus', (t) => {
  t.is(timeFocus(run(INCIDENT, 600, 10)), undefined);
  // A quiet hour before a busy one is not a few stray lines: the busy hour is not 1/10 of the span.
  t.is(timeFocus([...run(INCIDENT, 60, 1), ...run(INCIDENT + 60, 60, 500)]), undefined);
});

test(`a whole span under ${FOCUS_MIN_SPAN_MINUTES} minutes: its charts are read as they are`, (t) => {
  t.is(timeFocus([[INCIDENT, 1], ...run(INCIDENT + 50, 2, 1000)]), undefined);
  t.truthy(timeFocus([[INCIDENT, 1], ...run(INCIDENT + FOCUS_MIN_SPAN_MINUTES, 2, 1000)]));
});

test(`the span must be ${FOCUS_RATIO} times the bulk's or more`, (t) => {
  // The bulk: 10 minutes; the span 99 minutes (under 10 times), then 100.
  t.is(timeFocus([[INCIDENT - 89, 1], ...run(INCIDENT, 10, 1000)]), undefined);
  t.deepEqual(timeFocus([[INCIDENT - 90, 1], ...run(INCIDENT, 10, 1000)])?.lines, 10_000);
});

test('the shortest run that holds the share; of two alike, the earlier', (t) => {
  const counts = [...run(INCIDENT, 2, 1000), [INCIDENT + 500, 5], ...run(INCIDENT + 1000, 2, 1000)] as [number, number][];
  // Neither burst holds 99% alone: the run spans both.
  t.is(timeFocus(counts), undefined);
  t.deepEqual(timeFocus([...run(INCIDENT, 2, 1000), [INCIDENT + 2000, 1], [INCIDENT + 2001, 1]])?.from, iso(INCIDENT));
});

test('one minute, or none: no focus', (t) => {
  t.is(timeFocus([]), undefined);
  t.is(timeFocus([[INCIDENT, 5]]), undefined);
});
