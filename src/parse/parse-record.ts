/** A line of any type read into a record by its format's reader (the registry says which). */
import type { LogFormat } from '../formats/log-format.js';
import { logFormat } from '../formats/log-formats.js';
import type { EntrySource, LogRecord } from './log-record.js';

/** The record of a line of this type; undefined for a line its reader does not recognise, or a type without one. */
export function parseRecord(logType: string, contents: string): LogRecord | undefined {
  return logFormat(logType)?.reader.text(asRead(contents));
}

/**
 * A line as its reader reads it: without a byte-order mark before it (a file's first line, from
 * a Windows editor or a log shipper) and without the `\r` of a CRLF line end, which the sidecar
 * keeps in the contents as it keeps every byte (the readers' patterns end at the line's end).
 */
function asRead(contents: string): string {
  const start = contents.charCodeAt(0) === 0xfeff ? 1 : 0;
  const end = contents.charCodeAt(contents.length - 1) === 0x0d ? contents.length - 1 : contents.length;
  return start === 0 && end === contents.length ? contents : contents.slice(start, Math.max(start, end));
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
  return record ?? reader.text(asRead(source.contents));
}
