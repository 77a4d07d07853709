/**
 * A line a log shipper or store wrapped in a record of its own, as it comes back out of it:
 * Docker's json-file log and Fluent Bit's records (`{"log":"<line>\n","stream":…}`, with the
 * fields its filters added: our fluent-bit.yaml adds `logType` beside `log`), logcli's
 * `--output jsonl` (`{"labels":{…},"line":"<line>","timestamp":…}`), Vector's (`message`).
 * Exported from Elasticsearch or Loki, our own pipeline's records have this shape.
 */

import { logFormat } from '../formats/log-formats.js';
import { isStampTime, type LinePrefix } from './line-prefix.js';

/** The keys shippers keep the line under, in the order looked at. */
const LINE_KEYS = ['log', 'line', 'message'] as const;

/**
 * The line a shipper's record wraps (its runtime's trailing newline taken off), or undefined
 * when the object is no such record: it has `contents` (an entry), or none of the line keys
 * holds a string.
 */
export function shippedLine(object: Record<string, unknown>): string | undefined {
  if (typeof object['contents'] === 'string') return undefined;
  for (const key of LINE_KEYS) {
    const value = object[key];
    if (typeof value !== 'string') continue;
    return value.endsWith('\r\n') ? value.slice(0, -2) : value.endsWith('\n') ? value.slice(0, -1) : value;
  }
  return undefined;
}

/** The keys of Docker's json-file records (`attrs` with `--log-opt labels`/`env`). */
const DOCKER_KEYS = new Set(['log', 'stream', 'time', 'attrs']);

/**
 * Whether the object is a record of Docker's json-file log (`{"log":…,"stream":…,"time":…}`),
 * one container's file: its lines follow each other as the container wrote them, so a line
 * with no head of its own continues the record before it. Records of stores that mix pods
 * (Loki's, Vector's, Fluent Bit's with their `kubernetes` fields) are not.
 */
export function isDockerRecord(object: Record<string, unknown>): boolean {
  if (typeof object['log'] !== 'string' || typeof object['stream'] !== 'string') return false;
  for (const key in object) if (!DOCKER_KEYS.has(key)) return false;
  return true;
}

/**
 * An entry's fields, when `line` is an entry line (`{"logType":…,"contents":…}`), or one of
 * logtype's own diagnostics (`{"level":40,…,"logType":"logtype-sidecar",…}`: a type logtype
 * writes), whose contents are the line itself, as when it is read unwrapped. Another record
 * that names a type (a shipper's record kept inside another's) is none.
 */
export function entryFields(line: string): { readonly logType: string; readonly contents: string; readonly partial: boolean } | undefined {
  if (!line.startsWith('{')) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const { logType, contents, partial } = value as Record<string, unknown>;
  if (typeof logType !== 'string') return undefined;
  if (typeof contents === 'string') return { logType, contents, partial: partial === true };
  return logFormat(logType)?.writtenBy === 'logtype' ? { logType, contents: line, partial: false } : undefined;
}

const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);
const field = (object: unknown, key: string): unknown => (typeof object === 'object' && object !== null ? (object as Record<string, unknown>)[key] : undefined);

/**
 * The pod (and container) a store's record names, as kubectl's `--prefix` would: Fluent Bit's
 * and Vector's `kubernetes.pod_name` and `container_name`, logcli's `labels.pod` and
 * `container`. Undefined for a record that names none: its line has no source of its own.
 */
export function recordSource(object: Record<string, unknown>): LinePrefix | undefined {
  const kubernetes = object['kubernetes'];
  const labels = object['labels'];
  // Fluent Bit's and Vector's kubernetes metadata, Loki's labels (as promtail names them, and as
  // OpenTelemetry's collector does), stern's `--output json` (podName beside the message).
  const pod = text(field(kubernetes, 'pod_name')) ?? text(field(labels, 'pod')) ?? text(field(labels, 'k8s_pod_name')) ?? text(object['podName']);
  if (pod === undefined) return undefined;
  const container = text(field(kubernetes, 'container_name')) ?? text(field(labels, 'container')) ?? text(field(labels, 'k8s_container_name')) ?? text(object['containerName']);
  return { length: 0, text: '', source: container === undefined ? `pod/${pod}` : `pod/${pod}/${container}` };
}

/**
 * The keys shippers keep the time a line was read under: Docker's and Fluent Bit's, logcli's and
 * Vector's, Elasticsearch's; Fluent Bit's JSON outputs' `date` (its json_date_key), an RFC 3339
 * text or seconds since the epoch.
 */
const TIME_KEYS = ['time', 'timestamp', '@timestamp', 'date'] as const;

/** Seconds since the epoch as Fluent Bit writes `date` (`1795341600.5`): an RFC 3339 time; undefined for another value. */
function epochSecondsTime(value: unknown): string | undefined {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 1e9 || value > 1e11) return undefined;
  return new Date(Math.round(value * 1000)).toISOString();
}

/**
 * What kubectl's prefix would say of a shipper's record: `prefix`'s, and where it says none, the
 * pod the record names (recordSource) and the time it was stamped with (an RFC 3339 `time`,
 * `timestamp` or `@timestamp`): a line without a time of its own (a Go panic's, the disk-full
 * line) is then placed in time, as behind `kubectl logs --timestamps`.
 */
export function recordPrefix(object: Record<string, unknown>, prefix: LinePrefix | undefined): LinePrefix | undefined {
  const source = prefix?.source ?? recordSource(object)?.source;
  let time = prefix?.time;
  for (const key of TIME_KEYS) {
    if (time !== undefined) break;
    const value = object[key];
    if (typeof value === 'string' && isStampTime(value)) time = value;
    else if (key === 'date') time = epochSecondsTime(value);
  }
  if (prefix === undefined && source === undefined && time === undefined) return undefined;
  return { length: prefix?.length ?? 0, text: prefix?.text ?? '', ...(source === undefined ? {} : { source }), ...(time === undefined ? {} : { time }) };
}

/** The record an Elasticsearch hit holds, when the object is one (its `_source`, beside `_index` or `_id`). */
export function elasticsearchSource(object: Record<string, unknown>): Record<string, unknown> | undefined {
  const source = object['_source'];
  if (typeof source !== 'object' || source === null || Array.isArray(source)) return undefined;
  return typeof object['_index'] === 'string' || typeof object['_id'] === 'string' ? (source as Record<string, unknown>) : undefined;
}
