/**
 * The server's log rotations, and what it wrote at each: a log that begins at a rotation (a
 * rotated file, a container's log cut by a rotator) has no start lines, and these are the only
 * lines that say its version and, in a replica set, its member state. Before 4.4, mongod writes
 * at a rotation (logProcessDetailsForLogRotate, on SIGUSR1 or the logRotate command): `pid=N
 * port=N 64-bit host=H`, then, in a replica set, `Replica Set Config: {…}` and `Replica Set Member
 * State: PRIMARY`, then `db version v4.2.11` and the rest of its build info, all CONTROL lines.
 * What a rotation did not write (no member state: no replica set) is not said.
 *
 * Only those CONTROL text lines are read (a start's `MongoDB starting : pid=…` is not a rotation's).
 */
import type { LogRecord } from '../parse/log-record.js';
import { isoString } from './iso-string.js';
import type { ServerSummary } from './summary.js';
import { KeptEvents } from './kept-events.js';
import { MAX_LOG_ROTATIONS } from './summary-limits.js';

/** A rotation's lines come within this of its first (they are written at once). */
const ROTATION_LINES_MS = 10_000;
const TEXT_ROTATION = /^pid=\d+ port=\d+ /;
const TEXT_MEMBER_STATE = 'Replica Set Member State: ';
const TEXT_VERSION = /^db version v(\S+)/;

/** What a rotation's line said. */
export type RotationLine = { readonly kind: 'rotation' } | { readonly kind: 'state'; readonly state: string } | { readonly kind: 'version'; readonly version: string };

/** A text CONTROL line a rotation writes, read; undefined for any other line (one test of the component for most). */
export function rotationLine(record: LogRecord): RotationLine | undefined {
  if (record.id !== undefined || record.component !== 'CONTROL') return undefined;
  const message = record.message;
  if (TEXT_ROTATION.test(message)) return { kind: 'rotation' };
  if (message.startsWith(TEXT_MEMBER_STATE)) return { kind: 'state', state: message.slice(TEXT_MEMBER_STATE.length).trim() };
  const version = TEXT_VERSION.exec(message)?.[1];
  return version === undefined ? undefined : { kind: 'version', version };
}

/** One rotation as it is followed: its time, and what its lines said. */
export interface Rotation {
  readonly at: number;
  version: string | null;
  memberState: string | null;
  /** The member's log begins with it (no line of the member before it, or none more than ROTATION_LINES_MS before). */
  readonly atLogStart: boolean;
}

export class LogRotations {
  readonly #kept = new KeptEvents<Rotation>(MAX_LOG_ROTATIONS);

  /** A rotation's first line at `time` of `member`, whose first line was at `first`: the member's rotation now. */
  begin(time: number | undefined, member: string, first: number): Rotation {
    const at = time ?? Number.NaN;
    const rotation: Rotation = { at, version: null, memberState: null, atLogStart: at - first < ROTATION_LINES_MS };
    this.#kept.keep(rotation, member);
    return rotation;
  }

  /**
   * A state or version line of the member whose last rotation is `last`: what that rotation
   * said, when it comes with it (the same words at a start are the start's). Whether it was taken.
   */
  add(line: RotationLine, time: number | undefined, last: Rotation | undefined): boolean {
    if (!last || !(Math.abs((time ?? Number.NaN) - last.at) < ROTATION_LINES_MS)) return false;
    if (line.kind === 'state' && last.memberState === null) last.memberState = line.state;
    else if (line.kind === 'version' && last.version === null) last.version = line.version;
    else return false;
    return true;
  }

  /** `several`: name each one's member. */
  summary(several: boolean): Pick<ServerSummary, 'logRotations' | 'logRotationsNotKept'> {
    return {
      logRotations: this.#kept.inTimeOrder().map(({ event: rotation, member }) => ({
        time: isoString(rotation.at) ?? null,
        version: rotation.version,
        memberState: rotation.memberState,
        ...(several ? { member } : {}),
        ...(rotation.atLogStart ? { atLogStart: true as const } : {}),
      })),
      logRotationsNotKept: this.#kept.notKept,
    };
  }
}
