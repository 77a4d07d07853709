/**
 * Records that go on over several physical lines (the formats whose `continuesRecords`): a
 * line of such a type that its reader does not read (no head of its own) continues the record
 * before it from the same source and type; so does a line that is no entry at all after a
 * record read from a log's own text, when its format says the line is of its shape (a stack
 * trace after an operator's console line; `continuesWith`). The first line's record is held
 * until a line of its source and type arrives that does not continue it, the bounds below
 * end its wait, the input pauses, or it ends; then it is delivered once, with all its lines.
 *
 * One record is held a source and type (the source: pod and container, by kubectl's or stern's
 * prefix; lines without a prefix are one source): `kubectl logs -l … --prefix` writes the lines
 * of several pods as they come, and the sidecar the lines of a pod's several logs, so another
 * pod's or log's line may stand between a record's first line and the rest. Those lines wait
 * behind the held record, so everything leaves in the order it came: a record where its first
 * line stood (in the filter's output; the reports, for which the order across logs counts for
 * nothing, take them at once). They wait for MAX_INTERLEAVED_LINES lines at the most, and HELD_WAIT_MS while
 * lines keep coming (a pause of the input ends every wait at once): then the record is taken as
 * it is (`cut`), and a line of it that comes later is decided by the selection as a line of
 * that record (late-records.ts). (Other streams' times are not compared: another pod's
 * clock, or another log caught up from hours before, says nothing of this record.) A line of
 * its own stream stamped (kubectl's --timestamps, a shipper's record time) more than
 * CONTINUATION_GAP_MS from the record's last line is no part of it: a trace is written at once,
 * and a line of no head minutes later (a Go `log` line after a panic's trace) stands alone.
 *
 * Held lines never outlive their chunk's bytes (the next chunk reuses them): at a chunk's end
 * the waiting lines are copied out. A record is held for at most MAX_CONTINUATION_LINES lines.
 */
import type { LogRecord } from '../parse/log-record.js';
import { ContinuedRecord } from '../parse/continued-record.js';
import { readEntryRecord } from '../parse/parse-record.js';
import { EntryLine } from '../read/entry-line.js';
import { PREFIX_HEAD_BYTES, parseTextPrefix, sternPrefixes, type LinePrefix } from '../read/line-prefix.js';

/** Lines one record may take; the rest stand as lines of their own. */
export const MAX_CONTINUATION_LINES = 1000;

/** Stamps of two lines of one record are this close at the most (stampedApart). */
const CONTINUATION_GAP_MS = 2000;

/** True when both stamps are known and too far apart for a line stamped `at` to continue a record whose last line was stamped `last`. */
export function stampsApart(last: number | undefined, at: number | undefined): boolean {
  return last !== undefined && at !== undefined && Math.abs(at - last) > CONTINUATION_GAP_MS;
}

/** Lines not its own that may come after a held record (waiting behind it, or other records'); one more delivers it as it is. */
export const MAX_INTERLEAVED_LINES = 200;

/** Records held at once at the most; holding one more delivers the oldest. */
const MAX_HELD_SOURCES = 64;

/**
 * How long (wall-clock) lines may wait behind a held record while more keep coming: a live
 * stream's lines leave within it even when the held record's next line is long in coming.
 */
const HELD_WAIT_MS = 500;


/** Words of a prefix that ends in a space. */
const wordCount = (text: string): number => text.split(' ').length;

/**
 * Where a record goes once whole: its entry (for a record of several lines, one entry whose
 * contents are its lines joined with `\n`), its record, and, when it took several lines, those
 * lines as they came (for raw and json output). `cut`: taken as it was by a bound or a pause of
 * the input, not by a line of its own stream: a line of it may still come (late-records.ts).
 */
export type DeliverRecord = (entry: EntryLine, record: LogRecord, lines: readonly EntryLine[] | undefined, cut: boolean) => void;

