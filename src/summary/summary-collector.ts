/**
 * Reads selected entries into a Summary. Memory is bounded by the number of distinct groups
 * (types, components, message ids, slow-operation shapes, users, minutes), never by lines:
 * every map is a BoundedCounts or keyed by something with few values, and durations are
 * sampled.
 */
import type { SummarySection } from '../formats/log-format.js';
import { logFormat } from '../formats/log-formats.js';
import { levelRank, type Level, type LogRecord } from '../parse/log-record.js';
import { attrFirstKey, attrNumber, attrValue, slowOperationOf } from '../parse/parse-server-line.js';
import { BoundedCounts } from './bounded-counts.js';
import { SampleQuantiles } from './sample-quantiles.js';
import type { Activity, AuditSummary, Counted, MinuteActivity, ServerSummary, SlowGroup, Summary, TypeProblems, TypeSummary } from './summary.js';

const MINUTE_MS = 60_000;
const ERROR_RANK = levelRank('error');
const WARN_RANK = levelRank('warn');
/** Buckets of the activity strip and plots at the most: a week of minutes. */
const MAX_BUCKETS = 7 * 24 * 60;
/** Points of the slow-operation plot at the most. */
const MAX_SLOW_POINTS = 2000;
/** Events listed in time order at the most (the rest are counted). */
const MAX_EVENTS = 200;
/** Two "starting" lines closer than this are one restart (4.4+ servers write two). */
const RESTART_MERGE_MS = 10_000;

const ELECTION = /election succeeded|starting an election|running for election|election failed|lost election|not electing self|stepping down from primary|stepdown/i;
const CONNECTION_OPENED = 22943;
const CONNECTION_ENDED = 22944;
const STATE_TRANSITION = 21358;
const MEMBER_STATE = 21215;
const TEXT_TRANSITION = /transition to (\w+) from (\w+)/i;
const RESTART = /^MongoDB starting|SERVER RESTARTED/;
/** Slow queries (51803) and slow oplog application on secondaries (51801); text lines have no id. */
const SLOW_OPERATION_IDS = new Set([51803, 51801]);

interface TypeStats {
  /** The type's place in the order types were first seen. */
  readonly index: number;
  /** Where its records are counted beyond these stats (its format's; a type logtype does not know: its messages). */
  readonly section: SummarySection;
  /** Its problems lead the list of problems. */
  readonly problemsFirst: boolean;
  entries: number;
  first: number;
  last: number;
  errors: number;
  warnings: number;
  unparsed: number;
  readonly messages: BoundedCounts<Level>;
}

interface MinuteCounts {
  lines: number;
  errors: number;
  warnings: number;
  /** Lines by type, indexed by the type's place in the order types were first seen. */
  readonly byType: number[];
}

interface MessageMeaning {
  readonly restart: boolean;
  readonly election: boolean;
}

/** A message as counted by id, and what it means (one id, one message: tested once). */
interface MessageStats {
  readonly id: number | null;
  readonly msg: string;
  readonly severity: string;
  readonly meaning: MessageMeaning;
}

const messageMeaning = (message: string): MessageMeaning => ({ restart: RESTART.test(message), election: ELECTION.test(message) });

interface SlowStats {
  readonly ns: string;
  readonly operation: string;
  readonly shape: string;
  readonly plan: string | undefined;
  readonly durations: SampleQuantiles;
  examined: number;
  returned: number;
}

/** Numbers, hex and ids vary between otherwise equal messages: they are grouped as one. */
export function messageShape(message: string): string {
  return message
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, '<uuid>')
    .replace(/\b0x[0-9a-f]+\b/gi, '<hex>')
    .replace(/\d+/g, '#')
    .slice(0, 200);
}

function counted(counts: BoundedCounts<unknown>, n = Infinity): Counted[] {
  const top = counts.top(n).map(({ key, count }) => ({ key, count }));
  return counts.other > 0 ? [...top, { key: '(other)', count: counts.other }] : top;
}

const iso = (ms: number): string | undefined => (Number.isFinite(ms) ? new Date(ms).toISOString() : undefined);

