/**
 * What a server line says was done, named as the server names it: a slow operation (51803,
 * and a pre-4.4 line's `command …`/`update …`), an oplog entry a secondary applied (51801,
 * `applied op:`, the replication-apply signal), a slow transaction (51802, `transaction
 * parameters:`). Read from a line slowOperationOf found a duration in.
 *
 * An operation's name is the command's (`find`, `insert`, `update`, `delete`, `aggregate`,
 * `getMore`, `createIndexes`, …) when `attr.type` is `command` (or `none`), else the type
 * itself: a write's statement (`update`, `remove`, whose command starts with its filter `q`)
 * and the legacy opcodes (`query`, `getmore`, `insert`). Never a command's first key that is
 * no command; `?` for a line that names neither. Its namespace is the collection a command on
 * `db.$cmd` names.
 */
import { attrFirstMember, attrObjectMembers, attrValue, type MemberReader } from './record-attributes.js';
import type { LogRecord } from './log-record.js';
import { commandQueryPattern, runsQuery } from './query-pattern.js';
import type { SlowOperation } from './slow-operation.js';

export const SLOW_QUERY_ID = 51803;
export const APPLIED_OP_ID = 51801;
export const SLOW_TRANSACTION_ID = 51802;

/** What kind of work: a client's operation, a secondary applying the oplog, a transaction. */
export type OperationKind = 'operation' | 'applied' | 'transaction';

export interface ServerOperation {
  readonly kind: OperationKind;
  /** As the server names it (above). */
  readonly name: string;
  /** `attr.type` as the line wrote it. */
  readonly type: string | undefined;
  /**
   * The namespace; where the line has none, why: `(truncated)` (the server cut the attribute
   * that held it at its size limit), `(not logged)`, `-` (a transaction's spans namespaces).
   */
  readonly ns: string;
}

export const NS_TRUNCATED = '(truncated)';
export const NS_NOT_LOGGED = '(not logged)';
export const NS_NONE = '-';

/** The oplog's one-letter operations. */
const OPLOG_OPS: Readonly<Record<string, string>> = { i: 'insert', u: 'update', d: 'delete', c: 'command', n: 'noop' };

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function isAppliedOp(record: LogRecord): boolean {
  return record.id === APPLIED_OP_ID || (record.id === undefined && record.message.startsWith('applied op:'));
}

function isTransaction(record: LogRecord): boolean {
  return record.id === SLOW_TRANSACTION_ID || (record.id === undefined && record.message.startsWith('transaction parameters:'));
}

/** True when the server cut one of the line's attributes at its size limit. */
function truncated(record: LogRecord): boolean {
  return attrValue(record, 'truncated') !== undefined;
}

/**
 * The commands whose first member's value is a collection of their database (`find: "orders"`),
 * from the server's command reference (and the oplog's commands on a collection: index builds,
 * `emptycapped`). Any other command's value names no collection
 * (`replSetHeartbeat: "rs0"` names the replica set, `getLog: "startupWarnings"` a log): its
 * line stays on `db.$cmd`.
 */
const COLLECTION_COMMANDS: ReadonlySet<string> = new Set([
  'abortIndexBuild',
  'aggregate',
  'analyzeShardKey',
  'cloneCollectionAsCapped',
  'collMod',
  'collStats',
  'commitIndexBuild',
  'compact',
  'convertToCapped',
  'count',
  'create',
  'createIndexes',
  'createSearchIndexes',
  'delete',
  'distinct',
  'drop',
  'dropIndexes',
  'dropSearchIndex',
  'emptycapped',
  'find',
  'findAndModify',
  'findandmodify',
  'geoSearch',
  'insert',
  'killCursors',
  'listIndexes',
  'listSearchIndexes',
  'mapReduce',
  'mapreduce',
  'planCacheClear',
  'planCacheClearFilters',
  'planCacheListFilters',
  'planCacheSetFilter',
  'reIndex',
  'startIndexBuild',
  'update',
  'updateSearchIndex',
  'validate',
]);

/** `db.$cmd` and a command naming a collection (`update: "orders"`): `db.orders`. */
function commandNamespace(ns: string, command: string | undefined, names: unknown): string {
  return ns.endsWith('.$cmd') && command !== undefined && COLLECTION_COMMANDS.has(command) && typeof names === 'string' && names !== ''
    ? `${ns.slice(0, -'$cmd'.length)}${names}`
    : ns;
}

