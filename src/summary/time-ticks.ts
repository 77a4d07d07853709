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

/** Steps of whole days past TICK_STEPS_MS (7: a week, from the epoch's Thursday); past the last, as many days as it takes. */
const MULTI_DAY_STEPS = [2, 4, 7, 14, 28, 56, 112, 224];

/** Every round step of time, the finest first: TICK_STEPS_MS, then MULTI_DAY_STEPS in days. */
export const ROUND_STEPS_MS: readonly number[] = [...TICK_STEPS_MS, ...MULTI_DAY_STEPS.map((days) => days * DAY)];

/** At most this many ticks on an axis (labels of 8 characters then never touch on an 800 px plot). */
export const MAX_TIME_TICKS = 8;

export interface TimeTicks {
  /** Between two ticks. */
  readonly stepMs: number;
  /** Each a multiple of stepMs (epoch ms), from min to max inclusive, in order. */
  readonly times: readonly number[];
}

const ticksBetween = (min: number, max: number, step: number): number => Math.floor(max / step) - Math.ceil(min / step) + 1;

/**
 * The ticks between `min` and `max` (epoch ms, inclusive): the finest step of TICK_STEPS_MS
 * that makes at most MAX_TIME_TICKS (so at least 3, mostly 4 to 8); past a day's step, whole
 * days (MULTI_DAY_STEPS), as many as keep them at most MAX_TIME_TICKS. A span shorter than the finest step has
 * the one round second in it, if any.
 */
export function timeTicks(min: number, max: number): TimeTicks {
  let stepMs = TICK_STEPS_MS.find((step) => ticksBetween(min, max, step) <= MAX_TIME_TICKS);
  if (stepMs === undefined) {
    let days = MULTI_DAY_STEPS.find((n) => ticksBetween(min, max, n * DAY) <= MAX_TIME_TICKS) ?? Math.ceil((max - min) / DAY / MAX_TIME_TICKS);
    while (ticksBetween(min, max, days * DAY) > MAX_TIME_TICKS) days++;
    stepMs = days * DAY;
  }
  const times: number[] = [];
  for (let t = Math.ceil(min / stepMs) * stepMs; t <= max; t += stepMs) times.push(t);
  return { stepMs, times };
}

/**
 * A tick's label, in UTC: `HH:MM:SS` for steps under a minute, `HH:MM` under a day (with the
 * date, `MM-DD HH:MM`, when the axis spans more than a day), `MM-DD` for whole days (with the
 * year, `YYYY-MM-DD`, when the axis spans more than LONG_SPAN_MS).
 */
export function timeTickLabel(time: number, stepMs: number, spanMs: number): string {
  const iso = new Date(time).toISOString();
  if (stepMs >= DAY) return spanMs > LONG_SPAN_MS ? iso.slice(0, 10) : iso.slice(5, 10);
  if (spanMs > DAY) return `${iso.slice(5, 10)} ${iso.slice(11, 16)}`;
  return stepMs < MINUTE ? iso.slice(11, 19) : iso.slice(11, 16);
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
  const most = Math.max(1, max);
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
