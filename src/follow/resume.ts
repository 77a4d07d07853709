/**
 * A restart finds again the files the state file knows (identity.ts decides; this opens and
 * hashes): each saved file is looked for at the path and beside it, first as itself (its inode,
 * whatever the device now), then as copytruncate's copy (another file holding its bytes up to the
 * saved position). What is found is read on from the saved position.
 */
import fs from 'node:fs';
import type { SavedFile } from '../state/state-file.js';
import { FINGERPRINT_BYTES, fingerprintOf, tailHashOf } from './fingerprint.js';
import { inDirectoryOf, openListed } from './listed-file.js';
import { compareBirthtimes, continuationOf, type Comparison } from './identity.js';
import { birthtimeOf, rotatedSiblings, type SiblingFile } from './rotated-siblings.js';
import { statOrNone } from './path-state.js';

/** A file closed after it was read (or given up): recognised, never read again from its start. */
export interface KnownFile {
  readonly dev: number;
  readonly ino: number;
  readonly birthtimeMs: number;
  readonly saved: SavedFile;
  /** Its mtime when it was retired (a restart's retired files have none). */
  readonly mtimeMs?: number | undefined;
  /** Closed unread past the bound on held files (`gave-up` said its bytes): its rest is said lost already. */
  readonly givenUp?: true | undefined;
}

export interface ResumePlan {
  /** Saved files found again, in the saved order: read on from their saved position. */
  readonly held: readonly { readonly name: string; readonly stat: fs.Stats; readonly saved: SavedFile; readonly how: 'same-file' | 'copy' }[];
  /** Saved files not found: their lines after the saved position cannot be delivered. */
  readonly lost: readonly SavedFile[];
  /** Retired saved files found again: recognised, not read. */
  readonly retired: KnownFile[];
  /** What the saved files took: no other file is read from its start as a stranger. */
  readonly claimed: readonly fs.Stats[];
}

export function resumeFiles(path: string, saved: readonly SavedFile[], ignore?: (name: string) => boolean): ResumePlan {
  const atPath = fs.statSync(path, { throwIfNoEntry: false });
  const siblings = rotatedSiblings(path, ignore);
  const candidates: SiblingFile[] = [...(atPath?.isFile() ? [{ name: path, stat: atPath }] : []), ...siblings, ...savedTargets(saved, siblings)];
  const claimed = new Set<SiblingFile>();
  const found = new Map<SavedFile, { candidate: SiblingFile; how: 'same-file' | 'copy' }>();
  // The files themselves first, so a copy never takes a place its original holds.
  for (const file of saved) {
    const candidate = candidates.find((c) => !claimed.has(c) && c.stat.ino === file.ino && !(file.retired === true && emptyOnceNow(file, c.stat)) && continues(file, c) === 'resume');
    if (!candidate) continue;
    claimed.add(candidate);
    found.set(file, { candidate, how: 'same-file' });
  }
  for (const file of saved) {
    if (found.has(file) || file.retired || file.position === 0 || file.tailHash === undefined) continue;
    const candidate = siblings.find((c) => !claimed.has(c) && continues(file, c) === 'copy');
    if (!candidate) continue;
    claimed.add(candidate);
    found.set(file, { candidate, how: 'copy' });
  }
  const held: { name: string; stat: fs.Stats; saved: SavedFile; how: 'same-file' | 'copy' }[] = [];
  const lost: SavedFile[] = [];
  const retired: KnownFile[] = [];
  for (const file of saved) {
    const match = found.get(file);
    if (file.retired) {
      if (match) retired.push({ dev: match.candidate.stat.dev, ino: match.candidate.stat.ino, birthtimeMs: birthtimeOf(match.candidate.stat), saved: file });
    } else if (match) {
      held.push({ name: match.candidate.name, stat: match.candidate.stat, saved: file, how: match.how });
    } else {
      lost.push(file);
    }
  }
  return { held, lost, retired, claimed: [...claimed].map((c) => c.stat) };
}

/**
 * The files the path's link led to when saved, where they are still files and not listed
 * already: a link pointed at another file while the sidecar was down leaves the old one's
 * unread lines there, read on as a rotated file's.
 */
function savedTargets(saved: readonly SavedFile[], listed: readonly SiblingFile[]): SiblingFile[] {
  const targets: SiblingFile[] = [];
  for (const file of saved) {
    const name = file.target;
    if (name === undefined || file.retired || listed.some((c) => c.name === name) || targets.some((c) => c.name === name)) continue;
    const stat = statOrNone(name);
    if (stat?.isFile()) targets.push({ name, stat });
  }
  return targets;
}

/** A saved file that is there but that we may not read now: where, and the error. */
export interface DeniedFile {
  readonly name: string;
  readonly error: NodeJS.ErrnoException;
}

