/**
 * The kernels of kernels.wat in plain TypeScript: one function for each, taking what its
 * wrapper in json-kernels.ts takes and answering what it answers, written to be read, not to be
 * fast. They are the oracle of the property tests (test/unit/kernels-property.test.ts), which
 * hold every kernel to its reference on random inputs; nothing else calls them. A change to a
 * kernel's contract is made here first.
 */
import { HEAD_PUNCTUATION, KEPT_TEXTS, MAX_ESCAPE_BYTES, MAX_HEAD_BYTES, MAX_OBJECT_MEMBERS, MAX_UNESCAPE_BYTES, escapedPunctuation } from './kernel-layout.js';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** jq's short escapes, by the byte they stand for. */
const SHORT_ESCAPES = new Map([
  [0x08, 'b'],
  [0x09, 't'],
  [0x0a, 'n'],
  [0x0c, 'f'],
  [0x0d, 'r'],
  [QUOTE, '"'],
  [BACKSLASH, '\\'],
]);

/**
 * escape (escapeAsciiJson): an ASCII line source[start, end) escaped as the inside of a JSON
 * string, with jq's escapes: \b \t \n \f \r \" \\, and \u00XX (lowercase) for other controls
 * below 0x20; DEL and every other byte as it is. Undefined when a byte is from 0x80.
 */
export function referenceEscapeAsciiJson(source: Uint8Array, start: number, end: number): Buffer | undefined {
  if (end - start > MAX_ESCAPE_BYTES) throw new RangeError(`escapeAsciiJson takes at most ${MAX_ESCAPE_BYTES} bytes a call`);
  let text = '';
  for (const byte of source.subarray(start, end)) {
    if (byte >= 0x80) return undefined;
    const short = SHORT_ESCAPES.get(byte);
    if (short !== undefined) text += `\\${short}`;
    else if (byte < 0x20) text += `\\u00${byte.toString(16).padStart(2, '0')}`;
    else text += String.fromCharCode(byte);
  }
  return Buffer.from(text, 'latin1');
}

/** What each escape letter stands for in a JSON string (\u aside). */
const UNESCAPES = new Map([
  ['"', 0x22],
  ['\\', 0x5c],
  ['/', 0x2f],
  ['b', 0x08],
  ['f', 0x0c],
  ['n', 0x0a],
  ['r', 0x0d],
  ['t', 0x09],
]);

/** unescape's answers besides the bytes. */
export const NOT_A_LITERAL = -1;
export const HAS_UNICODE_ESCAPE = -2;

/**
 * unescape (unescapeLiteral): the inside of a JSON string literal source[start, end) decoded to
 * bytes. Every byte but a backslash or a quote is copied as it is (a raw control, invalid UTF-8
 * alike); the first escape that is not one of the eight short ones decides: HAS_UNICODE_ESCAPE
 * at a \u, NOT_A_LITERAL at any other letter or a backslash at the end. A quote not escaped is
 * NOT_A_LITERAL wherever it stands (the literal ended before it), whatever comes after.
 */
export function referenceUnescapeLiteral(source: Uint8Array, start: number, end: number): Buffer | typeof NOT_A_LITERAL | typeof HAS_UNICODE_ESCAPE {
  if (end - start > MAX_UNESCAPE_BYTES) throw new RangeError(`unescapeLiteral takes at most ${MAX_UNESCAPE_BYTES} bytes a call`);
  const out = Buffer.alloc(end - start);
  let length = 0;
  for (let i = start; i < end; i++) {
    if (source[i] === QUOTE) return NOT_A_LITERAL;
    if (source[i] !== BACKSLASH) {
      out[length++] = source[i]!;
      continue;
    }
    if (i + 1 === end) return NOT_A_LITERAL;
    const letter = String.fromCharCode(source[++i]!);
    if (letter === 'u') return HAS_UNICODE_ESCAPE;
    const byte = UNESCAPES.get(letter);
    if (byte === undefined) return NOT_A_LITERAL;
    out[length++] = byte;
  }
  return out.subarray(0, length);
}

