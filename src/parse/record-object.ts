/**
 * A line as one JSON object, for `-o json` and `--fields`: the line's own object when it was
 * JSON (the server's 4.4+ log, audit events, the operator's log); otherwise its record in the
 * server's shape (`t`, `s`, `c`, `ctx`, `id`, `msg`, `attr`), so one field name means the same
 * thing for a pre-4.4 server line, an agent line and a 4.4+ line.
 */
import type { LogRecord } from './log-record.js';

export function recordObject(record: LogRecord): Readonly<Record<string, unknown>> {
  if (record.object) return record.object;
  const object: Record<string, unknown> = {};
  if (record.time !== undefined) object['t'] = { $date: new Date(record.time).toISOString() };
  if (record.severity !== undefined) object['s'] = record.severity;
  if (record.component !== undefined) object['c'] = record.component;
  if (record.id !== undefined) object['id'] = record.id;
  if (record.context !== undefined) object['ctx'] = record.context;
  object['msg'] = record.message;
  if (record.attrs) object['attr'] = record.attrs;
  return object;
}

/** Field paths (`attr.ns`, `msg`) as given to `--fields`. */
export function parseFieldPaths(list: readonly string[]): string[][] {
  return list.flatMap((value) => value.split(',')).map((path) => path.trim()).filter(Boolean).map((path) => path.split('.'));
}

/** The value at a path, or undefined where the path leads nowhere. */
export function valueAt(object: unknown, path: readonly string[]): unknown {
  let value = object;
  for (const key of path) {
    if (typeof value !== 'object' || value === null) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

/** The object cut down to the paths, nested as they were, so the same paths work downstream. */
export function projectFields(object: unknown, paths: readonly (readonly string[])[]): Record<string, unknown> {
  const projected: Record<string, unknown> = {};
  for (const path of paths) {
    const value = valueAt(object, path);
    if (value === undefined) continue;
    let into = projected;
    for (const key of path.slice(0, -1)) {
      const next = into[key];
      into = (typeof next === 'object' && next !== null ? next : (into[key] = {})) as Record<string, unknown>;
    }
    into[path.at(-1)!] = value;
  }
  return projected;
}
