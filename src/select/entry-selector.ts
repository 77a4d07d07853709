/**
 * Selection, shared by the filter, summary and doctor: count every line, keep the entries of

 * the types asked for, join the pieces of split lines and the lines of records that go on over
 * several (record-joiner.ts), then keep those whose contents match `--grep` and whose record
 * matches the query. Lines are read into records only when something needs them: selection by
 * type alone never parses a line. Lines that are not
 * entries pass the same tests, as grep would: their text for `--grep` and `--message`; having
 * no level, time or type's record, they never pass `--level`, `--since`, `--until` or one log's
 * filters. The filter may also ask for context around each selected entry and stop after a
 * number of them (SelectionLimits).
 */
import { LineOrder, type TimeSteps } from '../summary/time-order.js';
import type { EntryHandler } from '../read/entry-reader.js';
import { MAX_INPUT_LINE_BYTES } from '../read/entry-reader.js';
import { EntryLine } from '../read/entry-line.js';
import type { LogRecord } from '../parse/log-record.js';
import { readEntryRecord } from '../parse/parse-record.js';
import { RecordJoiner, stampsApart } from './record-joiner.js';
import { LateRecords, type DeliveredRecord } from './late-records.js';
import { ContinuedRecord } from '../parse/continued-record.js';
import { PREFIX_HEAD_BYTES, parseTextPrefix } from '../read/line-prefix.js';
import { typeMatcher, type TypeMatcher } from './type-matcher.js';
import { otherLinePredicate, queriesRecords, recordPredicate, type RecordQuery, type TimesRead } from './record-query.js';
import { ContextWindow } from './context-window.js';
import { matchesAt } from '../parse/match-bytes.js';

export interface Selection {
  readonly types: readonly string[];
  readonly exclude: readonly string[];
  readonly grep?: RegExp | undefined;
  readonly invertGrep: boolean;
  readonly query: RecordQuery;
  /** What the person should be told before reading: names in the selection that may be typos. */
  readonly warnings?: readonly string[] | undefined;
  /** `-t` patterns that name no type logtype knows: a typo when no entry of the input has them either. */
  readonly unknownTypes?: readonly string[] | undefined;
}

/** How many selected entries, and which around them (the filter's `--max-count`, `-A/-B/-C`). */
export interface SelectionLimits {
  /** Stop after this many selected entries (and what context is owed after the last). */
  readonly maxCount?: number | undefined;
  /** Entries of the same type and source before each selected one. */
  readonly before?: number | undefined;
  /** And after it. */
  readonly after?: number | undefined;
}

export interface SelectionCounts {
  entries: number;
  other: number;
  /** Entries selected (the lines of a record over several lines each count), as they are written. */
  selected: number;
  /** The same, in entries as they were read: a line joined from split pieces counts each piece (doctor's lines looked at). */
  selectedAsRead: number;
  /** Entries read by type, for the first MAX_TYPES_COUNTED types seen. */
  readonly byType: Map<string, number>;
  /** Entries of the types seen after those: counted together. */
  otherTypeEntries: number;
  /** Entries written as context around selected ones (-A, -B, -C), beside `selected`. */
  context: number;
  /** Lines longer than the most a reader holds (MAX_INPUT_LINE_BYTES): each one of `other`, its rest skipped. */
  overlong: number;
  /** Lines of `other` that start as JSON (after any kubectl prefix) and are none: cut short or broken (brokenLines). */
  broken: number;
  /** The first of them, as it starts (brokenLines names it). */
  firstBroken?: string;
  /** The first line of `other`, as it starts: what the input is when no line was an entry (not-logs-hint.ts). */
  firstOther?: string;
  /** Entries --since/--until left out only for having no time (recordPredicate): said (untimedLeftOut). */
  untimedLeftOut: number;
  /** The first and last time of the entries --since/--until looked at. */
  timesRead?: TimesRead;
  /** Lines split into `partial` pieces whose last piece never came (the input ended first): read as they were, and said (unfinishedLines). */
  unfinished: number;
  /** Lines of `other` that --grep matched (raw, json and entry output leave them out: said). */
  otherMatched: number;
}

