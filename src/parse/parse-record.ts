/** A line of any type read into a record by its format's reader (the registry says which). */
import type { LogFormat } from '../formats/log-format.js';
import { logFormat } from '../formats/log-formats.js';
import type { EntrySource, LogRecord } from './log-record.js';

/** The record of a line of this type; undefined for a line its reader does not recognise, or a type without one. */
export function parseRecord(logType: string, contents: string): LogRecord | undefined {
  return logFormat(logType)?.reader.text(contents);
}

/** An entry's record, by its type: see readEntryRecord. */
export function parseEntryRecord(logType: string, source: EntrySource): LogRecord | undefined {
  return readEntryRecord(logFormat(logType), source);
}

/**
 * An entry's record, by its format (resolved once per type by the caller). When the entry was
 * read by its bytes, its line is read from its contents literal as it stands in the input
 * (still escaped), or from a raw line's bytes: most server and agent lines and audit events
 * are then read without decoding them. `source.contents` decodes them when that is needed;
 * like the entry's own contents, a record read so is used while its input chunk is (the
 * filter and summary do so).
 */
export function readEntryRecord(format: LogFormat | undefined, source: EntrySource): LogRecord | undefined {
  if (!format) return undefined;
  const { reader } = format;
  const inBytes = reader.bytes;
  const record =
    inBytes === undefined
      ? undefined
      : source.literalStart >= 0
        ? inBytes(source, source.literalStart + 1, source.literalEnd, true)
        : source.plainStart >= 0
          ? inBytes(source, source.plainStart, source.plainEnd, false)
          : undefined;
  return record ?? reader.text(source.contents);
}
