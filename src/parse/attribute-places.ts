/**
 * A server line's attributes where they stand in its bytes, found by the kernel (json-kernels
 * objectMembers: four places a member, where its key and its value start and end), so one
 * attribute is read without decoding the rest: a slow query's line is 13 KB on average, most
 * of it the command, never decoded to read its duration.
 */
import { MAX_OBJECT_MEMBERS, objectMembersAt, unescapeLiteralToString } from '../kernels/json-kernels.js';
import { keyNeedle, lastIndexBetween, needlesOf } from './key-needles.js';
import { matchesAt } from './match-bytes.js';

const COMMA = 0x2c;
const OPEN_BRACE = 0x7b;
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

export class AttributePlaces {
  readonly #bytes: Buffer;
  /** True when the bytes are the line inside a literal, escaped once more. */
  readonly #escaped: boolean;
  readonly #places: Int32Array;

  private constructor(bytes: Buffer, escaped: boolean, places: Int32Array) {
    this.#bytes = bytes;
    this.#escaped = escaped;
    this.#places = places;
  }

  /**
   * The attributes of the line in bytes[headEnd, end) after its head, where the server writes
   * them (`,"attr":{` right after the head); none for a line without `"attr":` (tags may follow
   * its head). Undefined when they can't be read so: `attr` elsewhere, more members than the
   * kernel reads, a key with an escape, or an attribute the server cut (`truncated` and `size`
   * follow them): then read them from the line's text.
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
    return lastIndexBetween(bytes, keyNeedle('truncated', escaped), after, end) < 0 ? new AttributePlaces(bytes, escaped, places) : undefined;
  }

  /** The attribute's value, only it decoded and parsed; undefined when there is none. */
  value(key: string): unknown {
    const at = this.#indexOf(key);
    return at < 0 ? undefined : jsonValue(this.#text(this.#places[at + 2]!, this.#places[at + 3]!));
  }

  /**
   * The first key of the object-valued attribute `key` (a command's name); undefined when the
   * kernel can't read it (a key with an escape of its own): then ask the line's text.
   */
  firstKey(key: string): FirstKey | undefined {
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
   * The members named `names` among the first `most` members of the object-valued attribute
   * `key`, only their values decoded and parsed (an applied oplog entry's `op` and `ns`, not its
   * document); undefined when the attribute is no object or the kernel can't read it.
   */
  leadingMembers(key: string, names: readonly string[], most: number): Record<string, unknown> | undefined {
    const at = this.#indexOf(key);
    if (at < 0) return undefined;
    const bytes = this.#bytes;
    const start = this.#places[at + 2]!;
    if (bytes[start] !== OPEN_BRACE) return undefined;
    const members = objectMembersAt(bytes, start, this.#places[at + 3]!, this.#escaped, most);
    if (!members) return undefined;
    const found: Record<string, unknown> = {};
    for (let i = 0; i < members.length; i += 4) {
      const name = bytes.toString('utf8', members[i]!, members[i + 1]!);
      if (names.includes(name)) found[name] = jsonValue(this.#text(members[i + 2]!, members[i + 3]!));
    }
    return found;
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
    const bytes = this.#bytes;
    if (!this.#escaped) return bytes.toString('utf8', start, end);
    return unescapeLiteralToString(bytes, start, end) ?? (JSON.parse(`"${bytes.toString('utf8', start, end)}"`) as string);
  }
}

/** A value's JSON text parsed; a broken one is its text (a string's without its quotes). */
function jsonValue(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text.startsWith('"') ? text.slice(1, -1) : text;
  }
}
