/**
 * Wall-clock times in the process's zone, as a person types them (`--since 2026-03-29T02:30`):
 * around a change of offset a wall-clock time names no instant (the hour the clocks skip) or
 * two (the hour they repeat). JavaScript's Date takes the offset before the change for both,
 * which for a skipped time is an instant after some of the times that follow it (02:30 in
 * Berlin's skipped hour is 03:30): a selection from it would leave out 03:00-03:30.
 */

/** A wall-clock time's fields: month from 1. */
export interface WallClock {
  readonly year: number;
  readonly month: number;
  readonly day: number;
  readonly hours: number;
  readonly minutes: number;
  readonly seconds: number;
  readonly millis: number;
}

export interface LocalInstants {
  /** The instants (ms since the epoch) whose local time is the wall-clock time, earliest first: none, one or two. */
  readonly instants: readonly number[];
  /** With none (a skipped time): the first instant after the skip, whose local time is past the wall-clock time. */
  readonly gapEnd?: number;
}

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** The zone's offset at an instant, in ms (east of UTC positive). */
function offsetAt(instant: number): number {
  return -new Date(instant).getTimezoneOffset() * 60_000;
}

function isWallClock(instant: number, wall: number): boolean {
  return instant + offsetAt(instant) === wall;
}

/** The instants `clock` names in the process's zone (TZ). */
export function localInstants(clock: WallClock): LocalInstants {
  // The wall-clock time as if it were UTC: an instant is it when instant + its offset equals this.
  // setUTCFullYear, not Date.UTC: Date.UTC takes years 0-99 for 1900-1999.
  const date = new Date(0);
  date.setUTCFullYear(clock.year, clock.month - 1, clock.day);
  date.setUTCHours(clock.hours, clock.minutes, clock.seconds, clock.millis);
  const wall = date.getTime();
  // A zone's offsets a day before and after: any change near the time lies between them.
  const offsets = [...new Set([offsetAt(wall - DAY_MS), offsetAt(wall), offsetAt(wall + DAY_MS)])];
  const instants = [...new Set(offsets.map((offset) => wall - offset))].filter((instant) => isWallClock(instant, wall)).sort((a, b) => a - b);
  if (instants.length > 0) return { instants };
  // Skipped: the change lies between the instants the offsets give; its first instant after it is found by halving.
  const candidates = offsets.map((offset) => wall - offset);
  let low = Math.min(...candidates);
  let high = Math.max(...candidates);
  // Invariant: local(low) is before the wall-clock time, local(high) after it.
  while (high - low > 1) {
    const middle = Math.floor((low + high) / 2);
    if (middle + offsetAt(middle) < wall) low = middle;
    else high = middle;
  }
  return { instants: [], gapEnd: high };
}

/**
 * Instants around which the zone's offset is one, known so by the last look: no local time
 * in them is repeated. Offsets equal 3 h before and after an instant mean no change between
 * (no zone changes twice in 6 h), so no local time within 1 h of it repeats one within a
 * change of up to 2 h (every zone's is 1 h or less, Troll's 2 h).
 */
const steady = { from: Number.NaN, to: Number.NaN };

/**
 * Whether the local time at `ms` is one the clocks show twice (the hour they go back): written
 * without its offset, it could be either. Cheap where no change is near (a comparison).
 */
export function isRepeatedLocalTime(ms: number): boolean {
  if (ms >= steady.from && ms <= steady.to) return false;
  const offset = offsetAt(ms);
  if (offsetAt(ms - 3 * HOUR_MS) === offset && offsetAt(ms + 3 * HOUR_MS) === offset) {
    steady.from = ms - HOUR_MS;
    steady.to = ms + HOUR_MS;
    return false;
  }
  const date = new Date(ms + offset);
  const clock = { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate(), hours: date.getUTCHours(), minutes: date.getUTCMinutes(), seconds: date.getUTCSeconds(), millis: date.getUTCMilliseconds() };
  return localInstants(clock).instants.length > 1;
}
