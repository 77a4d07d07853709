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
import type { LogRecord } from '../parse/log-record.js';
import { deepJsonText } from '../render/json-text.js';
import type { ServerSummary } from './summary.js';
import { MemberCounts, type Member } from './member-counts.js';
import { cutLine } from './slowest-operations.js';
import { MAX_MESSAGE_CHARS, MAX_SERVER_PROBLEMS } from './summary-limits.js';

interface ProblemStats {
  readonly id: number | null;
  readonly msg: string;
  /** What its first line says beyond the message (beyondMessage: cut already); undefined: nothing. */
  example: string | undefined;
  severity: string;
  rank: number;
  count: number;
  first: number;
  last: number;
  readonly members: MemberCounts;
}

const newStats = (id: number | null, msg: string, severity: string, rank: number, example?: string): ProblemStats => ({
  id,
  msg,
  example,
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

  /**
   * A line at warning level or worse: its group's key, id and message (the template of a text
   * line), severity, its rank (levelRank) and its member; its record, message as written and
   * template, read for a group's first line only: what it says beyond the message (why: a
   * warning's `error` attribute).
   */
  add(key: number | string, id: number | null, msg: string, severity: string, rank: number, time: number | undefined, member: Member, record: Pick<LogRecord, 'attrs'>, message: string, template: string | undefined): void {
    const stats = this.#messages.get(key) ?? this.#messages.row(key, () => newStats(id, msg, severity, rank, beyondMessage(record, message, template)));
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
      .map(({ row: p, before }) => ({
        id: p.id,
        msg: cutLine(p.msg, MAX_MESSAGE_CHARS),
        ...(p.example === undefined ? {} : { example: p.example }),
        severity: p.severity,
        count: p.count,
        first: isoString(p.first) ?? null,
        last: isoString(p.last) ?? null,
        ...missed(before),
        ...(several ? { members: p.members.summary() } : {}),
      }));
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

/**
 * What a server line says beyond its message, shown under its group: a 4.4+ line's attributes
 * (a warning's `error`, WiredTiger's `message`), each `name: value` with the value as JSON
 * (`error: {"code":6,"codeName":"HostUnreachable"}, line: 65`); a text line as written, where
 * its group's template masked it. Undefined where it says nothing more. At most `maxChars`
 * characters, `…` where cut: an attribute of megabytes (a command's documents) is never
 * written whole to be cut.
 */
export function beyondMessage(record: Pick<LogRecord, 'attrs'>, message: string, template: string | undefined, maxChars = MAX_MESSAGE_CHARS): string | undefined {
  if (template !== undefined) return template === message ? undefined : cutLine(message, maxChars);
  const attrs = record.attrs;
  if (attrs === undefined) return undefined;
  let text = '';
  for (const [name, value] of Object.entries(attrs)) {
    const room = maxChars - text.length;
    if (room <= 0) break;
    text += `${text === '' ? '' : ', '}${name}: ${deepJsonText(value, 0, Number.POSITIVE_INFINITY, room) ?? 'null'}`;
  }
  return text === '' ? undefined : cutLine(text, maxChars);
}

/** A server line's words where it is marked (a member's lane, the time charts): its id and message. */
export const serverLineWords = (id: number | null, message: string): string => (id === null ? message : `${id}: ${message}`);