export class SummaryCollector {
  readonly #types = new Map<string, TypeStats>();
  #lastType: string | undefined;
  #lastStats: TypeStats | undefined;
  // The server's log.
  #serverSeen = false;
  readonly #severities = new BoundedCounts(50);
  readonly #components = new BoundedCounts(200);
  readonly #messagesById = new BoundedCounts<MessageStats | undefined, number | string>(2000);
  readonly #connections = { opened: 0, closed: 0, peak: Number.NEGATIVE_INFINITY };
  readonly #restarts: number[] = [];
  #lastRestartLine = Number.NEGATIVE_INFINITY;
  readonly #replication: { time: number; event: string }[] = [];
  #replicationDropped = 0;
  readonly #slow = new Map<string, SlowStats>();
  #slowOther = 0;
  readonly #slowPoints: { time: number; durationMillis: number; ns: string; collscan: boolean }[] = [];
  #slowSeen = 0;
  #pointSeed = 0x2545f491;
  // Audit events.
  #auditSeen = false;
  readonly #atypes = new BoundedCounts(200);
  readonly #failedAuth = new BoundedCounts<{ user: string; source: string }>(2000);
  readonly #otherFailures = new BoundedCounts(200);
  // Activity by minute.
  readonly #minutes = new Map<number, MinuteCounts>();
  #lastMinute = Number.NaN;
  #lastBucket: MinuteCounts | undefined;

  /** One selected entry and its record (undefined when its contents did not parse). */
  add(logType: string, record: LogRecord | undefined, stampedAt?: number): void {
    let stats = logType === this.#lastType ? this.#lastStats : this.#types.get(logType);
    if (!stats) {
      const format = logFormat(logType);
      stats = {
        index: this.#types.size,
        section: format?.summary ?? 'messages',
        problemsFirst: format?.problemsFirst === true,
        entries: 0,
        first: Infinity,
        last: -Infinity,
        errors: 0,
        warnings: 0,
        unparsed: 0,
        messages: new BoundedCounts<Level>(2000),
      };
      this.#types.set(logType, stats);
    }
    this.#lastType = logType;
    this.#lastStats = stats;
    stats.entries++;
    if (!record) stats.unparsed++;
    const time = record?.time ?? stampedAt;
    if (time !== undefined && !Number.isNaN(time)) {
      if (time < stats.first) stats.first = time;
      if (time > stats.last) stats.last = time;
    }
    const level = record?.level;
    const rank = level === undefined ? Infinity : levelRank(level);
    if (rank <= ERROR_RANK) stats.errors++;
    else if (level === 'warn') stats.warnings++;
    if (time !== undefined && !Number.isNaN(time)) this.#countMinute(time, stats.index, rank);
    if (!record) return;
    const { section } = stats;
    if (section === 'server') this.#server(record, time);
    else if (section === 'audit') this.#audit(record);
    else if (rank <= WARN_RANK) stats.messages.add(messageShape(record.message), () => level!);
  }

