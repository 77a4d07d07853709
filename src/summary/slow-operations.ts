/**
 * The server's slow operations: grouped by namespace, operation and shape (the query's hash,
 * else its plan), each group's durations and figures; and the points of the plot over time.
 */
import type { LogRecord } from '../parse/log-record.js';
import { attrFirstKey, attrValue } from '../parse/record-attributes.js';
import { slowOperationOf } from '../parse/slow-operation.js';
import { isoString } from './iso-string.js';
import { Reservoir, linearCongruential } from './reservoir.js';
import { SampleQuantiles } from './sample-quantiles.js';
import type { ServerSummary, SlowGroup } from './summary.js';
import { MAX_GROUP_DURATIONS, MAX_SLOW_GROUPS, MAX_SLOW_POINTS } from './summary-limits.js';

interface GroupStats {
  readonly ns: string;
  readonly operation: string;
  readonly shape: string;
  readonly plan: string | undefined;
  readonly durations: SampleQuantiles;
  examined: number;
  returned: number;
}

interface Point {
  readonly time: number;
  readonly durationMillis: number;
  readonly ns: string;
  readonly collscan: boolean;
}

export class SlowOperations {
  readonly #groups = new Map<string, GroupStats>();
  /** Operations of groups beyond the limit. */
  #other = 0;
  /** A uniform sample of the points, so the plot stays readable and the page small. */
  readonly #points = new Reservoir<Point>(MAX_SLOW_POINTS, linearCongruential(0x2545f491));

  /** A line that may be a slow operation (one with a duration); any other is left alone. */
  add(record: LogRecord, time: number | undefined): void {
    const slow = slowOperationOf(record);
    if (!slow) return;
    const { durationMillis, plan } = slow;
    const ns = slow.ns ?? commandNamespace(record) ?? '?';
    const type = attrValue(record, 'type');
    const operation = attrFirstKey(record, 'command') ?? (typeof type === 'string' ? type : '?');
    const hash = attrValue(record, 'queryHash') ?? attrValue(record, 'planCacheShapeHash');
    const shape = typeof hash === 'string' ? hash : (plan ?? '-');
    const key = `${ns}\u0000${operation}\u0000${shape}`;
    let group = this.#groups.get(key);
    if (!group) {
      if (this.#groups.size >= MAX_SLOW_GROUPS) {
        this.#other++;
        return;
      }
      group = { ns, operation, shape, plan, durations: new SampleQuantiles(MAX_GROUP_DURATIONS), examined: 0, returned: 0 };
      this.#groups.set(key, group);
    }
    group.durations.add(durationMillis);
    const examined = attrValue(record, 'docsExamined');
    const returned = attrValue(record, 'nreturned');
    if (typeof examined === 'number') group.examined += examined;
    if (typeof returned === 'number') group.returned += returned;
    if (time !== undefined) this.#points.add({ time, durationMillis, ns, collscan: plan?.startsWith('COLLSCAN') === true });
  }

  /** The groups, costliest first (groups beyond the limit as one row); the points in time order. */
  summary(): Pick<ServerSummary, 'slowOperations' | 'slowPoints'> {
    const groups = [...this.#groups.values()]
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
    return {
      slowOperations: this.#other > 0 ? [...groups, otherGroups(this.#other)] : groups,
      slowPoints: [...this.#points.items].sort((a, b) => a.time - b.time).map((p) => ({ ...p, time: isoString(p.time)! })),
    };
  }
}

/** An applied oplog entry names its namespace inside the command. */
function commandNamespace(record: LogRecord): string | undefined {
  const command = attrValue(record, 'command');
  const ns = typeof command === 'object' && command !== null ? (command as Record<string, unknown>)['ns'] : undefined;
  return typeof ns === 'string' ? ns : undefined;
}

function otherGroups(count: number): SlowGroup {
  return { ns: '(other shapes)', operation: '', shape: '', plan: null, collscan: false, count, totalMillis: 0, p50Millis: 0, p95Millis: 0, maxMillis: 0, examinedPerReturned: null };
}
