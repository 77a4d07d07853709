/**
 * Response sizes: the bytes a slow operation sent back (`reslen`, in its line's attributes; a
 * text line's `reslen:N`) by namespace, by appName and by client IP (4.4+ lines' `remote`; a
 * text line names none), each with how many, their total and the largest. Only slow operations' lines are read (slow-operations.ts asks); the keys are bounded
 * by MAX_RESPONSE_SIZE_KEYS, those beyond counted in one "(other)" row each.
 */
import type { LogRecord } from '../parse/log-record.js';
import { attrValue } from '../parse/record-attributes.js';
import { OTHER, remoteHost } from './client-connections.js';
import type { ResponseSize, ServerSummary } from './summary.js';
import { MAX_RESPONSE_SIZE_KEYS } from './summary-limits.js';
import { countOf } from '../parse/json-value.js';

interface Sizes {
  count: number;
  total: number;
  max: number;
}

class SizesByKey {
  readonly #sizes = new Map<string, Sizes>();
  readonly #other: Sizes = { count: 0, total: 0, max: 0 };

  add(key: string, bytes: number): void {
    let sizes = this.#sizes.get(key);
    if (!sizes) {
      if (this.#sizes.size < MAX_RESPONSE_SIZE_KEYS) this.#sizes.set(key, (sizes = { count: 0, total: 0, max: 0 }));
      else sizes = this.#other;
    }
    sizes.count++;
    sizes.total += bytes;
    if (bytes > sizes.max) sizes.max = bytes;
  }

  /** The most bytes first; the keys beyond the limit last, as one "(other)" row. */
  rows(): ResponseSize[] {
    const rows = [...this.#sizes.entries()]
      .map(([key, s]) => ({ key, count: s.count, totalBytes: s.total, maxBytes: s.max }))
      .sort((a, b) => b.totalBytes - a.totalBytes || b.count - a.count || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    if (this.#other.count > 0) rows.push({ key: OTHER, count: this.#other.count, totalBytes: this.#other.total, maxBytes: this.#other.max });
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
