/**
 * Opening a file as it was listed: a directory's listing and the open that follows are not one
 * step, and a rotation going on between them (logrotate shifting `.1` to `.2`) leaves another
 * file at the name listed. Whatever is compared after must be read from the file listed, found
 * by its identity where it has moved, never from whatever the name holds now.
 */
import fs from 'node:fs';
import path from 'node:path';
import { sameFile } from './reconcile.js';

/**
 * A read-only descriptor of the file listed as `stat` at `name`, and where it is: at `name`, or
 * where `whereNow` finds it (asked again while a rotation keeps moving it, three tries in all).
 */
export function openListed(name: string, stat: fs.Stats, whereNow: () => string | undefined): { name: string; fd: number } | undefined {
  for (let attempt = 0, at: string | undefined = name; attempt < 3 && at; attempt++) {
    let fd: number | undefined;
    try {
      fd = fs.openSync(at, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
      if (sameFile(fs.fstatSync(fd), stat)) return { name: at, fd };
    } catch {
      // gone: look for it where it may have moved
    }
    if (fd !== undefined) fs.closeSync(fd);
    at = whereNow();
  }
  return undefined;
}

/** Where the file listed as `stat` at `name` is now, in the same directory (looked for only after a rename). */
export function inDirectoryOf(name: string, stat: fs.Stats): string | undefined {
  const directory = path.dirname(name);
  let entries: string[];
  try {
    entries = fs.readdirSync(directory);
  } catch {
    return undefined;
  }
  for (const entry of entries) {
    const candidate = path.join(directory, entry);
    try {
      if (sameFile(fs.statSync(candidate), stat)) return candidate;
    } catch {
      // gone meanwhile
    }
  }
  return undefined;
}