/** Types counted by name at the most: a stream can hold any number of distinct types. */
export const MAX_TYPES_COUNTED = 1000;

/** Where selected entries go. */
export interface SelectedSink {
  /**
   * `record` is set when the sink or the query asked for records and the line parsed. `lines`
   * is set for a record that went on over several physical lines: they are its lines as they
   * came (raw and json output write them), and `entry` is one entry of them all.
   */
  selected(entry: EntryLine, record: LogRecord | undefined, lines?: readonly EntryLine[]): void;
  /** A line that is not an entry: bytes[start, end); `wrapped`: the line a Docker record wraps, when it is one (EntryHandler.other). */
  other(bytes: Buffer, start: number, end: number, wrapped?: string): void;
  /** With context: what is written next does not follow on from what was written before it. */
  separator?(): void;
}

/** Split pieces of one line waiting for the rest, by where they came from and their type. */
interface PendingLine {
  readonly pieces: string[];
  length: number;
  readonly first: EntryLine;
}

export class EntrySelector implements EntryHandler {
  readonly counts: SelectionCounts = { entries: 0, other: 0, selected: 0, selectedAsRead: 0, byType: new Map(), otherTypeEntries: 0, context: 0, overlong: 0, broken: 0, untimedLeftOut: 0, unfinished: 0, otherMatched: 0 };
  readonly #selection: Selection;
  readonly #sink: SelectedSink;
  readonly #typeSelected: TypeMatcher;
  readonly #readsRecords: boolean;
  readonly #matchesRecord: ReturnType<typeof recordPredicate> | undefined;
  /** Lines that are not entries: undefined, all pass; else the test their text must pass. */
  readonly #otherPasses: ((text: string) => boolean) | undefined;
  readonly #pending = new Map<string, PendingLine>();
  /**
   * Joins records over several lines: every record's when records are read or the sink asks
   * for it; else only those of a log read as it is, whose continuing lines are no entries
   * (without it, raw output would drop a stack trace as other lines).
   */
  readonly #joiner: RecordJoiner;
  /** The last record of each stream, for a line of it that comes after it was taken (output only). */
  readonly #late = new LateRecords();
  readonly #joinsAll: boolean;
  readonly #ordered: boolean;
  readonly #context: ContextWindow | undefined;
  readonly #maxCount: number;
  /** Lines joined from pieces, and how many pieces each was read as (made at the first join: most inputs have none). */
  #pieces: WeakMap<EntryLine, number> | undefined;
  /** Records selected: what --max-count counts (a record over several lines is one). */
  #selectedRecords = 0;
  /** The last selected entry --max-count allows was selected: only owed context is written now. */
  #limitReached = false;
  #done = false;

