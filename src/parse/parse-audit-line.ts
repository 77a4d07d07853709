/**
 * Audit events (`atype`, `ts`, `local`, `remote`, `users`, `roles`, `param`, `result`), read as
 * who did what, from where, with what result.
 */
import { asObject, parseJsonObject, parseLogTime, type LogRecord } from './log-record.js';

const RESULTS: Readonly<Record<number, string>> = { 0: 'ok', 13: 'unauthorized', 18: 'authentication failed', 26: 'namespace not found', 276: 'index build aborted' };

function address(value: unknown): string | undefined {
  const at = asObject(value);
  if (!at) return undefined;
  if (at['isSystemUser'] === true) return 'system';
  if (typeof at['unix'] === 'string') return `unix:${at['unix']}`;
  return typeof at['ip'] === 'string' ? `${at['ip']}${at['port'] === undefined ? '' : `:${String(at['port'])}`}` : undefined;
}

function whoActed(users: unknown, param: Record<string, unknown> | undefined): string[] {
  const list = Array.isArray(users) ? users.map(asObject).filter((u) => u !== undefined) : [];
  if (list.length > 0) return list.map((u) => `${String(u['user'])}@${String(u['db'])}`);
  // A failed authentication has no users yet: the name it tried is in param.
  return typeof param?.['user'] === 'string' ? [`${param['user']}@${String(param['db'] ?? '?')}`] : [];
}

/** The words for a result code. */
export function auditResultText(result: number): string {
  return RESULTS[result] ?? `error ${result}`;
}

export function parseAuditLine(line: string): LogRecord | undefined {
  const json = parseJsonObject(line);
  if (!json || typeof json['atype'] !== 'string') return undefined;
  const param = asObject(json['param']);
  const result = typeof json['result'] === 'number' ? json['result'] : undefined;
  const outcome = result === undefined ? '' : ` → ${auditResultText(result)}`;
  const from = address(json['remote']);
  const users = whoActed(json['users'], param);
  return {
    time: parseLogTime(asObject(json['ts'])?.['$date']),
    level: result !== undefined && result !== 0 ? 'warn' : 'info',
    component: json['atype'],
    // Who did what, from where, with what result: the action is the component before it.
    message: `${users.length > 0 ? users.join(',') : 'unauthenticated'}${from ? ` from ${from}` : ''}${outcome}`,
    attrs: { ...(param ? { param } : {}), ...(json['roles'] ? { roles: json['roles'] } : {}) },
    users,
    result,
    remote: from,
    object: json,
  };
}
