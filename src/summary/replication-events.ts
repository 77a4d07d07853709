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
/** Before 4.4, 21215's words: `Member host:27017 is now in state PRIMARY` (a REPL line). */
const TEXT_MEMBER_STATE = /^Member (\S+) is now in state (\w+)/;

/** What a line told of the replica set: this member's state change, another member's state as seen, an election. */
export interface ReplicationEvent {
  readonly kind: 'state' | 'member' | 'election';
  /** This member's change: the state it left (when said) and the one it entered. */
  readonly from?: string | undefined;
  readonly to?: string | undefined;
  /** Its words, made when asked for. */
  readonly words: () => string;
}

export class ReplicationEvents {
  readonly #events: { time: number; event: string; member: string | undefined }[] = [];
  #dropped = 0;

  /** A server line; `election`: its message tells of an election; `member`: whose log it is. What it told, if anything. */
  add(record: LogRecord, time: number | undefined, election: boolean, member?: string): ReplicationEvent | undefined {
    const event = replicationEvent(record, election);
    if (!event) return undefined;
    // Bumped for every event, by 0 or 1 (docs/design.md, "bounds bumped by 0 or 1").
    const room = this.#events.length < MAX_REPLICATION_EVENTS;
    this.#dropped += room ? 0 : 1;
    if (room) this.#events.push({ time: time ?? Number.NaN, event: event.words(), member });
    return event;
  }

  /** What a line said of the replica set that no other line does (a member state at a log rotation, log-rotations.ts), in its words. */
  said(time: number | undefined, event: string, member?: string): void {
    const room = this.#events.length < MAX_REPLICATION_EVENTS;
    this.#dropped += room ? 0 : 1;
    if (room) this.#events.push({ time: time ?? Number.NaN, event, member });
  }

  /** `members`: name each event's member (the input holds several). */
  summary(members = false): ServerSummary['replication'] {
    const events = [...this.#events]
      .sort((a, b) => a.time - b.time)
      .map(({ time, event, member }) => ({ time: isoString(time) ?? null, event, ...(members && member !== undefined ? { member } : {}) }));
    if (this.#dropped > 0) events.push({ time: null, event: `… and ${this.#dropped} more` });
    return events;
  }
}

/**
 * A state change or an election: what it was, its words made when asked for. Every server line
 * asks, so nothing here is captured by a closure: the closures' scopes are made by the small
 * functions below, only for the lines that are events (a captured parameter would make one per call).
 */
function replicationEvent(record: LogRecord, election: boolean): ReplicationEvent | undefined {
  if (record.id === STATE_TRANSITION) return stateChange(attrValue(record, 'oldState'), attrValue(record, 'newState'));
  if (record.id === MEMBER_STATE) return memberState(record);
  if (record.id === undefined) {
    const text = TEXT_TRANSITION.exec(record.message);
    if (text) return stateChange(text[2], text[1]);
    // Asked of REPL lines only: the other text lines pay one comparison.
    const member = record.component === 'REPL' ? TEXT_MEMBER_STATE.exec(record.message) : null;
    if (member) return textMemberState(member[1]!, member[2]!);
  }
  if (election) return electionEvent(record.message);
  return undefined;
}

function stateChange(from: unknown, to: unknown): ReplicationEvent {
  return { kind: 'state', from: typeof from === 'string' ? from : undefined, to: String(to), words: () => `this member: ${String(from)} → ${String(to)}` };
}

function memberState(record: LogRecord): ReplicationEvent {
  return { kind: 'member', words: () => `${String(attrValue(record, 'hostAndPort') ?? 'a member')} is now ${String(attrValue(record, 'newState'))}` };
}

function textMemberState(host: string, state: string): ReplicationEvent {
  return { kind: 'member', words: () => `${host} is now ${state}` };
}

function electionEvent(message: string): ReplicationEvent {
  return { kind: 'election', words: () => `election: ${message}` };
}
