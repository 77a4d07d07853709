import type { Counted } from './summary.js';

/** What `counted` reads of a BoundedCounts (of any value). */
interface CountsByKey {
  top(n: number): readonly { readonly key: string; readonly count: number }[];
  readonly other: number;
}

/** Counts as rows, the most frequent first (at most `n`), and the rows folded as one "(other)" row. */
export function counted(counts: CountsByKey, n = Infinity): Counted[] {
  const top = counts.top(n).map(({ key, count }) => ({ key, count }));
  return counts.other > 0 ? [...top, { key: '(other)', count: counts.other }] : top;
}
