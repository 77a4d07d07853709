/**
 * A 4.4+ server line read by its head, from its bytes; its context, attributes, tags and whole
 * object are read on first use: summary asks for a few attributes of most lines, never all.
 * The kernel reads the head from the bytes, making no string but the context's when asked for;
 * docs/performance.md has the measured steps (a regular expression, the escaped literal, the kernel).
 */
import { jsonMembers, type JsonMember } from './json-members.js';
import { AttributePlaces } from './attribute-places.js';
import { memberFirstKey, memberNamed, memberValue, membersOfAttr } from './attribute-members.js';
import { keyNeedle, lastIndexBetween } from './key-needles.js';
import { stringAfterKey, stringPlaceAfterKey } from './key-string.js';
import type { ServerHead } from './line-head.js';
import { asObject, levelOf, parseJsonObject, type LineSource, type LogRecord } from './log-record.js';
import type { AttributeReader, MemberReader } from './record-attributes.js';
import type { TextPlace } from './text-place.js';

/**
 * Its attributes are read the cheapest way still open: the kernel's places in the bytes (one
 * value decoded), else the members of the line's text (no objects made), else the parsed
 * object. Each way is taken only while the costlier ones are not: once the object is parsed,
 * it is the cheaper way.
 */
export class ServerRecord implements LogRecord, AttributeReader {
  /** A server's line, wherever it was written (LogRecord.family). */
  get family(): 'server' {
    return 'server';
  }

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
  /** Each read once; null: read, and there was none (or it can't be read so). */
  #object: Record<string, unknown> | null | undefined;
  #members: JsonMember[] | null | undefined;
  #places: AttributePlaces | null | undefined;

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

  /**
   * The number of a connection's thread (`conn123`: 123), read from the context's bytes as
   * connectionNumber reads its text: undefined for another thread; null where only the text
   * can tell (an escape, more than 15 digits, anything but digits after `conn`).
   */
  contextNumber(): number | undefined | null {
    const bytes = this.#bytes;
    const start = this.#contextStart;
    const end = this.#contextEnd;
    const conn = end - start >= 4 && bytes[start] === 0x63 && bytes[start + 1] === 0x6f && bytes[start + 2] === 0x6e && bytes[start + 3] === 0x6e;
    if (!conn) {
      for (let i = start; i < end; i++) if (bytes[i] === 0x5c) return null;
      return undefined;
    }
    if (end - start === 4) return undefined;
    if (end - start > 19) return null;
    let value = 0;
    for (let i = start + 4; i < end; i++) {
      const digit = bytes[i]! - 0x30;
      if (digit < 0 || digit > 9) return null;
      value = value * 10 + digit;
    }
    return value;
  }

  get object(): Record<string, unknown> | undefined {
    if (this.#object === undefined) this.#object = parseJsonObject(this.#line()) ?? null;
    return this.#object ?? undefined;
  }

  get attrs(): Readonly<Record<string, unknown>> | undefined {
    const json = this.object;
    return json && attrsOf(json);
  }

  get tags(): readonly string[] | undefined {
    const tags = this.object?.['tags'];
    return Array.isArray(tags) ? tags.map(String) : undefined;
  }

  get attributes(): AttributeReader {
    return this;
  }

  value(key: string): unknown {
    const places = this.#attributePlaces();
    if (places) return places.value(key);
    const members = this.members();
    if (!members) return this.attrs?.[key];
    const member = memberNamed(members, key);
    return member && memberValue(member);
  }

  objectMembers(key: string): MemberReader | null | undefined {
    return this.#attributePlaces()?.objectMembers(key);
  }

  firstKey(key: string): string | undefined {
    const first = this.#attributePlaces()?.firstKey(key);
    if (first) return first.key;
    const members = this.members();
    const member = members && memberNamed(members, key);
    if (member) return memberFirstKey(member);
    const value = this.attrs?.[key];
    return typeof value === 'object' && value !== null ? Object.keys(value)[0] : undefined;
  }

  firstMember(key: string): { readonly key: string; readonly value: unknown } | undefined {
    const first = this.#attributePlaces()?.firstMember(key);
    if (first) return first.member;
    const members = this.members();
    const member = members && memberNamed(members, key);
    if (member) {
      const inner = member.isString ? undefined : jsonMembers(member.text, 0)?.members[0];
      return inner && { key: inner.key, value: memberValue(inner) };
    }
    const value = this.attrs?.[key];
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
    const firstKey = Object.keys(value)[0];
    return firstKey === undefined ? undefined : { key: firstKey, value: (value as Record<string, unknown>)[firstKey] };
  }

  number(key: string): number | undefined {
    const needle = keyNeedle(key, this.#escaped);
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

  valueText(key: string): string | undefined {
    return this.#attributePlaces()?.valueText(key);
  }

  valuePlace(key: string, into: TextPlace): boolean {
    return this.#attributePlaces()?.valuePlace(key, into) ?? false;
  }

  string(key: string): string | undefined {
    return stringAfterKey(this.#bytes, this.#headEnd, this.#end, this.#escaped, key);
  }

  inBytes<T>(read: (bytes: Buffer, headEnd: number, end: number, escaped: boolean) => T): T {
    return read(this.#bytes, this.#headEnd, this.#end, this.#escaped);
  }

  stringPlace(key: string, into: TextPlace): boolean {
    return stringPlaceAfterKey(this.#bytes, this.#headEnd, this.#end, this.#escaped, key, into);
  }

  members(): JsonMember[] | undefined {
    if (this.#members === undefined) {
      if (this.#object !== undefined) return undefined;
      this.#members = membersOfAttr(this.#line()) ?? null;
    }
    return this.#members ?? undefined;
  }

  /** The kernel's places of the attributes, found once, and only while they are not read another way. */
  #attributePlaces(): AttributePlaces | undefined {
    if (this.#places === undefined) {
      this.#places =
        this.#members === undefined && this.#object === undefined ? (AttributePlaces.after(this.#bytes, this.#headEnd, this.#end, this.#escaped) ?? null) : null;
    }
    return this.#places ?? undefined;
  }
}

/** `attr`, with `truncated` and `size` beside it where the server cut an attribute. */
export function attrsOf(json: Record<string, unknown>): Record<string, unknown> | undefined {
  const attrs = asObject(json['attr']);
  const truncated = asObject(json['truncated']);
  return truncated ? { ...attrs, truncated, ...(json['size'] === undefined ? {} : { size: json['size'] }) } : attrs;
}
