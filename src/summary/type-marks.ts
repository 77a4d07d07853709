/**
 * The notable events of the logs, to mark on the time axis: the agents' and the operator's
 * errors and warnings (a lost API key, a cluster config that failed to validate, a reconcile
 * that failed), the server's errors, and the audit log's failed events. Kept: the first
 * MAX_TYPE_MARKS of each type, the rest counted. Only lines already known to be errors,
 * warnings or failures are looked at.
 *
 * What a chart draws of them (selectTypeMarks, pure): marks of one type and one level close in
 * time (the same few pixels) are one mark that says how many it stands for; errors first, then
 * warnings, then failures, the earliest first, to a cap; the rest said as "N more".
 */
import { firstLineOf } from '../parse/continued-record.js';
import { levelRank, type LogRecord } from '../parse/log-record.js';
import { isoString } from './iso-string.js';
import { MAX_MARK_LABEL, markLabel } from './mark-label.js';
import { beyondMessage, serverLineWords } from './server-problems.js';
import type { Summary, TypeMark } from './summary.js';
import { MAX_TYPE_MARKS } from './summary-limits.js';

const ERROR_RANK = levelRank('error');
const WARN_RANK = levelRank('warn');

/** A mark kept. A class, not an object literal (docs/design.md, "classes for what is made per key"). */
class Mark {
  constructor(
    readonly logType: string,
    readonly time: number,
    readonly kind: TypeMark['kind'],
    readonly label: string,
  ) {}
}

export class TypeMarks {
  /** Each mark's words made (and cut) when kept: no record is held to the end. */
  readonly #marks: Mark[] = [];
  readonly #kept = new Map<string, number>();
  #notKept = 0;

  /** An agent's or the operator's record of rank `rank` (levelRank; Infinity: none): marked when an error or a warning. */
  problem(logType: string, record: LogRecord, time: number | undefined, rank: number): void {
    if (rank > WARN_RANK || time === undefined || Number.isNaN(time)) return;
    if (this.#room(logType)) this.#marks.push(new Mark(logType, time, rank <= ERROR_RANK ? 'error' : 'warning', markLabel(firstLineOf(record))));
  }

  /**
   * A server line of error or fatal level: marked too, its id, message and attributes its words.
   * The by-severity chart's bars are scaled to a busy server's lines, where one error is no
   * bar at all; a member's lane marks it only where the input has several.
   */
  serverError(logType: string, record: LogRecord, time: number | undefined, rank: number): void {
    if (rank > ERROR_RANK || time === undefined || Number.isNaN(time)) return;
    const beyond = record.id === undefined ? undefined : beyondMessage(record, record.message, undefined, MAX_MARK_LABEL);
    const mark = new Mark(logType, time, 'error', markLabel(`${serverLineWords(record.id ?? null, firstLineOf(record))}${beyond === undefined ? '' : ` (${beyond})`}`));
    if (this.#room(logType)) {
      this.#lastServerMark.set(logType, this.#marks.length);
      this.#marks.push(mark);
      return;
    }
    // Past the bound, the last error takes the place of the one kept last: a server's last
    // words (its fatal line, after hundreds of errors) are marked, the one before counted.
    const last = this.#lastServerMark.get(logType);
    if (last !== undefined) this.#marks[last] = mark;
  }

  /** Where each type's last server error mark is among the marks. */
  readonly #lastServerMark = new Map<string, number>();

  /** An audit record: marked when its result says it failed. */
  audit(logType: string, record: LogRecord, time: number | undefined): void {
    if (record.result === undefined || record.result === 0 || time === undefined || Number.isNaN(time)) return;
    if (this.#room(logType)) {
      const who = record.users?.join(',') || '(unknown user)';
      this.#marks.push(new Mark(logType, time, 'failure', markLabel(`${record.component ?? '?'} failed (result ${record.result}): ${who}${record.remote ? ` from ${record.remote}` : ''}`)));
    }
  }

  #room(logType: string): boolean {
    const kept = this.#kept.get(logType) ?? 0;
    // Bumped for every mark, by 0 or 1 (docs/design.md, "bounds bumped by 0 or 1").
    const room = kept < MAX_TYPE_MARKS;
    this.#notKept += room ? 0 : 1;
    if (room) this.#kept.set(logType, kept + 1);
    return room;
  }

