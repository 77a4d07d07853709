/**
 * Lines in, entries out. An entry the sidecar wrote starts `{"logType":"<type>","contents":"`
 * and ends `"}` or `","partial":true}`: such a line is selected from those bytes without
 * parsing it (most of a `kubectl logs` stream). Any other line that starts with `{` is parsed:
 * an object with a string `logType` is an entry (a shipper that re-serialised it, or the
 * sidecar's own pino diagnostics, whose contents are the whole line); an object a format
 * recognises as its own (the operator's zap lines) is an entry of that type, so its log needs no
 * flag. A line of text a format recognises (the operator's console lines, an agent's or an old
 * server's lines outside an entry), with or without kubectl's prefix, is an entry of that format
 * too. Everything else (other containers' output, a cut line, a line too long to hold) is
 * another line, counted, never a crash.
 */
import { LineSplitter } from '../follow/split-lines.js';
import type { LogFormat } from '../formats/log-format.js';
import { LINE_RECOGNIZING_FORMATS, OBJECT_RECOGNIZING_FORMATS, logFormat } from '../formats/log-formats.js';
import { jsonObjectAt } from '../parse/json-members.js';
import { parseRepairedJson } from '../parse/json-value.js';
import { matchesAt } from '../parse/match-bytes.js';
import { EntryLine } from './entry-line.js';
import { inputLines, type InputLines } from './input-lines.js';
import { PREFIX_HEAD_BYTES, parseLinePrefix, textLinePrefixes, type LinePrefix } from './line-prefix.js';
import { DockerPieces } from './docker-pieces.js';
import { elasticsearchSource, entryFields, isDockerRecord, recordPrefix, shippedLine } from './shipper-record.js';

export interface EntryHandler {
  /** False for a type that is only counted: its entries are then never built. */
  wants(logType: string): boolean;
  /** An entry of a type that is not wanted. */
  counted(logType: string): void;
  entry(entry: EntryLine): void;
  /**
   * A line that is not an entry: bytes[start, end). `wrapped`: the log line a Docker json-file
   * record wraps, when no format recognises it (a Go error's second line after the agent's line
   * that began it: it may continue that record).
   */
  other(bytes: Buffer, start: number, end: number, wrapped?: string): void;
  /**
   * A line longer than MAX_INPUT_LINE_BYTES: its first that many bytes come to `other` as a line
   * that is no entry, and the rest of it is skipped (memory stays bounded whatever the input).
   */
  overlong?(): void;
  /** A chunk of input was handled: nothing may keep its bytes after this (the next chunk reuses them). */
  chunkEnd?(): void;
  /** True while the handler holds a line back, waiting for what may continue it. */
  holding?(): boolean;
  /** The input paused, or one input ended: whatever is held back is taken as it is. */
  release?(): void;
  /** One input of several ended: nothing of it goes on in the next one's lines. */
  inputEnd?(): void;
}

const TYPE_KEY = Buffer.from('{"logType":"');
const CONTENTS_KEY = Buffer.from('","contents":"');
const PARTIAL_TAIL = Buffer.from('","partial":true}');
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACE = 0x7b;

/** Longest input line held whole; a longer one is one line that is no entry, its first that many bytes (EntryHandler.overlong). */
export const MAX_INPUT_LINE_BYTES = 64 * 1024 * 1024;

/** A type as an entry names it, and its format. */
interface EntryType {
  readonly name: string;
  readonly format: LogFormat | undefined;
}

/**
 * Types seen so far, by their name's length and first byte: a stream holds a handful of
 * types, so a name is decoded and its format looked up once, then recognised from its bytes,
 * and the same string is reused (its hash too, for the maps keyed by type).
 */
class EntryTypes {
  readonly #known = new Map<number, { readonly bytes: Buffer; readonly type: EntryType }[]>();

