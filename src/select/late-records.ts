/**
 * The last record delivered from each source and type whose lines may go on (an agent's error
 * and its detail) that the joiner took as it was, by a bound or a pause of the input
 * (record-joiner.ts: once the input pauses or other pods' lines pile up behind it), kept for a
 * line of it that comes after: that line would otherwise be selected alone (`-g` on the detail
 * showed the detail without its first line; `-l error` the first line without its detail).
 * With the record's lines and whether it was selected, such a line is decided as a line of its
 * record: shown when the record, with it, is selected; the record's earlier lines shown with it
 * when they were not before and the record is now.
 *
 * Bounded: one record a source and type, MAX_STREAMS of them (the oldest let go), its lines up
 * to the joiner's MAX_CONTINUATION_LINES. Only texts are kept (no bytes of a chunk).
 */
import type { LogFormat } from '../formats/log-format.js';
import type { LinePrefix } from '../read/line-prefix.js';
import { MAX_CONTINUATION_LINES } from './record-joiner.js';

/** A record delivered: what a line of it that comes late needs. */
export interface DeliveredRecord {
  readonly logType: string;
  readonly format: LogFormat | undefined;
  readonly prefix: LinePrefix | undefined;
  /** Its lines' texts, the first line's first. */
  readonly texts: string[];
  /** Whether it was selected (shown). */
  selected: boolean;
  /** Its last line's stamp (kubectl's, a shipper's), if it had one: a line stamped far from it is not of it (record-joiner.ts, stampsApart). */
  lastStamp: number | undefined;
}

/** Sources and types followed at the most (the joiner holds as many records at once). */
const MAX_STREAMS = 64;

/**
 * By type, then by source (kubectl's or stern's pod; '' for none): asked for every head of a
 * record while any is kept, so no key is made of the two (a string a line).
 */
export class LateRecords {
  readonly #byType = new Map<string, Map<string, DeliveredRecord>>();
  #size = 0;

  remember(record: DeliveredRecord): void {
    let bySource = this.#byType.get(record.logType);
    if (!bySource) this.#byType.set(record.logType, (bySource = new Map()));
    const source = record.prefix?.source ?? '';
    if (!bySource.delete(source)) this.#size++;
    bySource.set(source, record);
    // Past the bound, the oldest type's oldest record is let go.
    if (this.#size > MAX_STREAMS) {
      const [type, oldest] = this.#byType.entries().next().value!;
      oldest.delete(oldest.keys().next().value!);
      this.#size--;
      if (oldest.size === 0) this.#byType.delete(type);
    }
  }

  /** A record of this stream began: nothing more of the last one can come. */
  forget(logType: string, prefix: LinePrefix | undefined): void {
    if (this.#size === 0) return;
    const bySource = this.#byType.get(logType);
    if (!bySource?.delete(prefix?.source ?? '')) return;
    this.#size--;
    if (bySource.size === 0) this.#byType.delete(logType);
  }

  /** A line that is no entry came from `source` (a pod's plain line): it ends that pod's records, as the joiner's. */
  forgetSource(source: string): void {
    if (this.#size === 0) return;
    for (const bySource of this.#byType.values()) if (bySource.delete(source)) this.#size--;
  }

  /** An input ended: no line of the next is of its records. */
  clear(): void {
    this.#byType.clear();
    this.#size = 0;
  }

  /** Whether any record is kept (a line's source need not be read for nothing). */
  get empty(): boolean {
    return this.#size === 0;
  }

  /** The last record of the line's stream, when a line of it may still come. */
  of(logType: string, prefix: LinePrefix | undefined): DeliveredRecord | undefined {
    if (this.#size === 0) return undefined;
    const record = this.#byType.get(logType)?.get(prefix?.source ?? '');
    return record && record.texts.length < MAX_CONTINUATION_LINES ? record : undefined;
  }
}
