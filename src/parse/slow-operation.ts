/** A slow operation's figures, from `durationMillis` and its neighbours, in any server line that has them. */
import type { LogRecord } from './log-record.js';
import { attrValue } from './record-attributes.js';

export interface SlowOperation {
  readonly durationMillis: number;
  readonly ns?: string | undefined;
  readonly plan?: string | undefined;
  readonly type?: string | undefined;
}

export function slowOperationOf(record: LogRecord): SlowOperation | undefined {
  const duration = attrValue(record, 'durationMillis');
  if (typeof duration !== 'number') return undefined;
  const text = (key: string) => {
    const value = attrValue(record, key);
    return typeof value === 'string' ? value : undefined;
  };
  return { durationMillis: duration, ns: text('ns'), plan: text('planSummary'), type: text('type') };
}
