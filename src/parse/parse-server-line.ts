/**
 * The database server's log: one JSON object a line since 4.4 (`t`, `s`, `c`, `id`, `ctx`,
 * `msg`, `attr`, `tags`, and `truncated`/`size` where an attribute was cut), text before it
 * (`2022-07-29T06:09:45.380+0000 I  NETWORK  [listener] connection accepted …`).
 */
import { MAX_OBJECT_MEMBERS, objectMembersAt, unescapeLiteralToString } from '../encode/json-kernels.js';
import { matchesAt } from './match-bytes.js';
import { jsonMembers, type JsonMember } from './json-members.js';
import { readServerHead, type ServerHead } from './line-head.js';
import type { RecordReader } from './record-reader.js';
import { asObject, levelOf, parseJsonObject, parseLogTime, type LineSource, type LogRecord } from './log-record.js';

const TEXT_LINE = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:?\d\d)?)\s+([FEWID]\d?)\s+(\S+)\s+\[([^\]]*)\]\s?(.*)$/;

/**
 * A 4.4+ line read by its head, from its bytes; its context, attributes, tags and whole object
 * are read on first use. Reading the head with one regular expression and the rest only when
 * asked for took summary's pass over a million entries from 4.3 to 3.2 CPU-s, reading it from
 * the still-escaped literal to 2.5; the kernel reads it from the bytes, making no string but
 * the context's when asked for (15% less CPU for summary than the expression, paired runs).
 */
class ServerRecord implements LogRecord {
  readonly time: number | undefined;
  readonly severity: string;
  readonly level: LogRecord['level'];
  readonly component: string;
  readonly id: number;
  readonly message: string;
  /** The bytes the head was read from: the line's, or the input's around its entry's literal. */
  readonly #bytes: Buffer;
  /** True when the bytes are the line inside a literal, escaped once more. */
  readonly #escaped: boolean;
  readonly #contextStart: number;
  readonly #contextEnd: number;
  /** Where the head ends and the line ends in the bytes: attributes are looked for between. */
  readonly #headEnd: number;
  readonly #end: number;
  /** The line, decoded on first use (an entry's own getter decodes once for every user). */
  readonly #source: LineSource;
  #context: string | undefined;
  #decoded: string | undefined;
  #object: Record<string, unknown> | null | undefined;
  #members: JsonMember[] | null | undefined;
  #attrPlaces: Int32Array | null | undefined;

  constructor(bytes: Buffer, end: number, escaped: boolean, head: ServerHead, source: LineSource) {
    this.time = head.time;
    this.severity = head.severity;
    this.level = levelOf(head.severity);
    this.component = head.component;
    this.id = head.id;
    this.message = head.message;
    this.#bytes = bytes;
    this.#escaped = escaped;
    this.#contextStart = head.contextStart;
    this.#contextEnd = head.contextEnd;
    this.#headEnd = head.end;
    this.#end = end;
    this.#source = source;
  }

