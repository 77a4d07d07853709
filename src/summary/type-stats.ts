/** What summary counts of every type: entries, first and last time, rate, errors, warnings, lines that did not parse. */
import type { SummarySection } from '../formats/log-format.js';
import { levelRank, type Level } from '../parse/log-record.js';
import { MINUTE_MS } from './activity-counter.js';
import { isoString } from './iso-string.js';
import { ProblemMessages } from './problem-messages.js';
import type { SectionCounter } from './section-counter.js';
import { TimeStepCounter } from './time-order.js';
import type { TypeProblems, TypeSummary } from './summary.js';

const ERROR_RANK = levelRank('error');

export class TypeStats {
  /** The type's place in the order types were first seen. */
  readonly index: number;
  /** The section its records are counted in (its format's; a type logtype does not know: its messages). */
  readonly kind: SummarySection;
  /** The section's counter, from its first record on. */
  section: SectionCounter | undefined;
  /** Its errors and warnings by message, when its section is `messages`. */
  readonly problems: ProblemMessages;
  /** Its problems lead the list of problems. */
  readonly problemsFirst: boolean;
  entries = 0;
  first = Infinity;
  last = -Infinity;
  errors = 0;
  warnings = 0;
  unparsed = 0;
  /** Its consecutive lines' steps in time: does the input run newest first (time-order.ts)? */
  readonly steps = new TimeStepCounter();

  /** `namesSource`: its messages are said of a log each (logtype's own: `source` names it). */
  constructor(index: number, kind: SummarySection, problemsFirst: boolean, namesSource = false) {
    this.index = index;
    this.problems = new ProblemMessages(namesSource);
    this.kind = kind;
    this.problemsFirst = problemsFirst;
  }

  /**
   * One record, read from `entries` entries (more than one: a record over several lines): parsed
   * or not, its time where known (NaN: none), its level and that level's rank. Its errors and
   * warnings count once.
   */
  count(entries: number, parsed: boolean, time: number | undefined, level: Level | undefined, rank: number): void {
    this.entries += entries;
    if (!parsed) this.unparsed++;
    if (time !== undefined && !Number.isNaN(time)) {
      if (time < this.first) this.first = time;
      if (time > this.last) this.last = time;
      this.steps.step(time);
    }
    if (rank <= ERROR_RANK) this.errors++;
    else if (level === 'warn') this.warnings++;
  }

  summary(logType: string): TypeSummary {
    const spanMinutes = (this.last - this.first) / MINUTE_MS;
    return {
      logType,
      entries: this.entries,
      first: isoString(this.first),
      last: isoString(this.last),
      perMinute: Number.isFinite(spanMinutes) ? perMinuteShown(this.entries, spanMinutes) : undefined,
      errors: this.errors,
      warnings: this.warnings,
      unparsed: this.unparsed,
    };
  }

  /** `severalPods`: ProblemMessages.top's. */
  problemsSummary(logType: string, severalPods?: boolean): TypeProblems {
    return { logType, errors: this.errors, warnings: this.warnings, ...this.problems.top(severalPods) };
  }
}

/**
 * Entries a minute over a span (at least a minute), as shown: a tenth's precision from one a
 * minute up, two significant digits below, so a type that wrote a few lines over days does
 * not read as silent (0) beside the busy ones.
 */
export function perMinuteShown(entries: number, spanMinutes: number): number {
  const rate = entries / Math.max(1, spanMinutes);
  if (rate >= 1 || rate === 0) return Math.round(rate * 10) / 10;
  return Number(rate.toPrecision(2));
}
