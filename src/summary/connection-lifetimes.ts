/**
 * How long client connections lived: each connection opened (22943, a text line's `connection
 * accepted from IP:PORT #N`) is followed by its number and remote until it ends (22944, a text
 * line's `end connection IP:PORT` on `connN`), the server's exit at a shutdown or a restart of it
 * ends it, or the log does.
 * The longest-lived are kept in a min-heap of MAX_LONG_LIVED_CONNECTIONS; at most
 * MAX_OPEN_CONNECTIONS are followed at once (beyond, new ones are only counted). Only
 * connection, client-metadata, start and shutdown-exit lines do this work.
 *
 * A connection is known by its number and its remote together: a server's numbers start again
 * at a restart, and two servers' logs read together (rs1 and rs2) number theirs alike.
 */
import type { TextPlace } from '../parse/text-place.js';
import type { RemoteText } from './client-connections.js';
import { isoString } from './iso-string.js';
import type { LongLivedConnection } from './summary.js';
import { MAX_LONG_LIVED_CONNECTIONS, MAX_OPEN_CONNECTIONS } from './summary-limits.js';
import { TopN } from './top-n.js';

interface Connection {
  readonly connectionId: number;
  readonly remote: string;
  opened: number;
  appName: string | null;
}

/**
 * A connection followed: held by its number, beside those of the same number from other remotes.
 * A class, not an object literal (docs/design.md, "classes for what is made per key").
 */
class Open implements Connection {
  constructor(
    readonly connectionId: number,
    readonly remote: string,
    public opened: number,
    public appName: string | null,
    /** When it was first followed under its number and remote: the order they are met in at a restart and at the end. */
    readonly seq: number,
    /** The next open connection of the same number (another server's, or another client's). */
    public sameNumber: Open | undefined,
  ) {}
}

interface Lived extends Connection {
  readonly closed: number;
  readonly end: LongLivedConnection['end'];
}

const duration = (lived: Lived): number => lived.closed - lived.opened;
const bySeq = (a: Open, b: Open): number => a.seq - b.seq;

/** How many connections are followed now, shared by every member's ConnectionLifetimes. */
export interface OpenBudget {
  open: number;
}

export class ConnectionLifetimes {
  /** Counted with every other member's: MAX_OPEN_CONNECTIONS holds for the whole input. */
  readonly #budget: OpenBudget;

  constructor(budget: OpenBudget = { open: 0 }) {
    this.#budget = budget;
  }

  /**
   * The connections followed, by number (a number key, not a string of number and remote made
   * for every connection line); those of one number from several remotes chained.
   */
  readonly #open = new Map<number, Open>();
  /**
   * How many followed connections have a number of these low 16 bits (up to 255, then 255 for
   * good): most connection lines are of a number not followed (opened before the log began, or
   * past the budget), told here, in a small array that stays in cache, without a lookup in
   * the map of those followed. Never a false "none".
   */
  readonly #byLowBits = new Uint8Array(1 << 16);
  #seq = 0;
  readonly #longest = new TopN<Lived>(MAX_LONG_LIVED_CONNECTIONS, duration);
  #notFollowed = 0;

  /** `remote`: its text, or where it stands in the line in hand (its text is made only for a connection followed). */
  opened(connectionId: number | undefined, remote: RemoteText, time: number | undefined): void {
    if (connectionId === undefined || time === undefined || Number.isNaN(time)) return;
    const first = this.#followed(connectionId);
    const open = findOpen(first, remote);
    // A number and remote opened again without an end between: the first one's end was not logged.
    if (open) {
      open.opened = time;
      open.appName = null;
      return;
    }
    // Bumped for every new connection, by 0 or 1 (docs/design.md, "bounds bumped by 0 or 1").
    const spent = this.#budget.open >= MAX_OPEN_CONNECTIONS;
    this.#notFollowed += spent ? 1 : 0;
    if (spent) return;
    this.#open.set(connectionId, new Open(connectionId, typeof remote === 'string' ? remote : remote.text(), time, null, this.#seq++, first));
    this.#budget.open++;
    const bits = connectionId & 0xffff;
    if (this.#byLowBits[bits]! < 255) this.#byLowBits[bits]!++;
  }

  /** The first followed connection of this number, if any. */
  #followed(connectionId: number): Open | undefined {
    return this.#byLowBits[connectionId & 0xffff] === 0 ? undefined : this.#open.get(connectionId);
  }

