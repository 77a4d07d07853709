/**
 * Reads selected entries into a Summary: every type's counts (type-stats.ts) and activity
 * (activity-counter.ts), and each record in its format's section (the server's, the audit
 * log's, or its own messages). Memory is bounded (summary-limits.ts), never by lines.
 */
import { logFormat } from '../formats/log-formats.js';
import { levelRank, type LogRecord } from '../parse/log-record.js';
import { ActivityCounter } from './activity-counter.js';
import { AuditSection } from './audit-section.js';
import { isoString } from './iso-string.js';
import type { SectionCounter } from './section-counter.js';
import { ReplicaMembers } from './replica-members.js';
import { ServerSection } from './server-section.js';
import type { RecordSource } from './slowest-operations.js';
import type { Summary } from './summary.js';
import { MAX_OTHER_TYPE_NAMES, MAX_TYPES, OTHER_TYPES } from './summary-limits.js';
import { TypeMarks } from './type-marks.js';
import { TypeStats } from './type-stats.js';
import { runsNewestFirst, totalSteps } from './time-order.js';

export class SummaryCollector {
  readonly #types = new Map<string, TypeStats>();
  /** The row of the types beyond MAX_TYPES, and their names (at most MAX_OTHER_TYPE_NAMES). */
  #otherTypes: TypeStats | undefined;
  readonly #otherTypeNames = new Set<string>();
  #otherTypeNamesCapped = false;
  #lastType: string | undefined;
  #lastStats: TypeStats | undefined;
  readonly #activity = new ActivityCounter();
  /** Made with the first record they count: a section without one is left out of the summary. */
  #server: ServerSection | undefined;
  #audit: AuditSection | undefined;
  /** Which server (pod, or input) each server line is from. */
  readonly #members = new ReplicaMembers();
  /** Agents', the operator's and the audit log's notable events, for the time axis. */
  readonly #marks = new TypeMarks();

  /** The entries that follow are read from this input (a file as given, `-`: stdin), one of `all`: a member when its lines name no pod. */
  input(name: string, all?: readonly string[]): void {
    this.#members.input(name, all);
  }

  /**
   * One selected entry and its record (undefined when its contents did not parse); `stampedAt`:
   * kubectl's time; `source`: the entry, whose contents are read only for the few lines kept whole;
   * `entries`: the entries it was read from (a record over several lines is one record, counted
   * as that many entries, as the lines read are counted).
   */
  add(logType: string, record: LogRecord | undefined, stampedAt?: number, source?: RecordSource, entries = 1): void {
    let stats = logType === this.#lastType ? this.#lastStats : this.#types.get(logType);
    if (!stats) stats = this.#types.size < MAX_TYPES ? this.#newType(logType) : this.#otherType(logType);
    this.#lastType = logType;
    this.#lastStats = stats;
    const time = record?.time ?? stampedAt;
    const level = record?.level;
    const rank = level === undefined ? Infinity : levelRank(level);
    stats.count(entries, record !== undefined, time, level, rank);
    if (time !== undefined && !Number.isNaN(time)) this.#activity.add(time, stats.index, rank);
    if (!record) return;
    (stats.section ??= this.#sectionOf(stats)).add(record, time, level, rank, source);
    // Marked under the row the type is counted in: types past MAX_TYPES share one, so the marks
    // kept stay bounded by MAX_TYPE_MARKS a row whatever the stream's types.
    const markedAs = stats === this.#otherTypes ? OTHER_TYPES : logType;
    if (stats.kind === 'messages') this.#marks.problem(markedAs, record, time, rank);
    else if (stats.kind === 'audit') this.#marks.audit(markedAs, record, time);
    else if (stats.kind === 'server') this.#marks.serverError(markedAs, record, time, rank);
  }

  #newType(logType: string): TypeStats {
    const format = logFormat(logType);
    const stats = new TypeStats(this.#types.size, format?.summary ?? 'messages', format?.problemsFirst === true, format?.writtenBy === 'logtype');
    this.#types.set(logType, stats);
    return stats;
  }

  /** A type beyond MAX_TYPES: counted in the shared row (as a log logtype does not know: by its messages). */
  #otherType(logType: string): TypeStats {
    if (!this.#otherTypeNames.has(logType)) {
      if (this.#otherTypeNames.size < MAX_OTHER_TYPE_NAMES) this.#otherTypeNames.add(logType);
      else this.#otherTypeNamesCapped = true;
    }
    return (this.#otherTypes ??= new TypeStats(MAX_TYPES, 'messages', false));
  }

  #sectionOf(stats: TypeStats): SectionCounter {
    switch (stats.kind) {
      case 'server':
        return (this.#server ??= new ServerSection(this.#members));
      case 'audit':
        return (this.#audit ??= new AuditSection());
      case 'messages':
        return stats.problems;
    }
  }

  summary(lines: Summary['lines']): Summary {
    const known = [...this.#types.entries()].sort((a, b) => b[1].entries - a[1].entries);
    const types = this.#otherTypes ? [...known, [OTHER_TYPES, this.#otherTypes] as const] : known;
    const first = Math.min(...types.map(([, s]) => s.first));
    const last = Math.max(...types.map(([, s]) => s.last));
    const steps = totalSteps(types.map(([, s]) => s.steps));
    const withProblems = types.filter(([, s]) => s.kind === 'messages' && (s.errors > 0 || s.warnings > 0));
    // Problems from several pods in all: each message says whose, in a log only one pod's problems came from too.
    const problemPods = new Set(withProblems.flatMap(([, s]) => [...s.problems.pods()]));
    return {
      ...(runsNewestFirst(steps) ? { newestFirst: { backward: steps.backward, forward: steps.forward } } : {}),
      lines,
      first: isoString(first),
      last: isoString(last),
      types: types.map(([logType, s]) => s.summary(logType)),
      server: this.#server?.summary(Math.max(...types.filter(([, s]) => s.kind === 'server').map(([, s]) => s.last))),
      audit: this.#audit?.summary(),
      problems: withProblems
        .sort(([, a], [, b]) => (a.problemsFirst ? -1 : b.problemsFirst ? 1 : b.errors - a.errors))
        .map(([logType, s]) => s.problemsSummary(logType, problemPods.size > 1)),
      activity: this.#activity.activity(this.#otherTypes ? [...this.#types.keys(), OTHER_TYPES] : [...this.#types.keys()]),
      ...(this.#otherTypes ? { otherTypes: { names: this.#otherTypeNames.size, atLeast: this.#otherTypeNamesCapped } } : {}),
      ...this.#marks.summary(),
    };
  }
}