/**
 * literalInvalid (literalValid): true when source[start, end) is the inside of a valid JSON
 * string: no byte below 0x20, no quote that is not escaped, every backslash one of the nine
 * escapes (`\u` with four hex digits). Bytes from 0x80 are not looked at. Any length.
 */
export function referenceLiteralValid(source: Uint8Array, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    const byte = source[i]!;
    if (byte < 0x20 || byte === QUOTE) return false;
    if (byte !== BACKSLASH) continue;
    if (i + 1 === end) return false;
    const letter = String.fromCharCode(source[++i]!);
    if (letter === 'u') {
      if (i + 4 >= end) return false;
      for (let k = 1; k <= 4; k++) if (!HEX_DIGIT.test(String.fromCharCode(source[i + k]!))) return false;
      i += 4;
      continue;
    }
    if (!UNESCAPES.has(letter)) return false;
  }
  return true;
}

const HEX_DIGIT = /^[0-9a-fA-F]$/;

/**
 * terminalUnsafe (literalTerminalSafe): true when the literal source[start, end) surely decodes
 * to text safe for a terminal: every byte printable ASCII (0x20-0x7e), and no backslash just
 * before u, n, r, b or f, whatever stands before that backslash. False says nothing, and so does
 * a literal longer than the kernels take.
 */
export function referenceTerminalSafe(source: Uint8Array, start: number, end: number): boolean {
  if (end - start > MAX_UNESCAPE_BYTES) return false;
  for (let i = start; i < end; i++) {
    const byte = source[i]!;
    if (byte < 0x20 || byte > 0x7e) return false;
    if (byte === BACKSLASH && i + 1 < end && 'unrbf'.includes(String.fromCharCode(source[i + 1]!))) return false;
  }
  return true;
}

/**
 * The time text in milliseconds since the epoch when it is written as `2026-11-22T10:00:00.123`
 * then `Z`, `+00:00` or `+0000` (a zone's hours to 23, minutes to 59), a day that is in its
 * month and a time of day that is one; else NaN.
 */
export function referenceIsoMillis(time: Uint8Array): number {
  const match = /^(\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d):(\d\d)\.(\d{3})(?:Z|([+-])(\d\d)(:?)(\d\d))$/.exec(Buffer.from(time).toString('latin1'));
  if (!match) return Number.NaN;
  const [year, month, day, hour, minute, second, millis] = match.slice(1, 8).map(Number) as [number, number, number, number, number, number, number];
  const [, , , , , , , , sign, zoneHours, , zoneMinutes] = match;
  const daysInMonth = new Date(Date.UTC(2000, month, 0)).getUTCDate() - (month === 2 && !isLeapYear(year) ? 1 : 0);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth || hour > 23 || minute > 59 || second > 59) return Number.NaN;
  if (sign !== undefined && (Number(zoneHours) > 23 || Number(zoneMinutes) > 59)) return Number.NaN;
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, millis);
  const offset = sign === undefined ? 0 : (sign === '+' ? 1 : -1) * (Number(zoneHours) * 60 + Number(zoneMinutes)) * 60_000;
  return date.getTime() - offset;
}

const isLeapYear = (year: number): boolean => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;

/**
 * keepText's table: texts known by their bytes, each under the index it was kept with, as long
 * as there is room (KEPT_TEXTS: so many texts, so long each, so many bytes in all).
 */
export class ReferenceKeptTexts {
  readonly #indexes = new Map<string, number>();
  #bytes = 0;

  /** How many texts are kept, and their bytes in all. */
  get count(): number {
    return this.#indexes.size;
  }

  get bytes(): number {
    return this.#bytes;
  }

  /** The text's index, or -1 when it is not kept. */
  indexOf(text: Uint8Array): number {
    return this.#indexes.get(Buffer.from(text).toString('latin1')) ?? -1;
  }

