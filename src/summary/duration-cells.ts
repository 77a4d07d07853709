/**
 * A duration group's cells, as both the text and the page show them: total, count, p50, p95,
 * max; a quantile from a sketch (not exact) is marked `~`.
 */
import { groupedNumber } from '../render/grouped-number.js';
import { RELATIVE_ACCURACY } from './duration-quantiles.js';
import type { DurationFigures } from './summary.js';
import { MAX_GROUP_DURATIONS } from './summary-limits.js';

export function durationCells(g: DurationFigures, millis: (value: number) => string, count: (value: number) => string): string[] {
  const near = g.exactQuantiles ? '' : '~';
  return [millis(g.totalMillis), count(g.count), `${near}${millis(g.p50Millis)}`, `${near}${millis(g.p95Millis)}`, millis(g.maxMillis)];
}

/** What `~` means, said under a table where a group's quantiles are sketched (undefined where none is); `what`: the table's things. */
export function sketchNote(groups: readonly DurationFigures[], what: 'operations' | 'entries'): string | undefined {
  if (groups.every((g) => g.exactQuantiles)) return undefined;
  return `~: within ${RELATIVE_ACCURACY * 100}% (a group of more than ${groupedNumber(MAX_GROUP_DURATIONS)} ${what} keeps a sketch of its durations)`;
}
