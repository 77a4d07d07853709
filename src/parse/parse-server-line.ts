/**
 * The database server's log: one JSON object a line since 4.4 (`t`, `s`, `c`, `id`, `ctx`,
 * `msg`, `attr`, `tags`, and `truncated`/`size` where an attribute was cut), text before it
 * (`2022-07-29T06:09:45.380+0000 I  NETWORK  [listener] connection accepted …`).
 */
import { asObject, levelOf, parseJsonObject, parseLogTime, type LogRecord } from './log-record.js';

const TEXT_LINE = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:?\d\d)?)\s+([FEWID]\d?)\s+(\S+)\s+\[([^\]]*)\]\s?(.*)$/;

export function parseServerLine(line: string): LogRecord | undefined {
  const json = parseJsonObject(line);
  if (json) {
    if (typeof json['msg'] !== 'string') return undefined;
    const t = asObject(json['t']);
    const date = t?.['$date'];
    const attrs = asObject(json['attr']);
    const truncated = asObject(json['truncated']);
    return {
      time: parseLogTime(typeof date === 'object' && date !== null ? Number((date as Record<string, unknown>)['$numberLong']) : date),
      severity: typeof json['s'] === 'string' ? json['s'] : undefined,
      level: levelOf(typeof json['s'] === 'string' ? json['s'] : undefined),
      component: typeof json['c'] === 'string' ? json['c'] : undefined,
      context: typeof json['ctx'] === 'string' ? json['ctx'] : undefined,
      id: typeof json['id'] === 'number' ? json['id'] : undefined,
      message: json['msg'],
      attrs: truncated ? { ...attrs, truncated, ...(json['size'] === undefined ? {} : { size: json['size'] }) } : attrs,
      tags: Array.isArray(json['tags']) ? json['tags'].map(String) : undefined,
      object: json,
    };
  }
  const text = TEXT_LINE.exec(line);
  if (!text) return undefined;
  return {
    time: parseLogTime(text[1]),
    severity: text[2],
    level: levelOf(text[2]),
    component: text[3],
    context: text[4],
    message: text[5]!,
  };
}

/** A slow operation's figures, from `durationMillis` and its neighbours. */
export interface SlowOperation {
  readonly durationMillis: number;
  readonly ns?: string | undefined;
  readonly plan?: string | undefined;
  readonly type?: string | undefined;
}

export function slowOperationOf(record: LogRecord): SlowOperation | undefined {
  const attrs = record.attrs;
  const duration = attrs?.['durationMillis'];
  if (typeof duration !== 'number') return undefined;
  const text = (key: string) => (typeof attrs?.[key] === 'string' ? (attrs[key] as string) : undefined);
  return { durationMillis: duration, ns: text('ns'), plan: text('planSummary'), type: text('type') };
}
