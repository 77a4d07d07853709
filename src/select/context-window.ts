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
import type { LogRecord } from '../parse/log-record.js';
import { readEntryRecord } from '../parse/parse-record.js';
import { EntryLine } from '../read/entry-line.js';

/** Where entries and breaks go. */
export interface ContextSink {
  selected(entry: EntryLine, record: LogRecord | undefined): void;
  /** Entries written next do not follow on from the ones written before in their stream. */
  separator?(): void;
}

/** Streams (type, pod, container) held at the most. */
export const MAX_STREAMS = 1024;

interface Stream {
  /** Entries of this stream seen so far: each one's number is its place. */
  seen: number;
  /** The number of the last entry written, -1 before any. */
  lastWritten: number;
  /** Entries not selected, the last `before` of them, oldest first, with their numbers. */
  readonly held: { entry: EntryLine; number: number }[];
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

  constructor(before: number, after: number, sink: ContextSink, readsRecords: boolean) {
    this.#before = before;
    this.#after = after;
    this.#sink = sink;
    this.#readsRecords = readsRecords;
  }

  /** True while some stream still owes entries after its last selected one. */
  get owing(): boolean {
    return this.#owing > 0;
  }

  /** A selected entry: the held entries before it, then it. */
  selected(entry: EntryLine, record: LogRecord | undefined): void {
    const stream = this.#stream(entry);
    if (!stream) return this.#sink.selected(entry, record);
    const number = stream.seen++;
    for (const held of stream.held) if (held.number > stream.lastWritten) this.#write(stream, held.entry, undefined, held.number);
    stream.held.length = 0;
    this.#write(stream, entry, record, number);
    if (stream.owed === 0 && this.#after > 0) this.#owing++;
    stream.owed = this.#after;
  }

  /** An entry of a selected type that was not selected: written if owed, else held. */
  unselected(entry: EntryLine, record: LogRecord | undefined): void {
    const stream = this.#stream(entry);
    if (!stream) return;
    const number = stream.seen++;
    if (stream.owed > 0) {
      this.#write(stream, entry, record, number);
      if (--stream.owed === 0) this.#owing--;
      return;
    }
    if (this.#before === 0) return;
    if (stream.held.length === this.#before) stream.held.shift();
    stream.held.push({ entry: detached(entry), number });
  }

  /** After the last selected entry (--max-count): only what is owed is written, selected or not. */
  trailing(entry: EntryLine, record: LogRecord | undefined): void {
    const stream = this.#streams.get(streamKey(entry));
    if (!stream || stream.owed === 0) return;
    this.unselected(entry, record);
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

  #write(stream: Stream, entry: EntryLine, record: LogRecord | undefined, number: number): void {
    if (stream.lastWritten >= 0 && number !== stream.lastWritten + 1) this.#sink.separator?.();
    stream.lastWritten = number;
    this.#sink.selected(entry, record ?? (this.#readsRecords ? readEntryRecord(entry.format, entry) : undefined));
  }
}

/** The stream an entry belongs to: its source (pod and container, when prefixed) and its type. */
export function streamKey(entry: EntryLine): string {
  return `${entry.prefix?.source ?? ''}\u0000${entry.logType}`;
}

/** The entry with bytes of its own: the reader's are reused with the next chunk. */
export function detached(entry: EntryLine): EntryLine {
  const from = entry.lineStart;
  const to = Math.max(entry.end, entry.plainEnd);
  if (to <= from) return entry;
  const bytes = Buffer.from(entry.bytes.subarray(from, to));
  const at = (offset: number): number => (offset < 0 ? offset : offset - from);
  return new EntryLine(
    entry.logType,
    entry.format,
    entry.partial,
    entry.prefix,
    bytes,
    0,
    entry.start - from,
    entry.end - from,
    at(entry.literalStart),
    at(entry.literalEnd),
    entry.literalStart < 0 ? entry.contents : undefined,
    at(entry.plainStart),
    at(entry.plainEnd),
  );
}
