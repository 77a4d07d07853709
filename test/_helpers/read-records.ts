/**
 * A file read as `logtype` reads it (readEntries, EntrySelector, records read as pretty output
 * and summary read them), collected: each selected record with its lines, and the lines that
 * were no entries.
 */
import { PassThrough } from 'node:stream';
import type { LogRecord } from '../../src/parse/log-record.js';
import { readEntries } from '../../src/read/read-entries.js';
import { EntrySelector } from '../../src/select/entry-selector.js';

export interface ReadRecord {
  readonly logType: string;
  readonly record: LogRecord | undefined;
  /** The line's own time, else kubectl's (`--timestamps`). */
  readonly time: number | undefined;
  /** The physical lines it took (1, or more for a record that went on below its first line). */
  readonly lines: number;
  readonly contents: string;
}

export interface ReadFile {
  readonly records: ReadRecord[];
  readonly other: string[];
}

export async function readRecords(file: string, as?: string): Promise<ReadFile> {
  const records: ReadRecord[] = [];
  const other: string[] = [];
  const selector = new EntrySelector(
    { types: [], exclude: [], invertGrep: false, query: {} },
    {
      selected: (entry, record, lines) => records.push({ logType: entry.logType, record, time: entry.timeOf(record), lines: lines?.length ?? 1, contents: entry.contents }),
      other: (bytes, start, end) => other.push(bytes.toString('utf8', start, end)),
    },
    true,
  );
  await readEntries({ inputs: [file], as }, selector, () => new PassThrough().end(), () => undefined);
  return { records, other };
}
