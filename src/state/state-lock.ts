/**
 * One sidecar per state file. Two on one file (the pod's, and one started by hand in its
 * container with the same defaults) each save the positions of what they delivered, and each
 * resumes from the other's: the lines only the other delivered are lost to this one's stream.
 *
 * The lock is a file beside the state file holding the process id and its start time (Linux's
 * /proc/PID/stat), made whole before it is linked into place (link(2) fails when the name is
 * taken: no reader ever sees it half-written). A lock whose process is gone, a zombie, or whose
 * id another process holds now (a restarted container reuses ids) is stale: it is renamed
 * aside, checked to be the one read, and removed (a lock made meanwhile by another sidecar is
 * put back, never removed). Without /proc, a live process with that id is taken for the holder.
 *
 * Limits: a holder in another process-id namespace (another container sharing the volume) is
 * not seen, and is taken for stale. Where no lock can be made or removed (a read-only volume,
 * a directory we may not write: no save can be made there either), the sidecar goes on without one.
 */
import fs from 'node:fs';

export type StateLock =
  /**
   * Held: `release` removes it (when it is still ours). `staleHolder`: the process whose lock was
   * there and taken over (a run that ended without its stop: killed).
   */
  | { readonly kind: 'held'; readonly path: string; readonly release: () => NodeJS.ErrnoException | undefined; readonly staleHolder?: number | undefined }
  /** Another live process holds it. */
  | { readonly kind: 'taken'; readonly path: string; readonly pid: number }
  /** No lock could be made there (why); nothing else is known. */
  | { readonly kind: 'none'; readonly path: string; readonly reason: string };

/** The lock file of a state file. */
export const lockPathOf = (stateFile: string): string => `${stateFile}.lock`;

/** Tries to take a stale lock over before giving up (another sidecar may be doing the same). */
const ATTEMPTS = 4;

export function lockState(stateFile: string, pid = process.pid): StateLock {
  const path = lockPathOf(stateFile);
  const mine = holderText(pid);
  let staleHolder: number | undefined;
  try {
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      if (linkWhole(path, mine, pid)) return { kind: 'held', path, release: () => releaseIfOurs(path, mine), staleHolder };
      const text = readText(path);
      if (text === undefined) continue; // removed meanwhile: try again
      const holder = parseHolder(text);
      if (holder !== undefined && holder.pid !== pid && isRunning(holder)) return { kind: 'taken', path, pid: holder.pid };
      // Stale: its process is gone (killed, or the container restarted). Taken over.
      staleHolder = holder?.pid;
      removeIfStill(path, text, pid);
    }
    return { kind: 'none', path, reason: 'other processes kept making and removing it' };
  } catch (error) {
    return { kind: 'none', path, reason: (error as Error).message };
  }
}

/** Makes the lock whole under a name of our own, then links it into place: false when the name is taken. */
function linkWhole(path: string, text: string, pid: number): boolean {
  const temp = `${path}.${pid}.new`;
  try {
    // Inside the try: a write that fails after the open (a full volume) leaves no empty file.
    fs.writeFileSync(temp, text, { mode: 0o644 });
    fs.linkSync(temp, path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    fs.rmSync(temp, { force: true });
  }
}

/** Removes the lock at `path` if it still holds `text`; one made meanwhile by another process is put back. */
function removeIfStill(path: string, text: string, pid: number): void {
  const aside = `${path}.${pid}.stale`;
  try {
    fs.renameSync(path, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  if (readText(aside) !== text) {
    // Another sidecar's lock, made after ours was read: back where it was (unless a third made one since).
    try {
      fs.linkSync(aside, path);
    } catch {
      // Its name is taken again: the next attempt reads who holds it.
    }
  }
  fs.rmSync(aside, { force: true });
}

interface Holder {
  readonly pid: number;
  /** The process's start time in clock ticks since boot (Linux), when known. */
  readonly startTime: string | undefined;
}

function holderText(pid: number): string {
  const startTime = procStat(pid)?.startTime;
  return `${pid}${startTime === undefined ? '' : ` ${startTime}`}\n`;
}

function readText(path: string): string | undefined {
  try {
    return fs.readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

function parseHolder(text: string): Holder | undefined {
  const [pid, startTime] = text.trim().split(' ');
  const id = Number(pid);
  return Number.isSafeInteger(id) && id > 0 ? { pid: id, startTime } : undefined;
}

/** The holder is still the process that made the lock: alive, not a zombie, and (where /proc tells) started when it did. */
function isRunning(holder: Holder): boolean {
  const now = procStat(holder.pid);
  if (now !== undefined) return now.state !== 'Z' && now.state !== 'X' && (holder.startTime === undefined || holder.startTime === now.startTime);
  if (fs.existsSync('/proc/self/stat')) return false;
  try {
    process.kill(holder.pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** /proc/PID/stat's state (field 3) and start time (field 22), read after the command's parenthesised name, which may hold spaces. */
function procStat(pid: number): { readonly state: string | undefined; readonly startTime: string | undefined } | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { state: fields[0], startTime: fields[19] };
  } catch {
    return undefined;
  }
}

/** Removes the lock when it is still ours; the error when ours could not be removed (a volume gone read-only), else undefined. */
function releaseIfOurs(path: string, mine: string): NodeJS.ErrnoException | undefined {
  let ours: boolean;
  try {
    ours = fs.readFileSync(path, 'utf8') === mine;
  } catch {
    // Gone already, or unreadable: not ours to remove.
    return undefined;
  }
  if (!ours) return undefined;
  try {
    fs.unlinkSync(path);
    return undefined;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT' ? undefined : (error as NodeJS.ErrnoException);
  }
}
