/**
 * Records that go on over several physical lines (the formats whose `continuesRecords`): a
 * line of such a type that its reader does not read (no head of its own) continues the record
 * before it from the same source, the same type and pod; so does a line that is no entry at
 * all after a record read from a log's own text, when its format says the line is of its shape
 * (a stack trace after an operator's console line; `continuesWith`). The first line's record is
 * held until a line arrives that does not continue it, the input pauses, or it ends; then it is
 * delivered once, with all its lines.
 *
 * Held lines never outlive their chunk's bytes (the next chunk reuses them): at a chunk's end
 * they are copied out. A record is held for at most MAX_CONTINUATION_LINES lines.
 */
import type { LogRecord } from '../parse/log-record.js';
import { ContinuedRecord } from '../parse/continued-record.js';
import { readEntryRecord } from '../parse/parse-record.js';
import { EntryLine } from '../read/entry-line.js';
import { PREFIX_HEAD_BYTES, parseTextPrefix, type LinePrefix } from '../read/line-prefix.js';

/** Lines one record may take; the rest stand as lines of their own. */
export const MAX_CONTINUATION_LINES = 1000;

/**
 * Where a record goes once whole: its entry (for a record of several lines, one entry whose
 * contents are its lines joined with `\n`), its record, and, when it took several lines, those
 * lines as they came (for raw and json output).
 */
export type DeliverRecord = (entry: EntryLine, record: LogRecord, lines: readonly EntryLine[] | undefined) => void;

interface Held {
  head: EntryLine;
  record: LogRecord;
  readonly lines: EntryLine[];
  /** True once the lines were copied out of their chunk. */
  detached: boolean;
}

/** A record held: made in one place, so that every one has one shape. */
function heldOf(head: EntryLine, record: LogRecord): Held {
  return { head, record, lines: [], detached: false };
}

/**
 * V8 takes a field not written since its object was made for a constant, and the code it
 * optimizes may rely on that: the first detach (a chunk ending while a record is held) would
 * throw away the optimized code of the per-line path that holds records. One held record whose
 * fields are written at load tells V8 they change.
 */
function writeHeldFields(): void {
  const held = heldOf({} as EntryLine, {} as LogRecord);
  held.head = {} as EntryLine;
  held.record = {} as LogRecord;
  held.detached = true;
}
writeHeldFields();

export class RecordJoiner {
  readonly #deliver: DeliverRecord;
  #held: Held | undefined;

  constructor(deliver: DeliverRecord) {
    this.#deliver = deliver;
  }

  get holding(): boolean {
    return this.#held !== undefined;
  }

  /** Holds the record of a line that may be continued (delivering the one held before). */
  hold(entry: EntryLine, record: LogRecord): void {
    this.release();
    this.#held = heldOf(entry, record);
  }

  /**
   * True when the entry continues the held record (its line has no record of its own, and it
   * comes from the same source): it is taken.
   */
  continues(entry: EntryLine, record: LogRecord | undefined): boolean {
    const held = this.#held;
    if (!held || record !== undefined || entry.logType !== held.head.logType || entry.prefix?.source !== held.head.prefix?.source) return false;
    this.#add(held, entry);
    return true;
  }

  /**
   * A line that is no entry, bytes[start, end), from the source of the held record, as a line of
   * its type: only a record read from a log's own text (not from an entry) goes on so, only
   * with a line from the same pod (kubectl's or stern's prefix, when the record had one), and
   * only with a line its format says is its (`continuesWith`: the operator's, a Go stack
   * trace). Undefined for any other line, which is then read on its own. Its reader then says
   * whether it starts a record of its own or continues the held one.
   */
  lineOfHeldSource(bytes: Buffer, start: number, end: number): EntryLine | undefined {
    const held = this.#held;
    if (!held || !held.head.recognized) return undefined;
    const lineEnd = end > start && bytes[end - 1] === 0x0d ? end - 1 : end;
    const text = bytes.toString('utf8', start, lineEnd);
    const heldPrefix = held.head.prefix;
    let prefix: LinePrefix | undefined;
    if (heldPrefix?.source !== undefined && !heldPrefix.text.startsWith('[')) {
      // stern's `POD CONTAINER `: the same words in front.
      if (!text.startsWith(heldPrefix.text)) return undefined;
      prefix = heldPrefix;
    } else {
      prefix = parseTextPrefix(text.slice(0, PREFIX_HEAD_BYTES));
      if (prefix?.source !== heldPrefix?.source) return undefined;
    }
    const contents = prefix ? text.slice(prefix.length) : text;
    const { logType, format } = held.head;
    if (!format?.continuesWith?.(contents)) return undefined;
    const at = start + (prefix ? Buffer.byteLength(prefix.text) : 0);
    return new EntryLine(logType, format, false, prefix, bytes, start, at, lineEnd, -1, -1, contents, at, lineEnd, true);
  }

  /** Delivers the held record, if any. */
  release(): void {
    const held = this.#held;
    if (!held) return;
    this.#held = undefined;
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
    const held = this.#held;
    if (!held || held.detached) return;
    held.head = held.head.detached();
    // The record may read its line from the bytes on first use: read again, from the copy.
    held.record = readEntryRecord(held.head.format, held.head) ?? held.record;
    for (let i = 0; i < held.lines.length; i++) held.lines[i] = held.lines[i]!.detached();
    held.detached = true;
  }

  #add(held: Held, line: EntryLine): void {
    held.lines.push(held.detached ? line.detached() : line);
    if (held.lines.length + 1 >= MAX_CONTINUATION_LINES) this.release();
  }
}
