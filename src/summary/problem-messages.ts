/**
 * One agent or operator log's section of the summary: its error and warning messages, grouped
 * by level and shape (a record over several lines by its first line: a message written as an
 * error and as a warning is two groups, so no error is counted under a warning's level), each
 * group with its first message as
 * written: the shape masks every number, and a message seen once is best read whole (which
 * member's certificate, which version was not available).
 */
import { firstLineOf } from '../parse/continued-record.js';
import { levelRank, type Level, type LogRecord } from '../parse/log-record.js';
import { BoundedCounts } from './bounded-counts.js';
import { MemberCounts } from './member-counts.js';
import { memberOfPrefix } from './replica-members.js';
import type { RecordSource } from './slowest-operations.js';
import { messageShape } from './message-shape.js';
import type { SectionCounter } from './section-counter.js';
import type { TypeProblems } from './summary.js';
import { cutLine } from './slowest-operations.js';
import { MAX_MEMBERS, MAX_MESSAGE_CHARS, MAX_PROBLEM_MESSAGES, OTHER_MEMBERS } from './summary-limits.js';

const WARN_RANK = levelRank('warn');
/** Ends a group's level in its key (no level or shape holds it). */
const LEVEL_END = '\u0000';
/** Messages listed per log. */
const TOP_PROBLEM_MESSAGES = 10;

/**
 * A message and the error it carries in a field of its own (zap's `error`: the operator's
 * "Reconciler error" is every failure's message, the error says which): grouped by both, or
 * every reconcile failure would be one group with the first one's cause.
 */
export function withCause(message: string, record: LogRecord): string {
  const error = record.attrs?.['error'];
  if (typeof error !== 'string' || error === '' || message.includes(error)) return message;
  const end = error.indexOf('\n');
  return `${message}: ${end < 0 ? error : error.slice(0, end)}`;
}

export class ProblemMessages implements SectionCounter {
  /** `example`: the group's first message, by time (`at`), not by when its record came: several pods' records are held apart and released out of order. */
  /** Past MAX_PROBLEM_MESSAGES groups, warnings' are folded before any error's (a rank by level). */
  readonly #messages = new BoundedCounts<{ readonly level: Level | undefined; example: string; at: number; readonly pods: MemberCounts } | undefined>(
    MAX_PROBLEM_MESSAGES,
    1,
    (value) => (value?.level === undefined ? WARN_RANK : levelRank(value.level)),
  );
  /**
   * The pods the lines came from (kubectl's or stern's prefix), at most MAX_MEMBERS: with
   * several, each message says whose it is (a failing agent is one pod's to fix).
   */
  readonly #pods = new Map<string, { readonly name: string }>();
  /**
   * Each message is led by the log it is about (its record's component: logtype's diagnostics
   * name the followed type, `source`), as in pretty output: "a file read before the restart is
   * not found" says nothing until it says which log lost lines.
   */
  readonly #namesSource: boolean;

  constructor(namesSource = false) {
    this.#namesSource = namesSource;
  }

  add(record: LogRecord, time: number | undefined, level: Level | undefined, rank: number, source?: RecordSource): void {
    if (rank > WARN_RANK) return;
    // A record over several lines is grouped by its first line's words (the rest is often a dump of values).
    // Its level and first words are kept without a closure: one capturing them would be made at every call.
    const words = withCause(firstLineOf(record), record);
    const first = this.#namesSource && record.component !== undefined ? `${record.component}: ${words}` : words;
    const held = this.#messages.add(`${level ?? ''}${LEVEL_END}${messageShape(first)}`);
    // No time (or none read): any message with one is earlier.
    const at = time === undefined || Number.isNaN(time) ? Number.POSITIVE_INFINITY : time;
    if (held.value === undefined) held.value = { level, example: cutLine(first, MAX_MESSAGE_CHARS), at, pods: new MemberCounts() };
    else if (at < held.value.at) {
      held.value.example = cutLine(first, MAX_MESSAGE_CHARS);
      held.value.at = at;
    }
    held.value.pods.add(this.#podOf(source));
  }

  #podOf(source: RecordSource | undefined): { readonly name: string } {
    const prefix = source?.prefix?.source;
    const name = prefix === undefined ? '' : memberOfPrefix(prefix);
    let pod = this.#pods.get(name);
    if (!pod) {
      pod = this.#pods.size < MAX_MEMBERS ? { name } : (this.#pods.get(OTHER_MEMBERS) ?? { name: OTHER_MEMBERS });
      this.#pods.set(pod.name === OTHER_MEMBERS ? OTHER_MEMBERS : name, pod);
    }
    return pod;
  }

  /** The pods its errors and warnings came from ('' for lines that name none). */
  pods(): IterableIterator<string> {
    return this.#pods.keys();
  }

  /**
   * Errors before warnings, then the most frequent: every error's group (errors are what is
   * looked for, as the server's section lists every one), and warnings' up to
   * TOP_PROBLEM_MESSAGES groups in all; what is not listed is counted in `notListed`.
   * `severalPods`: the input's problems came from several pods (this log's perhaps from one: a
   * panic in one pod's agent still says whose it is); by default, this log's came from several.
   */
  top(severalPods?: boolean): Pick<TypeProblems, 'messages' | 'notListed'> {
    const all = this.#messages.top().sort((a, b) => levelRank(a.value!.level!) - levelRank(b.value!.level!) || b.count - a.count);
    const listed = all.filter((m, i) => i < TOP_PROBLEM_MESSAGES || levelRank(m.value!.level!) < WARN_RANK);
    const several = severalPods ?? this.#pods.size > 1;
    const messages = listed.map(({ key, count, value }) => ({ message: key.slice(key.indexOf(LEVEL_END) + 1), level: value!.level!, count, example: value!.example, ...(several ? { members: value!.pods.summary() } : {}) }));
    const rest = all.slice(listed.length);
    // Lines past MAX_PROBLEM_MESSAGES groups were counted without a group of their own.
    const other = this.#messages.other;
    if (rest.length === 0 && other === 0) return { messages };
    return { messages, notListed: { messages: rest.length, lines: rest.reduce((sum, m) => sum + m.count, other), ungrouped: other } };
  }
}
