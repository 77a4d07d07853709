/**
 * Response sizes: the bytes a slow operation sent back (`reslen`, in its line's attributes; a
 * text line's `reslen:N`) by namespace, by appName and by client IP (4.4+ lines' `remote`; a
 * text line names none), each with how many, their total and the largest. Only slow
 * operations' lines are read (slow-operations.ts asks); the keys are bounded by
 * MAX_RESPONSE_SIZE_KEYS, the rows with the fewest bytes folded into one "(other)" row each
 * when more come (heavy-rows.ts).
 */
import type { LogRecord } from '../parse/log-record.js';
import { attrValue } from '../parse/record-attributes.js';
import { OTHER, remoteHost } from './client-connections.js';
import { HeavyRows, missed } from './heavy-rows.js';
import type { ResponseSize, ServerSummary } from './summary.js';
import { MAX_RESPONSE_SIZE_KEYS } from './summary-limits.js';
import { countOf } from '../parse/json-value.js';

interface Sizes {
  count: number;
  total: number;
  max: number;
}

const newSizes = (): Sizes => ({ count: 0, total: 0, max: 0 });
const foldSizes = (other: Sizes, row: Sizes): void => {
  other.count += row.count;
  other.total += row.total;
  if (row.max > other.max) other.max = row.max;
};

class SizesByKey {
  readonly #sizes = new HeavyRows<string, Sizes>(MAX_RESPONSE_SIZE_KEYS, newSizes(), { weight: (s) => s.total, fold: foldSizes });

  add(key: string, bytes: number): void {
    const sizes = this.#sizes.row(key, newSizes);
    sizes.count++;
    sizes.total += bytes;
    if (bytes > sizes.max) sizes.max = bytes;
  }

  /** The most bytes first; the rows folded last, as one "(other)" row. */
  rows(): ResponseSize[] {
    const rows: ResponseSize[] = [...this.#sizes.entries()]
      .map(({ key, row: s, before }) => ({ key, count: s.count, totalBytes: s.total, maxBytes: s.max, ...missed(before) }))
      .sort((a, b) => b.totalBytes - a.totalBytes || b.count - a.count || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    const other = this.#sizes.other;
    if (this.#sizes.otherKeys > 0) rows.push({ key: OTHER, count: other.count, totalBytes: other.total, maxBytes: other.max });
    return rows;
  }
}

export class ResponseSizes {
  readonly #byNamespace = new SizesByKey();
  readonly #byAppName = new SizesByKey();
  readonly #byClient = new SizesByKey();

  /** A client's slow operation on `ns` (as its group names it); a line without a `reslen` is left out. */
  add(record: LogRecord, ns: string): void {
    const bytes = countOf(attrValue(record, 'reslen'));
    if (bytes === undefined) return;
    const appName = attrValue(record, 'appName');
    this.#byNamespace.add(ns, bytes);
    this.#byAppName.add(typeof appName === 'string' ? appName : '-', bytes);
    const remote = attrValue(record, 'remote');
    if (typeof remote === 'string') this.#byClient.add(remoteHost(remote), bytes);
  }

  summary(): ServerSummary['responseSizes'] {
    return { byNamespace: this.#byNamespace.rows(), byAppName: this.#byAppName.rows(), byClient: this.#byClient.rows() };
  }
}