  typeOf(bytes: Buffer, start: number, end: number): EntryType {
    const key = ((end - start) << 8) | bytes[start]!;
    const candidates = this.#known.get(key);
    if (candidates) {
      for (const candidate of candidates) if (matchesAt(bytes, start, candidate.bytes)) return candidate.type;
    }
    const name = bytes.toString('utf8', start, end);
    const type = { name, format: logFormat(name) };
    if ((candidates?.length ?? 0) < 16) {
      const known = { bytes: Buffer.from(bytes.subarray(start, end)), type };
      if (candidates) candidates.push(known);
      else this.#known.set(key, [known]);
    }
    return type;
  }
}

/** A quote at `at` that is not escaped (preceded by an even number of backslashes). */
function isClosingQuote(bytes: Buffer, at: number, floor: number): boolean {
  if (bytes[at] !== QUOTE) return false;
  let backslashes = 0;
  for (let i = at - 1; i >= floor && bytes[i] === BACKSLASH; i--) backslashes++;
  return backslashes % 2 === 0;
}

export class EntryReader {
  readonly #handler: EntryHandler;
  readonly #splitter: LineSplitter;
  readonly #lines: InputLines;
  readonly #types = new EntryTypes();
  readonly #pieces = new DockerPieces();

  constructor(handler: EntryHandler) {
    this.#handler = handler;
    this.#lines = inputLines(
      (bytes, start, end) => this.#line(bytes, start, end),
      (bytes, start, end) => handler.other(bytes, start, end),
      MAX_INPUT_LINE_BYTES,
      () => handler.overlong?.(),
    );
    this.#splitter = new LineSplitter(MAX_INPUT_LINE_BYTES, this.#lines);
  }

  push(chunk: Buffer): void {
    this.#splitter.push(chunk);
  }

  /**
   * The end of the input: a last line without newline is read too, and a line Docker cut whose
   * last piece never came. `leftEarly` (reading stopped before the input's end): the unfinished
   * line held is the last chunk's cut, and is dropped.
   */
  end(leftEarly = false): void {
    if (leftEarly) this.#splitter.abandon();
    else this.#splitter.flush();
    this.#lines.end();
    for (const line of this.#pieces.flush()) {
      const text = Buffer.from(line);
      this.#deliver(shippedEntry(line, undefined, true, undefined, text, 0, text.length), text, 0, text.length);
    }
  }

  #line(bytes: Buffer, lineStart: number, lineEnd: number): void {
    let end = lineEnd;
    if (end > lineStart && bytes[end - 1] === 0x0d) end--;
    let start = lineStart;
    let prefix: LinePrefix | undefined;
    if (bytes[start] !== OPEN_BRACE) {
      prefix = parseLinePrefix(bytes.toString('latin1', start, Math.min(end, start + PREFIX_HEAD_BYTES)));
      if (prefix === undefined) {
        const recognized = recognizeText(bytes, lineStart, end);
        if (!recognized) this.#handler.other(bytes, lineStart, lineEnd);
        else if (this.#handler.wants(recognized.logType)) this.#handler.entry(recognized);
        else this.#handler.counted(recognized.logType);
        return;
      }
      start += prefix.length;
    }
    const entry = readCanonical(bytes, lineStart, start, end, prefix, this.#types, this.#handler) ?? readParsed(bytes, lineStart, start, end, prefix, this.#pieces);
    if (entry === COUNTED || entry === HELD) return;
    this.#deliver(entry, bytes, lineStart, lineEnd);
  }

  /** An entry as read, or a line that is none (its bytes, and the line it wraps if it is a Docker record). */
  #deliver(entry: EntryLine | WrappedLine | undefined, bytes: Buffer, lineStart: number, lineEnd: number): void {
    if (entry instanceof EntryLine) this.#handler.entry(entry);
    else this.#handler.other(bytes, lineStart, lineEnd, entry?.wrapped);
  }
}

