/**
 * What a follower does next, decided from what it holds and what the file system says now.
 * Pure, so every rotation case is a table row (Fluent Bit's reconcile_file_state, split into
 * this decision and the effect in file-follower.ts).
 */
export interface FileIdentity {
  readonly dev: number;
  readonly ino: number;
}

/** What `stat(path)` said: missing, something that is not a regular file, or a file. */
export type PathState =
  | { readonly kind: 'missing' }
  | { readonly kind: 'other'; readonly what: string }
  | { readonly kind: 'denied'; readonly what: string }
  | ({ readonly kind: 'file'; readonly size: number; readonly mtimeMs?: number } & FileIdentity);

export type PathAction =
  /** Nothing changed: keep reading the held file. */
  | { readonly kind: 'keep' }
  /** The name is gone; the held file (if any) drains, the follower waits for the name. */
  | { readonly kind: 'lost'; readonly unlinked: boolean }
  /** The name points at a new file: the held file (if any) drains, the new one is opened. */
  | { readonly kind: 'open'; readonly from: 'start' | 'end'; readonly replaced: boolean }
  /** The name points at something we do not read as a file (a FIFO is handled elsewhere). */
  | { readonly kind: 'unreadable'; readonly what: string };

/** Same file while both are open on one mount: device and inode. (Across restarts, see identity.ts.) */
export function sameFile(a: FileIdentity, b: FileIdentity): boolean {
  return a.dev === b.dev && a.ino === b.ino;
}

/**
 * @param held identity of the file held open now (undefined while waiting for the name)
 * @param heldLinks link count of the held file (0 once it is deleted)
 * @param path what the name is now
 * @param firstLook true only at start-up: a file already there is read from its end
 */
export function reconcilePath(
  held: FileIdentity | undefined,
  heldLinks: number,
  path: PathState,
  firstLook: boolean,
): PathAction {
  if (path.kind === 'missing') return held ? { kind: 'lost', unlinked: heldLinks === 0 } : { kind: 'keep' };
  if (path.kind === 'other' || path.kind === 'denied') return { kind: 'unreadable', what: path.what };
  if (held && sameFile(held, path)) return { kind: 'keep' };
  return { kind: 'open', from: firstLook ? 'end' : 'start', replaced: held !== undefined };
}

/** What is known of the held file at one look: what was read, what was seen, what is there. */
export interface TruncationFacts {
  /** Bytes read so far. */
  readonly position: number;
  /** The largest size seen while reading waited (backpressure); position when it did not. */
  readonly seenSize: number;
  /** The file's size now. */
  readonly size: number;
  /** The bytes just before `position` are those that were read there. */
  readonly markerMatches: boolean;
  /** The bytes just before `seenSize` are those that were seen there. */
  readonly seenMarkerMatches: boolean;
}

/**
 * The held file was truncated (copytruncate, `> file`), and is read again from 0: it is shorter
 * than what was read or seen, or the bytes just before either place changed (truncated and
 * written past that place again before we looked).
 */
export function isTruncated(facts: TruncationFacts): boolean {
  return facts.size < facts.position || facts.size < facts.seenSize || !facts.markerMatches || !facts.seenMarkerMatches;
}

/**
 * A rotated or deleted file is closed once read to its end, unchanged for the grace period, and
 * every line read from it has left the process (a restart before that must find it again).
 */
export function drainIsOver(atEnd: boolean, quietMs: number, rotateWaitMs: number, allDelivered = true): boolean {
  return atEnd && quietMs >= rotateWaitMs && allDelivered;
}
