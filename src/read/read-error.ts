import { escapeTerminal } from '../render/escape-terminal.js';
import { counted } from '../render/counted.js';

/**
 * Why an input could not be read (or the page written), in the words cat and grep use ("no
 * such file or directory"), for the one line that names it.
 */
const REASONS: Readonly<Record<string, string>> = {
  ENOENT: 'no such file or directory',
  ENOTDIR: 'not a directory',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EISDIR: 'is a directory',
  // Writing (the summary's page): the words df and quota users know.
  ENOSPC: 'no space left on device',
  EDQUOT: 'disk quota exceeded',
  EROFS: 'read-only file system',
  EFBIG: 'file too large',
  // gzip's: the compressed data stops before its end (a file cut short, or copied while written), or is damaged.
  Z_BUF_ERROR: 'its gzip data ends early (the file was cut short)',
  Z_DATA_ERROR: 'its gzip data is damaged',
};

export function readErrorReason(error: unknown): string {
  const { code, message } = error as NodeJS.ErrnoException;
  return (code !== undefined && REASONS[code]) || String(message ?? error).split('\n')[0]!;
}

/** Errors met after the input's first bytes were read: what came before them was read. */
const PART_READ = new Set(['Z_BUF_ERROR', 'Z_DATA_ERROR']);

/**
 * `cannot read PATH: REASON`; stdin is named as such; a gzip stream that ends early or is
 * damaged was read up to there: `read PATH up to where REASON`. The name is escaped for a
 * terminal: any byte may be in a file name.
 */
export function cannotRead(input: string, error: unknown): string {
  const name = input === '-' ? 'stdin' : escapeTerminal(input);
  const { code } = error as NodeJS.ErrnoException;
  if (code !== undefined && PART_READ.has(code)) return `read ${name} up to where ${readErrorReason(error)}`;
  return `cannot read ${name}: ${readErrorReason(error)}`;
}

/** An input that is a file given before: `PATH is the same file as FIRST, given before: read once`. Names escaped as cannotRead's. */
export function repeatedInput(input: string, first: string): string {
  const same = input === first ? 'is given twice' : `is the same file as ${escapeTerminal(first)}, given before`;
  return `${escapeTerminal(input)} ${same}: read once`;
}

/** Lines longer than the most a reader holds (entry-reader.ts's MAX_INPUT_LINE_BYTES, `limit` bytes): how they were read. */
export function overlongLines(count: number, limit: number): string {
  const mib = `${limit / (1024 * 1024)} MiB`;
  const lines = count === 1 ? '1 line was' : `${count.toLocaleString('en-US')} lines were`;
  return `${lines} longer than ${mib}, the most logtype holds: ${count === 1 ? 'its' : 'each one\'s'} first ${mib} read as a line that is no entry, the rest skipped`;
}

/** Lines that start as JSON and are none (entry-selector.ts `broken`): said, since they were left out. */
export function brokenLines(count: number, first: string, shown: string): string {
  const lines = count === 1 ? '1 line starts as JSON but is cut short or broken' : `${count.toLocaleString('en-US')} lines start as JSON but are cut short or broken`;
  return `${lines} (a file's last line while it was written, a cut download), ${shown}; the first: ${escapeTerminal(first)}`;
}

/** Entries --since/--until left out for having no time, which every other part of the selection kept (SelectionCounts.untimedLeftOut). */
export function untimedLeftOut(count: number, what: string): string {
  const records = count === 1 ? '1 record has no time of its own' : `${count.toLocaleString('en-US')} records have no time of their own`;
  return `${records} (a Go panic, a line of an agent's stderr; a record over several lines counts once), so --since/--until left ${count === 1 ? 'it' : 'them'} out (${what}); without those options ${count === 1 ? 'it is' : 'they are'} in`;
}

/** Lines whose `partial` pieces came without their last one (SelectionCounts.unfinished): read as they were, cut. */
export function unfinishedLines(count: number): string {
  const lines = count === 1 ? "1 line's last piece" : `${count.toLocaleString('en-US')} lines' last pieces`;
  return `${lines} never came (the input ended, or was interrupted, first: the sidecar stopped mid-line, or the capture was cut): read as far as ${count === 1 ? 'it goes' : 'they go'}, so ${count === 1 ? 'it' : 'they'} may not parse`;
}
/** Lines that are no entries that -g matched, left out by raw, json and entry output (as its --help says). */
export function otherMatchedLines(count: number): string {
  return `${counted(count, 'line that is no entry', 'lines that are no entries')} matched --grep and ${count === 1 ? 'was' : 'were'} left out (--keep-other writes them, -o pretty shows them)`;
}
