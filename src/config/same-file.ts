/**
 * One file followed under two types through two paths the config cannot tell apart by their
 * text (a symlink to it, a symlinked directory, a hard link): its lines would leave twice, once
 * under each type. Told at the start by the files' device and inode, for those already there
 * (resolveSources refuses the same path spelt twice).
 */
import fs from 'node:fs';
import type { FileSource } from './sidecar-config.js';

type StatFile = (file: string) => { readonly dev: number; readonly ino: number; isFile(): boolean } | undefined;

const statOrNone: StatFile = (file) => fs.statSync(file, { throwIfNoEntry: false });

/** The usage error naming the first two sources that are one file on disk; undefined when there are none. */
export function sameFileError(files: readonly FileSource[], stat: StatFile = statOrNone): string | undefined {
  const seen = new Map<string, FileSource>();
  for (const file of files) {
    let identity: ReturnType<StatFile>;
    try {
      identity = stat(file.path);
    } catch {
      // Not readable now (a directory that may not be searched): the follower says why, later.
      continue;
    }
    // Only regular files: two paths linked to one special file (/dev/null) are each waited on, as before.
    if (!identity?.isFile()) continue;
    const key = `${identity.dev}:${identity.ino}`;
    const other = seen.get(key);
    if (other) return `${other.path} (${other.logType}) and ${file.path} (${file.logType}) are one file (a link, or a linked directory): its lines would be sent twice; give each type its own file`;
    seen.set(key, file);
  }
  return undefined;
}
