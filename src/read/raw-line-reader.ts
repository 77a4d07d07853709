/**
 * `--as TYPE`: every line of the input is a line of that log, read as its entry, after what a
 * tool put around it is taken off, as without `--as`: kubectl's prefix and time, the runtime's
 * CRI head (its pieces joined), logcli's time and labels, stern's words (where the rest is
 * JSON or a line of the type); Docker's json-file records (their pieces joined) and the other
 * shippers' records (shipper-record.ts). A line that is an entry already, bare or so wrapped,
 * is read as the entry it is.
 */
import { LineSplitter } from '../follow/split-lines.js';
import { logFormat } from '../formats/log-formats.js';
import type { LogFormat } from '../formats/log-format.js';
import { asObject, parseJsonObject } from '../parse/log-record.js';
import { matchesAt } from '../parse/match-bytes.js';
import { DockerPieces } from './docker-pieces.js';
import { EntryLine } from './entry-line.js';
import { MAX_INPUT_LINE_BYTES, type EntryHandler } from './entry-reader.js';
import { inputLines } from './input-lines.js';
import { PREFIX_HEAD_BYTES, parseTextPrefix, textLinePrefixes, type LinePrefix } from './line-prefix.js';
import { elasticsearchSource, isDockerRecord, recordPrefix, shippedLine } from './shipper-record.js';

/** What reads an input's chunks into entries. */
export interface LineReader {
  push(chunk: Buffer): void;
  /**
   * The input's end, or where reading left it (`leftEarly`: --max-count reached, -q answered,
   * Ctrl-C): then an unfinished last line is the chunk's cut, not a line of the input, and is
   * dropped rather than read as one (it would count as a line that is no entry).
   */
  end(leftEarly?: boolean): void;
}

const OPEN_BRACE = 0x7b;
const DOCKER_KEY = Buffer.from('"log"');
const ENTRY_KEY = Buffer.from('"logType"');
/** First keys of the logs' own JSON lines (the server's `t`, the audit log's `atype`): never a shipper's record, never parsed for one. */
const OWN_KEYS = [Buffer.from('"t"'), Buffer.from('"atype"')];

/**
 * The line is an object whose first key is `key` (quoted), however it is spaced: `{"log":"…`
 * as Docker writes it, `{"log": "…` as a tool that re-writes it (Python's json.dumps) does.
 */
function startsWithKey(bytes: Buffer, start: number, end: number, key: Buffer): boolean {
  if (bytes[start] !== OPEN_BRACE) return false;
  let at = start + 1;
  while (at < end && (bytes[at] === 0x20 || bytes[at] === 0x09)) at++;
  return matchesAt(bytes, at, key);
}

/** The entry `value` is, when it is one (`{"logType":…,"contents":…}`). */
function entryOf(value: Record<string, unknown> | undefined, prefix: LinePrefix | undefined): EntryLine | undefined {
  if (!value) return undefined;
  const { logType, contents, partial } = value;
  if (typeof logType !== 'string' || typeof contents !== 'string') return undefined;
  return EntryLine.fromContents(logType, logFormat(logType), contents, prefix, partial === true);
}

