/**
 * A client connection opened or ended, as a 4.4+ server says it (ids 22943 and 22944, with
 * `connectionCount`) and as an older one did in text (`connection accepted from … (68
 * connections now open)`, `end connection … (67 connections now open)`): counted the same way,
 * as `grep -c 'connection accepted'` and `grep -c 'end connection'` count a text log.
 */
import type { LogRecord } from './log-record.js';
import { attrNumber } from './record-attributes.js';
import { ServerRecord } from './server-record.js';
import { textConnectionEvent } from './server-text-line.js';

export const CONNECTION_ACCEPTED_ID = 22943;
export const CONNECTION_ENDED_ID = 22944;

export interface ConnectionEvent {
  readonly opened: boolean;
  /** Connections open after it, when the line says. */
  readonly open: number | undefined;
}

/** The line's connection event; undefined for any other line. Text lines are asked only when they are the network's. */
export function connectionEventOf(record: LogRecord): ConnectionEvent | undefined {
  const id = record.id;
  if (id === CONNECTION_ACCEPTED_ID || id === CONNECTION_ENDED_ID) return { opened: id === CONNECTION_ACCEPTED_ID, open: attrNumber(record, 'connectionCount') };
  if (id !== undefined || record.component !== 'NETWORK') return undefined;
  return textConnectionEvent(record.message);
}

/** `conn123`: 123; undefined for a thread that is no connection's. */
export function connectionNumber(context: string | undefined): number | undefined {
  if (context === undefined || !context.startsWith('conn')) return undefined;
  const n = Number(context.slice(4));
  return Number.isInteger(n) && context.length > 4 ? n : undefined;
}

/**
 * connectionNumber of the record's thread; a server line read by its head answers from the
 * context's bytes (ServerRecord.contextNumber), without making the context's string.
 */
export function threadConnectionNumber(record: LogRecord): number | undefined {
  if (record instanceof ServerRecord) {
    const number = record.contextNumber();
    if (number !== null) return number;
  }
  return connectionNumber(record.context);
}
