/**
 * Where the time charts put their ticks: on round UTC times (a step a person reads at a
 * glance, 1, 2, 5, 10, 15 or 30 s, 1 … 30 min, 1 … 12 h, a day), and how they are labelled;
 * and the round ticks of a count axis. Pure: the page draws what these say.
 */

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

/** The steps ticks may take, the finest first. Each divides a day, so multiples of it from the epoch are round UTC times. */
export const TICK_STEPS_MS: readonly number[] = [
  ...[1, 2, 5, 10, 15, 30].map((s) => s * SECOND),
  ...[1, 2, 5, 10, 15, 30].map((m) => m * MINUTE),
  ...[1, 2, 3, 6, 12].map((h) => h * HOUR),
  DAY,
];

/** Steps of whole days past TICK_STEPS_MS (7: a week, from the epoch's Thursday): the activity's buckets (activity-fold.ts). */
const MULTI_DAY_STEPS = [2, 4, 7, 14, 28, 56, 112, 224];

/** Ticks of whole days: up to two weeks; past them, months (a 56-day step falls on dates no one reads as round). */
const TICK_DAY_STEPS = MULTI_DAY_STEPS.filter((days) => days <= 14);

/** Steps of whole months past TICK_DAY_STEPS, on the first of a month: 1, 2, 3, 6 months, then years. */
const TICK_MONTH_STEPS = [1, 2, 3, 6, 12, 24, 60, 120, 240, 600, 1200];

/** A month as a step's length (TimeTicks.stepMs, for the labels): thirty days. */
export const MONTH = 30 * DAY;

/** Every round step of time, the finest first: TICK_STEPS_MS, then MULTI_DAY_STEPS in days. */
export const ROUND_STEPS_MS: readonly number[] = [...TICK_STEPS_MS, ...MULTI_DAY_STEPS.map((days) => days * DAY)];

/** At most this many ticks on an axis (labels of 8 characters then never touch on an 800 px plot). */
export const MAX_TIME_TICKS = 8;

export interface TimeTicks {
  /** Between two ticks; for a step of months, `months` times MONTH. */
  readonly stepMs: number;
  /** A step of whole months: each tick the first of a month (UTC), a multiple of `months` from year 0. */
  readonly months?: number;
  /** Each a multiple of stepMs (epoch ms), or the first of a month for a step of months, from min to max inclusive, in order. */
  readonly times: readonly number[];
}

const ticksBetween = (min: number, max: number, step: number): number => Math.floor(max / step) - Math.ceil(min / step) + 1;

/**
 * The ticks between `min` and `max` (epoch ms, inclusive): the finest step of TICK_STEPS_MS
 * that makes at most MAX_TIME_TICKS (so at least 3, mostly 4 to 8); past a day's step, whole
 * days (TICK_DAY_STEPS), then months and years on the first of a month (TICK_MONTH_STEPS).
 * A span shorter than the finest step has the one round second in it, if any.
 */
export function timeTicks(min: number, max: number): TimeTicks {
  const days = TICK_DAY_STEPS.find((n) => ticksBetween(min, max, n * DAY) <= MAX_TIME_TICKS);
  const stepMs = TICK_STEPS_MS.find((step) => ticksBetween(min, max, step) <= MAX_TIME_TICKS) ?? (days === undefined ? undefined : days * DAY);
  if (stepMs === undefined) return monthTicks(min, max);
  const times: number[] = [];
  for (let t = Math.ceil(min / stepMs) * stepMs; t <= max; t += stepMs) times.push(t);
  return { stepMs, times };
}

/** The ticks of a span of months or years: on the first of a month, the finest step of TICK_MONTH_STEPS that makes at most MAX_TIME_TICKS. */
function monthTicks(min: number, max: number): TimeTicks {
  const first = new Date(min);
  // Months from year 0 to the first month that starts at or after min.
  const firstMonth = first.getUTCFullYear() * 12 + first.getUTCMonth() + (Date.UTC(first.getUTCFullYear(), first.getUTCMonth(), 1) < min ? 1 : 0);
  const startOf = (month: number): number => Date.UTC(Math.floor(month / 12), month % 12, 1);
  for (const months of TICK_MONTH_STEPS) {
    const times: number[] = [];
    for (let month = Math.ceil(firstMonth / months) * months; startOf(month) <= max && times.length <= MAX_TIME_TICKS; month += months) times.push(startOf(month));
    if (times.length <= MAX_TIME_TICKS || months === TICK_MONTH_STEPS.at(-1)) return { stepMs: months * MONTH, months, times: times.slice(0, MAX_TIME_TICKS) };
  }
  throw new Error('unreachable: the last month step returns');
}

/**
 * A tick's label, in UTC: `HH:MM:SS` for steps under a minute, `HH:MM` under a day (with the
 * date, `MM-DD HH:MM`, when the axis spans more than a day, or at midnight; `YYYY-MM-DD HH:MM`
 * at New Year's), `MM-DD` for whole days (with the
 * year, `YYYY-MM-DD`, when the axis spans more than LONG_SPAN_MS), `YYYY-MM` for months,
 * `YYYY` for years.
 */
export function timeTickLabel(time: number, stepMs: number, spanMs: number): string {
  const iso = new Date(time).toISOString();
  // A step of months is on the first of each: its month, or for a step of years its year.
  if (stepMs >= 12 * MONTH) return iso.slice(0, 4);
  if (stepMs >= MONTH) return iso.slice(0, 7);
  if (stepMs >= DAY) return spanMs > LONG_SPAN_MS ? iso.slice(0, 10) : iso.slice(5, 10);
  if (spanMs > DAY) return `${iso.slice(5, 10)} ${iso.slice(11, 16)}`;
  const clock = stepMs < MINUTE ? iso.slice(11, 19) : iso.slice(11, 16);
  // An axis under a day that crosses midnight says the new day at its tick (the year too at New Year):
  // 23:59, 00:00, 00:01 alone read as one day.
  if (time % DAY === 0) return `${iso.slice(5, 10) === '01-01' ? iso.slice(0, 10) : iso.slice(5, 10)} ${clock}`;
  return clock;
}

/** An axis longer than this says the year in its labels. */
const LONG_SPAN_MS = 180 * DAY;

export interface CountTicks {
  /** The axis' top: the first tick at or above the greatest value. */
  readonly top: number;
  /** From 0 to top, each a multiple of a step of 1, 2 or 5 times a power of ten. */
  readonly ticks: readonly number[];
}

/** At most this many intervals between a count axis' ticks. */
export const MAX_COUNT_INTERVALS = 5;

/** The round ticks of an axis from 0 to at least `max` (a count: whole steps, 1 the least). */
export function countTicks(max: number): CountTicks {
  // Not finite (no value counted, or a damaged one): the least axis, never a search without end.
  const most = Number.isFinite(max) ? Math.max(1, max) : 1;
  let step = 1;
  for (let power = 1; ; power *= 10) {
    const found = [1, 2, 5].map((m) => m * power).find((s) => Math.ceil(most / s) <= MAX_COUNT_INTERVALS);
    if (found !== undefined) {
      step = found;
      break;
    }
  }
  const top = Math.ceil(most / step) * step;
  const ticks: number[] = [];
  for (let v = 0; v <= top; v += step) ticks.push(v);
  return { top, ticks };
}