  /** Keeps the text: its index (the one it has when it is kept already), or -1 when there is no room. */
  keep(text: Uint8Array): number {
    const known = this.indexOf(text);
    if (known >= 0) return known;
    if (this.#indexes.size >= KEPT_TEXTS.most || text.length > KEPT_TEXTS.longest || this.#bytes + text.length > KEPT_TEXTS.bytes) return -1;
    this.#indexes.set(Buffer.from(text).toString('latin1'), this.#indexes.size);
    this.#bytes += text.length;
    return this.#indexes.size - 1;
  }
}

/** A string's place among a head's fields: where it starts and ends, and its kept index (-1: not kept). */
export interface TextPlace {
  readonly start: number;
  readonly end: number;
  readonly kept: number;
}

export interface Span {
  readonly start: number;
  readonly end: number;
}

/** serverHead's answer, as indexes of the source. */
export interface ServerHeadReading {
  readonly time: Span;
  readonly severity: TextPlace;
  readonly component: TextPlace;
  readonly id: number;
  readonly context: Span;
  readonly message: TextPlace;
  /** Past the message's closing quote. */
  readonly end: number;
  readonly millis: number;
}

/** agentHead's answer, as indexes of the source. */
export interface AgentHeadReading {
  readonly time: Span;
  readonly level: TextPlace;
  readonly source: TextPlace;
  /** Where the rest of the line starts. */
  readonly end: number;
  readonly millis: number;
}

const startsWithAt = (source: Uint8Array, at: number, end: number, text: string): boolean => {
  const bytes = Buffer.from(text);
  return at + bytes.length <= end && bytes.every((byte, i) => source[at + i] === byte);
};

const isBlank = (byte: number | undefined): boolean => byte === 0x20 || byte === 0x09;

/**
 * serverHead (findServerHead): the fields a 4.4+ server line starts with, in the server's order:
 * `{"t":{"$date":"TIME"},"s":"S","c":"C","id":N,"ctx":"CTX","msg":"MSG"`, with spaces or tabs
 * allowed after `"},`, after each `",` and after `N,`; as a line writes it, or (escaped) inside an
 * entry's contents literal, where every `"` of the line is `\"`. Read within MAX_HEAD_BYTES of
 * `start`. A string ends at its closing quote; one with an escape of its own (any other
 * backslash, or a raw quote inside a literal) is not read, nor an empty time, nor an id of no
 * digit or more than nine. Undefined when the head is not there in that form.
 */
export function referenceServerHead(source: Uint8Array, start: number, end: number, escaped: boolean, kept: ReferenceKeptTexts): ServerHeadReading | undefined {
  const stop = Math.min(end, start + MAX_HEAD_BYTES);
  const spell = (text: string): string => (escaped ? escapedPunctuation(text) : text);
  let at = start;
  const expect = (text: string): boolean => {
    if (!startsWithAt(source, at, stop, spell(text))) return false;
    at += Buffer.byteLength(spell(text));
    return true;
  };
  const skipBlanks = (): void => {
    while (at < stop && isBlank(source[at])) at++;
  };
  /** The string from `at` (past its opening quote) up to its closing quote: `at` is left there. */
  const string = (): Span | undefined => {
    const from = at;
    for (let i = at; i < stop; i++) {
      if (escaped ? source[i] === BACKSLASH && i + 1 < stop && source[i + 1] === QUOTE : source[i] === QUOTE) {
        at = i;
        return { start: from, end: i };
      }
      if (source[i] === BACKSLASH || source[i] === QUOTE) return undefined;
    }
    return undefined;
  };
  const text = (): TextPlace | undefined => {
    const span = string();
    return span && { ...span, kept: kept.indexOf(source.subarray(span.start, span.end)) };
  };

  if (!expect(HEAD_PUNCTUATION.open)) return undefined;
  const time = string();
  if (!time || time.end === time.start || !expect(HEAD_PUNCTUATION.timeClose)) return undefined;
  skipBlanks();
  if (!expect(HEAD_PUNCTUATION.severity)) return undefined;
  const severity = text();
  if (!severity || !expect(HEAD_PUNCTUATION.textClose)) return undefined;
  skipBlanks();
  if (!expect(HEAD_PUNCTUATION.component)) return undefined;
  const component = text();
  if (!component || !expect(HEAD_PUNCTUATION.textClose)) return undefined;
  skipBlanks();
  if (!expect(HEAD_PUNCTUATION.id)) return undefined;
  const digits = /^\d{1,9}(?=,)/.exec(Buffer.from(source.subarray(at, Math.min(stop, at + 10))).toString('latin1'));
  if (!digits) return undefined;
  const id = Number(digits[0]);
  at += digits[0].length + 1;
  skipBlanks();
  if (!expect(HEAD_PUNCTUATION.context)) return undefined;
  const context = string();
  if (!context || !expect(HEAD_PUNCTUATION.textClose)) return undefined;
  skipBlanks();
  if (!expect(HEAD_PUNCTUATION.message)) return undefined;
  const message = text();
  if (!message) return undefined;
  const millis = referenceIsoMillis(source.subarray(time.start, time.end));
  return { time, severity, component, id, context, message, end: message.end + spell('"').length, millis };
}

/**
 * agentHead (findAgentHead): `[TIME] [LEVEL] [SOURCE]` at `start` (one space between the
 * fields), then one space or none; read within MAX_HEAD_BYTES. A field ends at its first `]`;
 * none may hold a backslash or a byte from 0x80, the time is not empty, and what follows is not
 * a backslash, a byte from 0x80 or another ASCII blank (those are left to the expression that
 * reads the line). Undefined when the line does not start so.
 */
export function referenceAgentHead(source: Uint8Array, start: number, end: number, kept: ReferenceKeptTexts): AgentHeadReading | undefined {
  const stop = Math.min(end, start + MAX_HEAD_BYTES);
  let at = start;
  const field = (): Span | undefined => {
    if (at >= stop || source[at] !== 0x5b) return undefined;
    for (let i = at + 1; i < stop; i++) {
      if (source[i] === BACKSLASH || source[i]! >= 0x80) return undefined;
      if (source[i] === 0x5d) {
        const span = { start: at + 1, end: i };
        at = i + 1;
        return span;
      }
    }
    return undefined;
  };
  const space = (): boolean => source[at] === 0x20 && at++ < stop;
  const place = (span: Span): TextPlace => ({ ...span, kept: kept.indexOf(source.subarray(span.start, span.end)) });

  const time = field();
  if (!time || time.start === time.end || !space()) return undefined;
  const level = field();
  if (!level || !space()) return undefined;
  const from = field();
  if (!from) return undefined;
  if (at < stop) {
    const next = source[at]!;
    if (next === 0x20) at++;
    else if (next === BACKSLASH || next >= 0x80 || (next >= 0x09 && next <= 0x0d)) return undefined;
  }
  return { time, level: place(level), source: place(from), end: at, millis: referenceIsoMillis(source.subarray(time.start, time.end)) };
}

/**
 * objectMembers (objectMembersAt): the members of the JSON object whose `{` is at `start`,
 * within source[start, end), as a line writes it or (escaped) inside an entry's contents
 * literal, where the line's quotes are `\"` and its backslashes `\\`. Four indexes a member:
 * where its key starts and ends (the key's bytes, without quotes) and where its value starts
 * and ends (quotes included). Spaces and tabs may stand around `:` and `,`. At most `max`
 * members are read (the rest are not looked at); undefined when the text is not such an object,
 * a key has an escape of its own, or more than MAX_OBJECT_MEMBERS are asked for.
 *
 * A value is read by where it ends, not by its grammar: a string up to its closing quote, an
 * object or array up to the bracket that closes the first (brackets counted, `{` and `[` alike,
 * outside strings), anything else up to `,` `}` `]`, a byte up to 0x20 or a backslash (it must
 * not be empty). A quote closes a string when the backslashes right before it (within the
 * object) are even in number in a line; in a literal, one more than a multiple of four (one
 * escapes the quote for the literal, the others, in pairs, are the line's own). Outside strings
 * every quote must open one.
 */
export function referenceObjectMembers(source: Uint8Array, start: number, end: number, escaped: boolean, max: number): number[] | undefined {
  if (end - start > MAX_UNESCAPE_BYTES || max > MAX_OBJECT_MEMBERS) return undefined;
  const quoteBytes = escaped ? 2 : 1;
  const skipBlanks = (at: number): number => {
    while (at < end && isBlank(source[at])) at++;
    return at;
  };
  const opensQuote = (at: number): boolean => at + quoteBytes <= end && (escaped ? source[at] === BACKSLASH && source[at + 1] === QUOTE : source[at] === QUOTE);
  const isStringQuote = (quote: number): boolean => {
    let backslashes = 0;
    while (quote - backslashes - 1 >= start && source[quote - backslashes - 1] === BACKSLASH) backslashes++;
    return escaped ? backslashes % 4 === 1 : backslashes % 2 === 0;
  };
  /** Where the string whose inside starts at `at` closes: the start of its closing quote (`\"` in a literal), or -1. */
  const stringClose = (at: number): number => {
    for (let i = at; i < end; i++) if (source[i] === QUOTE && isStringQuote(i)) return i - (escaped ? 1 : 0);
    return -1;
  };
  /** Past the value at `at`, or -1. */
  const valueEnd = (at: number): number => {
    if (at >= end) return -1;
    if (opensQuote(at)) {
      const close = stringClose(at + quoteBytes);
      return close < 0 ? -1 : close + quoteBytes;
    }
    if (source[at] === 0x7b || source[at] === 0x5b) {
      let depth = 0;
      for (let i = at; i < end; i++) {
        const byte = source[i];
        if (byte === QUOTE) {
          if (!isStringQuote(i)) return -1;
          const close = stringClose(i + 1);
          if (close < 0) return -1;
          i = close + quoteBytes - 1;
        } else if (byte === 0x7b || byte === 0x5b) depth++;
        else if (byte === 0x7d || byte === 0x5d) {
          if (--depth === 0) return i + 1;
        }
      }
      return -1;
    }
    let i = at;
    while (i < end && source[i] !== 0x2c && source[i] !== 0x7d && source[i] !== 0x5d && source[i]! > 0x20 && source[i] !== BACKSLASH) i++;
    return i === at ? -1 : i;
  };
  /** A key from `at` (past its opening quote): where its closing quote starts, or -1 at an escape of its own. */
  const keyEnd = (at: number): number => {
    for (let i = at; i < end; i++) {
      if (opensQuote(i)) return i;
      if (source[i] === QUOTE || source[i] === BACKSLASH) return -1;
    }
    return -1;
  };

  if (start >= end || source[start] !== 0x7b) return undefined;
  let at = skipBlanks(start + 1);
  if (at < end && source[at] === 0x7d) return [];
  const places: number[] = [];
  for (;;) {
    if (!opensQuote(at)) return undefined;
    const key = at + quoteBytes;
    const close = keyEnd(key);
    if (close < 0) return undefined;
    at = skipBlanks(close + quoteBytes);
    if (at >= end || source[at] !== 0x3a) return undefined;
    const value = skipBlanks(at + 1);
    const after = valueEnd(value);
    if (after < 0) return undefined;
    places.push(key, close, value, after);
    if (places.length / 4 >= max) return places;
    at = skipBlanks(after);
    if (at >= end) return undefined;
    if (source[at] === 0x7d) return places;
    if (source[at] !== 0x2c) return undefined;
    at = skipBlanks(at + 1);
  }
}
