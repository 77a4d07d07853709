/**
 * The activity's buckets folded into fewer, wider ones: each wider bucket the sum of the
 * consecutive buckets it covers, so no line is counted twice or left out. The text report
 * folds them to fit its columns (foldActivity); the page's bar charts fold them into buckets
 * of a round number of minutes wide enough to be seen (chartFold). One folding rule for both
 * (foldBuckets). Pure.
 */
import type { Activity, MinuteActivity } from './summary.js';
import { ROUND_STEPS_MS } from './time-ticks.js';

const MINUTE_MS = 60_000;
const DAY_MS = 1440 * MINUTE_MS;

/**
 * `activity` folded into buckets `minutes` wide, the first starting at `origin` (epoch ms, at
 * or before the activity's start): each bucket summed into the folded bucket its start falls
 * in. When `minutes` is a multiple of the activity's buckets and `origin` one of their
 * starts less a whole number of them, every folded bucket is exactly the sum of the buckets
 * it covers; else a bucket across a folded bucket's edge is counted in the one it starts in.
 */
export function foldBuckets(activity: Activity, minutes: number, origin = activity.start === null ? 0 : Date.parse(activity.start)): Activity {
  if (activity.start === null) return activity;
  const startMs = Date.parse(activity.start);
  if (minutes === activity.bucketMinutes && origin === startMs) return activity;
  const stepMs = activity.bucketMinutes * MINUTE_MS;
  const foldMs = minutes * MINUTE_MS;
  const folded: { lines: number; errors: number; warnings: number; byType: Record<string, number> }[] = [];
  activity.buckets.forEach((bucket, index) => {
    const at = Math.floor((startMs + index * stepMs - origin) / foldMs);
    const into = (folded[at] ??= { lines: 0, errors: 0, warnings: 0, byType: {} });
    into.lines += bucket.lines;
    into.errors += bucket.errors;
    into.warnings += bucket.warnings;
    for (const type in bucket.byType) into.byType[type] = (into.byType[type] ?? 0) + bucket.byType[type]!;
  });
  // A folded bucket no bucket started in (wider buckets than these) is empty, not a hole.
  for (let i = 0; i < folded.length; i++) folded[i] ??= { lines: 0, errors: 0, warnings: 0, byType: {} };
  return { start: new Date(origin).toISOString(), bucketMinutes: minutes, buckets: folded satisfies MinuteActivity[] };
}

/** The activity folded into at most `width` columns, from its first bucket: the text report's strip. */
export function foldActivity(activity: Activity, width: number): { lines: number[]; errors: number[]; minutesPerColumn: number } {
  const folded = foldBuckets(activity, Math.max(1, Math.ceil(activity.buckets.length / width)) * activity.bucketMinutes);
  return { lines: folded.buckets.map((b) => b.lines), errors: folded.buckets.map((b) => b.errors), minutesPerColumn: folded.bucketMinutes };
}

/** How a chart folds its activity (foldBuckets): into buckets `minutes` wide from `origin` (epoch ms). */
export interface ChartFold {
  readonly minutes: number;
  readonly origin: number;
}

/**
 * How to fold `activity` for a chart that has room for at most `most` bars: not at all when
 * they fit; else into the narrowest round step of time (ROUND_STEPS_MS, a minute or more)
 * that makes at most `most` buckets, started on a multiple of that step (as the time axis'
 * ticks are). Buckets of a minute fold exactly; the wider buckets of a span of weeks
 * (activity-counter.ts) may not divide, or line up with, a round step, and then one across an edge is counted
 * in the folded bucket it starts in (foldBuckets): off by at most one of them, a small part
 * of a folded bucket since it takes many to make one.
 */
export function chartFold(activity: Activity, most: number): ChartFold {
  const { start, bucketMinutes, buckets } = activity;
  const startMs = start === null ? 0 : Date.parse(start);
  if (start === null || buckets.length <= most) return { minutes: bucketMinutes, origin: startMs };
  const endMs = startMs + buckets.length * bucketMinutes * MINUTE_MS;
  const count = (stepMs: number, origin: number): number => Math.ceil((endMs - origin) / stepMs);
  for (const stepMs of ROUND_STEPS_MS) {
    if (stepMs < bucketMinutes * MINUTE_MS) continue;
    const origin = Math.floor(startMs / stepMs) * stepMs;
    if (count(stepMs, origin) <= most) return { minutes: stepMs / MINUTE_MS, origin };
  }
  // Past the widest round step (a span of centuries): whole days.
  const days = Math.ceil((endMs - startMs) / (most - 1) / DAY_MS);
  const origin = Math.floor(startMs / (days * DAY_MS)) * days * DAY_MS;
  return { minutes: days * 1440, origin };
}

/** A bucket's width in words, after "per": `minute`, `10 min`, `hour`, `2 hours`, `day`, `7 days`. */
export function bucketWords(minutes: number): string {
  if (minutes === 1) return 'minute';
  if (minutes % 1440 === 0) return minutes === 1440 ? 'day' : `${minutes / 1440} days`;
  if (minutes % 60 === 0) return minutes === 60 ? 'hour' : `${minutes / 60} hours`;
  return `${minutes} min`;
}