  summary(): Pick<Summary, 'marks' | 'marksNotKept'> {
    if (this.#marks.length === 0) return {};
    return {
      marks: [...this.#marks].sort((a, b) => a.time - b.time).map((m) => ({ logType: m.logType, time: isoString(m.time)!, kind: m.kind, label: m.label })),
      ...(this.#notKept > 0 ? { marksNotKept: this.#notKept } : {}),
    };
  }
}

/** A mark as drawn: one or more of a type's marks of one kind, close in time. */
export interface DrawnTypeMark {
  readonly logType: string;
  readonly kind: TypeMark['kind'];
  /** Epoch ms of the first it stands for. */
  readonly time: number;
  /** How many it stands for, and the first one's words. */
  readonly count: number;
  readonly label: string;
}

const KIND_ORDER: Readonly<Record<TypeMark['kind'], number>> = { error: 0, warning: 1, failure: 2 };

/**
 * The marks a chart draws: those of one type and kind within `closeMs` of the first of their
 * run are one; then, at most `most` of those, shared fairly between each type's errors,
 * warnings and failures (a group with fewer than its share gives the rest to the others), each
 * group's spread evenly over its time, its first and its last among them (the earliest alone
 * would draw a burst at the start and nothing after it); in time order. `left`: how many marks
 * the ones not drawn stood for.
 */
export function selectTypeMarks(marks: readonly TypeMark[], closeMs: number, most: number): { drawn: DrawnTypeMark[]; left: number } {
  const runs = new Map<string, DrawnTypeMark & { count: number }>();
  const all: (DrawnTypeMark & { count: number })[] = [];
  const timed = marks.map((mark) => ({ mark, time: Date.parse(mark.time) })).filter((m) => !Number.isNaN(m.time));
  for (const { mark, time } of timed.sort((a, b) => a.time - b.time)) {
    const key = `${mark.logType}\u0000${mark.kind}`;
    const run = runs.get(key);
    if (run && time - run.time <= closeMs) run.count++;
    else {
      const next = { logType: mark.logType, kind: mark.kind, time, count: 1, label: mark.label };
      runs.set(key, next);
      all.push(next);
    }
  }
  const groups = new Map<string, DrawnTypeMark[]>();
  for (const run of all) {
    const key = `${run.logType}\u0000${run.kind}`;
    const group = groups.get(key);
    if (group) group.push(run);
    else groups.set(key, [run]);
  }
  // Errors' groups first where the budget is less than one a group.
  const ordered = [...groups.values()].sort((a, b) => KIND_ORDER[a[0]!.kind] - KIND_ORDER[b[0]!.kind] || a[0]!.time - b[0]!.time);
  const shares = fairShares(ordered.map((group) => group.length), most);
  const chosen = ordered.flatMap((group, i) => spread(group, shares[i]!));
  const left = all.reduce((n, m) => n + m.count, 0) - chosen.reduce((n, m) => n + m.count, 0);
  return { drawn: chosen.sort((a, b) => a.time - b.time), left };
}

/** `budget` shared between groups of these sizes: each its size or an equal share, what one leaves going to the others, the first groups the odd ones. */
export function fairShares(sizes: readonly number[], budget: number): number[] {
  const shares = sizes.map(() => 0);
  let left = budget;
  let open = sizes.map((_, i) => i);
  while (left > 0 && open.length > 0) {
    const each = Math.max(1, Math.floor(left / open.length));
    for (const i of open) {
      if (left === 0) break;
      const give = Math.min(each, sizes[i]! - shares[i]!, left);
      shares[i]! += give;
      left -= give;
    }
    open = open.filter((i) => shares[i]! < sizes[i]!);
  }
  return shares;
}

/** `count` of `items` (in time order) spread evenly over them, the first and the last among them. */
function spread<T>(items: readonly T[], count: number): T[] {
  if (count >= items.length) return [...items];
  if (count <= 0) return [];
  if (count === 1) return [items[0]!];
  const picked: T[] = [];
  for (let i = 0; i < count; i++) picked.push(items[Math.round((i * (items.length - 1)) / (count - 1))]!);
  return picked;
}
