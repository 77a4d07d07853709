/**
 * A value read from a log line, written back as JSON text: JSON.stringify's text for any value,
 * at any depth. JSON.parse reads a value nested thousands deep (a line of 6,000 `[`), but
 * JSON.stringify recurses and throws past a few thousand levels: a value it cannot write is
 * written here without recursion, to the same text, so one line never ends the run. An integer
 * read as a BigInt (json-value.ts: a double would change its digits), which JSON.stringify
 * refuses, is written here as its digits.
 */

/** JSON.stringify(value, null, indent), for a value of any depth; undefined where JSON.stringify gives it (undefined, a function). */
export function jsonText(value: unknown, indent = 0): string | undefined {
  try {
    return JSON.stringify(value, null, indent);
  } catch (error) {
    if (!isStackOverflow(error) && !isBigIntRefused(error)) throw error;
    return deepJsonText(value, indent);
  }
}

/** JSON.stringify met a BigInt (json-value.ts), which it does not write. */
const isBigIntRefused = (error: unknown): boolean => error instanceof TypeError && error.message.includes('BigInt');

/** JSON.stringify's recursion ran out of stack (not a text too long for a string: that stays too long). */
const isStackOverflow = (error: unknown): boolean => error instanceof RangeError && error.message.includes('call stack');

/** What ends a text cut at `maxChars` (deepJsonText). */
const cutNote = (maxChars: number): string => `\n… (cut: the value's text is longer than ${maxChars.toLocaleString('en-US')} characters)`;

/** A value's own toJSON applied, as JSON.stringify applies it (a Date's). */
function toJsonValue(value: unknown, key: string): unknown {
  if (typeof value === 'object' && value !== null && typeof (value as { toJSON?: unknown }).toJSON === 'function') {
    return (value as { toJSON: (key: string) => unknown }).toJSON(key);
  }
  return value;
}

/** Values JSON.stringify leaves out of an object and writes as null in an array. */
const isUnwritable = (value: unknown): boolean => value === undefined || typeof value === 'function' || typeof value === 'symbol';

/** A container being written: its members' keys (an object's) or length (an array's), and the next one. */
interface Frame {
  readonly value: object;
  readonly keys: readonly string[] | undefined;
  next: number;
  /** Whether a member has been written (an object's first written member may not be its first key). */
  wrote: boolean;
}

/**
 * JSON.stringify's text written with a stack of its own (the reference: JSON.stringify itself,
 * on every value shallow enough for it; the tests compare the two). No cycles: a value read
 * from JSON has none. `indentDepth`: containers deeper than this are written on one line, as
 * with no indent (a value nested thousands deep, indented, would be that many times its size).
 * `maxChars`: the text is cut there, and says so (it is never made whole first).
 */
export function deepJsonText(root: unknown, indent = 0, indentDepth = Number.POSITIVE_INFINITY, maxChars = Number.POSITIVE_INFINITY): string | undefined {
  const gap = ' '.repeat(Math.min(10, Math.max(0, Math.floor(indent))));
  const parts: string[] = [];
  let chars = 0;
  const push = (...texts: string[]): void => {
    for (const text of texts) {
      parts.push(text);
      chars += text.length;
    }
  };
  const stack: Frame[] = [];
  const indented = (depth: number): boolean => gap !== '' && depth <= indentDepth;
  const newline = (depth: number): void => {
    if (indented(depth)) push(`\n${gap.repeat(depth)}`);
  };
  /** Writes a scalar, or opens a container (pushed on the stack); false when the value (toJSON applied) is unwritable. */
  const open = (value: unknown): boolean => {
    if (isUnwritable(value)) return false;
    if (value === null || typeof value !== 'object') {
      push(typeof value === 'bigint' ? value.toString() : JSON.stringify(value));
      return true;
    }
    // Number, String and Boolean objects write as their primitive, as JSON.stringify's do.
    if (value instanceof Number || value instanceof String || value instanceof Boolean) {
      push(JSON.stringify(value.valueOf()));
      return true;
    }
    const isArray = Array.isArray(value);
    push(isArray ? '[' : '{');
    stack.push({ value, keys: isArray ? undefined : Object.keys(value), next: 0, wrote: false });
    return true;
  };
  if (!open(toJsonValue(root, ''))) return undefined;
  while (stack.length > 0) {
    if (chars > maxChars) return `${parts.join('').slice(0, maxChars)}${cutNote(maxChars)}`;
    const frame = stack[stack.length - 1]!;
    const depth = stack.length;
    if (frame.keys === undefined) {
      const array = frame.value as unknown[];
      if (frame.next < array.length) {
        const index = frame.next++;
        if (index > 0) push(',');
        newline(depth);
        frame.wrote = true;
        if (!open(toJsonValue(array[index], String(index)))) push('null');
        continue;
      }
      stack.pop();
      if (frame.wrote && indented(depth)) newline(depth - 1);
      push(']');
      continue;
    }
    if (frame.next < frame.keys.length) {
      const key = frame.keys[frame.next++]!;
      const member = toJsonValue((frame.value as Record<string, unknown>)[key], key);
      if (isUnwritable(member)) continue;
      if (frame.wrote) push(',');
      newline(depth);
      frame.wrote = true;
      push(JSON.stringify(key), indented(depth) ? ': ' : ':');
      open(member);
      continue;
    }
    stack.pop();
    if (frame.wrote && indented(depth)) newline(depth - 1);
    push('}');
  }
  return parts.join('');
}

/** Levels indented by expandedJsonText; deeper ones are written on one line. */
export const MAX_EXPANDED_DEPTH = 32;
/** Characters of one value `--expand` shows: a line's value may be megabytes wide, and every level indented. */
export const MAX_EXPANDED_CHARS = 1 << 20;
/** Past MAX_EXPANDED_DEPTH levels, a line of JSON.stringify's indented text starts with more spaces than this. */
const PAST_EXPANDED_DEPTH = new RegExp(`\\n {${2 * MAX_EXPANDED_DEPTH + 1}}`);


/**
 * A value as `--expand` shows it: indented by two, to MAX_EXPANDED_DEPTH levels (deeper ones
 * on one line), cut at MAX_EXPANDED_CHARS. JSON.stringify's own text where the value is no
 * deeper and no wider (the common case, and the fastest); else the stack-based writer's, which
 * stops at the cut. `textLength`: the length of the text the value was read from; a long one
 * goes to the stack-based writer at once (indented, its text could be many times its size).
 */
export function expandedJsonText(value: unknown, textLength = 0): string | undefined {
  let text: string | undefined;
  if (textLength <= MAX_EXPANDED_CHARS / 8) {
    try {
      text = JSON.stringify(value, null, 2);
    } catch (error) {
      if (!(error instanceof RangeError) && !isBigIntRefused(error)) throw error;
    }
  }
  if (text !== undefined && text.length <= MAX_EXPANDED_CHARS && !PAST_EXPANDED_DEPTH.test(text)) return text;
  return deepJsonText(value, 2, MAX_EXPANDED_DEPTH, MAX_EXPANDED_CHARS);
}
