/**
 * A slow operation's figures, from `durationMillis` and its neighbours: in a 4.4+ line of a
 * slow operation's id (a slow query, an oplog entry applied slowly, a slow transaction), or a
 * text line (no id) that has them. Other lines that time themselves (an index build's phase,
 * a TTL pass, WiredTiger opening, a topology change) are no operation.
 */
import type { LogRecord } from './log-record.js';
import { attrValue } from './record-attributes.js';
import { APPLIED_OP_ID, SLOW_QUERY_ID, SLOW_TRANSACTION_ID } from './server-operation.js';

/** Slow queries, oplog entries applied slowly on secondaries, slow transactions (compared, not looked up: every line asks). */
export const isSlowOperationId = (id: number): boolean => id === SLOW_QUERY_ID || id === APPLIED_OP_ID || id === SLOW_TRANSACTION_ID;

export interface SlowOperation {
  readonly durationMillis: number;
  readonly ns?: string | undefined;
  readonly plan?: string | undefined;
  readonly type?: string | undefined;
}

/**
 * A slow operation's figures; `anyTimed`: those of any line that times itself (pretty output
 * leads every such line with its duration: an index build's phase, WiredTiger opening).
 */
export function slowOperationOf(record: LogRecord, anyTimed = false): SlowOperation | undefined {
  if (!anyTimed && record.id !== undefined && !isSlowOperationId(record.id)) return undefined;
  const duration = attrValue(record, 'durationMillis');
  // A time the server could have written: a number past what a double holds (`1e400` parses to
  // Infinity) or below zero is a damaged line, no duration (charts and totals would be unbounded).
  if (typeof duration !== 'number' || !Number.isFinite(duration) || duration < 0) return undefined;
  const text = (key: string) => {
    const value = attrValue(record, key);
    return typeof value === 'string' ? value : undefined;
  };
  return { durationMillis: duration, ns: text('ns'), plan: text('planSummary'), type: text('type') };
}
