/**
 * Selection, shared by the filter, summary and doctor: count every line, keep the entries of
 * the types asked for, join the pieces of split lines, then keep those whose contents match
 * `--grep` and whose record matches the query. Lines are read into records only when
 * something needs them: selection by type alone never parses a line. Lines that are not
 * entries pass the same tests, as grep would: their text for `--grep` and `--message`; having
 * no level, time or type's record, they never pass `--level`, `--since`, `--until` or one log's
 * filters. The filter may also ask for context around each selected entry and stop after a
 * number of them (SelectionLimits).
 */
import type { EntryHandler } from '../read/entry-reader.js';
import { MAX_INPUT_LINE_BYTES } from '../read/entry-reader.js';
import { EntryLine } from '../read/entry-line.js';
import type { LogRecord } from '../parse/log-record.js';
import { readEntryRecord } from '../parse/parse-record.js';
import { typeMatcher, type TypeMatcher } from './type-matcher.js';
import { otherLinePredicate, queriesRecords, recordPredicate, type RecordQuery } from './record-query.js';
import { ContextWindow } from './context-window.js';

export interface Selection {
  readonly types: readonly string[];
  readonly exclude: readonly string[];
  readonly grep?: RegExp | undefined;
  readonly invertGrep: boolean;
  readonly query: RecordQuery;
  /** What the person should be told before reading: names in the selection that may be typos. */
  readonly warnings?: readonly string[] | undefined;
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
  selected: number;
  /** Entries read by type, for the first MAX_TYPES_COUNTED types seen. */
  readonly byType: Map<string, number>;
  /** Entries of the types seen after those: counted together. */
  otherTypeEntries: number;
}

/** Types counted by name at the most: a stream can hold any number of distinct types. */
export const MAX_TYPES_COUNTED = 1000;

/** Where selected entries go. */
export interface SelectedSink {
  /** `record` is set when the sink or the query asked for records and the line parsed. */
  selected(entry: EntryLine, record: LogRecord | undefined): void;
  /** A line that is not an entry: bytes[start, end). */
  other(bytes: Buffer, start: number, end: number): void;
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
  readonly counts: SelectionCounts = { entries: 0, other: 0, selected: 0, byType: new Map(), otherTypeEntries: 0 };
  readonly #selection: Selection;
  readonly #sink: SelectedSink;
  readonly #typeSelected: TypeMatcher;
  readonly #readsRecords: boolean;
  readonly #matchesRecord: ReturnType<typeof recordPredicate> | undefined;
  /** Lines that are not entries: undefined, all pass; else the test their text must pass. */
  readonly #otherPasses: ((text: string) => boolean) | undefined;
  readonly #pending = new Map<string, PendingLine>();
  readonly #context: ContextWindow | undefined;
  readonly #maxCount: number;
  /** The last selected entry --max-count allows was selected: only owed context is written now. */
  #limitReached = false;
  #done = false;

  constructor(selection: Selection, sink: SelectedSink, sinkNeedsRecords: boolean, limits: SelectionLimits = {}) {
    this.#selection = selection;
    this.#sink = sink;
    this.#typeSelected = typeMatcher(selection.types, selection.exclude);
    const queried = queriesRecords(selection.query);
    this.#matchesRecord = queried ? recordPredicate(selection.query) : undefined;
    this.#readsRecords = queried || sinkNeedsRecords;
    this.#otherPasses = otherLinePredicate(selection.grep, selection.invertGrep, selection.query);
    const before = limits.before ?? 0;
    const after = limits.after ?? 0;
    this.#context = before > 0 || after > 0 ? new ContextWindow(before, after, sink, sinkNeedsRecords) : undefined;
    this.#maxCount = limits.maxCount ?? Infinity;
    if (this.#maxCount <= 0) this.#limitReached = this.#done = true;
  }

  /** True once nothing more can be selected or written (--max-count): the reader may stop. */
  get done(): boolean {
    return this.#done;
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
    if (this.#done || !this.#typeSelected(entry.logType)) return;
    const whole = this.#join(entry);
    if (whole) this.#select(whole);
  }

  other(bytes: Buffer, start: number, end: number): void {
    this.counts.other++;
    if (this.#limitReached) return;
    const passes = this.#otherPasses;
    if (passes && !passes(bytes.toString('utf8', start, end))) return;
    this.#sink.other(bytes, start, end);
  }

  /** The end of the input: split lines whose last piece never came are taken as they are. */
  end(): void {
    for (const pending of this.#pending.values()) if (!this.#done) this.#select(this.#joined(pending, ''));
    this.#pending.clear();
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
    return EntryLine.fromContents(pending.first.logType, pending.first.format, pending.pieces.join('') + last, pending.first.prefix);
  }

  #select(entry: EntryLine): void {
    if (this.#limitReached) return this.#trailing(entry);
    const { grep, invertGrep } = this.#selection;
    if (grep && grep.test(entry.contents) === invertGrep) {
      this.#context?.unselected(entry, undefined);
      return;
    }
    let record: LogRecord | undefined;
    if (this.#readsRecords) {
      record = readEntryRecord(entry.format, entry);
      if (this.#matchesRecord && !this.#matchesRecord(entry.logType, record, record?.time === undefined ? entry.stampedAt : undefined, record ? undefined : entry.contents)) {
        this.#context?.unselected(entry, record);
        return;
      }
    }
    const selected = ++this.counts.selected;
    if (this.#context) this.#context.selected(entry, record);
    else this.#sink.selected(entry, record);
    if (selected >= this.#maxCount) {
      this.#limitReached = true;
      this.#done = !this.#context?.owing;
    }
  }

  /** After the last selected entry --max-count allows: the context still owed, selected or not (as grep). */
  #trailing(entry: EntryLine): void {
    const context = this.#context;
    if (!context) return;
    context.trailing(entry, undefined);
    this.#done = !context.owing;
  }
}
