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
}

/** Sources and types followed at the most (the joiner holds as many records at once). */
const MAX_STREAMS = 64;

/** The key of a line's source and type, as the joiner keys held records. */
const streamOf = (logType: string, prefix: LinePrefix | undefined): string => `${prefix?.source ?? ''}\u0000${logType}`;

export class LateRecords {
  readonly #byStream = new Map<string, DeliveredRecord>();

  remember(record: DeliveredRecord): void {
    const key = streamOf(record.logType, record.prefix);
    this.#byStream.delete(key);
    this.#byStream.set(key, record);
    if (this.#byStream.size > MAX_STREAMS) this.#byStream.delete(this.#byStream.keys().next().value!);
  }

  /** A record of this stream began: nothing more of the last one can come. */
  forget(logType: string, prefix: LinePrefix | undefined): void {
    if (this.#byStream.size > 0) this.#byStream.delete(streamOf(logType, prefix));
  }

  /** A line that is no entry came from `source` (a pod's plain line): it ends that pod's records, as the joiner's. */
  forgetSource(source: string): void {
    if (this.#byStream.size === 0) return;
    for (const key of this.#byStream.keys()) if (key.slice(0, key.indexOf('\u0000')) === source) this.#byStream.delete(key);
  }

  /** Whether any record is kept (a line's source need not be read for nothing). */
  get empty(): boolean {
    return this.#byStream.size === 0;
  }

  /** The last record of the line's stream, when a line of it may still come. */
  of(logType: string, prefix: LinePrefix | undefined): DeliveredRecord | undefined {
    if (this.#byStream.size === 0) return undefined;
    const record = this.#byStream.get(streamOf(logType, prefix));
    return record && record.texts.length < MAX_CONTINUATION_LINES ? record : undefined;
  }
}
