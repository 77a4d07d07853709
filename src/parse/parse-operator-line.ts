/**
 * The operator's own log (zap JSON: `level`, `ts`, `caller`, `msg`, the resource as
 * `ReplicaSet: namespace/name`, errors with `stacktrace`), and the sidecar's pino diagnostics.
 */
import type { RecordReader } from './record-reader.js';
import { levelOf, parseJsonObject, parseLogTime, type LogRecord } from './log-record.js';

const FIELDS = new Set(['level', 'ts', 'caller', 'msg', 'logger']);
/** The keys the operator names the resource it reconciles by, `namespace/name`. */
const RESOURCE_KEYS = ['ReplicaSet', 'MongoDB', 'ShardedCluster', 'Standalone', 'MongoDBOpsManager', 'MongoDBUser', 'MongoDBMultiCluster', 'resource'];

function resourceOf(json: Record<string, unknown>): string | undefined {
  for (const key of RESOURCE_KEYS) if (typeof json[key] === 'string') return json[key];
  return undefined;
}

/** Looks like the operator's zap line: read without a flag when it is piped in. */
export function isOperatorObject(json: Record<string, unknown>): boolean {
  return typeof json['msg'] === 'string' && typeof json['level'] === 'string' && json['ts'] !== undefined;
}

export function parseOperatorLine(line: string): LogRecord | undefined {
  const json = parseJsonObject(line);
  if (!json || !isOperatorObject(json)) return undefined;
  const attrs = Object.fromEntries(Object.entries(json).filter(([key]) => !FIELDS.has(key)));
  return {
    time: parseLogTime(json['ts']),
    severity: json['level'] as string,
    level: levelOf(json['level'] as string),
    component: typeof json['caller'] === 'string' ? json['caller'] : undefined,
    message: json['msg'] as string,
    attrs,
    resource: resourceOf(json),
    object: json,
  };
}

const PINO_FIELDS = new Set(['level', 'time', 'msg', 'logType']);

export function parseDiagnosticLine(line: string): LogRecord | undefined {
  const json = parseJsonObject(line);
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

export const operatorRecordReader: RecordReader = { text: parseOperatorLine };

/** The sidecar's own diagnostics (pino). */
export const diagnosticRecordReader: RecordReader = { text: parseDiagnosticLine };
