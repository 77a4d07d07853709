/**
 * One entry as read: its type, where its JSON sits in the input bytes, and its contents,
 * decoded only when something asks (selection by type alone never decodes).
 */
import { literalTerminalSafe, literalValid, unescapeLiteralToString } from '../kernels/json-kernels.js';
import type { LogFormat } from '../formats/log-format.js';
import { parseLogTime } from '../parse/log-time.js';
import type { LinePrefix } from './line-prefix.js';

export class EntryLine {
  readonly logType: string;
  /** The type's format, resolved once per type by the reader; undefined for a type logtype does not know. */
  readonly format: LogFormat | undefined;
  readonly partial: boolean;
  readonly prefix: LinePrefix | undefined;
  /** The input bytes the entry was read from, and its place there. */
  readonly bytes: Buffer;
  /** Start of the line (prefix included). */
  readonly lineStart: number;
  /** Start of the entry's JSON (after any prefix). */
  readonly start: number;
  readonly end: number;
  /** Where the contents string literal's quotes are, when the line was read by its bytes
   * (-1 when the contents were decoded another way). */
  readonly literalStart: number;
  readonly literalEnd: number;
  /** Where the contents stand as written (a raw line read `--as TYPE`), -1 otherwise. */
  readonly plainStart: number;
  readonly plainEnd: number;
  /** A line of a log read as it is, without a wrapper, that a format recognised (not `--as TYPE`). */
  readonly recognized: boolean;
  #contents: string | undefined;
  #escaped: string | undefined;

  constructor(
    logType: string,
    format: LogFormat | undefined,
    partial: boolean,
    prefix: LinePrefix | undefined,
    bytes: Buffer,
    lineStart: number,
    start: number,
    end: number,
    literalStart: number,
    literalEnd: number,
    contents?: string,
    plainStart = -1,
    plainEnd = -1,
    recognized = false,
  ) {
    this.logType = logType;
    this.format = format;
    this.partial = partial;
    this.prefix = prefix;
    this.bytes = bytes;
    this.lineStart = lineStart;
    this.start = start;
    this.end = end;
    this.literalStart = literalStart;
    this.literalEnd = literalEnd;
    this.plainStart = plainStart;
    this.plainEnd = plainEnd;
    this.recognized = recognized;
    this.#contents = contents;
  }

  /** An entry made from a decoded value: a joined split line. */
  static fromContents(logType: string, format: LogFormat | undefined, contents: string, prefix?: LinePrefix, partial = false): EntryLine {
    return new EntryLine(logType, format, partial, prefix, EMPTY, 0, 0, 0, -1, -1, contents);
  }

  /** A raw line bytes[start, end) read `--as TYPE`: its record is read from its bytes. */
  static fromRawLine(logType: string, format: LogFormat | undefined, bytes: Buffer, start: number, end: number): EntryLine {
    return new EntryLine(logType, format, false, undefined, bytes, start, start, start, -1, -1, bytes.toString('utf8', start, end), start, end);
  }

  /**
   * The entry with its bytes copied out of the input chunk (whose buffer the next chunk
   * reuses): for an entry held back across a chunk's end. Its contents, if already decoded,
   * come along.
   */
  detached(): EntryLine {
    const from = this.lineStart;
    // A raw line read `--as TYPE` has its text in [plainStart, plainEnd), after `end`.
    const to = Math.max(this.end, this.plainEnd);
    if (this.bytes.length === 0 || to <= from) return this;
    const shift = (at: number): number => (at < 0 ? at : at - from);
    return new EntryLine(
      this.logType,
      this.format,
      this.partial,
      this.prefix,
      Buffer.from(this.bytes.subarray(from, to)),
      0,
      shift(this.start),
      shift(this.end),
      shift(this.literalStart),
      shift(this.literalEnd),
      this.#contents,
      shift(this.plainStart),
      shift(this.plainEnd),
      this.recognized,
    );
  }

