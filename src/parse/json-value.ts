/**
 * JSON text read as values without changing a number's digits. The server writes 64-bit
 * integers as plain numbers (a cursor id, `getMore`, a 64-bit count), and JSON.parse rounds any
 * past 2^53 (`2187658113137273877` becomes `2187658113137273900`): a cursor id written back so
 * matches no `killCursors`. An integer whose digits a double does not give back is read as a
 * BigInt here, which the writers (json-text.ts) write as its digits.
 *
 * Only a text with sixteen digits in a row can hold such an integer: any other is JSON.parse's
 * alone. Such a text is JSON.parse'd once its long integers are written as marked strings,
 * which a reviver turns into BigInts, so what JSON.parse accepts (and throws at) is unchanged.
 * Limits: a fraction or an exponent keeps JSON.parse's double (a double's digits come back
 * from the server's own doubles); a value nested too deep for the reviver's recursion is read
 * as JSON.parse reads it.
 */

const LONG_DIGITS = /\d{16}/;

/**
 * What a long integer is written as before JSON.parse: a string no log holds (it starts with a
 * NUL and a number drawn for this process, and a string's NUL is escaped in any JSON text).
 */
const MARK = `\u0000${Math.random().toString(36).slice(2)}:`;

/** JSON.parse(text), with integers a double would change read as BigInts. Throws as JSON.parse does. */
export function parseJson(text: string): unknown {
  if (!LONG_DIGITS.test(text)) return JSON.parse(text);
  const marked = markLongIntegers(text);
  if (marked === undefined) return JSON.parse(text);
  try {
    return JSON.parse(marked, revive);
  } catch (error) {
    // The reviver's recursion ran out of stack on a value nested thousands deep.
    if (error instanceof RangeError) return JSON.parse(text);
    throw error;
  }
}

function revive(this: unknown, _key: string, value: unknown): unknown {
  return typeof value === 'string' && value.startsWith(MARK) ? BigInt(value.slice(MARK.length)) : value;
}

/**
 * A value read from a line, as a count: a finite number, or an integer read as a BigInt (its
 * nearest double: a count past 2^53 is summed, an id is not counted); else undefined.
 */
export function countOf(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  return typeof value === 'bigint' ? Number(value) : undefined;
}

/** A number's digits as a value: a BigInt where a double would change them, else the number. */
export function integerValue(digits: string): number | bigint {
  const number = Number(digits);
  return changesDigits(digits, number) ? BigInt(digits) : number;
}

/** Whether `digits` (an integer, perhaps with a minus) written back from `number` would differ. */
function changesDigits(digits: string, number: number): boolean {
  return digits.length >= 16 && String(number) !== (digits === '-0' ? '0' : digits);
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const MINUS = 0x2d;
const isDigit = (code: number): boolean => code >= 0x30 && code <= 0x39;

/** The text with each integer a double would change written as a marked string; undefined when it has none. */
function markLongIntegers(text: string): string | undefined {
  let out: string[] | undefined;
  let copied = 0;
  let i = 0;
  const length = text.length;
  while (i < length) {
    const code = text.charCodeAt(i);
    if (code === QUOTE) {
      // Past the string: its escapes may hold a quote.
      i++;
      while (i < length) {
        const inner = text.charCodeAt(i);
        if (inner === BACKSLASH) i += 2;
        else if (inner === QUOTE) break;
        else i++;
      }
      i++;
      continue;
    }
    if (code !== MINUS && !isDigit(code)) {
      i++;
      continue;
    }
    const start = i;
    if (code === MINUS) i++;
    while (i < length && isDigit(text.charCodeAt(i))) i++;
    const next = i < length ? text.charCodeAt(i) : 0;
    // A fraction or an exponent: JSON.parse's double (see the limits above).
    if (next === 0x2e || next === 0x65 || next === 0x45) {
      while (i < length && /[\d.eE+-]/.test(text[i]!)) i++;
      continue;
    }
    const digits = text.slice(start, i);
    // A leading zero is no JSON number: left for JSON.parse to refuse.
    const first = code === MINUS ? start + 1 : start;
    if (digits.length < 16 || text.charCodeAt(first) === 0x30 || !changesDigits(digits, Number(digits))) continue;
    (out ??= []).push(text.slice(copied, start), JSON.stringify(MARK + digits));
    copied = i;
  }
  if (out === undefined) return undefined;
  out.push(text.slice(copied));
  return out.join('');
}

/**
 * A bare number JSON has no words for, as the server writes a double attribute that is NaN or
 * infinite (logv2's formatter writes `"ratio":nan`, `inf`, `-inf` with fmt; its BSON values are
 * extended JSON already), or as JavaScript and Python write them (`NaN`, `Infinity`).
 */
const NON_FINITE = /-?(?:nan|inf(?:inity)?|NaN|Infinity)(?![\w$])/y;

/**
 * JSON text as the server meant it, from a line JSON.parse refuses: each bare non-finite number
 * as extended JSON's `{"$numberDouble":"NaN"}` (`"Infinity"`, `"-Infinity"`: what the server's
 * own BSON output says of such a double), each raw control character inside a string as its
 * `\u` escape. Undefined when there was nothing of the kind to change (the text is broken some
 * other way). A plain scan, for the lines that fail to parse only.
 */
export function repairedJson(text: string): string | undefined {
  let out = '';
  let from = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (inString) {
      if (code === 0x5c) i++;
      else if (code === 0x22) inString = false;
      else if (code < 0x20) {
        out += `${text.slice(from, i)}\\u${code.toString(16).padStart(4, '0')}`;
        from = i + 1;
      }
      continue;
    }
    if (code === 0x22) {
      inString = true;
      continue;
    }
    // A value's first character: a letter or a minus (a number's own minus is followed by a digit).
    if (code !== 0x2d && code !== 0x6e && code !== 0x69 && code !== 0x4e && code !== 0x49) continue;
    NON_FINITE.lastIndex = i;
    const match = NON_FINITE.exec(text);
    if (!match) continue;
    const word = match[0];
    const negative = word.startsWith('-');
    const value = /^-?n/i.test(word) ? 'NaN' : negative ? '-Infinity' : 'Infinity';
    out += `${text.slice(from, i)}{"$numberDouble":"${value}"}`;
    i += word.length - 1;
    from = i + 1;
  }
  return from === 0 ? undefined : out + text.slice(from);
}

/** `text` as repairedJson writes it, parsed (parseJson); undefined when there was nothing to repair, or it is still no JSON. */
export function parseRepairedJson(text: string): unknown {
  const repaired = repairedJson(text);
  if (repaired === undefined) return undefined;
  try {
    return parseJson(repaired);
  } catch {
    return undefined;
  }
}
