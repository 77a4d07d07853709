/**
 * A document as servers before 4.4 wrote it in their text log, in the shell's notation:
 * `{ find: "orders", filter: { status: "open", _id: ObjectId('5d…') }, limit: 50, $db: "shop" }`.
 * Read into plain values, so a pre-4.4 operation's command is the same kind of object as a
 * 4.4+ line's: keys unquoted or quoted, strings in either quote, numbers, true/false/null, and
 * the shell's constructors (`ObjectId(…)`, `UUID(…)`, `Timestamp(…)`, `BinData(…)`,
 * `new Date(…)`, `NumberLong(…)`, `/regex/flags`, `MinKey`, …) kept as their text, one value
 * each. A document cut short or not in this notation (the server's own `{ ... }`) reads as
 * nothing: undefined, never a guess.
 */
import { integerValue } from './json-value.js';

/** A word that is an integer: its digits kept (json-value.ts). */
const INTEGER = /^-?\d+$/;

/** The document starting at `at` (its `{`), and the index just past its `}`. */
export function shellDocumentAt(text: string, at: number): { readonly value: Record<string, unknown>; readonly end: number } | undefined {
  const reader = new ShellReader(text, at);
  try {
    const value = reader.object();
    return { value, end: reader.at };
  } catch {
    return undefined;
  }
}

/** Thrown inside the reader where the text is not a shell document; never leaves this module. */
class NotShell extends Error {}

const SPACE = /\s/;
/** Where a bare value (a number, a constructor's text) ends at depth 0. */
const VALUE_END = new Set([',', '}', ']']);

class ShellReader {
  readonly #text: string;
  at: number;

  constructor(text: string, at: number) {
    this.#text = text;
    this.at = at;
  }

  object(): Record<string, unknown> {
    this.#expect('{');
    const object: Record<string, unknown> = {};
    this.#blanks();
    if (this.#peek() === '}') {
      this.at++;
      return object;
    }
    for (;;) {
      this.#blanks();
      const key = this.#key();
      this.#blanks();
      this.#expect(':');
      this.#blanks();
      object[key] = this.#value();
      this.#blanks();
      const next = this.#text[this.at++];
      if (next === '}') return object;
      if (next !== ',') throw new NotShell();
    }
  }

  #array(): unknown[] {
    this.#expect('[');
    const array: unknown[] = [];
    this.#blanks();
    if (this.#peek() === ']') {
      this.at++;
      return array;
    }
    for (;;) {
      this.#blanks();
      array.push(this.#value());
      this.#blanks();
      const next = this.#text[this.at++];
      if (next === ']') return array;
      if (next !== ',') throw new NotShell();
    }
  }

  #value(): unknown {
    const first = this.#peek();
    if (first === '{') return this.object();
    if (first === '[') return this.#array();
    if (first === '"' || first === "'") return this.#string(first);
    return this.#bare();
  }

  #key(): string {
    const first = this.#peek();
    if (first === '"' || first === "'") return this.#string(first);
    const start = this.at;
    while (this.at < this.#text.length && !SPACE.test(this.#text[this.at]!) && !':,{}[]'.includes(this.#text[this.at]!)) this.at++;
    if (this.at === start) throw new NotShell();
    return this.#text.slice(start, this.at);
  }

  #string(quote: string): string {
    let value = '';
    for (let i = this.at + 1; i < this.#text.length; i++) {
      const c = this.#text[i]!;
      if (c === '\\') {
        value += this.#text[++i] ?? '';
        continue;
      }
      if (c === quote) {
        this.at = i + 1;
        return value;
      }
      value += c;
    }
    throw new NotShell();
  }

  /** A number, a word, or a constructor with its arguments: up to the next separator at its depth. */
  #bare(): unknown {
    const text = this.#text;
    const start = this.at;
    if (text[start] === '/') return this.#regex();
    let depth = 0;
    let i = start;
    for (; i < text.length; i++) {
      const c = text[i]!;
      if (c === '"' || c === "'") {
        this.at = i;
        this.#string(c);
        i = this.at - 1;
      } else if (c === '(') depth++;
      else if (c === ')') depth--;
      else if (depth === 0 && VALUE_END.has(c)) break;
    }
    if (i >= text.length) throw new NotShell();
    this.at = i;
    const word = text.slice(start, i).trim();
    if (word === '' || word === '...') throw new NotShell();
    if (word === 'true') return true;
    if (word === 'false') return false;
    if (word === 'null') return null;
    if (INTEGER.test(word)) return integerValue(word);
    const number = Number(word);
    return Number.isNaN(number) ? word : number;
  }

  #regex(): string {
    const text = this.#text;
    for (let i = this.at + 1; i < text.length; i++) {
      if (text[i] === '\\') i++;
      else if (text[i] === '/') {
        let end = i + 1;
        while (end < text.length && /[a-z]/i.test(text[end]!)) end++;
        const regex = text.slice(this.at, end);
        this.at = end;
        return regex;
      }
    }
    throw new NotShell();
  }

  #blanks(): void {
    while (this.at < this.#text.length && SPACE.test(this.#text[this.at]!)) this.at++;
  }

  #peek(): string | undefined {
    return this.#text[this.at];
  }

  #expect(c: string): void {
    if (this.#text[this.at] !== c) throw new NotShell();
    this.at++;
  }
}
