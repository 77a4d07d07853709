/**
 * How a log format's lines are read into records (each format's reader is in its
 * parse-*-line.ts; the registry, formats/log-formats.ts, says which is whose). A reader gives
 * undefined for a line that is not one of its format's (it is then shown as it is), and
 * never throws.
 */
import type { EntrySource, LogRecord } from './log-record.js';

export interface RecordReader {
  /** From the line's text. */
  readonly text: (line: string) => LogRecord | undefined;
  /**
   * From its bytes, `source.bytes[start, end)`: the line as written (`escaped` false), or
   * inside an entry's contents literal, escaped once more. Undefined when the bytes can't be
   * read so: then the text is read. `source.contents` decodes the line when it is needed.
   */
  readonly bytes?: ((source: EntrySource, start: number, end: number, escaped: boolean) => LogRecord | undefined) | undefined;
}
