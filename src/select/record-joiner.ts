/**
 * Records that go on over several physical lines (the formats whose `continuesRecords`): a
 * line of such a type that its reader does not read (no head of its own) continues the record
 * before it from the same source, the same type and pod; so does a line that is no entry at
 * all after a record read from a log's own text, when its format says the line is of its shape
 * (a stack trace after an operator's console line; `continuesWith`). The first line's record is
 * held until a line arrives from its source that does not continue it, the input pauses, or it
 * ends; then it is delivered once, with all its lines.
 *
 * One record is held a source (pod and container, by kubectl's or stern's prefix; lines without
 * a prefix are one source): `kubectl logs -l … --prefix` writes the lines of several pods as they
 * come, so another pod's line may stand between a record's first line and the rest. Lines of
 * another source pass a held record by; one passed by more than MAX_INTERLEAVED_LINES of them
 * without a line of its own is delivered as it is, so no record waits long behind busier pods.
 * Within a source, records and lines leave in the order they came.
 *
 * Held lines never outlive their chunk's bytes (the next chunk reuses them): at a chunk's end
 * they are copied out. A record is held for at most MAX_CONTINUATION_LINES lines.
 */
import type { LogRecord } from '../parse/log-record.js';
import { ContinuedRecord } from '../parse/continued-record.js';
import { readEntryRecord } from '../parse/parse-record.js';
import { EntryLine } from '../read/entry-line.js';
import { PREFIX_HEAD_BYTES, parseTextPrefix, sternPrefixes, type LinePrefix } from '../read/line-prefix.js';

/** Words of a prefix that ends in a space. */
const wordCount = (text: string): number => text.split(' ').length;

/** Lines one record may take; the rest stand as lines of their own. */
export const MAX_CONTINUATION_LINES = 1000;

/** Lines of other sources a held record lets by, without one of its own, before it is delivered. */
export const MAX_INTERLEAVED_LINES = 200;

/** Sources whose records are held at once at the most; holding one more delivers the oldest. */
export const MAX_HELD_SOURCES = 64;

/** How often (in lines, a power of two) held records are looked at for MAX_INTERLEAVED_LINES. */
export const BOUND_CHECK_LINES = 16;

/**
 * Where a record goes once whole: its entry (for a record of several lines, one entry whose
 * contents are its lines joined with `\n`), its record, and, when it took several lines, those
 * lines as they came (for raw and json output).
 */
export type DeliverRecord = (entry: EntryLine, record: LogRecord, lines: readonly EntryLine[] | undefined) => void;

interface Held {
  /** The source its lines come from (sourceOf). */
  readonly source: string;
  head: EntryLine;
  record: LogRecord;
  readonly lines: EntryLine[];
  /** True once the lines were copied out of their chunk. */
  detached: boolean;
  /** The joiner's line count when a line of this record last came. */
  touched: number;
}

/** A record held: made in one place, so that every one has one shape. */
function heldOf(source: string, head: EntryLine, record: LogRecord, touched: number): Held {
  return { source, head, record, lines: [], detached: false, touched };
}

/** The source a line comes from, as held records are keyed: its pod's prefix, or none. */
function sourceOf(entry: EntryLine): string {
  return entry.prefix?.source ?? '';
}

/**
 * V8 takes a field not written since its object was made for a constant, and the code it
 * optimizes may rely on that: the first detach (a chunk ending while a record is held) would
 * throw away the optimized code of the per-line path that holds records. One held record whose
 * fields are written at load tells V8 they change.
 */
function writeHeldFields(): void {
  const held = heldOf('', {} as EntryLine, {} as LogRecord, 0);
  held.head = {} as EntryLine;
  held.record = {} as LogRecord;
  held.detached = true;
  held.touched = 1;
}
writeHeldFields();

export class RecordJoiner {
  readonly #deliver: DeliverRecord;
  /** Held records, one a source, in the order their first lines came (a handful: one a pod). */
  readonly #held: Held[] = [];
  /** Lines of the types that may be continued, seen so far: what `touched` counts in. */
  #lines = 0;

  constructor(deliver: DeliverRecord) {
    this.#deliver = deliver;
  }

  get holding(): boolean {
    return this.#held.length > 0;
  }

