/**
 * The server's slow work, from every line with a duration (server-operation.ts says what it
 * was): clients' operations and slow transactions grouped by kind, namespace, operation and
 * shape (the query's hash, else its plan; a transaction's outcome), each with its query's
 * pattern; clients' response sizes (response-sizes.ts); oplog entries a secondary applied grouped by namespace and operation; each group's
 * durations and figures; and the points of the plot over time. With several members in the
 * input, each group says how many of its operations each member ran, and each of the slowest
 * whose it was (the member is passed by reference: no string is made per line).
 *
 * A query's pattern is read from its command once per group when the line has a queryHash
 * (the hash is of the query's shape: one hash, one pattern); without one, the pattern tells
 * the groups apart, so it is read from every such line.
 */
import type { LogRecord } from '../parse/log-record.js';
import { attrValue } from '../parse/record-attributes.js';
import { operationQueryPattern, serverOperationOf, transactionOutcome, type ServerOperation } from '../parse/server-operation.js';
import { slowOperationOf } from '../parse/slow-operation.js';
import { DurationQuantiles } from './duration-quantiles.js';
import { MemberCounts, type Member } from './member-counts.js';
import { ResponseSizes } from './response-sizes.js';
import { SlowPoints } from './slow-points.js';
import { SlowestOperations, type RecordSource } from './slowest-operations.js';
import { SlowestTransactions } from './slowest-transactions.js';
import type { AppliedGroup, DurationFigures, ServerSummary, SlowGroup } from './summary.js';
import { MAX_APPLIED_GROUPS, MAX_GROUP_DURATIONS, MAX_SLOW_GROUPS } from './summary-limits.js';
import { countOf } from '../parse/json-value.js';

interface GroupStats {
  readonly kind: SlowGroup['kind'];
  readonly ns: string;
  readonly operation: string;
  readonly shape: string;
  readonly pattern: string | undefined;
  readonly plan: string | undefined;
  readonly durations: DurationQuantiles;
  readonly members: MemberCounts;
  examined: number;
  returned: number;
}

/** The member of lines given without one (one server: it is never named). */
const NO_MEMBER: Member = { name: '' };

interface AppliedStats {
  readonly ns: string;
  readonly operation: string;
  readonly durations: DurationQuantiles;
  readonly members: MemberCounts;
}

export class SlowOperations {
  readonly #groups = new Map<string, GroupStats>();
  /** Operations of groups beyond the limit. */
  #other = 0;
  readonly #applied = new Map<string, AppliedStats>();
  /** Applied entries of groups beyond the limit. */
  #otherApplied = 0;
  /** The plot's points: its outliers and a sample of the rest, so the plot stays readable and the page small. */
  readonly #points = new SlowPoints();
  readonly #slowest = new SlowestOperations();
  readonly #transactions = new SlowestTransactions();
  readonly #responseSizes = new ResponseSizes();

  /**
   * A line that may be slow work (one with a duration); any other is left alone (false).
   * `source`: its line, read only if it is among the slowest; `member`: the server that wrote it.
   */
  add(record: LogRecord, time: number | undefined, source?: RecordSource, member: Member = NO_MEMBER): boolean {
    const slow = slowOperationOf(record);
    if (!slow) return false;
    const { durationMillis, plan } = slow;
    const operation = serverOperationOf(record, slow);
    const { ns } = operation;
    if (operation.kind === 'applied') this.#addApplied(operation, durationMillis, member);
    else {
      this.#addGroup(record, operation, durationMillis, plan, member);
      this.#slowest.add(record, time, operation, durationMillis, plan, source, member);
      if (operation.kind === 'transaction') this.#transactions.add(record, time, durationMillis, member);
      if (operation.kind === 'operation') this.#responseSizes.add(record, ns);
    }
    if (time !== undefined) this.#points.add(time, durationMillis, ns, plan?.startsWith('COLLSCAN') === true);
    return true;
  }

