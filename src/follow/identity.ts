/**
 * Whether a file found at a restart continues one the state file knows, decided from what was
 * compared. Pure: every case is a table row (test/unit/identity.test.ts).
 *
 * A file is the same file when its inode and its bytes agree: the first KiB (fingerprint) and
 * the KiB just before the saved position (tail). The device number is only a hint: a volume
 * attached to another node, or mounted again, gets another one. A reused inode is told from the
 * old file by a birth time that differs (where the file system keeps one), by being shorter than
 * the saved position, or by other bytes before it. When in doubt the file is read again from its
 * start: a repeat is visible, a skipped line is not.
 */

/** What comparing a saved file with a file found now said. */
export interface Comparison {
  readonly sameInode: boolean;
  /** Both birth times known and equal, known and different, or one of them unknown. */
  readonly birthtime: 'same' | 'differs' | 'unknown';
  /** The found file holds at least the saved position's bytes. */
  readonly longEnough: boolean;
  /** Its first bytes hash to the saved fingerprint. */
  readonly fingerprintMatches: boolean;
  /** Its bytes before the saved position hash to the saved tail; undefined: no tail saved (version 1). */
  readonly tailMatches: boolean | undefined;
}

export type Continuation =
  /** The same file: read on from the saved position. */
  | 'resume'
  /** Another file holding the same bytes up to the saved position (copytruncate's copy): read it from there. */
  | 'copy'
  /** Not this saved file. */
  | 'other';

export function continuationOf(position: number, c: Comparison): Continuation {
  if (!c.longEnough || !c.fingerprintMatches || c.tailMatches === false) return 'other';
  if (c.sameInode) return c.birthtime === 'differs' ? 'other' : 'resume';
  // A copy is proved by its bytes before the position; without a saved tail it cannot be.
  return position > 0 && c.tailMatches === true ? 'copy' : 'other';
}

/**
 * A saved birth time (birthtimeOf: 0 where none is kept, or one equal to ctime, which is what a
 * file system without them gives) against a file's as stat gives it (`stat.birthtimeMs`, as it
 * is): a saved one says its file system keeps them, so the file's is its own even where it
 * equals its ctime (a file made and written at once: a log made again with the old file's inode
 * and first lines was taken for the old one, and its new lines skipped).
 */
export function compareBirthtimes(saved: number | undefined, found: number | undefined): Comparison['birthtime'] {
  if (!saved || !found) return 'unknown';
  return saved === found ? 'same' : 'differs';
}

/** A file beside the followed path, as listed. */
export interface Sibling {
  readonly name: string;
  readonly mtimeMs: number;
  /** Held now, retired, or claimed by a saved file: never read from 0 as a stranger. */
  readonly known: boolean;
}

/**
 * Clock slack for comparing a file's mtime with our own clock: the kernel stamps files from a
 * coarse clock that may lag ours by a tick or two. Smaller than the shortest --rotate-wait, so a
 * file closed after that wait is never taken for a new one.
 */
export const MTIME_SLACK_MS = 250;

/**
 * Rotated files nobody has read: not known, and changed since `sinceMs` (the last save, or the
 * last look at the name), so they were made while we did not look (down, or waiting on a stalled
 * reader). Oldest first: the order their lines were written in.
 */
export function unseenSiblings(siblings: readonly Sibling[], sinceMs: number): Sibling[] {
  return siblings.filter((s) => !s.known && s.mtimeMs >= sinceMs - MTIME_SLACK_MS).sort((a, b) => a.mtimeMs - b.mtimeMs);
}
