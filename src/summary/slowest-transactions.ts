/**
 * The slowest single transactions (51802, a text line's `transaction parameters:`), each with
 * its parameters as mloginfo --transactions shows them: its session (lsid), txnNumber,
 * autocommit and readConcern, how it ended (terminationCause), how long it was active and
 * inactive, and its yields. Bounded: the MAX_SLOWEST_TRANSACTIONS slowest are held, and a
 * line's parameters are read only when it is slower than the least held.
 */
import { jsonText } from '../render/json-text.js';
import type { LogRecord } from '../parse/log-record.js';
import { attrValue } from '../parse/record-attributes.js';
import { isoString } from './iso-string.js';
import type { Member } from './member-counts.js';
import type { SlowestTransaction } from './summary.js';
import { MAX_PARAMETER_CHARS, MAX_SLOWEST_TRANSACTIONS } from './summary-limits.js';
import { cutLine } from './slowest-operations.js';
import { TopN } from './top-n.js';
import { countOf } from '../parse/json-value.js';

interface Held extends Omit<SlowestTransaction, 'time' | 'member'> {
  readonly at: number;
  /** Its member, named in the summary only when the input holds several. */
  readonly of: Member | undefined;
}

const count = (value: unknown): number | null => countOf(value) ?? null;
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A session's id as 4.4's JSON writes it (`{ id: { $uuid: … } }`) or a text line (`{ id: UUID("…") }`): the UUID alone. */
export function sessionId(lsid: unknown): string | null {
  const id = isObject(lsid) ? lsid['id'] : undefined;
  if (isObject(id) && typeof id['$uuid'] === 'string') return cutLine(id['$uuid'], MAX_PARAMETER_CHARS);
  if (typeof id === 'string') return cutLine(/^UUID\("([^"]*)"\)$/.exec(id)?.[1] ?? id, MAX_PARAMETER_CHARS);
  return null;
}

/** A readConcern as its level (`snapshot`), else as written. */
function readConcernOf(value: unknown): string | null {
  if (isObject(value) && typeof value['level'] === 'string') return cutLine(value['level'], MAX_PARAMETER_CHARS);
  const text = value === undefined ? undefined : jsonText(value);
  return text === undefined ? null : cutLine(text, MAX_PARAMETER_CHARS);
}

export class SlowestTransactions {
  readonly #top = new TopN<Held>(MAX_SLOWEST_TRANSACTIONS, (t) => t.durationMillis);

  /** A slow transaction's line, its duration and the member that wrote it. */
  add(record: LogRecord, time: number | undefined, durationMillis: number, member?: Member): void {
    if (!this.#top.wouldHold(durationMillis)) return;
    const parameters = attrValue(record, 'parameters');
    const p = isObject(parameters) ? parameters : {};
    const autocommit = p['autocommit'];
    this.#top.add({
      at: time ?? Number.NaN,
      of: member,
      connection: record.context ?? null,
      durationMillis,
      lsid: sessionId(p['lsid']),
      txnNumber: count(p['txnNumber']),
      autocommit: typeof autocommit === 'boolean' ? autocommit : null,
      readConcern: readConcernOf(p['readConcern']),
      terminationCause: ((cause) => (typeof cause === 'string' ? cutLine(cause, MAX_PARAMETER_CHARS) : null))(attrValue(record, 'terminationCause')),
      timeActiveMicros: count(attrValue(record, 'timeActiveMicros')),
      timeInactiveMicros: count(attrValue(record, 'timeInactiveMicros')),
      numYields: count(attrValue(record, 'numYields')),
    });
  }

  /** The slowest first; `several`: the input holds several members (each row then names its own). */
  summary(several = false): SlowestTransaction[] {
    return this.#top.items().map(({ at, of, ...t }) => ({ time: isoString(at) ?? null, ...t, ...(several && of ? { member: of.name } : {}) }));
  }
}
