/**
 * A server line's attributes where they stand in its bytes, found by the kernel (json-kernels
 * objectMembers: four places a member, where its key and its value start and end), so one
 * attribute is read without decoding the rest: a slow query's line is 13 KB on average, most
 * of it the command, never decoded to read its duration.
 */
import { MAX_OBJECT_MEMBERS, objectMembersAt, unescapeLiteralToString } from '../kernels/json-kernels.js';
import { keyNeedle, lastIndexBetween, needlesOf } from './key-needles.js';
import { matchesAt } from './match-bytes.js';
import type { TextPlace } from './text-place.js';
import { parseJson } from './json-value.js';

const COMMA = 0x2c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const NO_PLACES = new Int32Array(0);

/** The first key of an object-valued attribute: `key` undefined when it has none. */
export interface FirstKey {
  readonly key: string | undefined;
}

const NO_FIRST_KEY: FirstKey = { key: undefined };

/** The first member of an object-valued attribute: `member` undefined when it has none. */
export interface FirstMember {
  readonly member: { readonly key: string; readonly value: unknown } | undefined;
}

const NO_FIRST_MEMBER: FirstMember = { member: undefined };

/** What the server writes after attributes it cut: which it cut, and their sizes before. */
interface Cut {
  readonly truncated: Record<string, unknown>;
  readonly size: unknown;
}

export class AttributePlaces {
  readonly #bytes: Buffer;
  /** True when the bytes are the line inside a literal, escaped once more. */
  readonly #escaped: boolean;
  readonly #places: Int32Array;
  /** On a line whose attributes the server cut: `truncated` and `size`, read beside them as the whole object's `attrs` has them. */
  readonly #cut: Cut | undefined;

  private constructor(bytes: Buffer, escaped: boolean, places: Int32Array, cut?: Cut) {
    this.#bytes = bytes;
    this.#escaped = escaped;
    this.#places = places;
    this.#cut = cut;
  }

  /**
   * The attributes of the line in bytes[headEnd, end) after its head, where the server writes
   * them (`,"attr":{` right after the head); none for a line without `"attr":` (tags may follow
   * its head). Where the server cut an attribute, `truncated` and `size` follow the attributes:
   * what follows them is parsed (it is short), and answers for those two keys as attrsOf does.
   * Undefined when they can't be read so: `attr` elsewhere, more members than the kernel reads,
   * a key with an escape, or what follows them not as the server writes it: then read them
   * from the line's text.
   */
  static after(bytes: Buffer, headEnd: number, end: number, escaped: boolean): AttributePlaces | undefined {
    const attr = keyNeedle('attr', escaped);
    if (bytes[headEnd] !== COMMA || !matchesAt(bytes, headEnd + 1, attr)) {
      return lastIndexBetween(bytes, attr, headEnd, end) < 0 ? new AttributePlaces(bytes, escaped, NO_PLACES) : undefined;
    }
    const start = headEnd + 1 + attr.length;
    const places = objectMembersAt(bytes, start, end, escaped, MAX_OBJECT_MEMBERS);
    if (!places || places.length >= MAX_OBJECT_MEMBERS * 4) return undefined;
    const after = places.length > 0 ? places[places.length - 1]! : start;
    if (lastIndexBetween(bytes, keyNeedle('truncated', escaped), after, end) < 0) return new AttributePlaces(bytes, escaped, places);
    const rest = membersAfter(bytes, places.length > 0 ? after : start + 1, end, escaped);
    if (!rest) return undefined;
    const truncated = asRecord(rest['truncated']);
    return new AttributePlaces(bytes, escaped, places, truncated && { truncated, size: rest['size'] });
  }

