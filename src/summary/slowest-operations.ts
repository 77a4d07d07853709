/**
 * The slowest single operations (clients' operations and slow transactions; oplog entries a
 * secondary applied are in their own groups), each as the line told it: when, on which
 * connection, from which application, what it did and how long it took, and the line itself,
 * cut at MAX_SLOWEST_LINE_CHARS. Memory is bounded: only the MAX_SLOWEST_OPERATIONS slowest are
 * held, and a line's other attributes are read only when it is slower than the least held.
 */
import type { LogRecord } from '../parse/log-record.js';
import { attrValue } from '../parse/record-attributes.js';
import type { ServerOperation } from '../parse/server-operation.js';
import { isoString } from './iso-string.js';
import type { Member } from './member-counts.js';
import type { SlowestOperation } from './summary.js';
import { MAX_SLOWEST_LINE_CHARS, MAX_SLOWEST_OPERATIONS } from './summary-limits.js';
import { TopN } from './top-n.js';
import { countOf } from '../parse/json-value.js';

/** Where the record's line can be read from, when it is needed (an entry's contents are decoded on demand). */
export interface RecordSource {
  readonly contents: string;
  /** What kubectl or stern put in front of the line: its pod and container (`source`), when it names them. */
  readonly prefix?: { readonly source?: string | undefined } | undefined;
}

interface Held extends Omit<SlowestOperation, 'time' | 'member'> {
  readonly at: number;
  /** Its member, named in the summary only when the input holds several. */
  readonly of: Member | undefined;
}

/**
 * `text` cut to at most `most` UTF-16 units, never between the halves of a surrogate pair,
 * with `…` where it was cut.
 */
export function cutLine(text: string, most: number): string {
  if (text.length <= most) return text;
  let end = most - 1;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return `${text.slice(0, end)}…`;
}

const count = (value: unknown): number | null => countOf(value) ?? null;
const word = (value: unknown): string | null => (typeof value === 'string' ? value : null);

export class SlowestOperations {
  readonly #top = new TopN<Held>(MAX_SLOWEST_OPERATIONS, (op) => op.durationMillis);

  /** A slow line of a client's operation or a transaction, its operation read (server-operation.ts), and the member that wrote it. */
  add(record: LogRecord, time: number | undefined, operation: ServerOperation, durationMillis: number, plan: string | undefined, source: RecordSource | undefined, member?: Member): void {
    if (!this.#top.wouldHold(durationMillis)) return;
    this.#top.add({
      at: time ?? Number.NaN,
      of: member,
      connection: record.context ?? null,
      appName: word(attrValue(record, 'appName')),
      ns: operation.ns,
      operation: operation.name,
      plan: plan ?? null,
      durationMillis,
      keysExamined: count(attrValue(record, 'keysExamined')),
      docsExamined: count(attrValue(record, 'docsExamined')),
      line: source === undefined ? null : cutLine(source.contents, MAX_SLOWEST_LINE_CHARS),
    });
  }

  /** The slowest first; `several`: the input holds several members (each row then names its own). */
  summary(several = false): SlowestOperation[] {
    return this.#top.items().map(({ at, of, ...op }) => ({ time: isoString(at) ?? null, ...op, ...(several && of ? { member: of.name } : {}) }));
  }
}
