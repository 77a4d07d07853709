/**
 * The container runtime's own log files (CRI: containerd, CRI-O), which `kubectl logs` reads
 * and an engineer on a node reads directly (`/var/log/pods/<ns>_<pod>_<uid>/<container>/0.log`,
 * `/var/log/containers/*.log`): every line is `<RFC 3339 time> <stdout|stderr> <F|P> <text>`,
 * `F` for a line's last (or only) piece, `P` for a piece the runtime cut from a longer line
 * (16 KiB in containerd), the rest following on the next lines of the file.
 */
import { EntryLine } from './entry-line.js';

/** The CRI head: its time, the stream, the tag, and the space after each. */
const CRI_HEAD = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:?\d\d)) (stdout|stderr) ([FP]) /;

const DIGIT_0 = 0x30;
const DIGIT_9 = 0x39;
const SPACE = 0x20;
/** Longest CRI head: a time with nanoseconds and an offset, the stream, the tag. */
const MAX_HEAD_BYTES = 48;

/**
 * The CRI head at the start of `head` (its time, stream and tag), or null. Only a time followed
 * by ` std` is matched further: kubectl's --timestamps lines start with a time too.
 */
export function matchCriHead(head: string): RegExpExecArray | null {
  const first = head.charCodeAt(0);
  if (first < DIGIT_0 || first > DIGIT_9) return null;
  const space = head.indexOf(' ');
  if (space < 0 || !head.startsWith(' std', space)) return null;
  return CRI_HEAD.exec(head);
}

/**
 * Where the text of a CRI line in bytes[start, end) starts, whether it is a partial piece, and
 * of which stream (the runtime writes both into one file, each line's pieces in order);
 * undefined when the line has no CRI head. Looks at a line starting with a digit only, so
 * entries and other logs' lines cost one byte's test.
 */
export function criPiece(bytes: Buffer, start: number, end: number): { readonly textStart: number; readonly partial: boolean; readonly stderr: boolean } | undefined {
  const first = bytes[start]!;
  if (end - start < 22 || first < DIGIT_0 || first > DIGIT_9) return undefined;
  const space = bytes.indexOf(SPACE, start);
  if (space === -1 || space - start > MAX_HEAD_BYTES - 10 || space + 10 > end) return undefined;
  // `std` after the time, told from the bytes before any string is made (matchCriHead's test).
  if (bytes[space + 1] !== 0x73 || bytes[space + 2] !== 0x74 || bytes[space + 3] !== 0x64) return undefined;
  const match = matchCriHead(bytes.toString('latin1', start, space + 10));
  if (!match) return undefined;
  return { textStart: start + match[0].length, partial: match[3] === 'P', stderr: match[2] === 'stderr' };
}