  /** The attribute's value, only it decoded and parsed; undefined when there is none. */
  value(key: string): unknown {
    const cut = this.#cut;
    if (cut !== undefined && (key === 'truncated' || (key === 'size' && cut.size !== undefined))) return cut[key];
    const at = this.#indexOf(key);
    return at < 0 ? undefined : jsonValue(this.#text(this.#places[at + 2]!, this.#places[at + 3]!));
  }

  /** The attribute's JSON text as it stands in the bytes (still escaped inside a literal); undefined when there is none. */
  valueText(key: string): string | undefined {
    if (this.#isCutKey(key)) return undefined;
    const at = this.#indexOf(key);
    return at < 0 ? undefined : this.#bytes.toString('latin1', this.#places[at + 2]!, this.#places[at + 3]!);
  }

  /** Where valueText's text stands, without making it: false where valueText is undefined. */
  valuePlace(key: string, into: TextPlace): boolean {
    if (this.#isCutKey(key)) return false;
    const at = this.#indexOf(key);
    if (at < 0) return false;
    into.set(this.#bytes, this.#places[at + 2]!, this.#places[at + 3]!);
    return true;
  }

  /**
   * The first key of the object-valued attribute `key` (a command's name); undefined when the
   * kernel can't read it (a key with an escape of its own): then ask the line's text.
   */
  firstKey(key: string): FirstKey | undefined {
    if (this.#isCutKey(key)) return undefined;
    const at = this.#indexOf(key);
    if (at < 0) return NO_FIRST_KEY;
    const bytes = this.#bytes;
    const start = this.#places[at + 2]!;
    // Not an object (the server writes some commands as a string): no key.
    if (bytes[start] !== OPEN_BRACE) return NO_FIRST_KEY;
    const first = objectMembersAt(bytes, start, this.#places[at + 3]!, this.#escaped, 1);
    if (!first) return undefined;
    return first.length > 0 ? { key: bytes.toString('utf8', first[0], first[1]) } : NO_FIRST_KEY;
  }

  /**
   * The first member of the object-valued attribute `key` (a command's name and what it names:
   * `update: "orders"`), its value parsed; `member` undefined when it has none; undefined when
   * the kernel can't read it (then ask the line's text).
   */
  firstMember(key: string): FirstMember | undefined {
    if (this.#isCutKey(key)) return undefined;
    const at = this.#indexOf(key);
    if (at < 0) return NO_FIRST_MEMBER;
    const bytes = this.#bytes;
    const start = this.#places[at + 2]!;
    if (bytes[start] !== OPEN_BRACE) return NO_FIRST_MEMBER;
    const first = objectMembersAt(bytes, start, this.#places[at + 3]!, this.#escaped, 1);
    if (!first) return undefined;
    if (first.length === 0) return NO_FIRST_MEMBER;
    return { member: { key: bytes.toString('utf8', first[0], first[1]), value: jsonValue(this.#text(first[2]!, first[3]!)) } };
  }

  /**
   * The members of the object-valued attribute `key` where they stand, to read one at a time as
   * the attributes are (an applied oplog entry's `op`, `ns` and `o`, not its document); null
   * when there is no such attribute or it is no object; undefined when the kernel can't read
   * it (more members than it reads, a key with an escape): then ask `value`.
   */
  objectMembers(key: string): AttributePlaces | null | undefined {
    if (this.#isCutKey(key)) return undefined;
    const at = this.#indexOf(key);
    if (at < 0) return null;
    const bytes = this.#bytes;
    const start = this.#places[at + 2]!;
    if (bytes[start] !== OPEN_BRACE) return null;
    const members = objectMembersAt(bytes, start, this.#places[at + 3]!, this.#escaped, MAX_OBJECT_MEMBERS);
    return members && members.length < MAX_OBJECT_MEMBERS * 4 ? new AttributePlaces(bytes, this.#escaped, members) : undefined;
  }

  /** True when the attribute `key` is an array (a batch of inserts' documents), read from its first byte. */
  isArray(key: string): boolean {
    const at = this.#isCutKey(key) ? -1 : this.#indexOf(key);
    return at >= 0 && this.#bytes[this.#places[at + 2]!] === OPEN_BRACKET;
  }

  /** `truncated` or `size` on a line with cut attributes: not among the places (then ask the text). */
  #isCutKey(key: string): boolean {
    return this.#cut !== undefined && (key === 'truncated' || key === 'size');
  }

  /** Where the attribute `key` is among the places, or -1. */
  #indexOf(key: string): number {
    const name = needlesOf(key).name;
    const places = this.#places;
    const bytes = this.#bytes;
    for (let i = 0; i < places.length; i += 4) {
      if (places[i + 1]! - places[i]! === name.length && matchesAt(bytes, places[i]!, name)) return i;
    }
    return -1;
  }

  /** The JSON text of bytes[start, end): as it is in a line, decoded once from a literal. */
  #text(start: number, end: number): string {
    return textOf(this.#bytes, start, end, this.#escaped);
  }
}

/**
 * The JSON text of bytes[start, end): as it is in a line, decoded once from a literal. A literal
 * with a broken escape (`\\x`: a damaged line) is its text as it stands, as a value that does
 * not parse is: one such line must not stop a report.
 */
function textOf(bytes: Buffer, start: number, end: number, escaped: boolean): string {
  if (!escaped) return bytes.toString('utf8', start, end);
  const decoded = unescapeLiteralToString(bytes, start, end);
  if (decoded !== undefined) return decoded;
  const text = bytes.toString('utf8', start, end);
  try {
    return JSON.parse(`"${text}"`) as string;
  } catch {
    return text;
  }
}

const asRecord = (value: unknown): Record<string, unknown> | undefined =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;

/**
 * The line's members after its attributes, whose `}` is at bytes[close], up to the line's end
 * (`,"truncated":{…},"size":{…}}`), parsed; undefined when they are not so (no comma, broken
 * JSON, or an `attr` again, which JSON.parse of the line would take as the attributes).
 */
function membersAfter(bytes: Buffer, close: number, end: number, escaped: boolean): Record<string, unknown> | undefined {
  if (bytes[close] !== CLOSE_BRACE || bytes[close + 1] !== COMMA) return undefined;
  let rest: unknown;
  try {
    rest = parseJson(`{${textOf(bytes, close + 2, end, escaped)}`);
  } catch {
    return undefined;
  }
  const members = asRecord(rest);
  return members && !Object.hasOwn(members, 'attr') ? members : undefined;
}

/** A value's JSON text parsed; a broken one is its text (a string's without its quotes). */
function jsonValue(text: string): unknown {
  try {
    return parseJson(text);
  } catch {
    return text.startsWith('"') ? text.slice(1, -1) : text;
  }
}
