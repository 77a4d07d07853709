import type { BoundedCounts } from './bounded-counts.js';
import type { Counted } from './summary.js';

/** Counts as rows, the most frequent first (at most `n`), and the keys beyond the limit as one "(other)" row. */
export function counted(counts: BoundedCounts<unknown>, n = Infinity): Counted[] {
  const top = counts.top(n).map(({ key, count }) => ({ key, count }));
  return counts.other > 0 ? [...top, { key: '(other)', count: counts.other }] : top;
}