/** The start of an entry or a Docker record after a prefix: `{"logType"` or `{"log"`, however spaced. */
const WRAPPED_AFTER = /^\{\s*"(?:logType|log)"/;

/**
 * What stands in front of a line of the type: the first of the prefixes a line may have
 * (textLinePrefixes) after which the rest is an entry, a Docker record or a line `format`
 * reads; else kubectl's, the runtime's or logcli's head, whatever follows. stern's words are
 * taken only so: two words and a `{` may be a log's own text (`desired config: {…}`). Undefined
 * when there is none.
 */
function prefixOf(head: string, format: LogFormat | undefined): LinePrefix | undefined {
  const candidates = textLinePrefixes(head);
  if (candidates.length === 0) return undefined;
  // A line the type reads as it is has none (a server's, an agent's line starts with its own time).
  if (format?.reader.text(head) !== undefined) return undefined;
  // kubectl's pod and time, then its pod alone (the time may be the line's own: a pre-4.4 server line's), then stern's.
  for (const prefix of candidates) {
    const rest = head.slice(prefix.length);
    if (WRAPPED_AFTER.test(rest) || format?.reader.text(rest) !== undefined) return prefix;
  }
  // A time alone may be the line's own: taken only with a pod, or as the runtime's or logcli's head.
  const known = parseTextPrefix(head);
  return known && (known.source !== undefined || known.text !== `${known.time} `) ? known : undefined;
}

export function rawLineReader(logType: string, handler: EntryHandler): LineReader {
  const format = logFormat(logType);
  const pieces = new DockerPieces();
  const asLine = (text: string, prefix: LinePrefix | undefined): void => handler.entry(EntryLine.fromContents(logType, format, text, prefix));
  const lines = inputLines(
    (bytes, lineStart, end) => {
      let start = lineStart;
      let prefix: LinePrefix | undefined;
      if (bytes[start] !== OPEN_BRACE) {
        prefix = prefixOf(bytes.toString('utf8', start, Math.min(end, start + PREFIX_HEAD_BYTES)), format);
        if (prefix) start += Buffer.byteLength(prefix.text);
      }
      if (bytes[start] !== OPEN_BRACE || OWN_KEYS.some((key) => startsWithKey(bytes, start, end, key))) {
        if (!prefix) return handler.entry(EntryLine.fromRawLine(logType, format, bytes, start, end));
        return asLine(bytes.toString('utf8', start, end), prefix);
      }
      const text = bytes.toString('utf8', start, end);
      const value = parseJsonObject(text);
      // A line that is an entry already (a sidecar's output given with --as): the entry it is.
      const entry = startsWithKey(bytes, start, end, ENTRY_KEY) ? entryOf(value, prefix) : undefined;
      if (entry) return handler.entry(entry);
      if (value && isDockerRecord(value) && startsWithKey(bytes, start, end, DOCKER_KEY)) {
        // Docker's json-file log of the container: the line it wraps, once its last piece came
        // (docker-pieces.ts), placed at the record's time where the line has none.
        const line = pieces.line(`${prefix?.source ?? ''}\u0000${String(value['stream'])}`, value['log'] as string);
        const stamped = recordPrefix(value, prefix);
        if (line !== undefined) handler.entry(entryOf(parseJsonObject(line), stamped) ?? EntryLine.fromContents(logType, format, line, stamped));
        return;
      }
      // Another shipper's record (an Elasticsearch hit's `_source`): the entry it wraps; the log's
      // line where the record says it is a store's (a pod's labels or metadata) or the line is one
      // the type reads; a log's own JSON line may have a `message` or a `log` too.
      const record = value && (elasticsearchSource(value) ?? value);
      const shipped = record && shippedLine(record);
      if (shipped === undefined) return asLine(text, prefix);
      const stamped = recordPrefix(record!, prefix);
      // A shipper that read the runtime's file without its CRI parser: the head taken off, P pieces joined.
      const cri = pieces.criLine(stamped?.source ?? '', shipped);
      if (cri === undefined) return;
      const line = cri === false ? shipped : cri;
      const wrapped = line.startsWith('{') ? entryOf(parseJsonObject(line), stamped) : undefined;
      if (wrapped) return handler.entry(wrapped);
      const stored = cri !== false || asObject(record!['kubernetes']) !== undefined || asObject(record!['labels']) !== undefined || record !== value || format?.reader.text(line) !== undefined;
      return stored ? asLine(line, stamped) : asLine(text, prefix);
    },
    (bytes, start, end) => handler.other(bytes, start, end),
    MAX_INPUT_LINE_BYTES,
    () => handler.overlong?.(),
  );
  const splitter = new LineSplitter(MAX_INPUT_LINE_BYTES, lines);
  return {
    push: (chunk) => splitter.push(chunk),
    end: (leftEarly) => {
      if (leftEarly) splitter.abandon();
      else splitter.flush();
      lines.end();
      for (const line of pieces.flush()) handler.entry(EntryLine.fromContents(logType, format, line));
    },
  };
}
