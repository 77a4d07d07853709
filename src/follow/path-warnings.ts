/**
 * What a follower says about a path it cannot follow: missing (after a while, then rarely: its
 * variable may be wrong) or unreadable (once, then rarely while it lasts; a permission problem
 * names the file's owner and mode, so the sidecar's diagnostic can name the fix).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { FollowEvent } from './follow-events.js';
import type { PathState } from './reconcile.js';

const DEFAULT_MISSING_WARNING_MS = 3 * 60_000;
/** A refused file changed within this is being written: its lines are being lost (denied). */
const WRITTEN_WITHIN_MS = 10 * 60_000;
const DEFAULT_REPEAT_WARNING_MS = 60 * 60_000;

export interface PathWarningOptions {
  readonly path: string;
  readonly onEvent: (event: FollowEvent) => void;
  /** A missing file is warned about after this long, then every `repeatWarningMs`. */
  readonly missingWarningMs?: number | undefined;
  readonly repeatWarningMs?: number | undefined;
}

export class PathWarnings {
  readonly #options: PathWarningOptions;
  #missingSince: number | undefined;
  #last = { message: '', at: 0 };
  #denied = false;
  /** The refused file's mtime, when its stat could be made. */
  #deniedMtimeMs: number | undefined;

  constructor(options: PathWarningOptions) {
    this.#options = options;
  }

  /** The first look found nothing: waiting for the file. */
  startWaiting(now: number): void {
    this.#denied = false;
    this.#missingSince = now;
    this.#options.onEvent({ kind: 'waiting', path: this.#options.path });
  }

  /** A file is held at the path: whatever comes next is new. */
  found(): void {
    this.#missingSince = undefined;
    this.#last = { message: '', at: 0 };
    this.#denied = false;
  }

  /**
   * The last look was refused (a permission) and the file is being written (changed within
   * WRITTEN_WITHIN_MS, or its owner and time cannot be seen): its lines are being lost. Until a
   * file is held at the path again. A refused file nobody writes any more loses nothing.
   */
  denied(now: number): boolean {
    return this.#denied && !(this.#deniedMtimeMs !== undefined && now - this.#deniedMtimeMs > WRITTEN_WITHIN_MS);
  }

  /** The name is missing at a look (not refused: nothing is lost there). */
  whileMissing(now: number): void {
    this.#denied = false;
    this.#missingSince ??= now;
    const forMs = now - this.#missingSince;
    if (forMs < (this.#options.missingWarningMs ?? DEFAULT_MISSING_WARNING_MS)) return;
    if (!this.#due('missing', now)) return;
    this.#options.onEvent({ kind: 'missing', path: this.#options.path, forMs });
  }

  /** Not readable (permission, not a regular file). */
  /** `name`: the file refused, when it is not the followed path's (a rotated file, a copy): said, but no file at the path is lost. */
  cannotRead(now: number, state: PathState, what: string, error?: unknown, name = this.#options.path): void {
    const { path, onEvent } = this.#options;
    const denied = state.kind === 'denied' || (error as NodeJS.ErrnoException | undefined)?.code === 'EACCES';
    // A directory on the way we may not search denies the stat too: then the owner is not known.
    let stat: fs.Stats | undefined;
    if (denied) {
      try {
        stat = fs.statSync(path, { throwIfNoEntry: false });
      } catch {
        stat = undefined;
      }
      if (name === path) {
        this.#denied = true;
        this.#deniedMtimeMs = stat?.mtimeMs;
      }
    }
    if (!this.#due(denied ? `permission denied: ${what}` : what, now)) return;
    if (!denied) {
      onEvent({ kind: 'error', path, message: `${what}; waiting for a readable file at this path` });
      return;
    }
    onEvent({ kind: 'unreadable', path, message: what, fileUid: stat?.uid, fileGid: stat?.gid, fileMode: stat ? stat.mode & 0o7777 : undefined, directory: stat ? undefined : unsearchableOnWay(path) });
  }

  /** Said now unless the same was said less than `repeatWarningMs` ago. */
  #due(message: string, now: number): boolean {
    const every = this.#options.repeatWarningMs ?? DEFAULT_REPEAT_WARNING_MS;
    if (this.#last.message === message && now - this.#last.at < every) return false;
    this.#last = { message, at: now };
    return true;
  }
}

/** The first directory on the way to `file`, from the root, that this process may not search. */
function unsearchableOnWay(file: string): { path: string; uid: number; gid: number; mode: number } | undefined {
  const parts = path.resolve(file).split(path.sep).slice(1, -1);
  for (let i = 1; i <= parts.length; i++) {
    const directory = path.sep + parts.slice(0, i).join(path.sep);
    try {
      fs.accessSync(directory, fs.constants.X_OK);
    } catch {
      try {
        const stat = fs.statSync(directory);
        return { path: directory, uid: stat.uid, gid: stat.gid, mode: stat.mode & 0o7777 };
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}
