/**
 * A replica set's members on one time axis, derived from what each member's own log said: its
 * lane (the state it was in, from its first line to its last, segment by segment) and who was
 * primary when (the members whose lanes say PRIMARY, interval by interval). Pure: the summary
 * gives the few events it kept, these say what they mean.
 *
 * A lane starts in an unknown state: the first state change's old state (21358's `oldState`, a
 * text line's `from X`) tells what it was, back to the member's first line. A restart ends the
 * state the member was in: from its last line before the start (when that was a pause of
 * DOWN_GAP_MS or more) it was down, and from the start line its state is unknown until the next
 * change tells (whose old state then names the whole unknown stretch, the start's lines included).
 */

export const UNKNOWN_STATE = 'unknown';
export const DOWN_STATE = 'down';
export const PRIMARY_STATE = 'PRIMARY';

/** A pause shorter than this between a member's last line and a start line is the start's own lines, not the member down. */
export const DOWN_GAP_MS = 1000;

export interface StateChange {
  /** Epoch ms. */
  readonly time: number;
  /** The state it left, when the line says. */
  readonly from: string | undefined;
  readonly to: string;
}

export interface MemberRestart {
  /** The start line's time, epoch ms. */
  readonly time: number;
  /** The member's last line before it (NaN: none). */
  readonly before: number;
}

/** [from, to): the member was in `state`. */
export interface StateSegment {
  readonly from: number;
  readonly to: number;
  readonly state: string;
}

/**
 * A member's lane from its first to its last line (epoch ms): its segments in time order, none
 * empty, no two neighbours in the same state. Events without a time are left out; a change or a
 * restart outside [first, last] is taken at the nearer end.
 */
export function laneSegments(first: number, last: number, changes: readonly StateChange[], restarts: readonly MemberRestart[]): StateSegment[] {
  if (!(first <= last)) return [];
  type Event = { readonly time: number; readonly change?: StateChange; readonly restart?: MemberRestart };
  const events: Event[] = [...changes.map((change): Event => ({ time: change.time, change })), ...restarts.map((restart): Event => ({ time: restart.time, restart }))]
    .filter((e) => Number.isFinite(e.time))
    // At one time, a restart before a change: the start comes before what it leads to.
    .sort((a, b) => a.time - b.time || Number(a.restart === undefined) - Number(b.restart === undefined));
  const segments: StateSegment[] = [];
  let from = first;
  let state = UNKNOWN_STATE;
  const close = (to: number, next: string): void => {
    if (to > from) {
      const previous = segments[segments.length - 1];
      if (previous && previous.state === state && previous.to === from) segments[segments.length - 1] = { from: previous.from, to, state };
      else segments.push({ from, to, state });
      from = to;
    }
    state = next;
  };
  for (const event of events) {
    const time = Math.min(last, Math.max(first, event.time));
    if (event.change) {
      // The state it left names what the unknown stretch behind it was.
      if (state === UNKNOWN_STATE && event.change.from !== undefined) state = event.change.from;
      close(time, event.change.to);
    } else {
      const before = event.restart!.before;
      if (Number.isFinite(before) && before >= from && time - before >= DOWN_GAP_MS) {
        close(before, DOWN_STATE);
        close(time, UNKNOWN_STATE);
      } else if (state !== UNKNOWN_STATE) close(time, UNKNOWN_STATE);
      // A start right after the member's first lines (or after lines whose state was not known):
      // those lines were the start's, one unknown stretch with what follows.
    }
  }
  close(last, state);
  return segments;
}

export interface MemberLane {
  readonly member: string;
  readonly segments: readonly StateSegment[];
  /** Its log ends with its exit: down after its last line, not unknown. */
  readonly exited?: boolean;
}

/** [from, to): the members whose lanes said PRIMARY (two or more: each claimed it), and those whose state was not known. */
export interface PrimaryInterval {
  readonly from: number;
  readonly to: number;
  /** In the lanes' order; empty: none said it was primary. */
  readonly primaries: readonly string[];
  /** Where none said PRIMARY: the members whose state there is not known, or whose log does not cover it (the answer may be one of them); empty beside a primary. */
  readonly unknown: readonly string[];
  /** True where no member's log covers the interval (between one's end and another's start): nothing is known. */
  readonly uncovered?: true;
}

/**
 * Who was primary when, from the lanes alone: the time from the first lane's start to the last
 * one's end cut where any lane changes, each piece with the members that said PRIMARY there and
 * those whose state was unknown (where none said PRIMARY, those whose log does not cover the
 * piece too); neighbours alike are one interval. Where no member's log covers the time, the
 * interval says so (`uncovered`): a gap in the table would read as no time at all.
 */
export function primaryTimeline(lanes: readonly MemberLane[]): PrimaryInterval[] {
  const cuts = [...new Set(lanes.flatMap((lane) => lane.segments.flatMap((s) => [s.from, s.to])))].sort((a, b) => a - b);
  const at = lanes.map(() => 0);
  const intervals: PrimaryInterval[] = [];
  for (let i = 0; i + 1 < cuts.length; i++) {
    const from = cuts[i]!;
    const to = cuts[i + 1]!;
    const primaries: string[] = [];
    const unknown: string[] = [];
    // The same, and the members whose log does not cover the piece (it begins a little later in a
    // window cut by --since, or ended): where none said PRIMARY, they may have been.
    const unknownOrUncovered: string[] = [];
    let covered = false;
    lanes.forEach((lane, l) => {
      const segments = lane.segments;
      while (at[l]! < segments.length && segments[at[l]!]!.to <= from) at[l]!++;
      const segment = segments[at[l]!];
      if (!segment && lane.exited && segments.length > 0) {
        // After its exit: known down, neither primary nor unknown.
        covered = true;
        return;
      }
      if (!segment || segment.from > from) {
        unknownOrUncovered.push(lane.member);
        return;
      }
      covered = true;
      if (segment.state === PRIMARY_STATE) primaries.push(lane.member);
      else if (segment.state === UNKNOWN_STATE) {
        unknown.push(lane.member);
        unknownOrUncovered.push(lane.member);
      }
    });
    // "None" only where every member's log covers the time. Where one said PRIMARY, that is the
    // answer: a member whose state is not known there (its log beginning later, or not saying)
    // neither changes it nor cuts the interval (a reports trial: two rows alike, "my-rs-0").
    if (primaries.length === 0) unknown.splice(0, unknown.length, ...unknownOrUncovered);
    else unknown.length = 0;
    const previous = intervals[intervals.length - 1];
    if (previous && previous.to === from && sameMembers(previous.primaries, primaries) && sameMembers(previous.unknown, unknown) && (previous.uncovered === true) === !covered) intervals[intervals.length - 1] = { ...previous, to };
    else intervals.push(covered ? { from, to, primaries, unknown } : { from, to, primaries, unknown, uncovered: true });
  }
  return intervals;
}

const sameMembers = (a: readonly string[], b: readonly string[]): boolean => a.length === b.length && a.every((m, i) => m === b[i]);
