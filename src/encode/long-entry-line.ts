/**
 * A pass-through file's line (the launcher's own, already an entry) longer than a line may be:
 * the line splitter gives it in pieces, and each would leave as the contents of an entry of its
 * JSON text, wrapped a second time. Instead, a line that starts as a compact entry
 * (`{"logType":"X","contents":"`) leaves as partial entries of X whose contents are its
 * contents, piece by piece, as the sidecar writes any long line: the filter joins them to the
 * line the launcher wrote.
 *
 * Its contents stay as they are written (escaped JSON), so a piece is cut where no escape is cut
 * (a `\` or `\u00` at a piece's end waits for the next). A piece that is not JSON string text,
 * or a last piece that does not end the entry (`"}`), leaves as text, escaped: every line
 * written is valid JSON, whatever the file holds.
 */

/** A compact entry's start, its type's JSON string captured. */
const ENTRY_START = /^\{"logType":("(?:[^"\\]|\\.)*"),"contents":"/;

const PARTIAL_END = '","partial":true}\n';
const WHOLE_END = '"}\n';

export class LongEntryLine {
  /** A piece of a line came and its last did not yet. */
  #inLine = false;
  /** While in a line that started as an entry: its prefix, up to the contents' opening quote. */
  #prefix: string | undefined;
  /** Escaped text held back: an escape a piece's end cut. */
  #carry = '';

  /** True while a line's pieces come (its last not yet). */
  get inLine(): boolean {
    return this.#inLine;
  }

  /**
   * A piece of a long line (`partial`: more of it follows): the entry text to write, newline
   * included, or undefined when the line is not an entry (wrapped as any line is).
   */
  piece(text: string, partial: boolean): string | undefined {
    if (!this.#inLine) {
      this.#inLine = partial;
      const start = partial ? ENTRY_START.exec(text) : null;
      // Its type re-written as JSON writes it (an escape JSON has not, a raw control character: no entry).
      const logType = start ? typeOf(start[1]!) : undefined;
      this.#prefix = logType === undefined ? undefined : `{"logType":${JSON.stringify(logType)},"contents":"`;
      this.#carry = '';
      if (this.#prefix === undefined) return undefined;
      text = text.slice(start![0].length);
    } else if (!partial) this.#inLine = false;
    const prefix = this.#prefix;
    if (prefix === undefined) return undefined;
    const body = this.#carry + text;
    if (partial) {
      const cut = escapeCut(body);
      this.#carry = body.slice(cut);
      return `${prefix}${stringText(body.slice(0, cut))}${PARTIAL_END}`;
    }
    this.#prefix = undefined;
    this.#carry = '';
    const ended = body.endsWith('"}');
    return `${prefix}${stringText(ended ? body.slice(0, -2) : body)}${WHOLE_END}`;
  }
}

/** A type's JSON string as captured, read; undefined when it is not one. */
function typeOf(json: string): string | undefined {
  try {
    const value: unknown = JSON.parse(json);
    return typeof value === 'string' ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Where escaped text may be cut: before an escape its end would cut (`\`, `\u00`), and before
 * a high surrogate's `\uD83D` whose low half would be in the next piece (a reader that decodes
 * each piece alone would make two replacement characters of one).
 */
export function escapeCut(body: string): number {
  for (let at = Math.max(0, body.length - 12); at < body.length; at++) {
    if (body.charCodeAt(at) !== 0x5c) continue;
    // The backslashes before it: an odd number of them in all (itself counted) starts an escape.
    let run = 1;
    while (at - run >= 0 && body.charCodeAt(at - run) === 0x5c) run++;
    if (run % 2 === 0) continue;
    const length = body[at + 1] === 'u' ? 6 : 2;
    if (at + length > body.length) return at;
    if (at + length === body.length && /^\\u[dD][89abAB]/.test(body.slice(at, at + 4))) return at;
    at += length - 1;
  }
  return body.length;
}

/** Escaped text as it is when it is JSON string text; else the text itself, escaped. */
function stringText(escaped: string): string {
  try {
    if (typeof JSON.parse(`"${escaped}"`) === 'string') return escaped;
  } catch {
    // Not string text (a raw quote or control character): escaped below.
  }
  return JSON.stringify(escaped).slice(1, -1);
}