/** The operation of a line with a duration (`slow`, from slowOperationOf). */
export function serverOperationOf(record: LogRecord, slow: SlowOperation): ServerOperation {
  if (isAppliedOp(record)) return appliedOperation(record);
  if (isTransaction(record)) return { kind: 'transaction', name: 'transaction', type: undefined, ns: NS_NONE };
  const type = slow.type;
  const first = attrFirstMember(record, 'command');
  const byCommand = type === undefined || type === 'command' || type === 'none';
  // A statement's command starts with its filter: `{q: …, u: …}` is no command named `q`.
  const commandName = first && first.key !== 'q' ? first.key : undefined;
  // A command the server did not know it writes as a string: `"command":"unrecognized"`.
  const written = byCommand && first === undefined ? attrValue(record, 'command') : undefined;
  // Neither a type nor a command on the line: what it did is not known.
  const name = byCommand ? (commandName ?? (typeof written === 'string' ? written : undefined) ?? type ?? '?') : type;
  const ns = slow.ns === undefined ? (truncated(record) ? NS_TRUNCATED : NS_NOT_LOGGED) : commandNamespace(slow.ns, commandName, byCommand ? first?.value : undefined);
  return { kind: 'operation', name, type, ns };
}

/**
 * An applied oplog entry: `attr.CRUD` (`op` i, u, d; a batch of inserts has arrays of `ts`
 * and `o` and no `op`) or `attr.command` (`op` c: the command is the first key of `o`).
 * Read from the entry's members where the record can give them (appliedByMembers), as
 * appliedByValues reads them from its parsed value.
 */
function appliedOperation(record: LogRecord): ServerOperation {
  return appliedByMembers(record) ?? appliedByValues(record);
}

/**
 * What appliedByValues says, read from the entry's `op`, `ns` and `o` where they stand, not
 * from its document: an entry is up to 10 KB (a batch of inserts), and parsing it whole made
 * summary of a real secondary's log several times slower. Undefined when the record can't give
 * its members so.
 */
function appliedByMembers(record: LogRecord): ServerOperation | undefined {
  const crud = attrObjectMembers(record, 'CRUD');
  if (crud === undefined) return undefined;
  const entry = crud ?? attrObjectMembers(record, 'command');
  // No entry logged, or one the reader can't give: appliedByValues says what.
  if (!entry) return undefined;
  return appliedEntry(record, entry);
}

function appliedEntry(record: LogRecord, entry: MemberReader): ServerOperation | undefined {
  const written = entry.value('op');
  const op = typeof written === 'string' ? written : undefined;
  let name = op === undefined ? (entry.isArray('o') ? 'insert' : 'operation') : (OPLOG_OPS[op] ?? op);
  const namespace = entry.value('ns');
  let ns = typeof namespace === 'string' ? namespace : undefined;
  if (op === 'c') {
    const first = entry.firstMember('o');
    if (first === undefined) return undefined;
    if (first.member !== undefined) {
      name = first.member.key;
      if (ns !== undefined) ns = commandNamespace(ns, name, first.member.value);
    }
  }
  return { kind: 'applied', name, type: undefined, ns: ns ?? (truncated(record) ? NS_TRUNCATED : NS_NOT_LOGGED) };
}

/** An applied oplog entry read from its parsed value: the reference appliedByMembers answers as. */
export function appliedByValues(record: LogRecord): ServerOperation {
  const crud = attrValue(record, 'CRUD');
  const entry = isObject(crud) ? crud : attrValue(record, 'command');
  if (!isObject(entry)) {
    // A line that logged no entry (`applied op: command { ... }`): its kind is what it says.
    const kind = /^applied op: (\w+)/.exec(record.message)?.[1];
    return { kind: 'applied', name: kind === undefined || kind === 'CRUD' ? 'operation' : kind, type: undefined, ns: truncated(record) ? NS_TRUNCATED : NS_NOT_LOGGED };
  }
  const op = typeof entry['op'] === 'string' ? entry['op'] : undefined;
  const o = entry['o'];
  let name = op === undefined ? (Array.isArray(o) ? 'insert' : 'operation') : (OPLOG_OPS[op] ?? op);
  let ns = typeof entry['ns'] === 'string' ? entry['ns'] : undefined;
  if (op === 'c' && isObject(o)) {
    const command = Object.keys(o)[0];
    if (command !== undefined) {
      name = command;
      if (ns !== undefined) ns = commandNamespace(ns, command, o[command]);
    }
  }
  return { kind: 'applied', name, type: undefined, ns: ns ?? (truncated(record) ? NS_TRUNCATED : NS_NOT_LOGGED) };
}

/** A slow transaction's outcome (`committed`, `aborted`): what tells its kinds apart. */
export function transactionOutcome(record: LogRecord): string | undefined {
  const cause = attrValue(record, 'terminationCause');
  return typeof cause === 'string' ? cause : undefined;
}

/** The pattern of the query the operation ran (query-pattern.ts), read from its command. */
export function operationQueryPattern(record: LogRecord, operation: ServerOperation): string | undefined {
  // Asked before the command is read: most commands run no query, and reading one is most of a slow line's cost.
  if (operation.kind !== 'operation' || !runsQuery(operation.name)) return undefined;
  const needsOrigin = operation.name === 'getMore' || operation.name === 'getmore';
  return commandQueryPattern(operation.name, attrValue(record, 'command'), needsOrigin ? attrValue(record, 'originatingCommand') : undefined);
}
