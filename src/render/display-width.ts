/**
 * How many terminal columns a string takes, to line up a text table's columns: East Asian wide
 * and fullwidth characters (CJK, Hangul, fullwidth forms, the common emoji blocks) take two,
 * combining marks, zero-width spaces and joiners and variation selectors none, every other code
 * point one. Not a full wcwidth (emoji sequences, ambiguous-width characters count as written),
 * and strings are expected escaped for the terminal already (no control sequences).
 */
const ASCII = /^[\x20-\x7e]*$/;

/** [first, last] code points, in order: two columns each. */
const WIDE: readonly (readonly [number, number])[] = [
  [0x1100, 0x115f],
  [0x2e80, 0x303e],
  [0x3041, 0x33ff],
  [0x3400, 0x4dbf],
  [0x4e00, 0x9fff],
  [0xa000, 0xa4cf],
  [0xac00, 0xd7a3],
  [0xf900, 0xfaff],
  [0xfe30, 0xfe4f],
  [0xff00, 0xff60],
  [0xffe0, 0xffe6],
  [0x1f300, 0x1f64f],
  [0x1f680, 0x1f6ff],
  [0x1f900, 0x1f9ff],
  [0x1fa70, 0x1faff],
  [0x20000, 0x3fffd],
];

/** [first, last] code points that take no column. */
const ZERO: readonly (readonly [number, number])[] = [
  [0x0300, 0x036f],
  [0x200b, 0x200f],
  [0x20d0, 0x20ff],
  [0xfe00, 0xfe0f],
  [0xfe20, 0xfe2f],
];

const within = (ranges: readonly (readonly [number, number])[], cp: number): boolean => ranges.some(([first, last]) => cp >= first && cp <= last);

/** The columns one code point takes. */
const widthOf = (cp: number): number => (cp < 0x300 ? 1 : within(ZERO, cp) ? 0 : within(WIDE, cp) ? 2 : 1);

export function displayWidth(text: string): number {
  if (ASCII.test(text)) return text.length;
  let width = 0;
  for (const char of text) width += widthOf(char.codePointAt(0)!);
  return width;
}

/**
 * `text` in at most `columns` display columns (at least 1): as it is when it fits, else cut
 * between two code points (never inside a surrogate pair, never between a character and the
 * marks of no width after it) and ended with `…`, which takes one column. A wide character
 * that would cross the bound is left out whole, so the cut text may take a column less.
 */
export function cutToWidth(text: string, columns: number): string {
  if (ASCII.test(text)) return text.length <= columns ? text : `${text.slice(0, Math.max(0, columns - 1))}…`;
  if (displayWidth(text) <= columns) return text;
  const room = columns - 1;
  let used = 0;
  let end = 0;
  for (const char of text) {
    const width = widthOf(char.codePointAt(0)!);
    if (width > 0 && used + width > room) break;
    used += width;
    end += char.length;
  }
  return `${text.slice(0, end)}…`;
}

/** `text` padded with spaces to `columns` display columns, at its end or (`start`) before it. */
export function padToWidth(text: string, columns: number, start = false): string {
  const pad = ' '.repeat(Math.max(0, columns - displayWidth(text)));
  return start ? pad + text : text + pad;
}