/** Where what waited behind a held record goes, in the order it came. */
export interface JoinerSink {
  readonly record: DeliverRecord;
  /** An entry that is no held record; `record`: as read already (`wasRead`), or not read. */
  readonly entry: (entry: EntryLine, record: LogRecord | undefined, wasRead: boolean) => void;
  /** A line that is no entry, bytes[start, end) (`wrapped`: the line a shipper's record wraps). */
  readonly other: (bytes: Buffer, start: number, end: number, wrapped: string | undefined) => void;
}

/** Taken places at the queue's front that are let go at once. */
const COMPACT_AT = 1024;

const HELD = 0;
const WAITING_ENTRY = 1;
const WAITING_LINE = 2;

interface Held {
  readonly kind: typeof HELD;
  /** The source its lines come from (sourceOf). */
  readonly source: string;
  /** Its lines' type: a source's logs hold a record each. */
  readonly logType: string;
  head: EntryLine;
  record: LogRecord;
  readonly lines: EntryLine[];
  /** True once the lines were copied out of their chunk. */
  detached: boolean;
  /** Whole: delivered when it comes to the front. */
  done: boolean;
  /** Made whole by a bound or a pause, not by a line of its stream (DeliverRecord's `cut`). */
  cut: boolean;
  /** The joiner's line count, and the wall clock, when it was held. */
  readonly since: number;
  readonly at: number;
}

interface WaitingEntry {
  readonly kind: typeof WAITING_ENTRY;
  entry: EntryLine;
  record: LogRecord | undefined;
  readonly wasRead: boolean;
  detached: boolean;
}

interface WaitingLine {
  readonly kind: typeof WAITING_LINE;
  /** Its own copy of the line's bytes. */
  readonly bytes: Buffer;
  readonly wrapped: string | undefined;
}

type Waiting = Held | WaitingEntry | WaitingLine;

/** A record held: made in one place, so that every one has one shape. */
function heldOf(source: string, head: EntryLine, record: LogRecord, since: number, at: number): Held {
  return { kind: HELD, source, logType: head.logType, head, record, lines: [], detached: false, done: false, cut: false, since, at };
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
  const held = heldOf('', { logType: '' } as EntryLine, {} as LogRecord, 0, 0);
  held.head = {} as EntryLine;
  held.record = {} as LogRecord;
  held.detached = true;
  held.done = true;
  held.cut = true;
}
writeHeldFields();

/**
 * Takes array[at] out (0 <= at < its length), the rest moved down one place: as
 * `splice(at, 1)`, without the array of what was taken that splice makes on every call (a
 * report takes a held record out at every line of a log whose records are held: an agent's).
 */
export function removeAt<T>(array: T[], at: number): void {
  for (let i = at + 1; i < array.length; i++) array[i - 1] = array[i]!;
  array.pop();
}

export class RecordJoiner {
  readonly #sink: JoinerSink;
  /**
   * What comes after a held record waits behind it (output: everything in the order it came);
   * false where the order across logs counts for nothing (summary, doctor): only held records
   * are queued, each delivered once whole.
   */
  readonly #ordered: boolean;
  /** Held records and what came after the first of them, in the order they came. */
  readonly #queue: Waiting[] = [];
  /** Where the queue starts (taken from the front without moving the rest). */
  #front = 0;
  /** Held records not done, in the order they came (a handful: one a pod and log). */
  readonly #active: Held[] = [];
  /** Lines given to the joiner so far (held, taken, passed): what the bound counts in. */
  #lines = 0;

  constructor(sink: JoinerSink, ordered = true) {
    this.#sink = sink;
    this.#ordered = ordered;
  }

  /** True while anything waits: a held record, and what came after it. */
  get holding(): boolean {
    return this.#front < this.#queue.length;
  }

