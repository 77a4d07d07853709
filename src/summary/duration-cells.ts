/**
 * A duration group's cells, as both the text and the page show them: total, count, p50, p95,
 * max; a quantile from a sketch (not exact) is marked `~`.
 */
import type { DurationFigures } from './summary.js';

export function durationCells(g: DurationFigures, millis: (value: number) => string, count: (value: number) => string): string[] {
  const near = g.exactQuantiles ? '' : '~';
  return [millis(g.totalMillis), count(g.count), `${near}${millis(g.p50Millis)}`, `${near}${millis(g.p95Millis)}`, millis(g.maxMillis)];
}