  /** Holds the record of a line that may be continued (delivering the one held before from its source). */
  hold(entry: EntryLine, record: LogRecord): void {
    const source = sourceOf(entry);
    const touched = ++this.#lines;
    this.releaseSource(source);
    if (this.#held.length >= MAX_HELD_SOURCES) this.#releaseAt(0);
    this.#held.push(heldOf(source, entry, record, touched));
  }

  /**
   * True when the entry continues the record held from its source (its line has no record of
   * its own, and is of the record's type): it is taken.
   */
  continues(entry: EntryLine, record: LogRecord | undefined): boolean {
    if (this.#held.length === 0 || record !== undefined) return false;
    const at = this.#indexOf(sourceOf(entry));
    const held = at === -1 ? undefined : this.#held[at]!;
    if (!held || entry.logType !== held.head.logType) return false;
    held.touched = ++this.#lines;
    this.#add(held, at, entry);
    return true;
  }

  /**
   * A line that is no entry, bytes[start, end), from the source of a held record, as a line of
   * its type: only a record read from a log's own text (not from an entry) goes on so, only
   * with a line from the same pod (kubectl's or stern's prefix, when the record had one), and
   * only with a line its format says is its (`continuesWith`: the operator's, a Go stack
   * trace). Undefined for any other line, which is then read on its own. Its reader then says
   * whether it starts a record of its own or continues the held one. `wrapped`: the line a
   * shipper's record wraps, when the line is one (the record's prefix, if any, tells its source).
   */
  lineOfHeldSource(bytes: Buffer, start: number, end: number, wrapped?: string): EntryLine | undefined {
    const lineEnd = end > start && bytes[end - 1] === 0x0d ? end - 1 : end;
    let text: string | undefined;
    let kubectl: LinePrefix | undefined | null = null;
    for (const held of this.#held) {
      if (!held.head.recognized) continue;
      text ??= bytes.toString('utf8', start, lineEnd);
      const heldPrefix = held.head.prefix;
      let prefix: LinePrefix | undefined;
      if (heldPrefix?.source !== undefined && !heldPrefix.text.startsWith('[')) {
        // stern's `POD CONTAINER `: the same words in front, then as many for its time (each
        // line's own, with --timestamps; two with --timestamps=short) as the record's first line had.
        const words = wordCount(heldPrefix.text);
        const stern = sternPrefixes(text.slice(0, PREFIX_HEAD_BYTES)).find((p) => p.source === heldPrefix.source && wordCount(p.text) === words);
        if (!stern) continue;
        prefix = stern;
      } else {
        if (kubectl === null) kubectl = parseTextPrefix(text.slice(0, PREFIX_HEAD_BYTES));
        if (kubectl?.source !== heldPrefix?.source) continue;
        prefix = kubectl;
      }
      const contents = wrapped ?? (prefix ? text.slice(prefix.length) : text);
      const { logType, format } = held.head;
      if (!format?.continuesWith?.(contents)) return undefined;
      // A wrapped line is not where it stands in the bytes (start = end), as a shipper's line read alone.
      if (wrapped !== undefined) return new EntryLine(logType, format, false, prefix, bytes, start, lineEnd, lineEnd, -1, -1, contents, -1, -1, true);
      const at = start + (prefix ? Buffer.byteLength(prefix.text) : 0);
      return new EntryLine(logType, format, false, prefix, bytes, start, at, lineEnd, -1, -1, contents, at, lineEnd, true);
    }
    return undefined;
  }

  /**
   * A line of this entry's source that continues no record came (it is delivered next): the
   * record held from its source, if any, is delivered first. Records held from other sources
   * stay held, unless too many lines went by them.
   */
  releaseFor(entry: EntryLine): void {
    if (this.#held.length === 0) return;
    this.#lines++;
    this.releaseSource(sourceOf(entry));
  }

  /**
   * Delivers the record held from this source, if any; then, with records of other sources
   * held, those more than MAX_INTERLEAVED_LINES lines went by (this one counted: the caller
   * counted it), looked at every BOUND_CHECK_LINES lines, so that a stream of several pods pays
   * for the look that seldom.
   */
  releaseSource(source: string): void {
    const held = this.#held;
    if (held.length === 0) return;
    const at = this.#indexOf(source);
    if (at !== -1) this.#releaseAt(at);
    if (held.length === 0 || (this.#lines & (BOUND_CHECK_LINES - 1)) !== 0) return;
    for (let i = 0; i < held.length; ) {
      if (this.#lines - held[i]!.touched > MAX_INTERLEAVED_LINES) this.#releaseAt(i);
      else i++;
    }
  }

  /**
   * A line that is no entry and continues no record came, bytes[start, end): the record held
   * from its pod (by kubectl's or stern's prefix; none: the lines without one) is delivered
   * first, as a line of the pod's own would deliver it. Another pod's records stay held.
   */
  releaseForLine(bytes: Buffer, start: number, end: number): void {
    if (this.#held.length === 0) return;
    this.#lines++;
    const prefix = parseTextPrefix(bytes.toString('utf8', start, Math.min(end, start + PREFIX_HEAD_BYTES)));
    this.releaseSource(prefix?.source ?? '');
  }

  /** Delivers every held record, in the order their first lines came. */
  release(): void {
    while (this.#held.length > 0) this.#releaseAt(0);
  }

  #indexOf(source: string): number {
    const held = this.#held;
    for (let i = 0; i < held.length; i++) if (held[i]!.source === source) return i;
    return -1;
  }

  #releaseAt(at: number): void {
    const held = this.#held[at]!;
    if (at === this.#held.length - 1) this.#held.pop();
    else this.#held.splice(at, 1);
    if (held.lines.length === 0) {
      this.#deliver(held.head, held.record, undefined);
      return;
    }
    const { head, lines } = held;
    const texts = lines.map((line) => line.contents);
    const joined = EntryLine.fromContents(head.logType, head.format, [head.contents, ...texts].join('\n'), head.prefix);
    this.#deliver(joined, new ContinuedRecord(held.record, texts), [head, ...lines]);
  }

  /** The chunk's bytes are about to be reused: the held lines are copied out of them. */
  detach(): void {
    for (const held of this.#held) {
      if (held.detached) continue;
      held.head = held.head.detached();
      // The record may read its line from the bytes on first use: read again, from the copy.
      held.record = readEntryRecord(held.head.format, held.head) ?? held.record;
      for (let i = 0; i < held.lines.length; i++) held.lines[i] = held.lines[i]!.detached();
      held.detached = true;
    }
  }

  #add(held: Held, at: number, line: EntryLine): void {
    held.lines.push(held.detached ? line.detached() : line);
    if (held.lines.length + 1 >= MAX_CONTINUATION_LINES) this.#releaseAt(at);
  }
}