  /**
   * Holds the record of a line that may be continued: the one held before from its source and
   * type is whole, and so are those its time says are.
   */
  hold(entry: EntryLine, record: LogRecord): void {
    this.#settle(sourceOf(entry), entry.logType);
    if (this.#active.length >= MAX_HELD_SOURCES) this.#finish(this.#active[0]!, true);
    const at = !this.#ordered ? 0 : this.#active.length === 0 ? Date.now() : this.#active[this.#active.length - 1]!.at;
    const held = heldOf(sourceOf(entry), entry, record, ++this.#lines, at);
    this.#queue.push(held);
    this.#active.push(held);
    this.#bound();
  }

  /** Whether a record of the entry's source and type is held. */
  holds(entry: EntryLine): boolean {
    return this.#active.length > 0 && this.#heldOf(sourceOf(entry), entry.logType) !== undefined;
  }

  /** The record held from the entry's source and type, if any, is whole (a line of its own came). */
  settle(entry: EntryLine): void {
    this.#settle(sourceOf(entry), entry.logType);
  }

  /**
   * True when the entry continues the record held from its source and type (its line has no
   * record of its own): it is taken.
   */
  continues(entry: EntryLine, record: LogRecord | undefined): boolean {
    if (this.#active.length === 0 || record !== undefined) return false;
    const held = this.#heldOf(sourceOf(entry), entry.logType);
    if (!held) return false;
    if (stampsApart((held.lines[held.lines.length - 1] ?? held.head).stampedAt, entry.stampedAt)) {
      // Ended by a line of its own stream: whole, not cut.
      this.#finish(held, false);
      this.#flush();
      return false;
    }
    held.lines.push(held.detached ? entry.detached() : entry);
    this.#lines++;
    if (held.lines.length + 1 >= MAX_CONTINUATION_LINES) {
      this.#finish(held, true);
      this.#flush();
    } else this.#bound();
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
    for (const held of this.#active) {
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
   * An entry that is no held record: the record held from its source and type, if any, is
   * whole. It waits behind a held record, or is delivered now when nothing waits (unordered:
   * always now).
   */
  pass(entry: EntryLine, record: LogRecord | undefined, wasRead: boolean): void {
    if (this.#front === this.#queue.length) return this.#sink.entry(entry, record, wasRead);
    this.#lines++;
    if (this.#heldOf(sourceOf(entry), entry.logType)) this.#settle(sourceOf(entry), entry.logType);
    if (!this.#ordered || this.#front === this.#queue.length) {
      this.#sink.entry(entry, record, wasRead);
      return this.#bound();
    }
    this.#queue.push({ kind: WAITING_ENTRY, entry, record, wasRead, detached: false });
    this.#bound();
  }

  /**
   * A line that is no entry and continues no record, bytes[start, end): the records held from
   * its pod (by kubectl's or stern's prefix; none: the lines without one) are whole, as a line
   * of the pod's own would make them. It waits behind a held record, or is delivered now;
   * `shown` false: it is only looked at (the selection leaves it out).
   */
  passLine(bytes: Buffer, start: number, end: number, wrapped: string | undefined, shown: boolean): void {
    if (this.#front < this.#queue.length) {
      this.#lines++;
      const prefix = parseTextPrefix(bytes.toString('utf8', start, Math.min(end, start + PREFIX_HEAD_BYTES)));
      this.#settle(prefix?.source ?? '', undefined);
    }
    if (!shown) return;
    if (this.#front === this.#queue.length || !this.#ordered) return this.#sink.other(bytes, start, end, wrapped);
    this.#queue.push({ kind: WAITING_LINE, bytes: Buffer.from(bytes.subarray(start, end)), wrapped });
    this.#bound();
  }

  /** The input paused or ended: every held record is taken as it is, and all that waits leaves. */
  release(): void {
    while (this.#active.length > 0) this.#finish(this.#active[0]!, true);
    this.#flush();
  }

  /** The chunk's bytes are about to be reused: what waits is copied out of them. */
  detach(): void {
    for (let i = this.#front; i < this.#queue.length; i++) {
      const waiting = this.#queue[i]!;
      if (waiting.kind === WAITING_LINE || waiting.detached) continue;
      if (waiting.kind === HELD) {
        waiting.head = waiting.head.detached();
        // The record may read its line from the bytes on first use: read again, from the copy.
        waiting.record = readEntryRecord(waiting.head.format, waiting.head) ?? waiting.record;
        for (let j = 0; j < waiting.lines.length; j++) waiting.lines[j] = waiting.lines[j]!.detached();
      } else {
        waiting.entry = waiting.entry.detached();
        if (waiting.record) waiting.record = readEntryRecord(waiting.entry.format, waiting.entry) ?? waiting.record;
      }
      waiting.detached = true;
    }
  }

  /**
   * A line of this source and type (every type's, when undefined) that continues nothing came:
   * its held record is whole. Then what can leave, leaves.
   */
  #settle(source: string, logType: string | undefined): void {
    const active = this.#active;
    if (active.length === 0) return;
    for (let i = 0; i < active.length; ) {
      const held = active[i]!;
      if (held.source === source && (logType === undefined || held.logType === logType)) this.#finish(held);
      else i++;
    }
    this.#flush();
  }

  /**
   * The oldest held record is taken as it is once MAX_INTERLEAVED_LINES lines not its own came
   * after it, or (lines still coming) HELD_WAIT_MS went by since it was held.
   */
  #bound(): void {
    const active = this.#active;
    // Unordered, nothing waits behind a record: no clock to look at.
    let late = this.#ordered && active.length > 0 && Date.now() - active[0]!.at > HELD_WAIT_MS;
    // Lines after it that are not its own (theirs may be other records' lines, waiting too).
    while (active.length > 0 && (late || this.#lines - active[0]!.since - active[0]!.lines.length > MAX_INTERLEAVED_LINES)) {
      this.#finish(active[0]!, true);
      this.#flush();
      late = late && active.length > 0 && Date.now() - active[0]!.at > HELD_WAIT_MS;
    }
  }

  /** `cut`: by a bound or a pause, not by a line of its stream. */
  #finish(held: Held, cut = false): void {
    held.done = true;
    held.cut = cut;
    const active = this.#active;
    const at = active.indexOf(held);
    if (at >= 0) removeAt(active, at);
  }

  #heldOf(source: string, logType: string): Held | undefined {
    for (const held of this.#active) if (held.source === source && held.logType === logType) return held;
    return undefined;
  }

  /** Delivers from the front while the front is whole (unordered: every whole record, wherever it stands). */
  #flush(): void {
    const queue = this.#queue;
    if (!this.#ordered) {
      for (let i = this.#front; i < queue.length; ) {
        const held = queue[i]!;
        if (held.kind === HELD && held.done) {
          removeAt(queue, i);
          this.#deliverHeld(held);
        } else i++;
      }
      return;
    }
    while (this.#front < queue.length) {
      const waiting = queue[this.#front]!;
      if (waiting.kind === HELD && !waiting.done) break;
      queue[this.#front++] = undefined as unknown as Waiting;
      if (waiting.kind === HELD) this.#deliverHeld(waiting);
      else if (waiting.kind === WAITING_ENTRY) this.#sink.entry(waiting.entry, waiting.record, waiting.wasRead);
      else this.#sink.other(waiting.bytes, 0, waiting.bytes.length, waiting.wrapped);
    }
    if (this.#front === queue.length) {
      queue.length = 0;
      this.#front = 0;
    } else if (this.#front >= COMPACT_AT) {
      // Something has waited all along (a log whose every line is held a moment): the taken
      // front is let go now and then.
      queue.splice(0, this.#front);
      this.#front = 0;
    }
  }

  #deliverHeld(held: Held): void {
    if (held.lines.length === 0) return this.#sink.record(held.head, held.record, undefined, held.cut);
    const { head, lines } = held;
    const texts = lines.map((line) => line.contents);
    const joined = EntryLine.fromContents(head.logType, head.format, [head.contents, ...texts].join('\n'), head.prefix);
    this.#sink.record(joined, new ContinuedRecord(held.record, texts), [head, ...lines], held.cut);
  }
}
