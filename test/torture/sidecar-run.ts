/**
 * One run of the real sidecar: a child process whose stdout is a real pipe that this process
 * reads, or stops reading (a stalled shipper: the pipe fills, then the sidecar's writes wait).
 * Every chunk read is kept with the time it arrived, so any output line can be placed on the
 * schedule's time line.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { cleanEnv } from '../_helpers/sidecar-process.js';

export interface RunExit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  /** ms since the schedule began. */
  readonly at: number;
}

export type RunEnd = 'SIGTERM' | 'SIGKILL';

/** Saved read positions as they were on disk when a run ended: one per file the state knew. */
export interface SavedPosition {
  /** The followed path it was saved under, when the format says. */
  readonly path: string | undefined;
  readonly ino: number;
  readonly dev: number | undefined;
  readonly position: number;
  /** The file's birth time, when the format keeps one. */
  readonly birthtimeMs?: number;
}

export interface StateOnDisk {
  /** When the state file was last written (ms since the schedule began). */
  readonly savedAt: number;
  readonly positions: readonly SavedPosition[];
}

export class SidecarRun {
  readonly index: number;
  readonly child: ChildProcess;
  readonly startedAt: number;
  readonly startedStep: number;
  /** A state file existed when it started. */
  readonly hadState: boolean;
  /** When it had looked at every followed path once (only awaited at a start without state). */
  readyAt: number | undefined;
  /**
   * When its first diagnostic arrived: its first look at the files had happened by then (its
   * first diagnostics are that look's). A file deleted before it was never seen by this run.
   */
  firstDiagnosticAt: number | undefined;
  readonly chunks: Buffer[] = [];
  /** Byte offset of each chunk's start in the output, and when it arrived. */
  readonly arrivals: { readonly offset: number; readonly at: number }[] = [];
  outputBytes = 0;
  stderr = '';
  /** The signal that ended it, and when; undefined while it runs (or if it ended by itself). */
  endedBy:
    | {
        readonly signal: RunEnd;
        readonly at: number;
        readonly step: number;
        readonly stalled: boolean;
        /**
         * A SIGTERM's: whether the sidecar's stop handlers were in when it was sent (/proc
         * status). Not yet while Node is still starting, before the sidecar's first line
         * installs them: then the signal ends it as Node's default does, with nothing read yet.
         */
        readonly caught?: boolean | undefined;
      }
    | undefined;
  /** The state file as it was on disk once the run was dead (the saves it made, the last one last). */
  stateAtExit: StateOnDisk | undefined;
  exit: RunExit | undefined;
  readonly exited: Promise<RunExit>;
  readonly outputEnded: Promise<void>;
  readonly #clock: () => number;