/**
 * The first place a restart may not look into: the path when its stat is denied (a directory on
 * the way we may not search), or a file there whose inode a saved file has and that we may not
 * open.
 * Such a file is not lost: it is there, and its saved position still holds once it is readable
 * again (a permission put right, the sidecar run as the right user). Deciding then would take
 * it for gone (`resume-lost`), forget its position at the next save, and read it from its start
 * once it can be read: every line delivered before the restart again.
 */
export function deniedAmong(path: string, saved: readonly SavedFile[], ignore?: (name: string) => boolean): DeniedFile | undefined {
  const denied = (error: unknown): boolean => ['EACCES', 'EPERM'].includes((error as NodeJS.ErrnoException).code ?? '');
  let atPath: fs.Stats | undefined;
  try {
    atPath = fs.statSync(path, { throwIfNoEntry: false });
  } catch (error) {
    if (denied(error)) return { name: path, error: error as NodeJS.ErrnoException };
  }
  const inodes = new Set(saved.filter((file) => !file.retired).map((file) => file.ino));
  const candidates: SiblingFile[] = [...(atPath?.isFile() ? [{ name: path, stat: atPath }] : []), ...rotatedSiblings(path, ignore)];
  for (const { name, stat } of candidates) {
    if (!inodes.has(stat.ino)) continue;
    try {
      fs.closeSync(fs.openSync(name, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK));
    } catch (error) {
      if (denied(error)) return { name, error: error as NodeJS.ErrnoException };
    }
  }
  return undefined;
}

/** `name` as a known file, when `is(fd)` says it is one of ours (undefined otherwise). */
export function knownFile(name: string, stat: fs.Stats, is: (fd: number) => boolean): KnownFile | undefined {
  return withFile(name, stat, (fd) =>
    is(fd)
      ? { dev: stat.dev, ino: stat.ino, birthtimeMs: birthtimeOf(stat), saved: { dev: stat.dev, ino: stat.ino, position: stat.size, ...fingerprintOf(fd, FINGERPRINT_BYTES) } }
      : undefined,
  );
}

/**
 * Whether `stat` (at `name`) is this known file, on the same mount: inode, birth, length, first
 * bytes, and the bytes just before where it was read to, where kept: a copy made over it in place
 * (`cp f f.1`) keeps its inode and, when the file copied begins with the same banner, its first
 * KiB too.
 */
export function isKnown(known: KnownFile, name: string, stat: fs.Stats): boolean {
  if (stat.dev !== known.dev || stat.ino !== known.ino) return false;
  if (compareBirthtimes(known.birthtimeMs, stat.birthtimeMs) === 'differs') return false;
  if (stat.size < known.saved.position) return false;
  if (emptyOnceNow(known.saved, stat)) return false;
  const { saved } = known;
  const same = (fd: number): boolean =>
    fingerprintOf(fd, saved.fingerprintBytes).fingerprint === saved.fingerprint && (saved.tailHash === undefined || tailHashOf(fd, saved.position) === saved.tailHash);
  return withFile(name, stat, same) ?? false;
}

/**
 * A file retired empty (read to its end at 0 bytes) that holds bytes now: nothing of it was read
 * to compare them with, and none of them were delivered. A copy made over it (`cp f f.1`) is read,
 * or found as a copy, as any file nobody read. (A file given up unread at 0 was not empty: it
 * stays known, never read again.)
 */
function emptyOnceNow(saved: SavedFile, stat: fs.Stats): boolean {
  return saved.position === 0 && saved.readToEnd === true && stat.size > 0;
}

function continues(file: SavedFile, candidate: SiblingFile): ReturnType<typeof continuationOf> {
  const { stat } = candidate;
  const comparison = withFile(candidate.name, stat, (fd): Comparison => {
    const fingerprint = fingerprintOf(fd, file.fingerprintBytes);
    return {
      sameInode: stat.ino === file.ino,
      birthtime: compareBirthtimes(file.birthtimeMs, stat.birthtimeMs),
      longEnough: stat.size >= file.position && fingerprint.fingerprintBytes === file.fingerprintBytes,
      fingerprintMatches: fingerprint.fingerprint === file.fingerprint,
      tailMatches: file.tailHash === undefined ? undefined : tailHashOf(fd, file.position) === file.tailHash,
    };
  });
  return comparison ? continuationOf(file.position, comparison) : 'other';
}

/**
 * Uses the file listed as `stat` at `name`, found by its identity: a rotation may have renamed
 * it between the listing and now, and the name then holds another file, whose bytes must not
 * stand for this one's (listed-file.ts).
 */
function withFile<T>(name: string, stat: fs.Stats, use: (fd: number) => T): T | undefined {
  const fd = openListed(name, stat, () => inDirectoryOf(name, stat))?.fd;
  if (fd === undefined) return undefined;
  try {
    return use(fd);
  } catch {
    return undefined;
  } finally {
    fs.closeSync(fd);
  }
}
