/**
 * Where a text stands in a line's bytes, read without making a string: summary compares a
 * connection line's remote with the few it follows, and looks its host up by its bytes, so
 * most connection lines make no string at all. A place is reused from line to line: it is
 * good until the next line is read, and `text()` makes the string to keep.
 */
const EMPTY = Buffer.alloc(0);

export class TextPlace {
  bytes: Buffer = EMPTY;
  start = 0;
  end = 0;

  set(bytes: Buffer, start: number, end: number): void {
    this.bytes = bytes;
    this.start = start;
    this.end = end;
  }

  /** Lets go of the line's bytes (so its input chunk can be freed before the next line). */
  clear(): void {
    this.set(EMPTY, 0, 0);
  }

  /** The text, decoded (UTF-8). */
  text(): string {
    return this.bytes.toString('utf8', this.start, this.end);
  }

  /** True when the text is `text`, compared byte by code unit while both are ASCII. */
  equals(text: string): boolean {
    return placeEquals(this.bytes, this.start, this.end, text);
  }
}

/** True when bytes[start, end), as UTF-8, is `text`. */
export function placeEquals(bytes: Uint8Array, start: number, end: number, text: string): boolean {
  const length = end - start;
  for (let i = 0; i < length; i++) {
    const byte = bytes[start + i]!;
    // Beyond ASCII, a code unit is no byte: compare the decoded text.
    if (byte >= 0x80) return Buffer.from(bytes.buffer, bytes.byteOffset + start, length).toString('utf8') === text;
    if (i >= text.length || text.charCodeAt(i) !== byte) return false;
  }
  return length === text.length;
}