  constructor(options: {
    index: number;
    bin: string;
    args: readonly string[];
    clock: () => number;
    step: number;
    hadState: boolean;
    stalled: boolean;
  }) {
    this.index = options.index;
    this.#clock = options.clock;
    this.startedAt = options.clock();
    this.startedStep = options.step;
    this.hadState = options.hadState;
    this.child = spawn(process.execPath, [options.bin, ...options.args], { env: cleanEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    const stdout = this.child.stdout!;
    stdout.on('data', (chunk: Buffer) => {
      this.arrivals.push({ offset: this.outputBytes, at: this.#clock() });
      this.chunks.push(chunk);
      this.outputBytes += chunk.length;
    });
    if (options.stalled) stdout.pause();
    this.child.stderr!.setEncoding('utf8');
    this.child.stderr!.on('data', (text: string) => {
      this.firstDiagnosticAt ??= this.#clock();
      this.stderr += text;
    });
    this.outputEnded = new Promise((resolve) => stdout.once('close', () => resolve()));
    this.exited = new Promise((resolve) => {
      this.child.once('exit', (code, signal) => {
        this.exit = { code, signal, at: this.#clock() };
        resolve(this.exit);
      });
    });
    running.add(this.child);
    void this.exited.then(() => running.delete(this.child));
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  get alive(): boolean {
    return this.exit === undefined;
  }

  /** Stop (true) or start again (false) reading the pipe. */
  setStalled(stalled: boolean): void {
    const stdout = this.child.stdout!;
    if (stalled) stdout.pause();
    else stdout.resume();
  }

  signal(signal: RunEnd, step: number, stalled: boolean): void {
    if (!this.alive || this.endedBy) return;
    // Node catches SIGTERM itself early in its start (to reset a terminal, then die by it);
    // SIGHUP it does not: SIGHUP caught means the bin's handlers (all three at once) are in.
    this.endedBy = { signal, at: this.#clock(), step, stalled, caught: signal === 'SIGTERM' ? catches(this.child.pid, 1) : undefined };
    this.child.kill(signal);
  }

  /** The sidecar's diagnostics (pino lines on stderr), and the lines that were not JSON. */
  diagnostics(): { readonly json: Record<string, unknown>[]; readonly other: string[] } {
    const json: Record<string, unknown>[] = [];
    const other: string[] = [];
    for (const line of this.stderr.split('\n')) {
      if (line === '') continue;
      try {
        const value = JSON.parse(line) as unknown;
        if (typeof value === 'object' && value !== null && !Array.isArray(value)) json.push(value as Record<string, unknown>);
        else other.push(line);
      } catch {
        other.push(line);
      }
    }
    return { json, other };
  }

  /** Whether the process holds this inode open now (its descriptors, from /proc). */
  holds(ino: number, dev: number): boolean | undefined {
    if (!this.alive || this.pid === undefined) return undefined;
    let fds: string[];
    try {
      fds = fs.readdirSync(`/proc/${this.pid}/fd`);
    } catch {
      return undefined;
    }
    return fds.some((fd) => {
      try {
        const stat = fs.statSync(`/proc/${this.pid}/fd/${fd}`);
        return stat.ino === ino && stat.dev === dev;
      } catch {
        return false;
      }
    });
  }

  /** The output arrival time of the byte at `offset`. */
  arrivalOf(offset: number): number {
    let low = 0;
    let high = this.arrivals.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (this.arrivals[mid]!.offset <= offset) low = mid;
      else high = mid - 1;
    }
    return this.arrivals[low]?.at ?? this.startedAt;
  }
}

/**
 * Reads a state file whatever its version: every object with a numeric `ino` and `position`
 * is a saved position, under the nearest key that is a path. Undefined when there is none.
 */
export function readStateOnDisk(file: string, t0: number): StateOnDisk | undefined {
  let text: string;
  let mtimeMs: number;
  try {
    text = fs.readFileSync(file, 'utf8');
    mtimeMs = fs.statSync(file).mtimeMs;
  } catch {
    return undefined;
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { savedAt: mtimeMs - t0, positions: [] };
  }
  const positions: SavedPosition[] = [];
  const walk = (node: unknown, under: string | undefined): void => {
    if (Array.isArray(node)) {
      for (const item of node) walk(item, under);
      return;
    }
    if (typeof node !== 'object' || node === null) return;
    const record = node as Record<string, unknown>;
    if (typeof record['ino'] === 'number' && typeof record['position'] === 'number') {
      positions.push({
        path: typeof record['path'] === 'string' && record['path'].includes('/') ? record['path'] : under,
        ino: record['ino'],
        dev: typeof record['dev'] === 'number' ? record['dev'] : undefined,
        position: record['position'],
        ...(typeof record['birthtimeMs'] === 'number' && record['birthtimeMs'] > 0 ? { birthtimeMs: record['birthtimeMs'] } : {}),
      });
    }
    for (const [key, child] of Object.entries(record)) walk(child, key.includes('/') ? key : under);
  };
  walk(value, undefined);
  return { savedAt: mtimeMs - t0, positions };
}

/** Every run still alive: none outlives the test process. */
const running = new Set<ChildProcess>();
process.on('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

/** Whether process `pid` catches signal number `signal` now (its SigCgt mask); undefined when it cannot be told. */
function catches(pid: number | undefined, signal: number): boolean | undefined {
  if (pid === undefined) return undefined;
  try {
    const mask = /^SigCgt:\s*([0-9a-f]+)$/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return mask === undefined ? undefined : (BigInt(`0x${mask}`) & (1n << BigInt(signal - 1))) !== 0n;
  } catch {
    return undefined;
  }
}