  #addGroup(record: LogRecord, operation: ServerOperation, durationMillis: number, plan: string | undefined, member: Member): void {
    const kind = operation.kind === 'transaction' ? 'transaction' : 'operation';
    const { ns, name } = operation;
    let shape: string;
    let pattern: string | undefined;
    /** The pattern is read only when the group is new (the line has a queryHash). */
    let patternLater = false;
    let key: string;
    if (kind === 'transaction') {
      shape = transactionOutcome(record) ?? '-';
      key = `transaction\u0000${ns}\u0000${shape}`;
    } else {
      const hash = attrValue(record, 'queryHash') ?? attrValue(record, 'planCacheShapeHash');
      if (typeof hash === 'string') {
        shape = hash;
        patternLater = true;
        key = `operation\u0000${ns}\u0000${name}\u0000${shape}`;
      } else {
        shape = plan ?? '-';
        pattern = operationQueryPattern(record, operation);
        key = `operation\u0000${ns}\u0000${name}\u0000${shape}\u0000${pattern ?? ''}`;
      }
    }
    let group = this.#groups.get(key);
    if (!group) {
      if (this.#groups.size >= MAX_SLOW_GROUPS) {
        this.#other++;
        return;
      }
      if (patternLater) pattern = operationQueryPattern(record, operation);
      group = { kind, ns, operation: name, shape, pattern, plan, durations: new DurationQuantiles(MAX_GROUP_DURATIONS), members: new MemberCounts(), examined: 0, returned: 0 };
      this.#groups.set(key, group);
    }
    group.durations.add(durationMillis);
    group.members.add(member);
    const examined = countOf(attrValue(record, 'docsExamined'));
    const returned = countOf(attrValue(record, 'nreturned'));
    if (examined !== undefined) group.examined += examined;
    if (returned !== undefined) group.returned += returned;
  }

  #addApplied(operation: ServerOperation, durationMillis: number, member: Member): void {
    const key = `${operation.ns}\u0000${operation.name}`;
    let group = this.#applied.get(key);
    if (!group) {
      if (this.#applied.size >= MAX_APPLIED_GROUPS) {
        this.#otherApplied++;
        return;
      }
      group = { ns: operation.ns, operation: operation.name, durations: new DurationQuantiles(MAX_GROUP_DURATIONS), members: new MemberCounts() };
      this.#applied.set(key, group);
    }
    group.durations.add(durationMillis);
    group.members.add(member);
  }

  /**
   * The groups, costliest first (groups beyond the limit as one row); the points in time order.
   * `several`: the input holds several members (groups and the slowest then say whose).
   */
  summary(several = false): Pick<ServerSummary, 'slowOperations' | 'appliedOperations' | 'slowPoints' | 'slowPointsSeen' | 'collscansSeen' | 'slowest' | 'slowestTransactions' | 'responseSizes'> {
    const groups = [...this.#groups.values()]
      .map((g): SlowGroup => ({
        kind: g.kind,
        ns: g.ns,
        operation: g.operation,
        shape: g.shape,
        pattern: g.pattern ?? null,
        plan: g.plan ?? null,
        collscan: g.plan?.startsWith('COLLSCAN') === true,
        ...durationFigures(g.durations),
        examinedPerReturned: g.returned > 0 ? Math.round((g.examined / g.returned) * 10) / 10 : null,
        ...(several ? { members: g.members.summary() } : {}),
      }))
      .sort((a, b) => b.totalMillis - a.totalMillis);
    const applied = [...this.#applied.values()]
      .map((g): AppliedGroup => ({
        ns: g.ns,
        operation: g.operation,
        ...durationFigures(g.durations),
        ...(several ? { members: g.members.summary() } : {}),
      }))
      .sort((a, b) => b.totalMillis - a.totalMillis || b.count - a.count);
    return {
      slowOperations: this.#other > 0 ? [...groups, otherGroups(this.#other)] : groups,
      appliedOperations: this.#otherApplied > 0 ? [...applied, otherApplied(this.#otherApplied)] : applied,
      slowest: this.#slowest.summary(several),
      slowestTransactions: this.#transactions.summary(several),
      responseSizes: this.#responseSizes.summary(),
      ...this.#points.summary(),
    };
  }
}

function durationFigures(durations: DurationQuantiles): DurationFigures {
  return { count: durations.count, totalMillis: durations.total, p50Millis: durations.quantile(0.5), p95Millis: durations.quantile(0.95), maxMillis: durations.max, exactQuantiles: durations.exact };
}

/** A row that counts what it does not time (the groups beyond the limit). */
const NO_DURATIONS: DurationFigures = { count: 0, totalMillis: 0, p50Millis: 0, p95Millis: 0, maxMillis: 0, exactQuantiles: true };

/** The groups beyond the limit, as one row. */
function otherGroups(count: number): SlowGroup {
  return { kind: 'operation', ns: '(other shapes)', operation: '', shape: '', pattern: null, plan: null, collscan: false, ...NO_DURATIONS, count, examinedPerReturned: null };
}

function otherApplied(count: number): AppliedGroup {
  return { ns: '(other namespaces)', operation: '', ...NO_DURATIONS, count };
}
