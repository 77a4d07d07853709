/**
 * Where each followed file was delivered up to, kept across restarts on the log volume (which
 * outlives the container). Written atomically: a temp file beside it, then a rename; the temp
 * file is removed when the rename fails. A state file that cannot be read or parsed is a fresh
 * start, never a crash.
 *
 * Version 2 adds what tells a reused inode from the old file (birth time, the hash of the bytes
 * before the position), whether the position is inside a line, and when the state was saved.
 * A version 1 file (from an earlier sidecar) still loads: its positions are kept. An optional
 * `past` (files near the save that are not ours) came later in version 2; without it a file
 * there before a very short run may be read again.
 */
import fs from 'node:fs';
import { dirname } from 'node:path';

/** One file behind a followed path: its identity and how far its lines were delivered. */
export interface SavedFile {
  /** A hint only: a volume attached elsewhere gets another device number. */
  readonly dev: number;
  readonly ino: number;
  /** Bytes delivered: the end of the last line (or piece) that left the process. */
  readonly position: number;
  /** A hash of the file's first `fingerprintBytes` bytes. */
  readonly fingerprint: string;
  readonly fingerprintBytes: number;
  /** A hash of the bytes just before `position` (version 2). */
  readonly tailHash?: string | undefined;
  /** The file's birth time, where the file system keeps one (version 2). */
  readonly birthtimeMs?: number | undefined;
  /** The position is inside a line whose first pieces left as partial entries (version 2). */
  readonly midLine?: boolean | undefined;
  /** Read and closed (or given up): recognised at a restart, never read again (version 2). */
  readonly retired?: boolean | undefined;
  /**
   * A rotated file (no longer at the name) every byte of which had left the process when saved
   * (version 2). Gone at a restart, only lines its writer added after the save can be missing
   * (a maybe, said so); retired so at 0 bytes (empty then), bytes found in it later are new.
   */
  readonly readToEnd?: boolean | undefined;
  /**
   * Where the file was, when the followed path is a symbolic link to it (version 2): a restart
   * looks for it there too, should the link have been pointed at another file meanwhile.
   */
  readonly target?: string | undefined;
}

/**
 * A rotated file beside a path that is not ours to read (there before a start without state, or
 * read and forgotten) and changed so near the save that a restart could take it for one made
 * while we were down. Optional in version 2: a reader without it only risks reading it again.
 */
export interface PastFile {
  readonly ino: number;
  readonly mtimeMs: number;
}

export interface SidecarState {
  readonly version: 2;
  /** When it was saved (ms since the epoch): files changed after it were not seen. */
  readonly savedAt: number;
  /** By followed path: the files behind it, rotated ones first, the current one last. */
  readonly files: Readonly<Record<string, readonly SavedFile[]>>;
  /** By followed path: rotated files changed just before the save that are not ours (see PastFile). */
  readonly past?: Readonly<Record<string, readonly PastFile[]>> | undefined;
  /**
   * By followed path: when the path and the files beside it were last listed before the save.
   * A file changed after that was not seen, whatever the save's time: a restart takes it for
   * unseen from then (savedAt where a path has none).
   */
  readonly lookedAt?: Readonly<Record<string, number>> | undefined;
}

/** Since when a restart takes the rotated files beside `path` for unseen. */
export const seenUntil = (state: SidecarState, path: string): number => state.lookedAt?.[path] ?? state.savedAt;

export type LoadedState =
  | { readonly kind: 'none' }
  | { readonly kind: 'loaded'; readonly state: SidecarState; readonly upgradedFrom?: 1 }
  /**
   * `writtenAt`: the file's mtime, when it is a regular file (the last save's time, whatever it
   * holds, or whoever may read it); `denied`: it may not be read, and whose it is.
   */
  | { readonly kind: 'unreadable'; readonly reason: string; readonly writtenAt?: number; readonly denied?: { readonly uid: number; readonly gid: number; readonly mode: number } };

export function loadState(path: string): LoadedState {
  let text: string;
  let mtimeMs: number;
  try {
    text = fs.readFileSync(path, 'utf8');
    mtimeMs = fs.statSync(path).mtimeMs;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { kind: 'none' };
    // A file we may not read still says when it was written, where its directory may be searched:
    // its time stands as a corrupt file's does (files changed since are read again, nothing lost).
    let stat: fs.Stats | undefined;
    try {
      stat = fs.statSync(path);
    } catch {
      stat = undefined;
    }
    // Its time stands only where the next save can replace it: else every restart would read
    // the files changed since that time again (a fresh start reads them from their end).
    const regular = stat?.isFile() === true && replaceable(path);
    return {
      kind: 'unreadable',
      reason: regular || stat?.isFile() !== true ? (error as Error).message : `${(error as Error).message}; its directory may not be written either, so no save can replace it`,
      ...(regular ? { writtenAt: stat!.mtimeMs } : {}),
      ...(regular && code === 'EACCES' ? { denied: { uid: stat!.uid, gid: stat!.gid, mode: stat!.mode & 0o7777 } } : {}),
    };
  }
  try {
    const parsed = parseState(JSON.parse(text) as unknown, mtimeMs);
    return parsed.kind === 'unreadable' ? { ...parsed, writtenAt: mtimeMs } : parsed;
  } catch (error) {
    return { kind: 'unreadable', reason: (error as Error).message, writtenAt: mtimeMs };
  }
}

