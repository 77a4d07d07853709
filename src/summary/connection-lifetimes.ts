/**
 * How long client connections lived: each connection opened (22943, a text line's `connection
 * accepted from IP:PORT #N`) is followed by its number and remote until it ends (22944, a text
 * line's `end connection IP:PORT` on `connN`), a restart of the server ends it, or the log does.
 * The longest-lived are kept in a min-heap of MAX_LONG_LIVED_CONNECTIONS; at most
 * MAX_OPEN_CONNECTIONS are followed at once (beyond, new ones are only counted). Only
 * connection, client-metadata and start lines do this work.
 *
 * A connection is known by its number and its remote together: a server's numbers start again
 * at a restart, and two servers' logs read together (rs1 and rs2) number theirs alike.
 */
import { isoString } from './iso-string.js';
import type { LongLivedConnection } from './summary.js';
import { MAX_LONG_LIVED_CONNECTIONS, MAX_OPEN_CONNECTIONS } from './summary-limits.js';
import { TopN } from './top-n.js';

interface Open {
  readonly connectionId: number;
  readonly remote: string;
  readonly opened: number;
  appName: string | null;
}

interface Lived extends Open {
  readonly closed: number;
  readonly end: LongLivedConnection['end'];
}

const duration = (lived: Lived): number => lived.closed - lived.opened;
const keyOf = (connectionId: number, remote: string): string => `${connectionId} ${remote}`;

/** `conn123`: 123; undefined for a thread that is no connection's. */
export function connectionNumber(context: string | undefined): number | undefined {
  if (context === undefined || !context.startsWith('conn')) return undefined;
  const n = Number(context.slice(4));
  return Number.isInteger(n) && context.length > 4 ? n : undefined;
}

export class ConnectionLifetimes {
  readonly #open = new Map<string, Open>();
  readonly #longest = new TopN<Lived>(MAX_LONG_LIVED_CONNECTIONS, duration);
  #notFollowed = 0;

  opened(connectionId: number | undefined, remote: string, time: number | undefined): void {
    if (connectionId === undefined || time === undefined || Number.isNaN(time)) return;
    const key = keyOf(connectionId, remote);
    // A number and remote opened again without an end between: the first one's end was not logged.
    if (!this.#open.has(key) && this.#open.size >= MAX_OPEN_CONNECTIONS) {
      this.#notFollowed++;
      return;
    }
    this.#open.set(key, { connectionId, remote, opened: time, appName: null });
  }

  ended(connectionId: number | undefined, remote: string, time: number | undefined): void {
    if (connectionId === undefined || time === undefined || Number.isNaN(time)) return;
    const key = keyOf(connectionId, remote);
    const open = this.#open.get(key);
    if (!open) return;
    this.#open.delete(key);
    this.#keep(open, time, 'closed');
  }

  /** What a connection's client metadata said it was (its line is on the connection's thread). */
  appName(connectionId: number | undefined, remote: string, appName: string): void {
    if (connectionId === undefined) return;
    const open = this.#open.get(keyOf(connectionId, remote));
    if (open) open.appName = appName;
  }

  /** The server started at `time`: the connections opened before it ended with it (rare: the scan of those open is fine). */
  restart(time: number | undefined): void {
    if (time === undefined || Number.isNaN(time)) return;
    for (const [key, open] of this.#open) {
      if (open.opened > time) continue;
      this.#open.delete(key);
      this.#keep(open, time, 'restart');
    }
  }

  #keep(open: Open, closed: number, end: Lived['end']): void {
    if (this.#longest.wouldHold(closed - open.opened)) this.#longest.add({ ...open, closed, end });
  }

  /** The longest-lived first; those still open lived to `last` (the last server line's time). */
  summary(last: number): { longLivedConnections: LongLivedConnection[]; connectionsNotFollowed: number } {
    const longest = new TopN<Lived>(MAX_LONG_LIVED_CONNECTIONS, duration);
    for (const lived of this.#longest.items()) longest.add(lived);
    if (Number.isFinite(last)) for (const open of this.#open.values()) longest.add({ ...open, closed: Math.max(last, open.opened), end: 'still open' });
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