/** The sidecar's own shape, read from its bytes. */
function readCanonical(
  bytes: Buffer,
  lineStart: number,
  start: number,
  end: number,
  prefix: LinePrefix | undefined,
  types: EntryTypes,
  handler: EntryHandler,
): EntryLine | typeof COUNTED | undefined {
  if (end - start < TYPE_KEY.length + CONTENTS_KEY.length + 2 || !matchesAt(bytes, start, TYPE_KEY)) return undefined;
  const typeStart = start + TYPE_KEY.length;
  const typeEnd = bytes.indexOf(QUOTE, typeStart);
  if (typeEnd === -1 || typeEnd >= end || !matchesAt(bytes, typeEnd, CONTENTS_KEY)) return undefined;
  // A type with an escape in it is not read by bytes; one with a raw control is no JSON.
  for (let i = typeStart; i < typeEnd; i++) if (bytes[i] === BACKSLASH || bytes[i]! < 0x20) return undefined;
  const literalStart = typeEnd + CONTENTS_KEY.length - 1;
  const partial = end - PARTIAL_TAIL.length > literalStart && matchesAt(bytes, end - PARTIAL_TAIL.length, PARTIAL_TAIL);
  const literalEnd = partial ? end - PARTIAL_TAIL.length : end - 2;
  if (!partial && bytes[end - 1] !== CLOSE_BRACE) return undefined;
  if (literalEnd <= literalStart || !isClosingQuote(bytes, literalEnd, literalStart + 1)) return undefined;
  const type = types.typeOf(bytes, typeStart, typeEnd);
  if (!handler.wants(type.name)) {
    handler.counted(type.name);
    return COUNTED;
  }
  return new EntryLine(type.name, type.format, partial, prefix, bytes, lineStart, start, end, literalStart, literalEnd);
}

/** Marks a line that was an entry of a type only counted. */
const COUNTED = Symbol('counted');

/** A Docker json-file record around a line no format recognises (EntryHandler.other). */
interface WrappedLine {
  readonly wrapped: string;
}

/** Marks a line that was a piece of a longer line, held until its last piece (DockerPieces). */
const HELD = Symbol('held');

/**
 * The line a shipper's record wraps (shipper-record.ts): the entry it is; else, where the record
 * names no type of its own (`typed`), the log line, read as that log's. Undefined when it is
 * neither. The line is not the entry's JSON (start = end): output that writes entries makes
 * them anew.
 */
function shippedEntry(shipped: string, recordType: string | undefined, docker: boolean, prefix: LinePrefix | undefined, bytes: Buffer, lineStart: number, end: number): EntryLine | WrappedLine | undefined {
  const entry = entryFields(shipped);
  if (entry) return new EntryLine(entry.logType, logFormat(entry.logType), entry.partial, prefix, bytes, lineStart, end, end, -1, -1, entry.contents);
  // A record that names the type of the log's line it holds (a pipeline that lifted an entry's
  // `contents` into `log` and kept its `logType` beside it): that line, of that type.
  if (recordType !== undefined) return new EntryLine(recordType, logFormat(recordType), false, prefix, bytes, lineStart, end, end, -1, -1, shipped);
  const format = shippedLineFormat(shipped);
  // One container's file (Docker's json-file log): its lines come as the container wrote
  // them, so, as in the log read as it is, a line that no format recognises may continue the
  // record before it (recognized). Not in records of stores that mix pods' lines.
  if (format) return new EntryLine(format.name, format, false, prefix, bytes, lineStart, end, end, -1, -1, shipped, -1, -1, docker);
  return docker ? { wrapped: shipped } : undefined;
}