  /**
   * `sinkJoinsRecords`: the sink sees a record over several lines as one even when it reads no
   * records (doctor). `ordered`: what the sink is given keeps the input's order across logs and
   * pods (output); a report that only counts takes each line at once (record-joiner.ts).
   */
  constructor(selection: Selection, sink: SelectedSink, sinkNeedsRecords: boolean, limits: SelectionLimits = {}, sinkJoinsRecords = false, ordered = true) {
    this.#selection = selection;
    this.#sink = sink;
    this.#typeSelected = typeMatcher(selection.types, selection.exclude);
    const queried = queriesRecords(selection.query);
    this.#matchesRecord = queried ? recordPredicate(selection.query, this.counts) : undefined;
    this.#readsRecords = queried || sinkNeedsRecords;
    // --grep selects records as the query does: a record is one, whichever of its lines
    // matches, in every output mode (line by line, raw output would show a continuation
    // without its first line, and adding -l would change what -g matches).
    this.#joinsAll = this.#readsRecords || sinkJoinsRecords || selection.grep !== undefined;
    this.#ordered = ordered;
    this.#joiner = new RecordJoiner({
      record: (entry, record, lines, cut) => this.#deliverRecord(entry, record, lines, cut),
      entry: (entry, record, wasRead) => this.#deliverEntry(entry, record, wasRead),
      other: (bytes, start, end, wrapped) => this.#deliverOther(bytes, start, end, wrapped),
    }, ordered);
    this.#otherPasses = otherLinePredicate(selection.grep, selection.invertGrep, selection.query);
    const before = limits.before ?? 0;
    const after = limits.after ?? 0;
    this.#context = before > 0 || after > 0 ? new ContextWindow(before, after, sink, sinkNeedsRecords, this.counts) : undefined;
    this.#maxCount = limits.maxCount ?? Infinity;
    if (this.#maxCount <= 0) this.#limitReached = this.#done = true;
  }

  /**
   * The steps between each pod's and log's consecutive stamped lines (kubectl's --timestamps,
   * logcli's times): whether the input runs newest first (logcli without --forward), which joins
   * a record's lines wrong (time-order.ts).
   */
  readonly #stampOrder = new LineOrder();

  /** The stamped lines' steps, when they say the input runs newest first; else undefined. */
  get newestFirst(): TimeSteps | undefined {
    return this.#stampOrder.newestFirst();
  }

  /** True once nothing more can be selected or written (--max-count): the reader may stop. */
  get done(): boolean {
    return this.#done;
  }

  /** Nothing more is wanted (the output's reader went away): nothing more is written, and the reader may stop. */
  stop(): void {
    this.#limitReached = this.#done = true;
  }

  wants(logType: string): boolean {
    return this.#typeSelected(logType);
  }

  counted(logType: string): void {
    const counts = this.counts;
    counts.entries++;
    const byType = counts.byType;
    const count = byType.get(logType);
    if (count !== undefined) byType.set(logType, count + 1);
    else if (byType.size < MAX_TYPES_COUNTED) byType.set(logType, 1);
    else counts.otherTypeEntries++;
  }

  entry(entry: EntryLine): void {
    this.counted(entry.logType);
    if (entry.prefix?.time !== undefined && this.#stampOrder.wanted) this.#stampOrder.step(`${entry.prefix.source ?? ''}\u0000${entry.logType}`, entry.stampedAt);
    if (this.#done || !this.#typeSelected(entry.logType)) return;
    const whole = this.#join(entry);
    if (whole) this.#select(whole);
  }

  other(bytes: Buffer, start: number, end: number, wrapped?: string): void {
    const joiner = this.#joiner;
    if (joiner.holding) {
      // After a record read from a log's own text, a line from the same source is a line of
      // that log: it starts a record of its own, or continues the one held.
      const line = joiner.lineOfHeldSource(bytes, start, end, wrapped);
      if (line) {
        this.counted(line.logType);
        this.#select(line);
        return;
      }
    }
    if (this.counts.other++ === 0) this.counts.firstOther = bytes.toString('utf8', start, Math.min(end, start + BROKEN_SHOWN_BYTES));
    if (startsAsBrokenJson(bytes, start, end) && this.counts.broken++ === 0) this.counts.firstBroken = bytes.toString('utf8', start, Math.min(end, start + BROKEN_SHOWN_BYTES));
    // A pod's plain line ends its records (the joiner's rule): no later line is one of them.
    if (!this.#late.empty) this.#late.forgetSource(parseTextPrefix(bytes.toString('utf8', start, Math.min(end, start + PREFIX_HEAD_BYTES)))?.source ?? '');
    const passes = this.#otherPasses;
    const shown = !this.#limitReached && (!passes || passes(bytes.toString('utf8', start, end)));
    // Matched by -g: raw and json output leave such lines out, and say so (readingNotices).
    if (shown && this.#selection.grep && !this.#selection.invertGrep) this.counts.otherMatched++;
    // After a record held from its pod (whole now, shown or not), or behind one held from another.
    joiner.passLine(bytes, start, end, wrapped, shown);
  }

  overlong(): void {
    this.counts.overlong++;
  }

  /** A line that is no entry, selected, leaving in its turn. */
  #deliverOther(bytes: Buffer, start: number, end: number, wrapped: string | undefined): void {
    if (this.#limitReached) return;
    this.#sink.other(bytes, start, end, wrapped);
  }

  /** The end of the input: split lines whose last piece never came are taken as they are. */
  end(): void {
    this.#takeUnfinished();
    this.#joiner.release();
  }

  /**
   * One input of several ended (files given one after another): nothing of it goes on in the
   * next, as grep keeps files apart: split lines whose last piece never came are taken as they
   * are, a record held is taken, a record taken is not continued by the next file's first
   * lines, and context neither runs across (`--` between).
   */
  inputEnd(): void {
    this.#takeUnfinished();
    this.#joiner.release();
    this.#late.clear();
    this.#context?.inputEnded();
  }

  #takeUnfinished(): void {
    // Not once reading stopped early (--max-count, -q): the rest was never read, not missing.
    if (!this.#done) {
      for (const pending of this.#pending.values()) {
        this.counts.unfinished++;
        this.#select(this.#joined(pending, ''));
      }
    }
    this.#pending.clear();
  }

  /** A chunk of input was read: held lines are copied out of its bytes, which the next one reuses. */
  chunkEnd(): void {
    this.#joiner.detach();
  }

  /** True while a record is held, waiting for lines that may continue it. */
  holding(): boolean {
    return this.#joiner.holding;
  }

  /** The input paused or one input ended: a held record is taken as it is. */
  release(): void {
    this.#joiner.release();
  }

  /** Joins split pieces; returns the entry, or undefined while pieces are pending. */
  #join(entry: EntryLine): EntryLine | undefined {
    if (!entry.partial && this.#pending.size === 0) return entry;
    const key = `${entry.prefix?.source ?? ''}\u0000${entry.logType}`;
    const pending = this.#pending.get(key);
    if (!entry.partial) {
      if (!pending) return entry;
      this.#pending.delete(key);
      return this.#joined(pending, entry.contents);
    }
    if (!pending) {
      this.#pending.set(key, { pieces: [entry.contents], length: entry.contents.length, first: entry });
      return undefined;
    }
    pending.pieces.push(entry.contents);
    pending.length += entry.contents.length;
    if (pending.length < MAX_INPUT_LINE_BYTES) return undefined;
    // Bounded memory: a line longer than we hold leaves as it is so far.
    this.#pending.delete(key);
    return this.#joined(pending, '');
  }

  #joined(pending: PendingLine, last: string): EntryLine {
    const joined = EntryLine.fromContents(pending.first.logType, pending.first.format, pending.pieces.join('') + last, pending.first.prefix);
    // Counted as the entries it was read as (its pieces), as a record over several lines is.
    (this.#pieces ??= new WeakMap()).set(joined, pending.pieces.length + (last === '' ? 0 : 1));
    return joined;
  }

  /** The entries read as `entry`: its pieces where it was joined from them, else 1. */
  #entriesOf(entry: EntryLine): number {
    return this.#pieces?.get(entry) ?? 1;
  }

  #select(entry: EntryLine): void {
    const joiner = this.#joiner;
    // A record that may go on over the next lines is held until they have come.
    if (entry.format?.continuesRecords && (this.#joinsAll || entry.recognized)) {
      const record = readEntryRecord(entry.format, entry);
      if (joiner.continues(entry, record)) return;
      if (record) {
        this.#late.forget(entry.logType, entry.prefix);
        joiner.hold(entry, record);
        return;
      }
      // A line of no record of its own and none held: in its turn (#deliverEntry), a line of
      // the record taken before it came, if any.
      return joiner.pass(entry, record, true);
    }
    // A log whose records go on only after some lines (the server's pre-4.4 fatal lines): a line
    // of no head continues the one held; such a line's record is held.
    const holdsAfter = entry.format?.holdsRecordAfter;
    if (holdsAfter && (this.#joinsAll || entry.recognized)) {
      if (joiner.holds(entry)) {
        if (entry.format!.continuesWith?.(entry.contents) && joiner.continues(entry, undefined)) return;
        // A line of its own: the record held is whole (unordered, for a report, nothing else would end it).
        joiner.settle(entry);
      }
      if (holdsAfter(entry.firstByte(), () => entry.contents)) {
        const record = readEntryRecord(entry.format, entry);
        if (record) {
          this.#late.forget(entry.logType, entry.prefix);
          joiner.hold(entry, record);
          return;
        }
      }
    }
    // A log whose records go on over lines never holds one: where order across logs counts for
    // nothing, its line goes on at once.
    if (!joiner.holding || !this.#ordered) {
      this.#deliver(entry, undefined, undefined, false);
      return;
    }
    // Another log's line while a record is held: it waits behind it, in order.
    joiner.pass(entry, undefined, false);
  }

  /**
   * An entry in its turn. A line of a log whose records go on, with no record of its own (read
   * already: `wasRead`), that no held record took: a line of the record taken before it came
   * (the input paused, or other pods' lines piled up behind it), if one was (output only; not
   * with context, whose windows count lines one by one).
   */
  #deliverEntry(entry: EntryLine, record: LogRecord | undefined, wasRead: boolean): void {
    if (record === undefined && wasRead && this.#ordered && !this.#context && entry.format?.continuesRecords) {
      const late = this.#late.of(entry.logType, entry.prefix);
      if (late && !stampsApart(late.lastStamp, entry.stampedAt)) return this.#lateLine(entry, late);
      // Stamped long after the record's last line: a line of its own, and the record's end.
      if (late) this.#late.forget(entry.logType, entry.prefix);
    }
    this.#deliver(entry, record, undefined, wasRead);
  }

  /**
   * A record the joiner held, delivered; one taken by a bound or a pause (`cut`), remembered
   * (output only) for a line of it that may come late (late-records.ts).
   */
  #deliverRecord(entry: EntryLine, record: LogRecord, lines: readonly EntryLine[] | undefined, cut: boolean): void {
    const selected = this.#deliver(entry, record, lines, true);
    if (cut && this.#ordered) {
      const last = lines ? lines[lines.length - 1]! : entry;
      this.#late.remember({ logType: entry.logType, format: entry.format, prefix: entry.prefix, texts: lines ? lines.map((line) => line.contents) : [entry.contents], selected, lastStamp: last.stampedAt });
    }
  }

  /**
   * A line of `late`, a record taken before it came: shown when the record with it is selected
   * (the record's earlier lines with it, when they were not shown before); else left out.
   */
  #lateLine(entry: EntryLine, late: DeliveredRecord): void {
    if (this.#limitReached) return;
    const texts = [...late.texts, entry.contents];
    late.texts.push(entry.contents);
    late.lastStamp = entry.stampedAt ?? late.lastStamp;
    const joined = EntryLine.fromContents(late.logType, late.format, texts.join('\n'), late.prefix);
    const head = readEntryRecord(late.format, EntryLine.fromContents(late.logType, late.format, texts[0]!, late.prefix));
    const record = head && new ContinuedRecord(head, texts.slice(1));
    if (!this.#grepPasses(joined) || !this.#recordPasses(joined, record)) return;
    if (late.selected) return this.#emit(entry, undefined, undefined);
    late.selected = true;
    this.#emit(joined, record, texts.map((text) => EntryLine.fromContents(late.logType, late.format, text, late.prefix)));
  }

  /** The entry's text passes --grep (and -v). */
  #grepPasses(entry: EntryLine): boolean {
    const { grep, invertGrep } = this.#selection;
    return !grep || grep.test(entry.contents) !== invertGrep;
  }

  /** The entry's record passes the query (none asked: every record). */
  #recordPasses(entry: EntryLine, record: LogRecord | undefined): boolean {
    return !this.#matchesRecord || this.#matchesRecord(entry.logType, record, record?.time === undefined ? entry.stampedAt : undefined, record ? undefined : entry.contents);
  }

  /**
   * Selects by --grep and the query, then gives the entry to the sink (through the context
   * window when asked for one). `wasRead`: `read` is the entry's record as read already.
   * True when it was selected.
   */
  #deliver(entry: EntryLine, read: LogRecord | undefined, lines: readonly EntryLine[] | undefined, wasRead: boolean): boolean {
    if (this.#limitReached) {
      this.#trailing(entry, lines);
      return false;
    }
    if (!this.#grepPasses(entry)) {
      this.#context?.unselected(entry, undefined, lines);
      return false;
    }
    let record = read;
    if (this.#readsRecords) {
      if (!wasRead) record = readEntryRecord(entry.format, entry);
      if (!this.#recordPasses(entry, record)) {
        this.#context?.unselected(entry, record, lines);
        return false;
      }
    }
    this.#emit(entry, record, lines);
    return true;
  }

  /** A selected entry (a record: `lines`) counted and given to the sink, through the context window when there is one. */
  #emit(entry: EntryLine, record: LogRecord | undefined, lines: readonly EntryLine[] | undefined): void {
    // Counted in entries, as they are written: a record over several lines is that many; and
    // as they were read: a line joined from pieces is as many as its pieces.
    const written = lines?.length ?? 1;
    this.counts.selected += written;
    this.counts.selectedAsRead += this.#pieces === undefined ? written : lines ? lines.reduce((sum, line) => sum + this.#entriesOf(line), 0) : this.#entriesOf(entry);
    const selected = ++this.#selectedRecords;
    if (this.#context) this.#context.selected(entry, record, lines);
    else this.#sink.selected(entry, record, lines);
    if (selected >= this.#maxCount) {
      this.#limitReached = true;
      this.#done = !this.#context?.owing;
    }
  }

  /** After the last selected entry --max-count allows: the context still owed, selected or not (as grep). */
  #trailing(entry: EntryLine, lines: readonly EntryLine[] | undefined): void {
    const context = this.#context;
    if (!context) return;
    context.trailing(entry, undefined, lines);
    this.#done = !context.owing;
  }
}

