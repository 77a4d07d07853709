/**
 * A query's pattern, as mtools and Hatchet show a slow operation's shape: the filter's keys
 * with their values replaced (`{email: 1, status: 1}`), then its sort and projection where it
 * has them (`{status: 1} sort {created: -1}`). Two queries that differ only in their values
 * have one pattern. Read from a command object (a 4.4+ line's `attr.command`, or a pre-4.4
 * line's read from the shell's notation).
 *
 * As mtools does: keys sorted; a comparison, `$in` or `$exists` on a field is that field's
 * value (`{age: {$gt: 30}}` is `{age: 1}`); other operators keep their name (`{a: {$ne: 1}}`);
 * `$or`/`$and`/`$nor` list their branches' patterns; an extended-JSON value (`{"$oid": …}`), an
 * array of values, a regular expression are one value.
 */

import { jsonText } from '../render/json-text.js';

/** Operators on a field that make its pattern the field alone. */
const VALUE_OPERATORS = new Set(['$eq', '$in', '$gt', '$gte', '$lt', '$lte', '$exists']);
/** Operators whose array holds sub-queries. */
const BRANCHES = new Set(['$or', '$and', '$nor']);
/** Longest pattern kept: a pattern is for reading. */
const MAX_PATTERN_CHARS = 200;
/**
 * Levels of a filter read at the most: each level writes at least 4 characters (`{a: `), so no
 * level past this is ever seen in a pattern of MAX_PATTERN_CHARS, and a filter nested thousands
 * deep (a damaged or hostile line) is read no further than it is shown.
 */
const MAX_PATTERN_DEPTH = MAX_PATTERN_CHARS / 4 + 1;

/** `0`: a level past MAX_PATTERN_DEPTH, not read (written `…`). */
type Shape = 0 | 1 | { readonly [key: string]: Shape } | readonly Shape[];

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Extended JSON's wrappers of one value (and a regular expression's legacy `$regex`/`$options`). */
const EXTENDED_VALUES = new Set([
  '$oid', '$date', '$numberLong', '$numberInt', '$numberDouble', '$numberDecimal', '$binary', '$uuid', '$regularExpression',
  '$regex', '$options', '$timestamp', '$minKey', '$maxKey', '$symbol', '$code', '$scope', '$dbPointer', '$undefined',
]);

/** One value of extended JSON (`{"$oid": …}`, `{"$date": …}`), not a sub-document. */
function isExtendedValue(object: Record<string, unknown>): boolean {
  const keys = Object.keys(object);
  return keys.length > 0 && keys.every((key) => EXTENDED_VALUES.has(key));
}

function shapeOf(value: unknown, depth = 0): Shape {
  if (!isObject(value) || isExtendedValue(value)) return 1;
  if (depth >= MAX_PATTERN_DEPTH) return 0;
  const shape: Record<string, Shape> = {};
  for (const key of Object.keys(value).sort()) {
    const field = value[key];
    if (BRANCHES.has(key) && Array.isArray(field)) shape[key] = field.map((branch) => shapeOf(branch, depth + 1));
    else if (VALUE_OPERATORS.has(key)) return 1;
    else shape[key] = shapeOf(field, depth + 1);
  }
  return shape;
}

/** A sort or projection: its keys and values as they are (`{created: -1}`, `{name: 1, _id: 0}`). */
function asWritten(value: Record<string, unknown>, depth = 0): string {
  if (depth >= MAX_PATTERN_DEPTH) return '…';
  return `{${Object.entries(value).map(([key, field]) => `${keyText(key)}: ${isObject(field) ? asWritten(field, depth + 1) : jsonText(field)}`).join(', ')}}`;
}

function keyText(key: string): string {
  return /^[$\w.-]+$/.test(key) ? key : JSON.stringify(key);
}

function shapeText(shape: Shape): string {
  if (shape === 0) return '…';
  if (shape === 1) return '1';
  if (Array.isArray(shape)) return `[${shape.map(shapeText).join(', ')}]`;
  return `{${Object.entries(shape as Record<string, Shape>).map(([key, field]) => `${keyText(key)}: ${shapeText(field)}`).join(', ')}}`;
}

/** The pattern of a filter, with a sort and a projection where given. */
export function queryPattern(filter: unknown, sort?: unknown, projection?: unknown): string {
  let pattern = shapeText(isObject(filter) ? shapeOf(filter) : {});
  if (isObject(sort) && Object.keys(sort).length > 0) pattern += ` sort ${asWritten(sort)}`;
  if (isObject(projection) && Object.keys(projection).length > 0) pattern += ` projection ${asWritten(projection)}`;
  return pattern.length > MAX_PATTERN_CHARS ? `${pattern.slice(0, MAX_PATTERN_CHARS)}…` : pattern;
}

/**
 * The operations that run a query, by name: those commandQueryPattern reads a pattern from.
 * Any other's pattern is none whatever its command, so its command need not be read at all
 * (most slow lines without a queryHash are server commands: replSetUpdatePosition, hello).
 */
const QUERYING_OPERATIONS = new Set(['find', 'count', 'distinct', 'findAndModify', 'findandmodify', 'update', 'remove', 'delete', 'aggregate', 'query', 'getMore', 'getmore']);

/** True when an operation named `name` may have a query pattern (commandQueryPattern is undefined for any other). */
export function runsQuery(name: string): boolean {
  return QUERYING_OPERATIONS.has(name);
}

/**
 * The pattern of the query an operation runs, by the operation's name (server-operation.ts)
 * and its command; undefined for an operation that runs none (insert, a server command).
 * A getMore's is its originating command's.
 */
export function commandQueryPattern(name: string, command: unknown, originatingCommand?: unknown): string | undefined {
  if (!isObject(command)) return undefined;
  switch (name) {
    case 'find':
      return queryPattern(command['filter'], command['sort'], command['projection']);
    case 'count':
    case 'distinct':
      return queryPattern(command['query']);
    case 'findAndModify':
    case 'findandmodify':
      return queryPattern(command['query'], command['sort'], command['fields']);
    // A statement of a write: its filter is `q`.
    case 'update':
    case 'remove':
    case 'delete':
      return 'q' in command ? queryPattern(command['q']) : undefined;
    case 'aggregate':
      return pipelinePattern(command['pipeline']);
    case 'query':
      return queryPattern(command['$query'] ?? command['query'] ?? command['filter'] ?? command, command['$orderby'] ?? command['sort']);
    case 'getMore':
    case 'getmore': {
      if (!isObject(originatingCommand)) return undefined;
      const origin = Object.keys(originatingCommand)[0];
      return origin === undefined || origin === 'getMore' ? undefined : commandQueryPattern(origin, originatingCommand);
    }
    default:
      return undefined;
  }
}

/** An aggregation's: its first `$match`, and its `$sort`. */
function pipelinePattern(pipeline: unknown): string | undefined {
  if (!Array.isArray(pipeline) || pipeline.length === 0) return undefined;
  const stage = (name: string): unknown => pipeline.find((s) => isObject(s) && name in s)?.[name as never];
  const match = stage('$match');
  const sort = stage('$sort');
  return match === undefined && sort === undefined ? undefined : queryPattern(match ?? {}, sort);
}
