/**
 * Audit events (`atype`, `ts`, `local`, `remote`, `users`, `roles`, `param`, `result`), read as
 * who did what, from where, with what result.
 */
import { parseIsoMillis } from './iso-time.js';
import type { RecordReader } from './record-reader.js';
import { asObject, parseJsonObject, type Level, type LineSource, type LogRecord } from './log-record.js';
import { extendedJsonDate, parseLogTime } from './log-time.js';

const RESULTS: Readonly<Record<number, string>> = { 0: 'ok', 13: 'unauthorized', 18: 'authentication failed', 26: 'namespace not found', 276: 'index build aborted' };

function address(value: unknown): string | undefined {
  const at = asObject(value);
  if (!at) return undefined;
  if (at['isSystemUser'] === true) return 'system';
  if (typeof at['unix'] === 'string') return `unix:${at['unix']}`;
  return typeof at['ip'] === 'string' ? `${at['ip']}${at['port'] === undefined ? '' : `:${String(at['port'])}`}` : undefined;
}

function whoActed(users: unknown, param: Record<string, unknown> | undefined): string[] {
  // A loop, not map and filter: asked twice for every failed event, and their callbacks made a
  // larger function for V8 to compile.
  const names = userNames(users);
  if (names.length > 0) return names;
  // A failed authentication has no users yet: the name it tried is in param.
  if (typeof param?.['user'] === 'string') return [`${param['user']}@${String(param['db'] ?? '?')}`];
  // A logout (5.0+) has none left: who logged out is in param.initialUsers.
  return userNames(param?.['initialUsers']);
}

/** `[{user, db}, …]` as `user@db` names. */
function userNames(users: unknown): string[] {
  const names: string[] = [];
  if (Array.isArray(users))
    for (let i = 0; i < users.length; i++) {
      const u = asObject(users[i]);
      if (u) names.push(`${String(u['user'])}@${String(u['db'])}`);
    }
  return names;
}

/** The words for a result code. */
export function auditResultText(result: number): string {
  return RESULTS[result] ?? `error ${result}`;
}

/**
 * An event read by its type, time and result; who, from where and with what is read from its
 * object on first use. Most events are counted by the first three alone (summary), so the
 * object is then never parsed.
 */
class AuditRecord implements LogRecord {
  readonly time: number | undefined;
  readonly level: Level;
  readonly component: string;
  readonly result: number | undefined;
  readonly #source: LineSource;
  #object: Record<string, unknown> | undefined;

  constructor(atype: string, time: number | undefined, result: number | undefined, source: LineSource, object?: Record<string, unknown>) {
    this.component = atype;
    this.time = time;
    this.result = result;
    this.level = result !== undefined && result !== 0 ? 'warn' : 'info';
    this.#source = source;
    this.#object = object;
  }

  get object(): Record<string, unknown> {
    // The head and the end matched the server's compact JSON: the rest parses (or is {}).
    this.#object ??= parseJsonObject(this.#source.contents) ?? {};
    return this.#object;
  }

  get users(): string[] {
    return whoActed(this.object['users'], asObject(this.object['param']));
  }

  get remote(): string | undefined {
    return address(this.object['remote']);
  }

  /** Who did what, from where, with what result: the action is the component before it. */
  get message(): string {
    const users = this.users;
    const from = this.remote;
    const outcome = this.result === undefined ? '' : ` → ${auditResultText(this.result)}`;
    return `${users.length > 0 ? users.join(',') : 'unauthenticated'}${from ? ` from ${from}` : ''}${outcome}`;
  }

  get attrs(): Record<string, unknown> {
    const { param, roles } = this.object;
    return { ...(asObject(param) ? { param } : {}), ...(roles ? { roles } : {}) };
  }
}

/** An audit event outside an entry (an audit log read as it is). */
export function isAuditObject(json: Record<string, unknown>): boolean {
  return typeof json['atype'] === 'string' && asObject(json['ts'])?.['$date'] !== undefined;
}

export function parseAuditLine(line: string): LogRecord | undefined {
  const json = parseJsonObject(line);
  if (!json || typeof json['atype'] !== 'string') return undefined;
  const result = typeof json['result'] === 'number' ? json['result'] : undefined;
  return new AuditRecord(json['atype'], extendedJsonDate(asObject(json['ts'])?.['$date']), result, { contents: line }, json);
}

/** The head and the end of an event as they stand in an entry's contents literal (escaped once more). */
const ESCAPED_HEAD = /^\{\\"atype\\":\\"([^"\\]+)\\",\\"ts\\":\{\\"\$date\\":\\"([^"\\]+)\\"\},/;
const ESCAPED_RESULT = /,\\"result\\":(\d+)\}$/;
const ESCAPED_TIME_AT = '{\\"atype\\":\\"'.length + '\\",\\"ts\\":{\\"$date\\":\\"'.length;

/**
 * An event from inside an entry's contents literal (still escaped), read by its head and its
 * result without decoding it; undefined when it is not in the server's compact shape (then
 * parse the contents). `source.contents` decodes the literal, once for every user.
 */
export function parseEscapedAuditLine(literal: string, source: LineSource): LogRecord | undefined {
  const head = ESCAPED_HEAD.exec(literal);
  const end = head && ESCAPED_RESULT.exec(literal);
  if (!head || !end) return undefined;
  const at = ESCAPED_TIME_AT + head[1]!.length;
  const time = parseIsoMillis(literal, at, at + head[2]!.length) ?? parseLogTime(head[2]);
  return new AuditRecord(head[1]!, time, Number(end[1]), source);
}

/** Audit events; inside an entry's literal, read by their head and result while they are in the server's compact shape. */
export const auditRecordReader: RecordReader = {
  text: parseAuditLine,
  bytes: (source, _start, _end, escaped) => {
    const literal = escaped ? source.escapedContents : undefined;
    return literal === undefined ? undefined : parseEscapedAuditLine(literal, source);
  },
};
