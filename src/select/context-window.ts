/**
 * `-A/-B/-C N`: entries around each selected one, as grep's context, taken from the same
 * stream of lines: the same type from the same pod and container (kubectl's or stern's
 * prefix), so another log's lines between never count as context. Each such stream keeps its
 * last `before` entries that were not selected (copied: the reader's bytes are reused with the
 * next chunk) and a count of entries still owed after a selected one. Where a stream's written
 * entries do not follow on from each other, the sink is told, to write grep's `--`.
 *
 * Memory: `before` entries for each of at most MAX_STREAMS streams; entries of a stream beyond
 * that are written when selected, without context.
 */
import { ContinuedRecord } from '../parse/continued-record.js';
import type { LogRecord } from '../parse/log-record.js';
import { readEntryRecord } from '../parse/parse-record.js';
import type { EntryLine } from '../read/entry-line.js';

/** Where entries and breaks go. */
export interface ContextSink {
  /** `lines`: a record's lines as they came, when it went on over several (record-joiner.ts). */
  selected(entry: EntryLine, record: LogRecord | undefined, lines?: readonly EntryLine[]): void;
  /** Entries written next do not follow on from the ones written before in their stream. */
  separator?(): void;
}

/** The last source once an input ended: no entry's, so the next one written is set apart. */
const INPUT_ENDED = '\u0000input ended';

/** Streams (type, pod, container) held at the most. */
export const MAX_STREAMS = 1024;

interface Stream {
  /** Entries of this stream seen so far: each one's number is its place. */
  seen: number;
  /** The number of the last entry written, -1 before any. */
  lastWritten: number;
  /** Entries not selected, the last `before` of them, oldest first, with their numbers. */
  readonly held: { entry: EntryLine; lines: readonly EntryLine[] | undefined; number: number }[];
  /** Entries still to write after the last selected one. */
  owed: number;
}

export class ContextWindow {
  readonly #before: number;
  readonly #after: number;
  readonly #sink: ContextSink;
  readonly #readsRecords: boolean;
  readonly #streams = new Map<string, Stream>();
  /** Streams that still owe entries after a selected one. */
  #owing = 0;
  /** The source (pod) of the last entry written; undefined before any. */
  #lastSource: string | undefined;

  /** Entries written as context (a record over several lines: that many): `--summary`'s written count has them too. */
  readonly #counts: { context: number };

  constructor(before: number, after: number, sink: ContextSink, readsRecords: boolean, counts: { context: number } = { context: 0 }) {
    this.#before = before;
    this.#after = after;
    this.#sink = sink;
    this.#readsRecords = readsRecords;
    this.#counts = counts;
  }

  /** True while some stream still owes entries after its last selected one. */
  get owing(): boolean {
    return this.#owing > 0;
  }

  /** A selected entry: the held entries before it, then it. */
  selected(entry: EntryLine, record: LogRecord | undefined, lines?: readonly EntryLine[]): void {
    const stream = this.#stream(entry);
    if (!stream) return this.#sink.selected(entry, record, lines);
    const number = stream.seen++;
    for (const held of stream.held) {
      if (held.number <= stream.lastWritten) continue;
      this.#counts.context += held.lines?.length ?? 1;
      this.#write(stream, held.entry, undefined, held.lines, held.number);
    }
    stream.held.length = 0;
    this.#write(stream, entry, record, lines, number);
    if (stream.owed === 0 && this.#after > 0) this.#owing++;
    stream.owed = this.#after;
  }

  /** An entry of a selected type that was not selected: written if owed, else held. */
  unselected(entry: EntryLine, record: LogRecord | undefined, lines?: readonly EntryLine[]): void {
    const stream = this.#stream(entry);
    if (!stream) return;
    const number = stream.seen++;
    if (stream.owed > 0) {
      this.#counts.context += lines?.length ?? 1;
      this.#write(stream, entry, record, lines, number);
      if (--stream.owed === 0) this.#owing--;
      return;
    }
    if (this.#before === 0) return;
    if (stream.held.length === this.#before) stream.held.shift();
    stream.held.push({ entry: entry.detached(), lines: lines?.map((line) => line.detached()), number });
  }

  /**
   * An input ended: the next input's entries are no context of this one's, nor this one's of
   * them; what is written next after what was written is set apart (`--`).
   */
  inputEnded(): void {
    this.#streams.clear();
    this.#owing = 0;
    if (this.#lastSource !== undefined) this.#lastSource = INPUT_ENDED;
  }

  /** After the last selected entry (--max-count): only what is owed is written, selected or not. */
  trailing(entry: EntryLine, record: LogRecord | undefined, lines?: readonly EntryLine[]): void {
    const stream = this.#streams.get(streamKey(entry));
    if (!stream || stream.owed === 0) return;
    this.unselected(entry, record, lines);
  }

  #stream(entry: EntryLine): Stream | undefined {
    const key = streamKey(entry);
    let stream = this.#streams.get(key);
    if (!stream && this.#streams.size < MAX_STREAMS) {
      stream = { seen: 0, lastWritten: -1, held: [], owed: 0 };
      this.#streams.set(key, stream);
    }
    return stream;
  }

  #write(stream: Stream, entry: EntryLine, record: LogRecord | undefined, lines: readonly EntryLine[] | undefined, number: number): void {
    // A run ends where its stream skips entries, and where another pod's run begins: raw
    // output names no pod, so two pods' runs would read as one. (A pod's logs interleave as
    // they came: one pod's run.)
    const source = entry.prefix?.source ?? '';
    if ((this.#lastSource !== undefined && this.#lastSource !== source) || (stream.lastWritten >= 0 && number !== stream.lastWritten + 1)) this.#sink.separator?.();
    this.#lastSource = source;
    stream.lastWritten = number;
    this.#sink.selected(entry, record ?? (this.#readsRecords ? recordOf(entry, lines) : undefined), lines);
  }
}

/**
 * A held entry's record, read again (what was held was its lines' bytes): a record over several
 * lines is its first line's with the rest as its continuation, as the joiner made it, so its
 * lines are shown below it (read from the joined text, its message held them, shown as `\n`).
 */
function recordOf(entry: EntryLine, lines: readonly EntryLine[] | undefined): LogRecord | undefined {
  if (!lines || lines.length < 2) return readEntryRecord(entry.format, entry);
  const head = readEntryRecord(entry.format, lines[0]!);
  return head && new ContinuedRecord(head, lines.slice(1).map((line) => line.contents));
}

/** The stream an entry belongs to: its source (pod and container, when prefixed) and its type. */
export function streamKey(entry: EntryLine): string {
  return `${entry.prefix?.source ?? ''}\u0000${entry.logType}`;
}
