/**
 * Says "look again", never carries data: inotify (fs.watch on each file's directory, which
 * also sees files that do not exist yet, renames and deletions) for latency, and a slow poll
 * as the safety net for events inotify misses (other mounts, a directory that appears later,
 * an overflowed queue).
 */
import fs from 'node:fs';
import path from 'node:path';

export interface Waker {
  close(): void;
}

export interface WakeOptions {
  readonly directories: readonly string[];
  readonly pollMs: number;
  /** Called on a change in a watched directory, and at every poll. */
  readonly onWake: () => void;
  /** Called first with the directory and the name of the entry that changed, when inotify says. */
  readonly onName?: (directory: string, name: string) => void;
  /**
   * Called when a directory that is there cannot be watched (inotify's instances or watches
   * used up for the user, EMFILE or ENOSPC; no permission): the poll alone notices its changes,
   * up to `pollMs` late. Once a directory, until a watch of it works.
   */
  readonly onUnwatchable?: (directory: string, error: NodeJS.ErrnoException) => void;
}

/** A directory not there (yet): the poll watches it once it is, nothing to say. */
const NOT_THERE = new Set(['ENOENT', 'ENOTDIR']);

export function wakeOnChanges(options: WakeOptions): Waker {
  const watchers = new Map<string, fs.FSWatcher>();
  const said = new Set<string>();
  const watch = (directory: string): void => {
    if (watchers.has(directory)) return;
    try {
      const watcher = fs.watch(directory, { persistent: false }, (_event, name) => {
        if (name) options.onName?.(directory, name);
        options.onWake();
      });
      // A watched directory that is removed ends its watcher; the poll watches it again.
      watcher.on('error', () => {
        watcher.close();
        watchers.delete(directory);
      });
      watchers.set(directory, watcher);
      said.delete(directory);
    } catch (error) {
      // Missing or unwatchable directory: the poll covers it and retries the watch.
      const code = (error as NodeJS.ErrnoException).code ?? '';
      if (!NOT_THERE.has(code) && !said.has(directory)) {
        said.add(directory);
        options.onUnwatchable?.(directory, error as NodeJS.ErrnoException);
      }
    }
  };
  const unique = [...new Set(options.directories.map((d) => path.resolve(d)))];
  unique.forEach(watch);
  const timer = setInterval(() => {
    unique.forEach(watch);
    options.onWake();
  }, options.pollMs);
  return {
    close() {
      clearInterval(timer);
      for (const watcher of watchers.values()) watcher.close();
      watchers.clear();
    },
  };
}
