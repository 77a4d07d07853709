/**
 * CPU and memory of running processes from /proc: of one process, or of every process in a
 * process group (the pipelines run as one detached group: eight `tail | jq` pairs and their bash).
 * A process that has ended counts no more; the followers measured here run until stopped.
 */
import fs from 'node:fs';

/** The fields after `(comm) ` of /proc/PID/stat: [1] ppid, [2] pgrp, [11] utime, [12] stime. */
function statFields(pid: string): string[] | undefined {
  try {
    return fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  } catch {
    return undefined;
  }
}

function pids(): string[] {
  return fs.readdirSync('/proc').filter((entry) => /^\d+$/.test(entry));
}

/** The processes of a group (its leader's pid). */
export function groupMembers(pgid: number): number[] {
  return pids()
    .filter((pid) => Number(statFields(pid)?.[2]) === pgid)
    .map(Number);
}

/** utime + stime in clock ticks (100 per second on Linux), of one process or of its group. */
export function cpuTicks(pid: number, group = false): number {
  let ticks = 0;
  for (const member of group ? groupMembers(pid) : [pid]) {
    const fields = statFields(String(member));
    if (fields) ticks += Number(fields[11]) + Number(fields[12]);
  }
  return ticks;
}

/** Resident memory in MB, of one process or the sum over its group; 0 when gone. */
export function rssMb(pid: number, group = false): number {
  return statusMb(pid, group, /VmRSS:\s+(\d+)/);
}

/**
 * The anonymous part of rssMb: the heap, stacks, buffers. The rest is pages of files mapped in
 * (the node binary's code, shared with every process that runs it and dropped by the kernel
 * under pressure): a container's memory limit is met or not on this part.
 */
export function anonymousMb(pid: number, group = false): number {
  return statusMb(pid, group, /RssAnon:\s+(\d+)/);
}

function statusMb(pid: number, group: boolean, field: RegExp): number {
  let kb = 0;
  for (const member of group ? groupMembers(pid) : [pid]) {
    try {
      kb += Number(field.exec(fs.readFileSync(`/proc/${member}/status`, 'utf8'))?.[1] ?? 0);
    } catch {
      // gone
    }
  }
  return kb / 1024;
}

/** The child of `parentPid` (the command a `bash -c` runs), or the parent itself. */
export function childOf(parentPid: number): number {
  for (const pid of pids()) if (Number(statFields(pid)?.[1]) === parentPid) return Number(pid);
  return parentPid;
}

/** The files a process (or its group) holds open, by path. */
export function openFiles(pid: number, group = false): Set<string> {
  const open = new Set<string>();
  for (const member of group ? groupMembers(pid) : [pid]) {
    let fds: string[];
    try {
      fds = fs.readdirSync(`/proc/${member}/fd`);
    } catch {
      continue;
    }
    for (const fd of fds) {
      try {
        open.add(fs.readlinkSync(`/proc/${member}/fd/${fd}`));
      } catch {
        // closed meanwhile
      }
    }
  }
  return open;
}

/**
 * Waits until the follower holds every one of `paths` open (a file present at start is read from
 * its end, so lines written before it is open are not the follower's to read); false after
 * `timeoutMs`.
 */
export async function waitUntilOpen(pid: number, group: boolean, paths: readonly string[], timeoutMs = 10_000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const open = openFiles(pid, group);
    if (paths.every((file) => open.has(file))) return true;
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
