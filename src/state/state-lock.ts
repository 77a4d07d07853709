/**
 * One sidecar per state file. Two on one file (the pod's, and one started by hand in its
 * container with the same defaults) each save the positions of what they delivered, and each
 * resumes from the other's: the lines only the other delivered are lost to this one's stream.
 *
 * The lock is a file beside the state file, made with O_EXCL, holding the process id and its
 * start time (Linux's /proc/PID/stat): a lock whose process is gone, or whose id another
 * process holds now (a restarted container reuses ids), is stale and taken over. Without /proc
 * a live process with that id is taken for the holder.
 *
 * Where the lock cannot be made (a read-only volume: no save can be made there either), the
 * sidecar goes on without one.
 */
import fs from 'node:fs';

export type StateLock =
  /** Held: `release` removes it (when it is still ours). */
  | { readonly kind: 'held'; readonly path: string; readonly release: () => void }
  /** Another live process holds it. */
  | { readonly kind: 'taken'; readonly path: string; readonly pid: number }
  /** No lock could be made there (why); nothing else is known. */
  | { readonly kind: 'none'; readonly path: string; readonly reason: string };

/** The lock file of a state file. */
export const lockPathOf = (stateFile: string): string => `${stateFile}.lock`;

export function lockState(stateFile: string, pid = process.pid): StateLock {
  const path = lockPathOf(stateFile);
  const mine = holderText(pid);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(path, mine, { flag: 'wx', mode: 0o644 });
      return { kind: 'held', path, release: () => releaseIfOurs(path, mine) };
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'EEXIST') return { kind: 'none', path, reason: (error as Error).message };
    }
    const holder = readHolder(path);
    if (holder !== undefined && holder.pid !== pid && isRunning(holder)) return { kind: 'taken', path, pid: holder.pid };
    // Stale: its process is gone (killed, or the container restarted). Taken over.
    fs.rmSync(path, { force: true });
  }
  return { kind: 'none', path, reason: 'made and removed by another process at once' };
}

interface Holder {
  readonly pid: number;
  /** The process's start time in clock ticks since boot (Linux), when known. */
  readonly startTime: string | undefined;
}

function holderText(pid: number): string {
  const startTime = startTimeOf(pid);
  return `${pid}${startTime === undefined ? '' : ` ${startTime}`}\n`;
}

function readHolder(path: string): Holder | undefined {
  let text: string;
  try {
    text = fs.readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
  const [pid, startTime] = text.trim().split(' ');
  const id = Number(pid);
  return Number.isSafeInteger(id) && id > 0 ? { pid: id, startTime } : undefined;
}

/** The holder is still the process that made the lock: alive, and (where /proc tells) started when it did. */
function isRunning(holder: Holder): boolean {
  const now = startTimeOf(holder.pid);
  if (now !== undefined) return holder.startTime === undefined || holder.startTime === now;
  if (fs.existsSync('/proc/self/stat')) return false;
  try {
    process.kill(holder.pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Field 22 of /proc/PID/stat (after the command's parenthesised name, which may hold spaces). */
function startTimeOf(pid: number): string | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

function releaseIfOurs(path: string, mine: string): void {
  try {
    if (fs.readFileSync(path, 'utf8') === mine) fs.rmSync(path, { force: true });
  } catch {
    // Gone already, or unreadable: not ours to remove.
  }
}
