/**
 * One attribute of a record at a time, whatever the record: a server line read by its head
 * answers from its bytes or its text without parsing its whole object (its `attributes`);
 * any other record from its `attrs`.
 */
import type { FirstMember } from './attribute-places.js';
import type { JsonMember } from './json-members.js';
import type { LogRecord } from './log-record.js';
import type { TextPlace } from './text-place.js';

/** How a record reads its top-level attributes one at a time. */
export interface AttributeReader {
  /** The attribute's value, parsed; undefined when there is none. */
  value(key: string): unknown;
  /** The first key of an object-valued attribute (a command's name). */
  firstKey(key: string): string | undefined;
  /** The first member of an object-valued attribute, its value parsed (a command's name and what it names). */
  firstMember(key: string): { readonly key: string; readonly value: unknown } | undefined;
  /**
   * A number among the attributes, found in the line's text (the last `"key":N`), so counting
   * connections does not parse every connection line: ask for a key that is not also nested
   * deeper in the lines it is asked of.
   */
  number(key: string): number | undefined;
  /** The attributes as members read from the line's text (no objects made); undefined: use `attrs`. */
  members(): JsonMember[] | undefined;
  /**
   * The members of the object-valued attribute `key`, read one at a time without parsing the
   * rest of it; null when there is no such object; undefined when the reader can't tell so
   * (then ask `value`).
   */
  objectMembers?(key: string): MemberReader | null | undefined;
  /**
   * A string attribute read where it stands in the line's text (the first `"key":"…"`), when it
   * has no escape; undefined otherwise (then ask `value`). Ask for a key the lines it is asked of
   * write before any value that could hold the same key (a connection line's `remote`).
   */
  string?(key: string): string | undefined;
  /**
   * Gives the line's bytes to a reader of its own (the attributes are after the head, up to
   * `end`; `escaped`: inside an entry's literal): what it answers; undefined when the record
   * was not read from bytes.
   */
  inBytes?<T>(read: (bytes: Buffer, headEnd: number, end: number, escaped: boolean) => T): T | undefined;
  /** Where `string(key)` stands in the line's bytes, without making it: false where `string` would be undefined. */
  stringPlace?(key: string, into: TextPlace): boolean;
  /**
   * The attribute's JSON text as it stands in the line (inside an entry's literal, still
   * escaped: `{\"a\":1}` there, `{"a":1}` in a line, so no text stands for two values), for a
   * reader that keeps what it read of a value met again; undefined when there is none or the
   * reader can't give it so.
   */
  valueText?(key: string): string | undefined;
  /** Where valueText's text stands in the line's bytes, without making it: false where it would be undefined. */
  valuePlace?(key: string, into: TextPlace): boolean;
}

/** An object's members, one at a time (AttributeReader.objectMembers). */
export interface MemberReader {
  /** The member's value, parsed; undefined when there is none. */
  value(key: string): unknown;
  /** True when the member is an array, not parsed. */
  isArray(key: string): boolean;
  /** The first member of the object-valued member `key`; undefined when it can't be read so. */
  firstMember(key: string): FirstMember | undefined;
}

/** See AttributeReader.objectMembers: undefined when the record can't answer so. */
export function attrObjectMembers(record: LogRecord, key: string): MemberReader | null | undefined {
  return record.attributes?.objectMembers?.(key);
}

/**
 * Where a string attribute stands (see AttributeReader.stringPlace): true, and `into` set, when
 * the record reads it from its bytes; false otherwise (then ask attrString).
 */
export function attrStringPlace(record: LogRecord, key: string, into: TextPlace): boolean {
  return record.attributes?.stringPlace?.(key, into) ?? false;
}

/** See AttributeReader.valuePlace: false when the record can't tell so. */
export function attrValuePlace(record: LogRecord, key: string, into: TextPlace): boolean {
  return record.attributes?.valuePlace?.(key, into) ?? false;
}

/** See AttributeReader.valueText. */
export function attrValueText(record: LogRecord, key: string): string | undefined {
  return record.attributes?.valueText?.(key);
}

/** A string attribute (see AttributeReader.string), else undefined. */
export function attrString(record: LogRecord, key: string): string | undefined {
  const read = record.attributes?.string?.(key);
  if (read !== undefined) return read;
  const value = attrValue(record, key);
  return typeof value === 'string' ? value : undefined;
}

export function attrValue(record: LogRecord, key: string): unknown {
  const attributes = record.attributes;
  return attributes ? attributes.value(key) : record.attrs?.[key];
}

export function attrFirstKey(record: LogRecord, key: string): string | undefined {
  const attributes = record.attributes;
  if (attributes) return attributes.firstKey(key);
  const value = record.attrs?.[key];
  return typeof value === 'object' && value !== null ? Object.keys(value)[0] : undefined;
}

export function attrFirstMember(record: LogRecord, key: string): { readonly key: string; readonly value: unknown } | undefined {
  const attributes = record.attributes;
  if (attributes) return attributes.firstMember(key);
  const value = record.attrs?.[key];
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const first = Object.keys(value)[0];
  return first === undefined ? undefined : { key: first, value: (value as Record<string, unknown>)[first] };
}

export function attrNumber(record: LogRecord, key: string): number | undefined {
  const attributes = record.attributes;
  if (attributes) return attributes.number(key);
  const value = record.attrs?.[key];
  // A count past 2^53 is read as a BigInt (json-value.ts): its nearest double, as the bytes' reader gives it.
  return typeof value === 'bigint' ? Number(value) : typeof value === 'number' ? value : undefined;
}

/** A record's attributes as members read from its text, where it can give them; undefined: use `record.attrs`. */
export function attrMembersOf(record: LogRecord): JsonMember[] | undefined {
  return record.attributes?.members();
}
