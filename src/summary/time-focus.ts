/**
 * Where most of the lines are, when a few lie far from them: two audit lines of 2022 in a
 * seven-minute incident of 2024 make every chart span two years, the incident one bar. The
 * summary then says where the bulk is and how to chart it alone (`--since`, `--until`); the
 * charts keep every line (nothing is hidden without being asked).
 */
import { isoString } from './iso-string.js';
import type { TimeFocus } from './summary.js';

/** The share of the timed lines the bulk holds at least. */
export const FOCUS_SHARE = 0.99;
/** The bulk is told only when the lines' whole span is this many times its own or more. */
export const FOCUS_RATIO = 10;
/** Nor when the whole span is under this many minutes: such charts are readable as they are. */
export const FOCUS_MIN_SPAN_MINUTES = 60;

const MINUTE_MS = 60_000;

/**
 * The shortest run of minutes that holds FOCUS_SHARE of the lines, from `counts` (minute, lines)
 * in ascending minute order; undefined when the whole span is not FOCUS_RATIO times that run or
 * more (or under FOCUS_MIN_SPAN_MINUTES). Ties go to the earliest run.
 */
export function timeFocus(counts: readonly (readonly [minute: number, lines: number])[]): TimeFocus | undefined {
  if (counts.length < 2) return undefined;
  const firstMinute = counts[0]![0];
  const lastMinute = counts[counts.length - 1]![0];
  const span = lastMinute - firstMinute + 1;
  if (span < FOCUS_MIN_SPAN_MINUTES) return undefined;
  let total = 0;
  for (const [, lines] of counts) total += lines;
  const need = Math.ceil(total * FOCUS_SHARE);
  // Two pointers: for each start, the first end whose run holds `need`.
  let best: { from: number; to: number; lines: number } | undefined;
  let held = 0;
  let end = -1;
  for (let start = 0; start < counts.length; start++) {
    while (held < need && end + 1 < counts.length) held += counts[++end]![1];
    if (held < need) break;
    const from = counts[start]![0];
    const to = counts[end]![0];
    if (!best || to - from < best.to - best.from) best = { from, to, lines: held };
    held -= counts[start]![1];
  }
  if (!best || span < FOCUS_RATIO * (best.to - best.from + 1)) return undefined;
  let before = 0;
  let after = 0;
  for (const [minute, lines] of counts) {
    if (minute < best.from) before += lines;
    else if (minute > best.to) after += lines;
  }
  return {
    from: isoString(best.from * MINUTE_MS)!,
    // The end of the run's last minute: `--until` takes the lines at or before it.
    to: isoString((best.to + 1) * MINUTE_MS - 1)!,
    lines: best.lines,
    before,
    after,
  };
}
