/**
 * The database server's log: one JSON object a line since 4.4 (`t`, `s`, `c`, `id`, `ctx`,
 * `msg`, `attr`, `tags`, and `truncated`/`size` where an attribute was cut), text before it
 * (server-text-line.ts). A line in the server's own shape is read by its head from its bytes
 * (server-record.ts); any other JSON object with a message is parsed.
 */
import { ServerHead, readServerHead } from './line-head.js';
import { asObject, levelOf, parseJsonObject, type LineSource, type LogRecord } from './log-record.js';
import { extendedJsonDate } from './log-time.js';
import type { RecordReader } from './record-reader.js';
import { ServerRecord, attrsOf } from './server-record.js';
import { parseServerTextLine } from './server-text-line.js';
import { countOf } from './json-value.js';

/**
 * A server line in bytes[start, end): as the server wrote it, or (escaped) inside an entry's
 * contents literal; undefined when its head needs decoding first: then parse the contents.
 * `source.contents` decodes the line (an entry's own getter, which decodes once for every user).
 */
export function parseServerLineInBytes(bytes: Buffer, start: number, end: number, escaped: boolean, source: LineSource): LogRecord | undefined {
  return readServerHead(bytes, start, end, escaped, HEAD) && closesObject(bytes, start, end, escaped) ? new ServerRecord(bytes, end, escaped, HEAD, source) : undefined;
}

/**
 * Whether the line ends its object (`}`, spaces and a CR after it aside): a line cut short (a
 * crash mid-write, a pasted line cut) has a head but not its end, and is no record: counted as
 * not parsed, and shown as it is, never as a bare message.
 */
function closesObject(bytes: Buffer, start: number, end: number, escaped: boolean): boolean {
  let at = end - 1;
  for (;;) {
    const byte = bytes[at];
    if (byte === 0x20 || byte === 0x09 || byte === 0x0d || byte === 0x0a) at--;
    // Escaped inside an entry's contents: `\r`, `\t`, `\n` (a shipper that kept the newline) as two bytes.
    else if (escaped && (byte === 0x72 || byte === 0x74 || byte === 0x6e) && bytes[at - 1] === 0x5c && bytes[at - 2] !== 0x5c) at -= 2;
    else break;
    if (at < start) return false;
  }
  return bytes[at] === 0x7d;
}

/** The head read last: its fields are copied into the record at once. */
const HEAD = new ServerHead();

export function parseServerLine(line: string): LogRecord | undefined {
  if (line.startsWith('{"t":')) {
    const bytes = Buffer.from(line);
    const record = parseServerLineInBytes(bytes, 0, bytes.length, false, { contents: line });
    if (record) return record;
  }
  const json = parseJsonObject(line);
  return json ? serverObjectRecord(json) : parseServerTextLine(line);
}

/** A server line's object that is not in the server's own order or spelling (`$date` as `$numberLong`, say). */
function serverObjectRecord(json: Record<string, unknown>): LogRecord | undefined {
  if (typeof json['msg'] !== 'string') return undefined;
  const t = asObject(json['t']);
  const date = t?.['$date'];
  return {
    time: extendedJsonDate(date),
    severity: typeof json['s'] === 'string' ? json['s'] : undefined,
    level: levelOf(typeof json['s'] === 'string' ? json['s'] : undefined),
    component: typeof json['c'] === 'string' ? json['c'] : undefined,
    context: typeof json['ctx'] === 'string' ? json['ctx'] : undefined,
    // An id past 2^53 is read as a BigInt (json-value.ts): its nearest double, as the bytes' reader gives it.
    id: countOf(json['id']),
    message: json['msg'],
    attrs: attrsOf(json),
    tags: Array.isArray(json['tags']) ? json['tags'].map(String) : undefined,
    object: json,
  };
}

/** A 4.4+ server line's object, outside an entry (a mongod container's own output): its time, severity and message. */
export function isServerObject(json: Record<string, unknown>): boolean {
  return typeof json['msg'] === 'string' && typeof json['s'] === 'string' && asObject(json['t'])?.['$date'] !== undefined;
}

/** The server's lines, read from their bytes where they are in the 4.4+ shape. */
export const serverRecordReader: RecordReader = {
  text: parseServerLine,
  bytes: (source, start, end, escaped) => parseServerLineInBytes(source.bytes, start, end, escaped, source),
};
