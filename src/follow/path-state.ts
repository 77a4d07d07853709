/** What a followed path is now, from one stat: the input of reconcile.ts's decisions. */
import fs from 'node:fs';
import nodePath from 'node:path';
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

/** A symbolic link on the way to a path whose target is not there: the link, and its target as resolved. */
export interface DanglingLink {
  readonly link: string;
  readonly target: string;
}

/**
 * The symbolic link that leaves `path` with nothing at its end (a volume not mounted, a target
 * not made yet): the path itself, or a directory on the way to it (`/var/log/mongodb-mms-automation`
 * pointing to a mount point that is not there); its target resolved against the link's
 * directory, to its end (a link to a link). Undefined for anything else: a missing file is then
 * named as the link it is, not as nothing.
 */
export function danglingLink(path: string): DanglingLink | undefined {
  // From the path up: the first part that is there ends the search.
  for (let at = nodePath.resolve(path); ; at = nodePath.dirname(at)) {
    try {
      if (!fs.lstatSync(at).isSymbolicLink()) return undefined;
      if (fs.statSync(at, { throwIfNoEntry: false })) return undefined;
      return { link: at, target: finalTarget(at) };
    } catch {
      // Not there (or may not be looked at): its parent is asked.
    }
    if (nodePath.dirname(at) === at) return undefined;
  }
}

/** Where a chain of links from `link` ends (at most 40, as the kernel follows), each target resolved against its link's directory. */
function finalTarget(link: string): string {
  let at = link;
  for (let hops = 0; hops < 40; hops++) {
    let target: string;
    try {
      target = fs.readlinkSync(at);
    } catch {
      return at;
    }
    at = nodePath.resolve(nodePath.dirname(at), target);
  }
  return at;
}

/** A dangling link in words, of `path` (danglingLink's): "a symbolic link to T, which is not there", or the link on its way said so. */
export function danglingWords(path: string, { link, target }: DanglingLink): string {
  return `${link === nodePath.resolve(path) ? '' : `reached through ${link}, `}a symbolic link to ${target}, which is not there`;
}

/** A dangling link's fields in a diagnostic: `linkTo`, and `link` where it is not the path itself. */
export function danglingFields(path: string, dangling: DanglingLink | undefined): { linkTo?: string; link?: string } {
  if (dangling === undefined) return {};
  return dangling.link === nodePath.resolve(path) ? { linkTo: dangling.target } : { link: dangling.link, linkTo: dangling.target };
}
