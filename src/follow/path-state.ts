/** What a followed path is now, from one stat: the input of reconcile.ts's decisions. */
import fs from 'node:fs';
import { errorMessage } from './error-message.js';
import type { PathState } from './reconcile.js';

export function statPath(path: string): PathState {
  try {
    // No exception (and no stack trace) for a missing file: the idle poll's common case.
    const stat = fs.statSync(path, { throwIfNoEntry: false });
    if (!stat) return { kind: 'missing' };
    if (stat.isFile()) return { kind: 'file', dev: stat.dev, ino: stat.ino, size: stat.size, mtimeMs: stat.mtimeMs };
    return { kind: 'other', what: stat.isFIFO() ? 'a named pipe' : stat.isDirectory() ? 'a directory' : 'a special file' };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { kind: 'missing' };
    if (code === 'EACCES') return { kind: 'denied', what: errorMessage(error) };
    return { kind: 'other', what: errorMessage(error) };
  }
}

/** A path's stat; none where nothing is there or it cannot be had (a directory on the way that may not be searched: a follower's look says so). */
export function statOrNone(path: string): fs.Stats | undefined {
  try {
    return fs.statSync(path, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}

/**
 * What a symbolic link at `path` points to when that is not there (a dangling link: a volume
 * not mounted, a target not made yet); undefined for anything else. A missing file is then
 * named as the link it is, not as nothing.
 */
export function danglingLinkTarget(path: string): string | undefined {
  try {
    if (!fs.lstatSync(path).isSymbolicLink() || fs.statSync(path, { throwIfNoEntry: false })) return undefined;
    return fs.readlinkSync(path);
  } catch {
    return undefined;
  }
}
