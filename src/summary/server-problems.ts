/**
 * Every warning and error message of the server, each in a row of its own whatever its count:
 * grouped by id (a pre-4.4 text line's by its template), with how many, the worst severity
 * it was written at, and its first and last time. Only warning, error and fatal lines come
 * here; past MAX_SERVER_PROBLEMS messages, the least severe and least frequent are folded
 * into one "(other)" row (heavy-rows.ts: a fatal line after 600 warnings keeps its row). With
 * several members in the input, each message says how many of its lines each member wrote.
 */
import { HeavyRows, missed } from './heavy-rows.js';
import { isoString } from './iso-string.js';
import type { ServerSummary } from './summary.js';
import { MemberCounts, type Member } from './member-counts.js';
import { cutLine } from './slowest-operations.js';
import { MAX_MESSAGE_CHARS, MAX_SERVER_PROBLEMS } from './summary-limits.js';

interface ProblemStats {
  readonly id: number | null;
  readonly msg: string;
  severity: string;
  rank: number;
  count: number;
  first: number;
  last: number;
  readonly members: MemberCounts;
}

const newStats = (id: number | null, msg: string, severity: string, rank: number): ProblemStats => ({
  id,
  msg,
  severity,
  rank,
  count: 0,
  first: Number.POSITIVE_INFINITY,
  last: Number.NEGATIVE_INFINITY,
  members: new MemberCounts(),
});

export class ServerProblems {
  readonly #messages = new HeavyRows<number | string, ProblemStats>(MAX_SERVER_PROBLEMS, newStats(null, '(other)', '', Number.POSITIVE_INFINITY), {
    weight: (p) => p.count,
    rank: (p) => p.rank,
    fold: (other, p) => {
      other.count += p.count;
      if (p.first < other.first) other.first = p.first;
      if (p.last > other.last) other.last = p.last;
    },
  });

  /** A line at warning level or worse: its group's key, id and message (the template of a text line), severity, its rank (levelRank) and its member. */
  add(key: number | string, id: number | null, msg: string, severity: string, rank: number, time: number | undefined, member: Member): void {
    const stats = this.#messages.get(key) ?? this.#messages.row(key, () => newStats(id, msg, severity, rank));
    stats.count++;
    stats.members.add(member);
    if (rank < stats.rank) {
      stats.rank = rank;
      stats.severity = severity;
    }
    widen(stats, time);
  }

  /** The worst severity first, then the most frequent; `several`: the input holds several members (each row then says whose lines). */
  summary(several = false): ServerSummary['problems'] {
    const rows: ServerSummary['problems'][number][] = [...this.#messages.entries()]
      .sort(({ row: a }, { row: b }) => a.rank - b.rank || b.count - a.count || a.first - b.first)
      .map(({ row: p, before }) => ({ id: p.id, msg: cutLine(p.msg, MAX_MESSAGE_CHARS), severity: p.severity, count: p.count, first: isoString(p.first) ?? null, last: isoString(p.last) ?? null, ...missed(before), ...(several ? { members: p.members.summary() } : {}) }));
    const other = this.#messages.other;
    if (this.#messages.otherKeys > 0) rows.push({ id: null, msg: '(other)', severity: '', count: other.count, first: isoString(other.first) ?? null, last: isoString(other.last) ?? null });
    return rows;
  }
}

function widen(range: { first: number; last: number }, time: number | undefined): void {
  if (time === undefined || Number.isNaN(time)) return;
  if (time < range.first) range.first = time;
  if (time > range.last) range.last = time;
}