/** Any other JSON object with a string logType, or a shipper's record around a log's line. */
function readParsed(bytes: Buffer, lineStart: number, start: number, end: number, prefix: LinePrefix | undefined, pieces: DockerPieces): EntryLine | WrappedLine | typeof HELD | undefined {
  if (bytes[start] !== OPEN_BRACE) return undefined;
  const text = bytes.toString('utf8', start, end);
  let value: unknown;
  let glued = false;
  try {
    value = JSON.parse(text);
  } catch {
    // A line JSON.parse refuses only for the server's bare NaN or a raw control (repairedJson):
    // the line as it is, read so.
    value = parseRepairedJson(text);
    if (value === undefined) {
      // Two records glued together (two writers on one stream): the first decides what the line is.
      value = jsonObjectAt(text, 0)?.object;
      glued = true;
    }
  }
  if (typeof value !== 'object' || value === null) return undefined;
  // An Elasticsearch hit as exported (`{"_index":…,"_id":…,"_source":{…}}`): the record it holds.
  const object = elasticsearchSource(value as Record<string, unknown>) ?? (value as Record<string, unknown>);
  const { logType, contents, partial } = object;
  const docker = !glued && isDockerRecord(object);
  // A piece of a line Docker cut (docker-pieces.ts): held until the line's last piece.
  let shipped = docker ? pieces.line(`${prefix?.source ?? ''}\u0000${String(object['stream'])}`, object['log'] as string) : glued ? undefined : shippedLine(object);
  if (docker && shipped === undefined) return HELD;
  if (shipped !== undefined) {
    // The pod the store's record names is the line's source, and its time the line's stamp, where kubectl's prefix names none.
    const stamped = recordPrefix(object, prefix);
    if (!docker) {
      // A shipper that read the runtime's file without its CRI parser (Fluent Bit's tail input
      // with no `cri` parser) keeps each line's CRI head in the record: taken off, and a line
      // the runtime cut in pieces (P, then F) joined, as in the file itself (cri-line.ts).
      const line = pieces.criLine(stamped?.source ?? '', shipped);
      if (line === undefined) return HELD;
      if (line !== false) shipped = line;
    }
    const read = shippedEntry(shipped, typeof logType === 'string' ? logType : undefined, docker, stamped, bytes, lineStart, end);
    if (read) return read;
  }
  // An object without contents is an entry only as logtype's own diagnostics are (pino lines
  // that name their type: the line is its contents); an application's JSON with a `logType` of
  // its own (`{"logType":"billing","msg":…}`, another container's output) is another line.
  const entry = typeof logType === 'string' && !glued && (typeof contents === 'string' || logFormat(logType)?.writtenBy === 'logtype');
  if (!entry) {
    // A log read as it is (the operator's, piped in): its lines are entries of their own type.
    const format = OBJECT_RECOGNIZING_FORMATS.find((candidate) => candidate.recognizesObject!(object));
    return format && new EntryLine(format.name, format, false, prefix, bytes, lineStart, start, end, -1, -1, text, start, end, true);
  }
  return new EntryLine(logType, logFormat(logType), partial === true, prefix, bytes, lineStart, start, end, -1, -1, typeof contents === 'string' ? contents : text);
}

/** The format that recognises a log's line a shipper wrapped: a JSON object of its own (the server's, the operator's), or text. */
function shippedLineFormat(line: string): LogFormat | undefined {
  if (line.startsWith('{')) {
    const object = jsonObjectAt(line, 0)?.object;
    const format = object && OBJECT_RECOGNIZING_FORMATS.find((candidate) => candidate.recognizesObject!(object));
    if (format) return format;
  }
  return lineFormat(line);
}

/** The format that recognises a line of text, or undefined. */
function lineFormat(text: string): LogFormat | undefined {
  for (const format of LINE_RECOGNIZING_FORMATS) if (format.recognizesLine!(text)) return format;
  return undefined;
}

/**
 * A line of text in bytes[lineStart, end) that a format recognises, as it is or after
 * kubectl's (or stern's) prefix: an entry of that format whose contents are the line (its
 * record is read from its bytes, as a raw line read `--as TYPE` is).
 */
function recognizeText(bytes: Buffer, lineStart: number, end: number): EntryLine | undefined {
  if (LINE_RECOGNIZING_FORMATS.length === 0 || end <= lineStart) return undefined;
  const text = bytes.toString('utf8', lineStart, end);
  const format = lineFormat(text);
  if (format) return new EntryLine(format.name, format, false, undefined, bytes, lineStart, lineStart, end, -1, -1, text, lineStart, end, true);
  const head = text.slice(0, PREFIX_HEAD_BYTES);
  for (const prefix of textLinePrefixes(head)) {
    const rest = text.slice(prefix.length);
    const prefixed = lineFormat(rest);
    if (!prefixed) continue;
    const start = lineStart + Buffer.byteLength(prefix.text);
    return new EntryLine(prefixed.name, prefixed, false, prefix, bytes, lineStart, start, end, -1, -1, rest, start, end, true);
  }
  return undefined;
}
