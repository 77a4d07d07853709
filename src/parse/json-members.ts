/**
 * The top-level members of a JSON object read from its text, each value left as the text it
 * is (strings without their quotes, still escaped): pretty output shows `key=value` without
 * parsing the object and writing each value back to JSON. The server writes compact JSON, so
 * a value's text is what JSON.stringify would give, but for the spelling of some numbers and
 * escapes, where the server's own is shown.
 */
import { parseJson } from './json-value.js';
export interface JsonMember {
  readonly key: string;
  /** The value's text; for a string, what is between its quotes. */
  readonly text: string;
  readonly isString: boolean;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * The index of the quote that ends the string whose opening quote is at `at`, or -1. Found by
 * indexOf, not a loop over each character: a slow query's line is mostly strings.
 */
function stringEnd(text: string, at: number): number {
  let quote = at;
  for (;;) {
    quote = text.indexOf('"', quote + 1);
    if (quote < 0) return -1;
    // Escaped when an odd number of backslashes stand before it.
    let before = quote - 1;
    while (text.charCodeAt(before) === BACKSLASH) before--;
    if ((quote - 1 - before) % 2 === 0) return quote;
  }
}

/** The index just past the value starting at `at`, or -1 when the text ends first. */
function valueEnd(text: string, at: number): number {
  const first = text.charCodeAt(at);
  if (first === QUOTE) {
    const end = stringEnd(text, at);
    return end < 0 ? -1 : end + 1;
  }
  if (first === 0x7b || first === 0x5b) {
    let depth = 0;
    for (let i = at; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === QUOTE) {
        i = stringEnd(text, i);
        if (i < 0) return -1;
      } else if (c === 0x7b || c === 0x5b) depth++;
      else if (c === 0x7d || c === 0x5d) {
        if (--depth === 0) return i + 1;
      }
    }
    return -1;
  }
  // A number, true, false or null: up to the next separator.
  let i = at;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === 0x2c || c === 0x7d || c === 0x5d || c === 0x20) break;
    i++;
  }
  return i > at ? i : -1;
}

const skipSpaces = (text: string, at: number): number => {
  let i = at;
  while (text.charCodeAt(i) === 0x20) i++;
  return i;
};

/** A string literal's inside decoded, or undefined when JSON would refuse it. */
function decodedString(inside: string): string | undefined {
  try {
    return JSON.parse(`"${inside}"`) as string;
  } catch {
    return undefined;
  }
}

/**
 * The members of the object whose `{` is at `at`, and the index just past its `}`; undefined
 * when the text is not such an object (the caller then parses it).
 */
export function jsonMembers(text: string, at: number): { readonly members: JsonMember[]; readonly end: number } | undefined {
  if (text.charCodeAt(at) !== 0x7b) return undefined;
  const members: JsonMember[] = [];
  let i = skipSpaces(text, at + 1);
  if (text.charCodeAt(i) === 0x7d) return { members, end: i + 1 };
  for (;;) {
    if (text.charCodeAt(i) !== QUOTE) return undefined;
    const keyEnd = stringEnd(text, i);
    if (keyEnd < 0) return undefined;
    const rawKey = text.slice(i + 1, keyEnd);
    i = skipSpaces(text, keyEnd + 1);
    if (text.charCodeAt(i) !== 0x3a) return undefined;
    i = skipSpaces(text, i + 1);
    const end = valueEnd(text, i);
    if (end < 0) return undefined;
    const isString = text.charCodeAt(i) === QUOTE;
    const key = rawKey.includes('\\') ? decodedString(rawKey) : rawKey;
    // A key JSON cannot decode (a raw control beside an escape): not such an object either.
    if (key === undefined) return undefined;
    members.push({ key, text: isString ? text.slice(i + 1, end - 1) : text.slice(i, end), isString });
    i = skipSpaces(text, end);
    const c = text.charCodeAt(i);
    if (c === 0x7d) return { members, end: i + 1 };
    if (c !== 0x2c) return undefined;
    i = skipSpaces(text, i + 1);
  }
}

/**
 * The JSON object whose `{` is at `at`, parsed, and the index just past it: what follows is
 * left alone (a second record glued on, say). Undefined when no whole object starts there.
 */
export function jsonObjectAt(text: string, at: number): { readonly object: Record<string, unknown>; readonly end: number } | undefined {
  const read = jsonMembers(text, at);
  if (!read) return undefined;
  try {
    const value = parseJson(text.slice(at, read.end));
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? { object: value as Record<string, unknown>, end: read.end } : undefined;
  } catch {
    return undefined;
  }
}
