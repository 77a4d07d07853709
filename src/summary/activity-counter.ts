/**
 * Lines, errors and warnings by minute, and lines by type: the activity strip and the plots.
 * Memory is bounded by the minutes the input spans; the summary folds them into at most
 * MAX_ACTIVITY_BUCKETS buckets.
 */
import { levelRank } from '../parse/log-record.js';
import { isoString } from './iso-string.js';
import type { Activity, MinuteActivity } from './summary.js';
import { MAX_ACTIVITY_BUCKETS } from './summary-limits.js';
import { timeFocus } from './time-focus.js';

export const MINUTE_MS = 60_000;
const ERROR_RANK = levelRank('error');
const WARN_RANK = levelRank('warn');

interface MinuteCounts {
  lines: number;
  errors: number;
  warnings: number;
  /** Lines by type, indexed by the type's place in the order types were first seen. */
  readonly byType: number[];
}

export class ActivityCounter {
  readonly #minutes = new Map<number, MinuteCounts>();
  #lastMinute = Number.NaN;
  #lastBucket: MinuteCounts | undefined;

  /** One line at `time` (epoch ms), of the type at `typeIndex`, at its level's rank (levelRank; Infinity: none). */
  add(time: number, typeIndex: number, rank: number): void {
    const minute = Math.floor(time / MINUTE_MS);
    // Lines come in time order, mostly: the last minute's bucket is the next line's.
    let bucket = minute === this.#lastMinute ? this.#lastBucket : this.#minutes.get(minute);
    if (!bucket) {
      bucket = { lines: 0, errors: 0, warnings: 0, byType: [] };
      this.#minutes.set(minute, bucket);
    }
    this.#lastMinute = minute;
    this.#lastBucket = bucket;
    bucket.lines++;
    if (rank <= ERROR_RANK) bucket.errors++;
    else if (rank === WARN_RANK) bucket.warnings++;
    bucket.byType[typeIndex] = (bucket.byType[typeIndex] ?? 0) + 1;
  }

  /** The activity from the first minute to the last; `typeNames` by their index. */
  activity(typeNames: readonly string[]): Activity {
    if (this.#minutes.size === 0) return { start: null, bucketMinutes: 1, buckets: [] };
    let first = Infinity;
    let last = -Infinity;
    for (const minute of this.#minutes.keys()) {
      if (minute < first) first = minute;
      if (minute > last) last = minute;
    }
    const span = last - first + 1;
    const bucketMinutes = Math.ceil(span / MAX_ACTIVITY_BUCKETS);
    const buckets: { lines: number; errors: number; warnings: number; byType: Record<string, number> }[] = Array.from(
      { length: Math.ceil(span / bucketMinutes) },
      () => ({ lines: 0, errors: 0, warnings: 0, byType: {} }),
    );
    for (const [minute, counts] of this.#minutes) {
      const bucket = buckets[Math.floor((minute - first) / bucketMinutes)]!;
      bucket.lines += counts.lines;
      bucket.errors += counts.errors;
      bucket.warnings += counts.warnings;
      counts.byType.forEach((n, index) => {
        const type = typeNames[index]!;
        bucket.byType[type] = (bucket.byType[type] ?? 0) + n;
      });
    }
    const focus = timeFocus([...this.#minutes].sort((a, b) => a[0] - b[0]).map(([minute, counts]) => [minute, counts.lines] as const));
    return { start: isoString(first * MINUTE_MS) ?? null, bucketMinutes, buckets: buckets satisfies MinuteActivity[], ...(focus ? { focus } : {}) };
  }
}

/**
 * V8 keeps no type feedback from a function's first calls, so the branches of add that the
 * first lines take (a new minute, a type not yet counted in it) are first taken with feedback
 * in optimized code, when the input's second minute starts: that code is thrown away, with
 * the code of the per-line functions add is inlined into, and they are compiled again. Taking
 * every branch at load, on a counter thrown away, leaves their feedback in place. The values
 * are of the kinds real lines give: epoch milliseconds (not small integers), type indexes,
 * ranks with Infinity for none.
 */
function takeEveryBranch(): void {
  const counter = new ActivityCounter();
  const ranks = [ERROR_RANK, WARN_RANK, levelRank('info'), Infinity];
  const start = Date.UTC(2024, 0, 1) + 0.5;
  for (let i = 0; i < 48; i++) counter.add(start + i * 7_000, i % 5, ranks[i % ranks.length]!);
  counter.add(start, 0, Infinity);
}
takeEveryBranch();