  #countMinute(time: number, typeIndex: number, rank: number): void {
    const minute = Math.floor(time / MINUTE_MS);
    // Lines come in time order, mostly: the last minute's bucket is the next line's.
    let bucket = minute === this.#lastMinute ? this.#lastBucket : this.#minutes.get(minute);
    if (!bucket) {
      bucket = { lines: 0, errors: 0, warnings: 0, byType: [] };
      this.#minutes.set(minute, bucket);
    }
    this.#lastMinute = minute;
    this.#lastBucket = bucket;
    bucket.lines++;
    if (rank <= ERROR_RANK) bucket.errors++;
    else if (rank === WARN_RANK) bucket.warnings++;
    bucket.byType[typeIndex] = (bucket.byType[typeIndex] ?? 0) + 1;
  }

  #server(record: LogRecord, time: number | undefined): void {
    this.#serverSeen = true;
    const severity = record.severity ?? '?';
    this.#severities.add(severity);
    if (record.component) this.#components.add(record.component);
    const id = record.id ?? null;
    // Pre-4.4 text lines have no id: their messages group by shape.
    const message = record.message;
    const held = this.#messagesById.add(id === null ? `text:${messageShape(message)}` : id);
    const meaning = id !== null && held?.value?.msg === message ? held.value.meaning : messageMeaning(message);
    if (held && !held.value) held.value = { id, msg: id === null ? messageShape(message) : message, severity, meaning };
    if (id === CONNECTION_OPENED || id === CONNECTION_ENDED) {
      if (id === CONNECTION_OPENED) this.#connections.opened++;
      else this.#connections.closed++;
      const count = attrNumber(record, 'connectionCount');
      if (count !== undefined && count > this.#connections.peak) this.#connections.peak = count;
    } else if (meaning.restart) {
      const at = time ?? Number.NaN;
      if (!(Math.abs(at - this.#lastRestartLine) < RESTART_MERGE_MS)) this.#restarts.push(at);
      this.#lastRestartLine = at;
    }
    const event = replicationEvent(record, meaning.election);
    if (event) {
      if (this.#replication.length < MAX_EVENTS) this.#replication.push({ time: time ?? Number.NaN, event: event() });
      else this.#replicationDropped++;
    }
    // Other lines' attributes are never read: most lines are counted by their head alone.
    if (id !== null && !SLOW_OPERATION_IDS.has(id)) return;
    const slow = slowOperationOf(record);
    if (slow) this.#slowOperation(record, slow.durationMillis, slow.ns ?? commandNamespace(record) ?? '?', slow.plan, time);
  }

  #slowOperation(record: LogRecord, durationMillis: number, ns: string, plan: string | undefined, time: number | undefined): void {
    const type = attrValue(record, 'type');
    const operation = attrFirstKey(record, 'command') ?? (typeof type === 'string' ? type : '?');
    const hash = attrValue(record, 'queryHash') ?? attrValue(record, 'planCacheShapeHash');
    const shape = typeof hash === 'string' ? hash : (plan ?? '-');
    const key = `${ns}\u0000${operation}\u0000${shape}`;
    let group = this.#slow.get(key);
    if (!group) {
      if (this.#slow.size >= 2000) {
        this.#slowOther++;
        return;
      }
      group = { ns, operation, shape, plan, durations: new SampleQuantiles(), examined: 0, returned: 0 };
      this.#slow.set(key, group);
    }
    group.durations.add(durationMillis);
    const examined = attrValue(record, 'docsExamined');
    const returned = attrValue(record, 'nreturned');
    if (typeof examined === 'number') group.examined += examined;
    if (typeof returned === 'number') group.returned += returned;
    if (time === undefined) return;
    // A uniform sample of the points, so the plot stays readable and the page small.
    this.#slowSeen++;
    const point = { time, durationMillis, ns, collscan: plan?.startsWith('COLLSCAN') === true };
    if (this.#slowPoints.length < MAX_SLOW_POINTS) this.#slowPoints.push(point);
    else {
      this.#pointSeed = (Math.imul(this.#pointSeed, 1103515245) + 12345) >>> 0;
      const slot = Math.floor((this.#pointSeed / 0x1_0000_0000) * this.#slowSeen);
      if (slot < MAX_SLOW_POINTS) this.#slowPoints[slot] = point;
    }
  }

  #audit(record: LogRecord): void {
    this.#auditSeen = true;
    const atype = record.component ?? '?';
    this.#atypes.add(atype);
    if (record.result === undefined || record.result === 0) return;
    if (atype === 'authenticate') {
      const user = record.users?.join(',') || '(unknown)';
      const source = record.remote?.replace(/:\d+$/, '') ?? '?';
      this.#failedAuth.add(`${user}\u0000${source}`, () => ({ user, source }));
    } else this.#otherFailures.add(atype);
  }

  summary(lines: Summary['lines']): Summary {
    const types = [...this.#types.entries()].sort((a, b) => b[1].entries - a[1].entries);
    const first = Math.min(...types.map(([, s]) => s.first));
    const last = Math.max(...types.map(([, s]) => s.last));
    return {
      lines,
      first: iso(first),
      last: iso(last),
      types: types.map(([logType, s]): TypeSummary => {
        const spanMinutes = (s.last - s.first) / MINUTE_MS;
        return {
          logType,
          entries: s.entries,
          first: iso(s.first),
          last: iso(s.last),
          perMinute: Number.isFinite(spanMinutes) ? Math.round((s.entries / Math.max(1, spanMinutes)) * 10) / 10 : undefined,
          errors: s.errors,
          warnings: s.warnings,
          unparsed: s.unparsed,
        };
      }),
      server: this.#serverSeen ? this.#serverSummary() : undefined,
      audit: this.#auditSeen ? this.#auditSummary() : undefined,
      problems: types
        .filter(([, s]) => s.section === 'messages' && (s.errors > 0 || s.warnings > 0))
        .sort(([, a], [, b]) => (a.problemsFirst ? -1 : b.problemsFirst ? 1 : b.errors - a.errors))
        .map(([logType, s]): TypeProblems => ({
          logType,
          errors: s.errors,
          warnings: s.warnings,
          messages: s.messages
            .top()
            // Errors before warnings, then the most frequent.
            .sort((a, b) => levelRank(a.value) - levelRank(b.value) || b.count - a.count)
            .slice(0, 10)
            .map(({ key, count, value }) => ({ message: key, level: value, count })),
        })),
      activity: this.#activity(),
    };
  }

  #serverSummary(): ServerSummary {
    const slowGroups = [...this.#slow.values()]
      .map((g): SlowGroup => ({
        ns: g.ns,
        operation: g.operation,
        shape: g.shape,
        plan: g.plan ?? null,
        collscan: g.plan?.startsWith('COLLSCAN') === true,
        count: g.durations.count,
        totalMillis: g.durations.total,
        p50Millis: g.durations.quantile(0.5),
        p95Millis: g.durations.quantile(0.95),
        maxMillis: g.durations.max,
        examinedPerReturned: g.returned > 0 ? Math.round((g.examined / g.returned) * 10) / 10 : null,
      }))
      .sort((a, b) => b.totalMillis - a.totalMillis);
    const replication = [...this.#replication].sort((a, b) => a.time - b.time).map(({ time, event }) => ({ time: iso(time) ?? null, event }));
    if (this.#replicationDropped > 0) replication.push({ time: null, event: `… and ${this.#replicationDropped} more` });
    return {
      bySeverity: counted(this.#severities),
      byComponent: counted(this.#components),
      messages: this.#messagesById.top(15).map(({ count, value }) => ({ id: value!.id, msg: value!.msg, severity: value!.severity, count })),
      connections: {
        opened: this.#connections.opened,
        closed: this.#connections.closed,
        peak: Number.isFinite(this.#connections.peak) ? this.#connections.peak : null,
      },
      restarts: this.#restarts.map((t) => iso(t) ?? 'time unknown'),
      replication,
      slowOperations: this.#slowOther > 0 ? [...slowGroups, otherSlowGroup(this.#slowOther)] : slowGroups,
      slowPoints: [...this.#slowPoints].sort((a, b) => a.time - b.time).map((p) => ({ ...p, time: iso(p.time)! })),
    };
  }

  #auditSummary(): AuditSummary {
    return {
      byAtype: counted(this.#atypes),
      failedAuthentications: this.#failedAuth.top(50).map(({ count, value }) => ({ ...value, count })),
      otherFailures: counted(this.#otherFailures),
    };
  }

  #activity(): Activity {
    if (this.#minutes.size === 0) return { start: null, bucketMinutes: 1, buckets: [] };
    const typeNames = [...this.#types.keys()];
    let first = Infinity;
    let last = -Infinity;
    for (const minute of this.#minutes.keys()) {
      if (minute < first) first = minute;
      if (minute > last) last = minute;
    }
    const span = last - first + 1;
    const bucketMinutes = Math.ceil(span / MAX_BUCKETS);
    const buckets: { lines: number; errors: number; warnings: number; byType: Record<string, number> }[] = Array.from(
      { length: Math.ceil(span / bucketMinutes) },
      () => ({ lines: 0, errors: 0, warnings: 0, byType: {} }),
    );
    for (const [minute, counts] of this.#minutes) {
      const bucket = buckets[Math.floor((minute - first) / bucketMinutes)]!;
      bucket.lines += counts.lines;
      bucket.errors += counts.errors;
      bucket.warnings += counts.warnings;
      counts.byType.forEach((n, index) => {
        const type = typeNames[index]!;
        bucket.byType[type] = (bucket.byType[type] ?? 0) + n;
      });
    }
    return { start: iso(first * MINUTE_MS) ?? null, bucketMinutes, buckets: buckets satisfies MinuteActivity[] };
  }
}

/** An applied oplog entry names its namespace inside the command. */
function commandNamespace(record: LogRecord): string | undefined {
  const command = attrValue(record, 'command');
  const ns = typeof command === 'object' && command !== null ? (command as Record<string, unknown>)['ns'] : undefined;
  return typeof ns === 'string' ? ns : undefined;
}

function otherSlowGroup(count: number): SlowGroup {
  return { ns: '(other shapes)', operation: '', shape: '', plan: null, collscan: false, count, totalMillis: 0, p50Millis: 0, p95Millis: 0, maxMillis: 0, examinedPerReturned: null };
}

/**
 * A replica-set state change or an election: its words, made when asked for (once the list is
 * full, events are only counted, and their attributes never read).
 */
function replicationEvent(record: LogRecord, election: boolean): (() => string) | undefined {
  if (record.id === STATE_TRANSITION || record.id === MEMBER_STATE) {
    const attr = (key: string): unknown => attrValue(record, key);
    return record.id === STATE_TRANSITION
      ? () => `this member: ${String(attr('oldState'))} → ${String(attr('newState'))}`
      : () => `${String(attr('hostAndPort') ?? 'a member')} is now ${String(attr('newState'))}`;
  }
  if (record.id === undefined) {
    const text = TEXT_TRANSITION.exec(record.message);
    if (text) return () => `this member: ${text[2]} → ${text[1]}`;
  }
  if (election) return () => `election: ${record.message}`;
  return undefined;
}
