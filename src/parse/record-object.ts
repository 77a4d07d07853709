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

/** What `--fields` reads of a line: its record's object, or for a line that is no record, its entry (`logType`, `contents`). */
export function fieldsObject(record: LogRecord | undefined, logType: string, contents: string): Readonly<Record<string, unknown>> {
  return record ? recordObject(record) : { logType, contents };
}

/** Field paths (`attr.ns`, `msg`) as given to `--fields`. */
export function parseFieldPaths(list: readonly string[]): string[][] {
  return list.flatMap((value) => value.split(',')).map((path) => path.trim()).filter(Boolean).map((path) => path.split('.'));
}

/**
 * The value at a path, or undefined where the path leads nowhere. Only a line's own members
 * are looked at: `__proto__`, `constructor` or `toString` name a line's key of that name, never
 * what every object inherits.
 */
export function valueAt(object: unknown, path: readonly string[]): unknown {
  let value = object;
  for (const key of path) {
    if (typeof value !== 'object' || value === null || !Object.hasOwn(value, key)) return undefined;
    // An array's members are its indexes (`users.0`): its `length` is no field of the line.
    if (Array.isArray(value) && !ARRAY_INDEX.test(key)) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

/** An index as a path names it: digits, no leading zero. */
const ARRAY_INDEX = /^(?:0|[1-9]\d*)$/;

/** Sets a member as the line's own, whatever its name (an assignment to `__proto__` would set the object's prototype). */
function setOwn(object: object, key: string, value: unknown): void {
  Object.defineProperty(object, key, { value, writable: true, enumerable: true, configurable: true });
}

/**
 * The object cut down to the paths, nested as they were, so the same paths work downstream: an
 * array stays an array (`users.0.user` gives `{"users":[{"user":…}]}`, the indexes before it
 * null, as jq writes a sparse array).
 */
export function projectFields(object: unknown, paths: readonly (readonly string[])[]): Record<string, unknown> {
  const projected: Record<string, unknown> = {};
  const arrays: unknown[][] = [];
  for (const path of paths) {
    const value = valueAt(object, path);
    if (value === undefined) continue;
    let into = projected;
    let from = object;
    for (const key of path.slice(0, -1)) {
      from = (from as Record<string, unknown>)[key];
      const next = Object.hasOwn(into, key) ? into[key] : undefined;
      if (typeof next === 'object' && next !== null) into = next as Record<string, unknown>;
      else {
        const made: unknown[] | Record<string, unknown> = Array.isArray(from) ? [] : {};
        if (Array.isArray(made)) arrays.push(made);
        setOwn(into, key, made);
        into = made as Record<string, unknown>;
      }
    }
    setOwn(into, path.at(-1)!, value);
  }
  // The holes of the arrays made here as null (JSON.stringify writes them so; a renderer that iterates would skip them).
  for (const array of arrays) for (let i = 0; i < array.length; i++) if (!(i in array)) array[i] = null;
  return projected;
}
