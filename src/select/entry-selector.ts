/**
 * Selection, shared by the filter, summary and doctor: count every line, keep the entries of
 * the types asked for, join the pieces of split lines, then keep those whose contents match
 * `--grep` and whose record matches the query. Lines are read into records only when
 * something needs them: selection by type alone never parses a line.
 */
import type { EntryHandler } from '../read/entry-reader.js';
import { MAX_INPUT_LINE_BYTES } from '../read/entry-reader.js';
import { EntryLine } from '../read/entry-line.js';
import type { LogRecord } from '../parse/log-record.js';
import { readEntryRecord } from '../parse/parse-record.js';
import { typeMatcher, type TypeMatcher } from './type-matcher.js';
import { queriesRecords, recordPredicate, type RecordQuery } from './record-query.js';

export interface Selection {
  readonly types: readonly string[];
  readonly exclude: readonly string[];
  readonly grep?: RegExp | undefined;
  readonly invertGrep: boolean;
  readonly query: RecordQuery;
}

export interface SelectionCounts {
  entries: number;
  other: number;
  selected: number;
  readonly byType: Map<string, number>;
}

/** Where selected entries go. */
export interface SelectedSink {
  /** `record` is set when the sink or the query asked for records and the line parsed. */
  selected(entry: EntryLine, record: LogRecord | undefined): void;
  /** A line that is not an entry: bytes[start, end). */
  other(bytes: Buffer, start: number, end: number): void;
}

/** Split pieces of one line waiting for the rest, by where they came from and their type. */
interface PendingLine {
  readonly pieces: string[];
  length: number;
  readonly first: EntryLine;
}

export class EntrySelector implements EntryHandler {
  readonly counts: SelectionCounts = { entries: 0, other: 0, selected: 0, byType: new Map() };
  readonly #selection: Selection;
  readonly #sink: SelectedSink;
  readonly #typeSelected: TypeMatcher;
  readonly #readsRecords: boolean;
  readonly #matchesRecord: ReturnType<typeof recordPredicate> | undefined;
  readonly #pending = new Map<string, PendingLine>();

  constructor(selection: Selection, sink: SelectedSink, sinkNeedsRecords: boolean) {
    this.#selection = selection;
    this.#sink = sink;
    this.#typeSelected = typeMatcher(selection.types, selection.exclude);
    const queried = queriesRecords(selection.query);
    this.#matchesRecord = queried ? recordPredicate(selection.query) : undefined;
    this.#readsRecords = queried || sinkNeedsRecords;
  }

  wants(logType: string): boolean {
    return this.#typeSelected(logType);
  }

  counted(logType: string): void {
    const counts = this.counts;
    counts.entries++;
    counts.byType.set(logType, (counts.byType.get(logType) ?? 0) + 1);
  }

  entry(entry: EntryLine): void {
    this.counted(entry.logType);
    if (!this.#typeSelected(entry.logType)) return;
    const whole = this.#join(entry);
    if (whole) this.#select(whole);
  }

  other(bytes: Buffer, start: number, end: number): void {
    this.counts.other++;
    this.#sink.other(bytes, start, end);
  }

  /** The end of the input: split lines whose last piece never came are taken as they are. */
  end(): void {
    for (const pending of this.#pending.values()) this.#select(this.#joined(pending, ''));
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
    const { grep, invertGrep } = this.#selection;
    if (grep && grep.test(entry.contents) === invertGrep) return;
    let record: LogRecord | undefined;
    if (this.#readsRecords) {
      record = readEntryRecord(entry.format, entry);
      if (this.#matchesRecord && !this.#matchesRecord(entry.logType, record, record?.time === undefined ? entry.stampedAt : undefined, record ? undefined : entry.contents)) return;
    }
    this.counts.selected++;
    this.#sink.selected(entry, record);
  }
}
