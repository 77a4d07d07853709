/**
 * Saves the state file: what each follower reports (where its files' delivered lines end), at
 * most once a second while lines leave, once more when things go quiet (a trailing save), and
 * at shutdown. A path whose follower has not looked yet keeps what the loaded state said, and a
 * path no longer followed keeps its entry: a save never forgets what an earlier one knew.
 */
import fs from 'node:fs';
import type { Logger } from '../diag/logger.js';
import { errorMessage } from '../follow/error-message.js';
import { saveState, seenUntil, type PastFile, type SavedFile, type SidecarState } from './state-file.js';

export interface CheckpointSource {
  readonly path: string;
  /** Undefined while the path has not been looked at. */
  savedFiles(): SavedFile[] | undefined;
  /** Rotated files beside the path, not ours, changed so near `savedAt` that a restart could take them for new. */
  pastFiles(savedAt: number): PastFile[];
  /** When the path and the files beside it were last listed; undefined before the first look. */
  readonly lookedAt?: number | undefined;
}

/** Positions are saved at most this often while lines flow. */
export const SAVE_EVERY_MS = 1000;
/** How often a quiet sidecar looks that its state file is still there (Checkpointer.checkStillThere). */
export const STATE_CHECK_EVERY_MS = 5000;

export class Checkpointer {
  readonly #file: string;
  readonly #log: Logger;
  readonly #sources: () => Iterable<CheckpointSource>;
  #known: Record<string, readonly SavedFile[]>;
  #past: Record<string, readonly PastFile[]> = {};
  #lastSave = 0;
  #dirty = false;
  #timer: NodeJS.Timeout | undefined;
  #failing = false;
  #closed = false;

  /** `loaded`: the state read at the start; `positionsLost`: its time kept, its positions not (an unreadable file's). */
  constructor(file: string, log: Logger, sources: () => Iterable<CheckpointSource>, loaded?: SidecarState & { readonly positionsLost?: boolean | undefined }) {
    this.#file = file;
    this.#log = log;
    this.#sources = sources;
    this.#known = { ...(loaded?.files ?? {}) };
    this.#past = { ...(loaded?.past ?? {}) };
    this.#loaded = loaded;
    // A state loaded at the start (its positions kept) is a save a restart resumes from.
    this.#savedAt = loaded && !loaded.positionsLost ? loaded.savedAt : undefined;
  }

  /** When the last save a restart would resume from was made (this run's, or the loaded one's); undefined: none. */
  #savedAt: number | undefined;

