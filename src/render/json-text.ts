/**
 * A value read from a log line, written back as JSON text: JSON.stringify's text for any value,
 * at any depth. JSON.parse reads a value nested thousands deep (a line of 6,000 `[`), but
 * JSON.stringify recurses and throws past a few thousand levels: a value it cannot write is
 * written here without recursion, to the same text, so one line never ends the run.
 */

/** JSON.stringify(value, null, indent), for a value of any depth; undefined where JSON.stringify gives it (undefined, a function). */
export function jsonText(value: unknown, indent = 0): string | undefined {
  try {
    return JSON.stringify(value, null, indent);
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    return deepJsonText(value, indent);
  }
}

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
 */
export function deepJsonText(root: unknown, indent = 0, indentDepth = Number.POSITIVE_INFINITY): string | undefined {
  const gap = ' '.repeat(Math.min(10, Math.max(0, Math.floor(indent))));
  const parts: string[] = [];
  const stack: Frame[] = [];
  const indented = (depth: number): boolean => gap !== '' && depth <= indentDepth;
  const newline = (depth: number): void => {
    if (indented(depth)) parts.push(`\n${gap.repeat(depth)}`);
  };
  /** Writes a scalar, or opens a container (pushed on the stack); false when the value (toJSON applied) is unwritable. */
  const open = (value: unknown): boolean => {
    if (isUnwritable(value)) return false;
    if (value === null || typeof value !== 'object') {
      if (typeof value === 'bigint') throw new TypeError('Do not know how to serialize a BigInt');
      parts.push(JSON.stringify(value));
      return true;
    }
    // Number, String and Boolean objects write as their primitive, as JSON.stringify's do.
    if (value instanceof Number || value instanceof String || value instanceof Boolean) {
      parts.push(JSON.stringify(value.valueOf()));
      return true;
    }
    const isArray = Array.isArray(value);
    parts.push(isArray ? '[' : '{');
    stack.push({ value, keys: isArray ? undefined : Object.keys(value), next: 0, wrote: false });
    return true;
  };
  if (!open(toJsonValue(root, ''))) return undefined;
  while (stack.length > 0) {
    const frame = stack[stack.length - 1]!;
    const depth = stack.length;
    if (frame.keys === undefined) {
      const array = frame.value as unknown[];
      if (frame.next < array.length) {
        const index = frame.next++;
        if (index > 0) parts.push(',');
        newline(depth);
        frame.wrote = true;
        if (!open(toJsonValue(array[index], String(index)))) parts.push('null');
        continue;
      }
      stack.pop();
      if (frame.wrote && indented(depth)) newline(depth - 1);
      parts.push(']');
      continue;
    }
    if (frame.next < frame.keys.length) {
      const key = frame.keys[frame.next++]!;
      const member = toJsonValue((frame.value as Record<string, unknown>)[key], key);
      if (isUnwritable(member)) continue;
      if (frame.wrote) parts.push(',');
      newline(depth);
      frame.wrote = true;
      parts.push(JSON.stringify(key), indented(depth) ? ': ' : ':');
      open(member);
      continue;
    }
    stack.pop();
    if (frame.wrote && indented(depth)) newline(depth - 1);
    parts.push('}');
  }
  return parts.join('');
}

/** Levels indented by expandedJsonText; deeper ones are written on one line. */
export const MAX_EXPANDED_DEPTH = 32;

/** A value as `--expand` shows it: indented by two, to MAX_EXPANDED_DEPTH levels. */
export function expandedJsonText(value: unknown): string | undefined {
  return deepJsonText(value, 2, MAX_EXPANDED_DEPTH);
}