  /** The contents' first byte (its first UTF-16 unit where only the text is in hand); -1 when they are empty. Costs no unescaping. */
  firstByte(): number {
    if (this.literalStart >= 0) return this.literalStart + 1 < this.literalEnd ? this.bytes[this.literalStart + 1]! : -1;
    if (this.plainStart >= 0) return this.plainStart < this.plainEnd ? this.bytes[this.plainStart]! : -1;
    const contents = this.contents;
    return contents.length > 0 ? contents.charCodeAt(0) : -1;
  }

  get contents(): string {
    if (this.#contents === undefined) {
      const escaped = this.#escaped;
      const start = this.literalStart + 1;
      const end = this.literalEnd;
      // Without a backslash or a quote the literal's text is the contents.
      if (escaped !== undefined && !escaped.includes('\\') && !escaped.includes('"')) this.#contents = escaped;
      else {
        // The kernel, from the bytes: faster than JSON.parse on a server line (docs/performance.md).
        this.#contents = unescapeLiteralToString(this.bytes, start, end) ?? this.#wholeLineContents() ?? decodeLiteral(escaped ?? this.bytes.toString('utf8', start, end));
      }
    }
    return this.#contents;
  }

  /**
   * The contents as JSON.parse reads the entry's whole line: for a literal that does not end
   * where the line's last `"}` stands (a quote not escaped inside it: `"contents":"a","pod":"x"}`,
   * keys a tool added after the contents, or `contents` written twice: the last one, as jq reads it).
   */
  #wholeLineContents(): string | undefined {
    if (this.literalStart < 0) return undefined;
    try {
      const entry = JSON.parse(this.bytes.toString('utf8', this.start, this.end)) as unknown;
      const contents = typeof entry === 'object' && entry !== null ? (entry as Record<string, unknown>)['contents'] : undefined;
      return typeof contents === 'string' ? contents : undefined;
    } catch {
      return undefined;
    }
  }

  /**
   * True when the contents are surely safe for a terminal, known from their literal's bytes
   * (no control, no byte from 0x7f, no escape to a control or of their own); false says
   * nothing: look closer. Asked only by pretty output.
   */
  get knownTerminalSafe(): boolean {
    return this.literalStart >= 0 && literalTerminalSafe(this.bytes, this.literalStart + 1, this.literalEnd);
  }

  /**
   * The contents as they stand in the input, still JSON-escaped (the text between the
   * literal's quotes), when the entry was read by its bytes and not yet decoded; else
   * undefined. Kept: decoding the contents later starts from it.
   */
  get escapedContents(): string | undefined {
    if (this.literalStart < 0 || this.#contents !== undefined) return undefined;
    this.#escaped ??= this.bytes.toString('utf8', this.literalStart + 1, this.literalEnd);
    return this.#escaped;
  }

  /** The time kubectl stamped the line with (`--timestamps`), if it did, in epoch milliseconds. */
  get stampedAt(): number | undefined {
    return this.prefix?.time === undefined ? undefined : parseLogTime(this.prefix.time);
  }

  /** The line's own time, else kubectl's. */
  timeOf(record: { readonly time?: number | undefined } | undefined): number | undefined {
    return record?.time ?? this.stampedAt;
  }

  /** True when the JSON the entry came from can be written as it is. */
  get hasSourceJson(): boolean {
    return this.end > this.start;
  }

  /**
   * True when the JSON the entry came from is valid JSON. An entry read by its bytes is looked
   * at only now (a raw control or a bad escape in its literal: a line from no JSON writer, a
   * store that mangled it; a quote not escaped may still be a valid line with more members);
   * one JSON.parse read is.
   */
  get sourceJsonValid(): boolean {
    if (this.literalStart < 0 || literalValid(this.bytes, this.literalStart + 1, this.literalEnd)) return true;
    try {
      JSON.parse(this.bytes.toString('utf8', this.start, this.end));
      return true;
    } catch {
      return false;
    }
  }
}

const EMPTY = Buffer.alloc(0);

/** A literal's inside decoded; one with a broken escape stays as it is, not a crash. */
function decodeLiteral(escaped: string): string {
  if (!escaped.includes('\\')) return escaped;
  try {
    return JSON.parse(`"${escaped}"`) as string;
  } catch {
    return escaped;
  }
}