  /** What a restart does while saves fail: resume from the last save made, or, with none, begin at the files' ends. */
  #restartWords(): string {
    return this.#savedAt === undefined
      ? 'no save has been made, so a restart would read these files from their end: the lines written while it is down would be lost'
      : `a restart would resume from the last save (${new Date(this.#savedAt).toISOString()}), and repeat the lines delivered since`;
  }

  /** A path not looked at yet has seen nothing since the loaded state's look. */
  readonly #loaded: SidecarState | undefined;
  readonly #lookedAt: Record<string, number> = {};

  /**
   * Something to save happened (lines left, a file was found or rotated): saved within a second,
   * never inside the call (a follower reports a change before it has finished making it).
   */
  changed(): void {
    if (this.#closed) return;
    this.#dirty = true;
    this.#timer ??= setTimeout(
      () => {
        this.#timer = undefined;
        if (this.#dirty) this.save();
      },
      Math.max(0, this.#lastSave + SAVE_EVERY_MS - Date.now()),
    );
  }

  /**
   * At a poll: the state file this run saved is still there (at most once every
   * STATE_CHECK_EVERY_MS, one stat). A file removed while the pod is quiet (a cleanup's
   * `find -mtime +N -delete`, a hand) would not be written again until lines flow, and a
   * restart then would begin at the files' ends: it is said and saved again at once.
   */
  checkStillThere(now: number): void {
    if (this.#closed || this.#failing || this.#lastSave === 0 || now - this.#checkedAt < STATE_CHECK_EVERY_MS) return;
    this.#checkedAt = now;
    try {
      fs.statSync(this.#file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') return;
      // Saved, then said: whoever reads the warning finds the file there.
      if (this.save(true)) this.#log.warn({ event: 'state-missing', path: this.#file }, 'the state file was removed while the sidecar ran (not by it): saved again, so a restart resumes where lines were delivered');
    }
  }

  #checkedAt = 0;

  /** Saves now (when anything changed since the last save, or `always`); false when the save failed. */
  save(always = false): boolean {
    if (this.#closed || (!this.#dirty && !always)) return true;
    this.#dirty = false;
    this.#lastSave = Date.now();
    for (const source of this.#sources()) {
      // What a path's save covers is what was seen: a file rotated after its last listing (during
      // a stop, behind a stalled reader) is not among its files, and a restart must take it for
      // unseen, so each path keeps the time of its last look, not the clock's.
      const seen = source.lookedAt ?? (this.#loaded ? seenUntil(this.#loaded, source.path) : undefined);
      if (seen !== undefined) this.#lookedAt[source.path] = Math.min(seen, this.#lastSave);
      const files = source.savedFiles();
      if (!files) continue;
      this.#known[source.path] = files;
      const past = source.pastFiles(this.#lookedAt[source.path] ?? this.#lastSave);
      if (past.length > 0) this.#past[source.path] = past;
      else delete this.#past[source.path];
    }
    const state: SidecarState = {
      version: 2,
      savedAt: this.#lastSave,
      files: this.#known,
      ...(Object.keys(this.#past).length > 0 ? { past: this.#past } : {}),
      ...(Object.keys(this.#lookedAt).length > 0 ? { lookedAt: this.#lookedAt } : {}),
    };
    try {
      saveState(this.#file, state);
      this.#savedAt = this.#lastSave;
      if (this.#failing) this.#log.info({ event: 'state-saved', path: this.#file }, 'read positions saved again');
      this.#failing = false;
      return true;
    } catch (error) {
      // Said once while it lasts; following goes on: positions would be lost at a restart, lines are not lost now.
      if (!this.#failing) {
        this.#log.warn(
          { event: 'state-unwritable', path: this.#file, error: errorMessage(error), code: (error as NodeJS.ErrnoException).code },
          `cannot save read positions: ${this.#restartWords()}; ${unwritableFix(error)} (said once, and again when saves work)`,
        );
      }
      this.#failing = true;
      return false;
    }
  }

  /** Nothing more, not even a last save: the state file is another sidecar's (its lock, taken first). */
  abandon(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#closed = true;
  }

  /** The last save, then nothing more. */
  close(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    // The stop's save is the one the next start resumes from: its failure is said again when
    // saves had been failing already (a first failure is said by the save itself).
    const wasFailing = this.#failing;
    if (!this.save(true) && wasFailing) {
      this.#log.warn(
        { event: 'state-unwritable', path: this.#file, atStop: true },
        `the last save, at this stop, failed: ${this.#restartWords()}`,
      );
    }
    this.#closed = true;
  }
}

/** What to do about a save that failed, by why it failed. */
export function unwritableFix(error: unknown): string {
  switch ((error as NodeJS.ErrnoException).code) {
    case 'ENOSPC':
    case 'EDQUOT':
      return 'the volume it is on is full: free space on it (the logs on it stop too), or point --state-file at another volume';
    case 'EROFS':
      return 'its volume is mounted read-only: point --state-file at a writable volume (the log volume)';
    case 'EACCES':
    case 'EPERM':
      return `uid ${process.getuid?.() ?? '?'} may not write it or its directory: run the sidecar as the user that owns the log volume, or point --state-file at a file it may write`;
    case 'EISDIR':
      return 'a directory has its name: point --state-file at a file';
    default:
      return 'point --state-file at a writable file';
  }
}
