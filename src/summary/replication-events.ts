/**
 * Replica-set state changes and elections, in time order: the first MAX_REPLICATION_EVENTS
 * seen are listed, the rest counted. An event's words are made only while the list has room
 * (beyond it, its attributes are never read).
 */
import type { LogRecord } from '../parse/log-record.js';
import { attrValue } from '../parse/record-attributes.js';
import { isoString } from './iso-string.js';
import type { ServerSummary } from './summary.js';
import { MAX_REPLICATION_EVENTS } from './summary-limits.js';

const STATE_TRANSITION = 21358;
const MEMBER_STATE = 21215;
const TEXT_TRANSITION = /transition to (\w+) from (\w+)/i;

export class ReplicationEvents {
  readonly #events: { time: number; event: string }[] = [];
  #dropped = 0;

  /** A server line; `election`: its message tells of an election. */
  add(record: LogRecord, time: number | undefined, election: boolean): void {
    const event = replicationEvent(record, election);
    if (!event) return;
    if (this.#events.length < MAX_REPLICATION_EVENTS) this.#events.push({ time: time ?? Number.NaN, event: event() });
    else this.#dropped++;
  }

  summary(): ServerSummary['replication'] {
    const events = [...this.#events].sort((a, b) => a.time - b.time).map(({ time, event }) => ({ time: isoString(time) ?? null, event }));
    if (this.#dropped > 0) events.push({ time: null, event: `… and ${this.#dropped} more` });
    return events;
  }
}

/** A state change or an election: its words, made when asked for. */
function replicationEvent(record: LogRecord, election: boolean): (() => string) | undefined {
  if (record.id === STATE_TRANSITION || record.id === MEMBER_STATE) {
    const attr = (key: string): unknown => attrValue(record, key);
    return record.id === STATE_TRANSITION
      ? () => `this member: ${String(attr('oldState'))} → ${String(attr('newState'))}`
      : () => `${String(attr('hostAndPort') ?? 'a member')} is now ${String(attr('newState'))}`;
  }
  if (record.id === undefined) {
    const text = TEXT_TRANSITION.exec(record.message);
    if (text) return () => `this member: ${text[2]} → ${text[1]}`;
  }
  if (election) return () => `election: ${record.message}`;
  return undefined;
}