  /** The line, asked of the source once (a line with cut attributes is read twice). */
  #line(): string {
    this.#decoded ??= this.#source.contents;
    return this.#decoded;
  }

  get context(): string {
    this.#context ??= this.#bytes.toString('utf8', this.#contextStart, this.#contextEnd);
    return this.#context;
  }

  get object(): Record<string, unknown> | undefined {
    if (this.#object === undefined) this.#object = parseJsonObject(this.#line()) ?? null;
    return this.#object ?? undefined;
  }

  get attrs(): Readonly<Record<string, unknown>> | undefined {
    const json = this.object;
    return json && attrsOf(json);
  }

  numberInText(key: string): number | undefined {
    const needle = this.#needle(key);
    const bytes = this.#bytes;
    // Looked for from the end: the server writes counts last (connectionCount).
    const at = lastIndexBetween(bytes, needle, this.#headEnd, this.#end);
    if (at < 0) return undefined;
    // An integer, digit by digit (counts are); anything else is left to parseFloat.
    const start = at + needle.length;
    let value = 0;
    let i = start;
    for (let digit = bytes[i]! - 48; digit >>> 0 <= 9 && i < this.#end; digit = bytes[++i]! - 48) value = value * 10 + digit;
    const next = bytes[i];
    if (i > start && i - start <= 15 && next !== 0x2e && next !== 0x65 && next !== 0x45) return value;
    const parsed = Number.parseFloat(bytes.toString('latin1', start, Math.min(this.#end, start + 24)));
    return Number.isNaN(parsed) ? undefined : parsed;
  }

  /** `"key":` as it stands in this line's bytes. */
  #needle(key: string): Buffer {
    const needles = needlesOf(key);
    return this.#escaped ? needles.escaped : needles.plain;
  }

  /**
   * Where the attributes are in the bytes, read by the kernel (four places a member: key start
   * and end, value start and end), or undefined: then read them another way. Read once, and
   * only while the attributes are not read otherwise.
   */
  #places(): Int32Array | undefined {
    if (this.#attrPlaces === undefined) {
      this.#attrPlaces = null;
      const bytes = this.#bytes;
      const attr = this.#needle('attr');
      if (this.#members === undefined && this.#object === undefined) {
        // Right after the head, as the server writes them: `,"attr":{`.
        if (bytes[this.#headEnd] === COMMA && matchesAt(bytes, this.#headEnd + 1, attr)) {
          const start = this.#headEnd + 1 + attr.length;
          const places = objectMembersAt(bytes, start, this.#end, this.#escaped, MAX_OBJECT_MEMBERS);
          // The server's cut attributes come with `truncated` and `size` after them: those are parsed.
          const after = places && places.length > 0 ? places[places.length - 1]! : start;
          if (places && places.length < MAX_OBJECT_MEMBERS * 4 && lastIndexBetween(bytes, this.#needle('truncated'), after, this.#end) < 0) {
            this.#attrPlaces = places;
          }
        } else {
          // A line without attributes has no `"attr":` after its head (tags may follow it).
          if (lastIndexBetween(bytes, attr, this.#headEnd, this.#end) < 0) this.#attrPlaces = NO_PLACES;
        }
      }
    }
    return this.#attrPlaces ?? undefined;
  }

  /** Where the attribute `key` is among the places; -1 when there is none, -2 when they can't be read. */
  #placeOf(key: string): number {
    const places = this.#places();
    if (!places) return -2;
    const name = needlesOf(key).name;
    const bytes = this.#bytes;
    for (let i = 0; i < places.length; i += 4) {
      if (places[i + 1]! - places[i]! === name.length && matchesAt(bytes, places[i]!, name)) return i;
    }
    return -1;
  }

  /**
   * The attribute `key`'s value, read from the bytes where the kernel found it (only that value
   * decoded and parsed); NOT_READ when they can't be read so.
   */
  attrValueInBytes(key: string): unknown {
    const at = this.#placeOf(key);
    if (at < -1) return NOT_READ;
    if (at < 0) return undefined;
    const places = this.#attrPlaces!;
    return jsonValue(this.#text(places[at + 2]!, places[at + 3]!));
  }

  /** The first key of the object-valued attribute `key`, read from the bytes; NOT_READ when it can't be. */
  attrFirstKeyInBytes(key: string): string | undefined | typeof NOT_READ {
    const at = this.#placeOf(key);
    if (at < -1) return NOT_READ;
    if (at < 0) return undefined;
    const places = this.#attrPlaces!;
    // Not an object (the server writes some commands as a string): no key.
    if (this.#bytes[places[at + 2]!] !== OPEN_BRACE) return undefined;
    const first = objectMembersAt(this.#bytes, places[at + 2]!, places[at + 3]!, this.#escaped, 1);
    if (!first) return NOT_READ;
    return first.length > 0 ? this.#bytes.toString('utf8', first[0], first[1]) : undefined;
  }

  /** The JSON text of bytes[start, end): as it is in a line, decoded once from a literal. */
  #text(start: number, end: number): string {
    if (!this.#escaped) return this.#bytes.toString('utf8', start, end);
    return unescapeLiteralToString(this.#bytes, start, end) ?? (JSON.parse(`"${this.#bytes.toString('utf8', start, end)}"`) as string);
  }

  /**
   * The attributes as members read from the line's text, or undefined: then use `attrs`. Read
   * once, and only while the object is not parsed: after that, the object is the cheaper way.
   */
  attrMembers(): JsonMember[] | undefined {
    if (this.#members === undefined) {
      if (this.#object !== undefined) return undefined;
      this.#members = membersOfAttr(this.#line()) ?? null;
    }
    return this.#members ?? undefined;
  }

  get tags(): readonly string[] | undefined {
    const tags = this.object?.['tags'];
    return Array.isArray(tags) ? tags.map(String) : undefined;
  }
}

/** Where `needle` last stands in bytes[from, to), or -1. */
function lastIndexBetween(bytes: Uint8Array, needle: Uint8Array, from: number, to: number): number {
  for (let at = to - needle.length; at >= from; at--) {
    if (bytes[at] === needle[0] && matchesAt(bytes, at, needle)) return at;
  }
  return -1;
}

/**
 * A server line in bytes[start, end): as the server wrote it, or (escaped) inside an entry's
 * contents literal; undefined when its head needs decoding first: then parse the contents.
 * `source.contents` decodes the line (an entry's own getter, which decodes once for every user).
 */
export function parseServerLineInBytes(bytes: Buffer, start: number, end: number, escaped: boolean, source: LineSource): LogRecord | undefined {
  const head = readServerHead(bytes, start, end, escaped);
  return head && new ServerRecord(bytes, end, escaped, head, source);
}

const ATTR_KEY = ',"attr":{';
const COMMA = 0x2c;

const OPEN_BRACE = 0x7b;
const NO_PLACES = new Int32Array(0);

/** Said by the readers in the bytes when the attributes can't be read so. */
const NOT_READ = Symbol('not read');

/** A value's JSON text parsed; a broken one is its text (a string's without its quotes). */
function jsonValue(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text.startsWith('"') ? text.slice(1, -1) : text;
  }
}

/** A key's bytes, and `"key":` as it stands in a line and escaped once more in a literal: made once a key. */
interface KeyNeedles {
  readonly name: Buffer;
  readonly plain: Buffer;
  readonly escaped: Buffer;
}

const keyNeedles = new Map<string, KeyNeedles>();

function needlesOf(key: string): KeyNeedles {
  let needles = keyNeedles.get(key);
  if (!needles) {
    needles = { name: Buffer.from(key), plain: Buffer.from(`"${key}":`), escaped: Buffer.from(`\\"${key}\\":`) };
    keyNeedles.set(key, needles);
  }
  return needles;
}

/** The members of a line's `attr`; undefined when they can't be read so (then parse the line). */
function membersOfAttr(line: string): JsonMember[] | undefined {
  const at = line.indexOf(ATTR_KEY);
  if (at < 0) return line.includes('"attr"') ? undefined : [];
  const read = jsonMembers(line, at + ATTR_KEY.length - 1);
  // The server's cut attributes come with `truncated` and `size` after them: those are parsed.
  return read && !line.includes('"truncated":', read.end) ? read.members : undefined;
}

/**
 * A member's value: a string decoded, anything else parsed (a broken one is its text). Always
 * a new string, never a slice of the line: a value kept (a namespace, a shape) must not hold
 * a 13 KB line in memory.
 */
function memberValue(member: JsonMember): unknown {
  try {
    return JSON.parse(member.isString ? `"${member.text}"` : member.text) as unknown;
  } catch {
    return member.text;
  }
}

/**
 * One top-level attribute of a line. For a line read by its head only that attribute's value
 * is parsed: a slow query's line is 13 KB on average, most of it the command, never parsed
 * to read its duration.
 */
export function attrValue(record: LogRecord, key: string): unknown {
  if (record instanceof ServerRecord) {
    const value = record.attrValueInBytes(key);
    if (value !== NOT_READ) return value;
  }
  const members = attrMembersOf(record);
  if (!members) return record.attrs?.[key];
  const member = members.find((m) => m.key === key);
  return member && memberValue(member);
}

const FIRST_KEY = /^\{"((?:[^"\\]|\\.)*)"/;

/** The first key of an object-valued attribute (a command's name), without parsing the object. */
export function attrFirstKey(record: LogRecord, key: string): string | undefined {
  if (record instanceof ServerRecord) {
    const first = record.attrFirstKeyInBytes(key);
    if (first !== NOT_READ) return first;
  }
  const member = attrMembersOf(record)?.find((m) => m.key === key);
  if (member) {
    const first = member.isString ? undefined : FIRST_KEY.exec(member.text);
    return first ? (memberValue({ key: '', text: first[1]!, isString: true }) as string) : undefined;
  }
  const value = record.attrs?.[key];
  return typeof value === 'object' && value !== null ? Object.keys(value)[0] : undefined;
}

/**
 * A line's attributes as members read from its text (no objects made), when it was read by
 * its head; undefined otherwise (then use `record.attrs`).
 */
export function attrMembersOf(record: LogRecord): JsonMember[] | undefined {
  return record instanceof ServerRecord ? record.attrMembers() : undefined;
}

/**
 * A number among a line's attributes, by key. For a line read by its head the number is found
 * in the text (the last `"key":N`), so counting connections does not parse every connection
 * line: pass a key that is not also nested deeper in the lines it is used on.
 */
export function attrNumber(record: LogRecord, key: string): number | undefined {
  if (record instanceof ServerRecord) return record.numberInText(key);
  const value = record.attrs?.[key];
  return typeof value === 'number' ? value : undefined;
}

/** `attr`, with `truncated` and `size` beside it where the server cut an attribute. */
function attrsOf(json: Record<string, unknown>): Record<string, unknown> | undefined {
  const attrs = asObject(json['attr']);
  const truncated = asObject(json['truncated']);
  return truncated ? { ...attrs, truncated, ...(json['size'] === undefined ? {} : { size: json['size'] }) } : attrs;
}

export function parseServerLine(line: string): LogRecord | undefined {
  if (line.startsWith('{"t":')) {
    const bytes = Buffer.from(line);
    const record = parseServerLineInBytes(bytes, 0, bytes.length, false, { contents: line });
    if (record) return record;
  }
  const json = parseJsonObject(line);
  if (json) {
    if (typeof json['msg'] !== 'string') return undefined;
    const t = asObject(json['t']);
    const date = t?.['$date'];
    return {
      time: parseLogTime(typeof date === 'object' && date !== null ? Number((date as Record<string, unknown>)['$numberLong']) : date),
      severity: typeof json['s'] === 'string' ? json['s'] : undefined,
      level: levelOf(typeof json['s'] === 'string' ? json['s'] : undefined),
      component: typeof json['c'] === 'string' ? json['c'] : undefined,
      context: typeof json['ctx'] === 'string' ? json['ctx'] : undefined,
      id: typeof json['id'] === 'number' ? json['id'] : undefined,
      message: json['msg'],
      attrs: attrsOf(json),
      tags: Array.isArray(json['tags']) ? json['tags'].map(String) : undefined,
      object: json,
    };
  }
  const text = TEXT_LINE.exec(line);
  if (!text) return undefined;
  return {
    time: parseLogTime(text[1]),
    severity: text[2],
    level: levelOf(text[2]),
    component: text[3],
    context: text[4],
    message: text[5]!,
    attrs: textOperationAttrs(text[5]!),
  };
}

/** The server's lines, read from their bytes where they are in the 4.4+ shape. */
export const serverRecordReader: RecordReader = {
  text: parseServerLine,
  bytes: (source, start, end, escaped) => parseServerLineInBytes(source.bytes, start, end, escaped, source),
};

/** Before 4.4 an operation's figures are in its text: `command shop.orders … planSummary: COLLSCAN … docsExamined:9 … 1234ms`. */
const TEXT_OPERATION = /^(command|query|update|remove|insert|getmore|killcursors|delete|write) (\S+) .*?(\d+)ms$/;
const TEXT_FIGURES = /\b(docsExamined|keysExamined|nreturned|nReturned|nMatched|queryHash|planCacheKey):(\S+)/g;
const TEXT_PLAN = / planSummary: ([A-Z_]+(?: \{[^}]*\})?)/;
const TEXT_COMMAND = / command: (\w+)/;

function textOperationAttrs(message: string): Record<string, unknown> | undefined {
  const operation = TEXT_OPERATION.exec(message);
  if (!operation) return undefined;
  const attrs: Record<string, unknown> = { type: operation[1], ns: operation[2] };
  const command = TEXT_COMMAND.exec(message);
  if (command) attrs['command'] = { [command[1]!]: null };
  const plan = TEXT_PLAN.exec(message);
  if (plan) attrs['planSummary'] = plan[1];
  for (const [, key, value] of message.matchAll(TEXT_FIGURES)) {
    attrs[key === 'nReturned' ? 'nreturned' : key!] = /^\d+$/.test(value!) ? Number(value) : value;
  }
  attrs['durationMillis'] = Number(operation[3]);
  return attrs;
}

/** A slow operation's figures, from `durationMillis` and its neighbours. */
export interface SlowOperation {
  readonly durationMillis: number;
  readonly ns?: string | undefined;
  readonly plan?: string | undefined;
  readonly type?: string | undefined;
}

export function slowOperationOf(record: LogRecord): SlowOperation | undefined {
  const duration = attrValue(record, 'durationMillis');
  if (typeof duration !== 'number') return undefined;
  const text = (key: string) => {
    const value = attrValue(record, key);
    return typeof value === 'string' ? value : undefined;
  };
  return { durationMillis: duration, ns: text('ns'), plan: text('planSummary'), type: text('type') };
}
