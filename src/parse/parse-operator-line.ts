/**
 * The operator's own log, in both shapes it has had: zap's JSON (`level`, `ts` as ISO 8601 or
 * a float of epoch seconds, `caller`, `msg`, the resource as `ReplicaSet: namespace/name`,
 * errors with `stacktrace`) and zap's console format (zap-console-line.ts); and the sidecar's
 * pino diagnostics.
 */
import { jsonObjectAt } from './json-members.js';
import type { RecordReader } from './record-reader.js';
import { levelOf, type LogRecord } from './log-record.js';
import { parseLogTime } from './log-time.js';
import { isZapConsoleLine, parseZapConsoleLine, resourceOf } from './zap-console-line.js';
import { isKlogLine, parseKlogLine } from './klog-line.js';
import { parseJson } from './json-value.js';

const FIELDS = new Set(['level', 'ts', 'caller', 'msg', 'logger']);

/** Looks like the operator's zap line: read without a flag when it is piped in. */
export function isOperatorObject(json: Record<string, unknown>): boolean {
  return typeof json['msg'] === 'string' && typeof json['level'] === 'string' && json['ts'] !== undefined;
}

/**
 * The JSON object a line starts with, and what follows it on the line when a second record was
 * glued on (two writers on one stream): undefined when the line does not start with one.
 */
export function leadingObject(line: string): { readonly object: Record<string, unknown>; readonly glued: string | undefined } | undefined {
  if (line.charCodeAt(0) !== 0x7b) return undefined;
  try {
    const value = parseJson(line);
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) return { object: value as Record<string, unknown>, glued: undefined };
  } catch {
    // Not one object: perhaps two glued together, read below.
  }
  const read = jsonObjectAt(line, 0);
  if (!read) return undefined;
  const rest = line.slice(read.end).trim();
  return { object: read.object, glued: rest === '' ? undefined : rest };
}

function parseOperatorJson(line: string): LogRecord | undefined {
  const read = leadingObject(line);
  const json = read?.object;
  if (!json || !isOperatorObject(json)) return undefined;
  const attrs = Object.fromEntries(Object.entries(json).filter(([key]) => !FIELDS.has(key)));
  if (read.glued !== undefined) attrs['glued'] = read.glued;
  return {
    time: parseLogTime(json['ts']),
    severity: json['level'] as string,
    level: levelOf(json['level'] as string),
    component: typeof json['caller'] === 'string' ? json['caller'] : typeof json['logger'] === 'string' ? json['logger'] : undefined,
    context: typeof json['caller'] === 'string' && typeof json['logger'] === 'string' ? json['logger'] : undefined,
    message: json['msg'] as string,
    attrs,
    resource: resourceOf(json),
    object: json,
  };
}

/** An operator line in either shape. */
export function parseOperatorLine(line: string): LogRecord | undefined {
  return line.charCodeAt(0) === 0x7b ? parseOperatorJson(line) : (parseZapConsoleLine(line) ?? parseKlogLine(line));
}

/**
 * The version-change hook's caller, in its own package (`versionhook/main.go:39`), after the
 * time and the level (and a logger's name, were it given one).
 */
const VERSION_HOOK_CALLER = /^\S+[\t ]+\S+[\t ]+(?:\S+[\t ]+)?versionhook\/\S*:\d+(?:[\t ]|$)/;

/** True for a console line the version-change hook wrote. */
export function isVersionHookLine(line: string): boolean {
  return isZapConsoleLine(line) && VERSION_HOOK_CALLER.test(line);
}

/** True for a console line of the operator's: zap's console shape, not the hook's; or client-go's klog line. */
export function isOperatorConsoleLine(line: string): boolean {
  return (isZapConsoleLine(line) && !VERSION_HOOK_CALLER.test(line)) || isKlogLine(line);
}

const PINO_FIELDS = new Set(['level', 'time', 'msg', 'logType']);

export function parseDiagnosticLine(line: string): LogRecord | undefined {
  const read = leadingObject(line);
  const json = read?.object;
  if (!json || typeof json['level'] !== 'number' || typeof json['msg'] !== 'string') return undefined;
  return {
    time: parseLogTime(json['time']),
    severity: String(json['level']),
    level: levelOf(json['level']),
    component: typeof json['source'] === 'string' ? json['source'] : undefined,
    message: json['msg'],
    attrs: Object.fromEntries(Object.entries(json).filter(([key]) => !PINO_FIELDS.has(key) && key !== 'source')),
    object: json,
  };
}

/** The operator's lines, JSON or console. */
export const operatorRecordReader: RecordReader = { text: parseOperatorLine };

/** The version-change hook's lines (zap console). */
export const versionHookRecordReader: RecordReader = { text: parseZapConsoleLine };

/** The sidecar's own diagnostics (pino). */
export const diagnosticRecordReader: RecordReader = { text: parseDiagnosticLine };
