/**
 * What `kubectl logs` and its neighbours put in front of an entry (docs/formats.md):
 * `--timestamps` (RFC 3339 and a space), `--prefix` (`[pod/NAME/CONTAINER] `), both at once,
 * and stern's `POD CONTAINER ` (coloured on a terminal), with `--all-namespaces` its
 * `NAMESPACE POD CONTAINER `, and with `--timestamps` the time after them: RFC 3339 (stern's
 * default, in any `--timezone`), or `--timestamps=short`'s `MM-DD hh:mm:ss`, which has no year
 * and no zone and so is kept as text only. Works on the head of a line only.
 */
export interface LinePrefix {
  /** Length of the prefix in the line's head (UTF-16 units = bytes: prefixes are ASCII). */
  readonly length: number;
  /** The prefix as it was, for `--keep-prefix`. */
  readonly text: string;
  /** The time kubectl (or stern) stamped the line with. */
  readonly time?: string;
  /** `pod/NAME/CONTAINER`, `POD CONTAINER` or `NAMESPACE POD CONTAINER`. */
  readonly source?: string;
}

const KUBECTL = /^(?:\[([^\]\s]+)\] )?(?:(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:?\d\d)) )?/;
const RFC3339 = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:?\d\d)$/;
const SHORT_DAY = /^\d\d-\d\d$/;
const SHORT_TIME = /^\d\d:\d\d:\d\d$/;
const ANSI = /\x1b\[[0-9;]*m/g;
/** A word of stern's: no space, no control but its colours'. */
const STERN_WORD = /^[^\s\x00-\x1f]+$/;

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
  return sternPrefix(head);
}

/** stern's words before the entry: NAMESPACE? POD CONTAINER, then its time, if any. */
function sternPrefix(head: string): LinePrefix | undefined {
  const brace = head.indexOf(' {');
  if (brace < 3) return undefined;
  const words = head.slice(0, brace).split(' ');
  let time: string | undefined;
  if (RFC3339.test(words.at(-1)!)) time = words.pop();
  else if (words.length > 3 && SHORT_TIME.test(words.at(-1)!) && SHORT_DAY.test(words.at(-2)!)) words.length -= 2;
  const names = words.map((word) => word.replace(ANSI, ''));
  if (names.length < 2 || names.length > 3 || !names.every((name) => STERN_WORD.test(name))) return undefined;
  const text = head.slice(0, brace + 1);
  return { length: text.length, text, source: names.join(' '), ...(time === undefined ? {} : { time }) };
}