  ended(connectionId: number | undefined, remote: RemoteText, time: number | undefined): void {
    if (connectionId === undefined || time === undefined || Number.isNaN(time)) return;
    const open = findOpen(this.#followed(connectionId), remote);
    if (!open) return;
    this.#remove(open);
    this.#keep(open, time, 'closed');
  }

  /** What a connection's client metadata said it was (its line is on the connection's thread). */
  appName(connectionId: number | undefined, remote: RemoteText, appName: string): void {
    if (connectionId === undefined) return;
    const open = findOpen(this.#followed(connectionId), remote);
    if (open) open.appName = appName;
  }

  /** The server started at `time`: the connections opened before it ended with it (rare: the scan of those open is fine). */
  restart(time: number | undefined): void {
    this.#endAll(time, 'restart');
  }

  /** The server logged its exit at `time` (a clean shutdown's last line): the connections opened before it ended with it. */
  shutdown(time: number | undefined): void {
    this.#endAll(time, 'shutdown');
  }

  #endAll(time: number | undefined, end: 'restart' | 'shutdown'): void {
    if (time === undefined || Number.isNaN(time)) return;
    for (const open of this.#allOpen()) {
      if (open.opened > time) continue;
      this.#remove(open);
      this.#keep(open, time, end);
    }
  }

  /** Every connection followed, in the order they were first followed. */
  #allOpen(): Open[] {
    const all: Open[] = [];
    for (const first of this.#open.values()) for (let open: Open | undefined = first; open; open = open.sameNumber) all.push(open);
    return all.sort(bySeq);
  }

  #remove(open: Open): void {
    const first = this.#open.get(open.connectionId)!;
    if (first === open) {
      if (open.sameNumber) this.#open.set(open.connectionId, open.sameNumber);
      else this.#open.delete(open.connectionId);
    } else {
      let before = first;
      while (before.sameNumber !== open) before = before.sameNumber!;
      before.sameNumber = open.sameNumber;
    }
    this.#budget.open--;
    const bits = open.connectionId & 0xffff;
    if (this.#byLowBits[bits]! < 255) this.#byLowBits[bits]!--;
  }

  #keep(open: Open, closed: number, end: Lived['end']): void {
    if (this.#longest.wouldHold(closed - open.opened)) this.#longest.add(lived(open, closed, end));
  }

  /** The longest-lived first; those still open lived to `last` (the last server line's time). */
  summary(last: number): { longLivedConnections: LongLivedConnection[]; connectionsNotFollowed: number } {
    const longest = new TopN<Lived>(MAX_LONG_LIVED_CONNECTIONS, duration);
    for (const lived of this.#longest.items()) longest.add(lived);
    if (Number.isFinite(last)) for (const open of this.#allOpen()) longest.add(lived(open, Math.max(last, open.opened), 'still open'));
    return {
      longLivedConnections: longest.items().map((c) => ({
        connectionId: c.connectionId,
        remote: c.remote,
        appName: c.appName,
        opened: isoString(c.opened)!,
        closed: c.end === 'still open' ? null : (isoString(c.closed) ?? null),
        end: c.end,
        durationMillis: duration(c),
      })),
      connectionsNotFollowed: this.#notFollowed,
    };
  }
}

/** The open connection of this remote among those of one number, from the first of them. */
function findOpen(first: Open | undefined, remote: RemoteText): Open | undefined {
  if (typeof remote === 'string') {
    let open = first;
    while (open !== undefined && open.remote !== remote) open = open.sameNumber;
    return open;
  }
  return findOpenAt(first, remote);
}

function findOpenAt(first: Open | undefined, remote: TextPlace): Open | undefined {
  let open = first;
  while (open !== undefined && !remote.equals(open.remote)) open = open.sameNumber;
  return open;
}

const lived = (open: Open, closed: number, end: Lived['end']): Lived => ({ connectionId: open.connectionId, remote: open.remote, opened: open.opened, appName: open.appName, closed, end });
