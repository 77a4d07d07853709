/**
 * What `kubectl logs` and its neighbours put in front of an entry (FORMATS.md §2):
 * `--timestamps` (RFC 3339 and a space), `--prefix` (`[pod/NAME/CONTAINER] `), both at once,
 * and stern's `POD CONTAINER ` (coloured on a terminal). Works on the head of a line only.
 */
export interface LinePrefix {
  /** Length of the prefix in the line's head (UTF-16 units = bytes: prefixes are ASCII). */
  readonly length: number;
  /** The prefix as it was, for `--keep-prefix`. */
  readonly text: string;
  /** The time kubectl stamped the line with. */
  readonly time?: string;
  /** `pod/NAME/CONTAINER` or `POD CONTAINER`. */
  readonly source?: string;
}

const ANSI = '(?:\\x1b\\[[0-9;]*m)*';
const KUBECTL = /^(?:\[([^\]\s]+)\] )?(?:(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:?\d\d)) )?/;
const STERN = new RegExp(`^${ANSI}([^\\s\\x1b]+)${ANSI} ${ANSI}([^\\s\\x1b]+)${ANSI} `);

/** Bytes of a line's head worth looking at for a prefix. */
export const PREFIX_HEAD_BYTES = 400;

/**
 * The prefix in front of an entry (`{`), or undefined when the head does not look like a
 * prefixed entry.
 */
export function parseLinePrefix(head: string): LinePrefix | undefined {
  if (head.startsWith('{')) return { length: 0, text: '' };
  const kubectl = KUBECTL.exec(head);
  if (kubectl && kubectl[0].length > 0 && head[kubectl[0].length] === '{') {
    return {
      length: kubectl[0].length,
      text: kubectl[0],
      ...(kubectl[2] === undefined ? {} : { time: kubectl[2] }),
      ...(kubectl[1] === undefined ? {} : { source: kubectl[1] }),
    };
  }
  const stern = STERN.exec(head);
  if (stern && head[stern[0].length] === '{') {
    return { length: stern[0].length, text: stern[0], source: `${stern[1]} ${stern[2]}` };
  }
  return undefined;
}

/**
 * The prefix in front of a line of text that is not an entry (a log read as it is, with
 * kubectl's `--prefix` or `--timestamps`): kubectl's alone, as stern's two words would match
 * any line's first two. Undefined when there is none.
 */
export function parseTextPrefix(head: string): LinePrefix | undefined {
  const kubectl = KUBECTL.exec(head);
  if (!kubectl || kubectl[0].length === 0 || (kubectl[1] !== undefined && !kubectl[1].startsWith('pod/'))) return undefined;
  return {
    length: kubectl[0].length,
    text: kubectl[0],
    ...(kubectl[2] === undefined ? {} : { time: kubectl[2] }),
    ...(kubectl[1] === undefined ? {} : { source: kubectl[1] }),
  };
}

/** A stern prefix (`POD CONTAINER `) in front of any line: only worth asking where what follows is then recognised. */
export function parseSternPrefix(head: string): LinePrefix | undefined {
  const stern = STERN.exec(head);
  return stern ? { length: stern[0].length, text: stern[0], source: `${stern[1]} ${stern[2]}` } : undefined;
}