/** Bytes of the first broken line named (SelectionCounts.firstBroken). */
const BROKEN_SHOWN_BYTES = 160;

/** How an entry and a 4.4+ server line start: a line that starts so and is none was cut or damaged. */
const ENTRY_START = Buffer.from('{"logType":');
const SERVER_START = Buffer.from('{"t":{"$date":');

/**
 * A line that is no entry but starts as an entry or a server line, after any kubectl prefix:
 * one cut short (a file's last line while it was written, a cut download) or damaged. Such a
 * line is said, where a plain line of another container is only counted (another container's
 * JSON printed over several lines, a Go struct's `{Name:foo}`, is none of these). Only lines
 * that are no entry are asked (a few), and a line held whole (an overlong one is said as such).
 */
function startsAsBrokenJson(bytes: Buffer, start: number, end: number): boolean {
  if (end - start >= MAX_INPUT_LINE_BYTES) return false;
  let at = start;
  if (bytes[at] !== 0x7b) {
    const prefix = parseTextPrefix(bytes.toString('latin1', start, Math.min(end, start + PREFIX_HEAD_BYTES)));
    if (!prefix) return false;
    at += prefix.length;
  }
  if (!matchesAt(bytes, at, ENTRY_START) && !matchesAt(bytes, at, SERVER_START)) return false;
  try {
    JSON.parse(bytes.toString('utf8', at, end));
    return false;
  } catch {
    return true;
  }
}
