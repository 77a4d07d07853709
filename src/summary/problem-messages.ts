/**
 * One agent or operator log's section of the summary: its error and warning messages, grouped
 * by shape (a record over several lines by its first line).
 */
import { firstLineOf } from '../parse/continued-record.js';
import { levelRank, type Level, type LogRecord } from '../parse/log-record.js';
import { BoundedCounts } from './bounded-counts.js';
import { messageShape } from './message-shape.js';
import type { SectionCounter } from './section-counter.js';
import type { TypeProblems } from './summary.js';
import { MAX_PROBLEM_MESSAGES } from './summary-limits.js';

const WARN_RANK = levelRank('warn');
/** Messages listed per log. */
const TOP_PROBLEM_MESSAGES = 10;

export class ProblemMessages implements SectionCounter {
  readonly #messages = new BoundedCounts<Level | undefined>(MAX_PROBLEM_MESSAGES);

  add(record: LogRecord, _time: number | undefined, level: Level | undefined, rank: number): void {
    if (rank > WARN_RANK) return;
    // A record over several lines is grouped by its first line's words (the rest is often a dump of values).
    // Its level is kept without a closure: one capturing `level` would be made at every call, for every line.
    const held = this.#messages.add(messageShape(firstLineOf(record)));
    if (held && held.value === undefined) held.value = level;
  }

  /** Errors before warnings, then the most frequent. */
  top(): TypeProblems['messages'] {
    return this.#messages
      .top()
      .sort((a, b) => levelRank(a.value!) - levelRank(b.value!) || b.count - a.count)
      .slice(0, TOP_PROBLEM_MESSAGES)
      .map(({ key, count, value }) => ({ message: key, level: value!, count }));
  }
}
