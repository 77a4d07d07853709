/**
 * Followed paths the state file knows under another name: the log directory moved or renamed
 * (a volume mounted elsewhere, `--log-dir` changed), its files the same files. A path the state
 * does not know has nothing to resume, and its file, changed since the save, would be read
 * again from its start; found by identity, it resumes where it was delivered up to.
 *
 * Only a hint: the saved files handed to the new path are checked as at any restart (inode,
 * first bytes, the bytes before the position: resume.ts). Here a candidate is a saved path no
 * longer followed whose current file has the inode of the file at the new path now.
 */
import type { Stats } from 'node:fs';
import type { SidecarState } from './state-file.js';

/** For each followed path the state does not know: the saved path whose current file it holds. `statOf` must not throw. */
export function movedPaths(state: SidecarState, followed: readonly string[], statOf: (path: string) => Stats | undefined): Map<string, string> {
  const moved = new Map<string, string>();
  const unknown = followed.filter((path) => state.files[path] === undefined);
  if (unknown.length === 0) return moved;
  const followedNow = new Set(followed);
  const formerly = Object.entries(state.files).filter(([path, files]) => !followedNow.has(path) && files.length > 0);
  if (formerly.length === 0) return moved;
  const taken = new Set<string>();
  for (const path of unknown) {
    const stat = statOf(path);
    if (!stat?.isFile()) continue;
    const match = formerly.find(([old, files]) => {
      const current = files.at(-1)!;
      return !taken.has(old) && !current.retired && current.ino === stat.ino && stat.size >= current.position;
    });
    if (!match) continue;
    taken.add(match[0]);
    moved.set(path, match[0]);
  }
  return moved;
}