/** Whether a save may replace the file at `path`: its directory may be written and searched. */
function replaceable(path: string): boolean {
  try {
    fs.accessSync(dirname(path), fs.constants.W_OK | fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The state file's version this sidecar writes. */
const STATE_VERSION = 2;

/** A parsed state file's value as a state; a version 1 file's save time is its mtime. */
export function parseState(value: unknown, mtimeMs: number): LoadedState {
  if (typeof value !== 'object' || value === null) return notState();
  const { version, files, savedAt } = value as Record<string, unknown>;
  if (typeof version === 'number' && Number.isInteger(version) && version > STATE_VERSION) {
    return { kind: 'unreadable', reason: `a state file of version ${version}, written by a newer logtype-sidecar than this one (version ${STATE_VERSION}): a downgrade` };
  }
  // `files` is an object by path: an array (a hand-edited or foreign file) is no state of ours.
  if ((version !== 1 && version !== 2) || typeof files !== 'object' || files === null || Array.isArray(files)) return notState();
  if (!Object.values(files).every((list) => Array.isArray(list) && list.every(isSavedFile))) return notState();
  if (version === 1) {
    return { kind: 'loaded', state: { version: 2, savedAt: mtimeMs, files: files as SidecarState['files'] }, upgradedFrom: 1 };
  }
  const past = pastOf((value as Record<string, unknown>)['past']);
  const lookedAt = lookedAtOf((value as Record<string, unknown>)['lookedAt']);
  return {
    kind: 'loaded',
    state: { version: 2, savedAt: typeof savedAt === 'number' ? savedAt : mtimeMs, files: files as SidecarState['files'], ...(past ? { past } : {}), ...(lookedAt ? { lookedAt } : {}) },
  };
}

/** The `lookedAt` field when it is well formed; anything else is left out (savedAt stands in). */
function lookedAtOf(value: unknown): SidecarState['lookedAt'] {
  if (typeof value !== 'object' || value === null) return undefined;
  return Object.values(value).every((at) => typeof at === 'number' && Number.isFinite(at)) ? (value as SidecarState['lookedAt']) : undefined;
}

/** The `past` field when it is well formed; anything else is left out (it is only a hint). */
function pastOf(value: unknown): SidecarState['past'] {
  if (typeof value !== 'object' || value === null) return undefined;
  const lists = Object.values(value);
  const isPast = (f: unknown): boolean =>
    typeof f === 'object' && f !== null && Number.isSafeInteger((f as PastFile).ino) && typeof (f as PastFile).mtimeMs === 'number';
  return lists.every((list) => Array.isArray(list) && list.every(isPast)) ? (value as SidecarState['past']) : undefined;
}

export function saveState(path: string, state: SidecarState): void {
  const temp = `${path}.${process.pid}.tmp`;
  try {
    fs.writeFileSync(temp, JSON.stringify(state));
    fs.renameSync(temp, path);
  } catch (error) {
    // A path that is a directory, a full or read-only volume: no temp file is left behind.
    fs.rmSync(temp, { force: true });
    throw error;
  }
}

function notState(): LoadedState {
  return { kind: 'unreadable', reason: 'not a logtype-sidecar state file' };
}

function isSavedFile(value: unknown): value is SavedFile {
  if (typeof value !== 'object' || value === null) return false;
  const f = value as Record<string, unknown>;
  return (
    ['dev', 'ino', 'position', 'fingerprintBytes'].every((k) => Number.isSafeInteger(f[k]) && (f[k] as number) >= 0) &&
    typeof f['fingerprint'] === 'string' &&
    (f['tailHash'] === undefined || typeof f['tailHash'] === 'string') &&
    (f['birthtimeMs'] === undefined || typeof f['birthtimeMs'] === 'number') &&
    (f['midLine'] === undefined || typeof f['midLine'] === 'boolean') &&
    (f['retired'] === undefined || typeof f['retired'] === 'boolean') &&
    (f['readToEnd'] === undefined || typeof f['readToEnd'] === 'boolean') &&
    (f['target'] === undefined || typeof f['target'] === 'string')
  );
}
