/**
 * The real `logtype-sidecar` command in a child process, its stdout read from a real pipe.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sleep } from './numbered-writer.js';

export const DIST = path.resolve(import.meta.dirname, '../..');
/** The sidecar under test; LOGTYPE_SIDECAR runs the same tests against another build (to show a fix). */
export const SIDECAR_BIN = process.env['LOGTYPE_SIDECAR'] || path.join(DIST, 'bin/logtype-sidecar.js');
export const FILTER_BIN = path.join(DIST, 'bin/logtype.js');
export const REPO = path.resolve(DIST, '..');
/** Real log lines, copied into the repository with their sources (`SOURCES.md` there). */
export const REAL_DATA = path.join(REPO, 'test/fixtures/real');

/** The temporary directories this process made that go when it exits. */
const madeDirs = new Set<string>();
let cleanupSet = false;

/**
 * A new directory under the system's temporary one, removed with everything in it when the
 * test process exits (a suite run used to leave about a hundred behind), unless
 * LOGTYPE_KEEP_TEMP=1 keeps them all to read after a failure, or `keepTempDir` keeps one.
 */
export function tempDir(name: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `logtype-${name}-`));
  if (process.env.LOGTYPE_KEEP_TEMP === '1') return dir;
  if (!cleanupSet) {
    cleanupSet = true;
    process.once('exit', removeMadeDirs);
    // ava ends a worker still holding handles at the run's end with SIGTERM: clean up, then die
    // by the signal as before (once: this listener is gone when it is raised again).
    process.once('SIGTERM', () => {
      removeMadeDirs();
      process.kill(process.pid, 'SIGTERM');
    });
  }
  madeDirs.add(dir);
  return dir;
}

/** Keeps `dir` past the process's exit (a failing torture run's files are read by hand). */
export function keepTempDir(dir: string): void {
  madeDirs.delete(dir);
}

function removeMadeDirs(): void {
  for (const dir of madeDirs) {
    try {
      fs.rmSync(dir, { recursive: true, force: true });
    } catch {
      // Best effort: a directory a test made unreadable to us stays behind.
    }
  }
  madeDirs.clear();
}

/** An environment with none of the operator's variables, so only flags decide the files. */
export function cleanEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!key.startsWith('MDB_LOG_FILE_') && key !== 'MMS_LOG_DIR') env[key] = value;
  }
  return { ...env, ...extra };
}

export interface Exit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

/** Every sidecar a test started: a test that fails before stopping its own leaves none behind. */
const started = new Set<ChildProcess>();
process.on('exit', () => {
  for (const child of started) child.kill('SIGKILL');
});

export class SidecarProcess {
  readonly child: ChildProcess;
  readonly exited: Promise<Exit>;
  #stdout: Buffer[] = [];
  #stdoutBytes = 0;
  stderr = '';

  /**
   * `command`: what runs instead of `node` (a wrapper such as setpriv, then node); with `bin`
   * '--', `args` are given whole (the bin among them). `launcher` runs node through another
   * command, as `setpriv --reuid=2000 --`.
   */
  constructor(
    args: readonly string[],
    options: { env?: NodeJS.ProcessEnv; bin?: string; command?: readonly string[]; launcher?: { command: string; prefix: readonly string[] } } = {},
  ) {
    const bin = options.bin === '--' ? [] : [options.bin ?? SIDECAR_BIN];
    const [program, ...prefix] = options.launcher
      ? [options.launcher.command, ...options.launcher.prefix, process.execPath]
      : (options.command ?? [process.execPath]);
    this.child = spawn(program!, [...prefix, ...bin, ...args], {
      env: options.env ?? cleanEnv(),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    this.child.stdout!.on('data', (chunk: Buffer) => {
      this.#stdout.push(chunk);
      this.#stdoutBytes += chunk.length;
    });
    this.child.stderr!.on('data', (chunk: Buffer) => {
      this.stderr += chunk.toString();
    });
    started.add(this.child);
    this.exited = new Promise((resolve) => {
      this.child.on('close', (code, signal) => {
        started.delete(this.child);
        resolve({ code, signal });
      });
    });
  }

  get stdoutBytes(): number {
    return this.#stdoutBytes;
  }

  stdout(): string {
    return Buffer.concat(this.#stdout).toString('utf8');
  }

  /** Complete lines of stdout so far. */
  lines(): string[] {
    const text = this.stdout();
    const lines = text.split('\n');
    lines.pop();
    return lines;
  }

  /** Its JSON diagnostics so far: whole lines only (the last may be half written). */
  diagnostics(): Record<string, unknown>[] {
    return this.stderr
      .split('\n')
      .slice(0, -1)
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as Record<string, unknown>);
  }

  /** Waits until the sidecar has said it follows `count` files (or streams). */
  async waitForDiagnostic(predicate: (d: Record<string, unknown>) => boolean, timeoutMs = 10_000): Promise<void> {
    await waitUntil(() => this.diagnostics().some(predicate), timeoutMs, `diagnostic not seen; stderr:\n${this.stderr}`);
  }

  async waitForLines(count: number, timeoutMs = 20_000): Promise<void> {
    // On a timeout, what the sidecar was doing: whether it still runs, and what it said last.
    await waitUntil(() => this.lines().length >= count, timeoutMs, () => `only ${this.lines().length} of ${count} lines; ${this.#state()}`);
  }

  #state(): string {
    const { exitCode, signalCode } = this.child;
    const running = !this.#ended() ? 'still running' : `exited (${signalCode ?? exitCode})`;
    const said = this.stderr.split('\n').filter((line) => line !== '').slice(-20);
    return `the sidecar is ${running}; its last ${said.length} stderr lines:\n${said.join('\n')}`;
  }

  /** The reader stops reading (a stalled log shipper): the pipe fills, the sidecar must wait. */
  stallReader(): void {
    this.child.stdout!.pause();
  }

  resumeReader(): void {
    this.child.stdout!.resume();
  }

  /**
   * Runs `act` while the sidecar is stopped (SIGSTOP): it reads and looks at nothing meanwhile,
   * and sees it all at once after (SIGCONT). A race made to happen every time, whatever the load.
   */
  async whileFrozen(act: () => void): Promise<void> {
    const pid = this.child.pid!;
    this.child.kill('SIGSTOP');
    await waitUntil(() => processState(pid) === 'T', 5000, 'the sidecar to stop');
    try {
      act();
    } finally {
      this.child.kill('SIGCONT');
    }
  }

  /** Every stderr line is one of our JSON diagnostics (no warning of Node's, no debugger banner). */
  nonJsonStderr(): string[] {
    return this.stderr.split('\n').filter((line) => line !== '' && !line.startsWith('{"level":'));
  }

  /**
   * Sends `signal` once the sidecar has said it started, which its bin does after catching the
   * stop signals. Before that, Node is still starting: its own handler for SIGTERM and SIGINT
   * (set at boot, so /proc's SigCgt cannot tell) dies by the signal, which no program can
   * change, and on a loaded machine that window has lasted over a second. SIGKILL and SIGSTOP
   * are never caught and go at once.
   */
  async signal(signal: NodeJS.Signals): Promise<void> {
    if (signal !== 'SIGKILL' && signal !== 'SIGSTOP') {
      await waitUntil(() => this.#ended() || this.diagnostics().some((d) => d['event'] === 'started'), 10_000, () => `the sidecar to start; ${this.#state()}`);
    }
    this.child.kill(signal);
  }

  async stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<Exit> {
    await this.signal(signal);
    return this.exited;
  }

  #ended(): boolean {
    return this.child.exitCode !== null || this.child.signalCode !== null;
  }
}

/** The state file as saved now: each followed path's files and positions. */
export interface SavedState {
  readonly version: number;
  readonly savedAt?: number;
  readonly files: Record<string, { dev: number; ino: number; position: number; retired?: boolean; midLine?: boolean; readToEnd?: boolean }[]>;
}

/** Whether a process has a handler for `signal` (its bit in /proc's SigCgt mask; bash's `trap`, say), false once it has gone. Not for Node, whose boot catches SIGTERM and SIGINT already. */
export function catchesSignal(pid: number, signal: NodeJS.Signals): boolean {
  let status: string;
  try {
    status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  } catch {
    return false;
  }
  const caught = /SigCgt:\s*([0-9a-f]+)/.exec(status)?.[1];
  return caught !== undefined && (BigInt(`0x${caught}`) & (1n << BigInt(os.constants.signals[signal] - 1))) !== 0n;
}

/** A process's state letter in /proc (`T`: stopped by a signal). */
function processState(pid: number): string {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
}

export function readState(file: string): SavedState | undefined {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as SavedState;
  } catch {
    return undefined;
  }
}

export async function waitUntil(condition: () => boolean, timeoutMs: number, what: string | (() => string)): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > end) throw new Error(`timed out: ${typeof what === 'string' ? what : what()}`);
    await sleep(20);
  }
}

/** The sidecar said it follows `file`. */
export function followsPath(file: string): (d: Record<string, unknown>) => boolean {
  return (d) => d['event'] === 'opened' && d['path'] === file;
}

/** The sidecar said it waits for `file` to appear. */
export function waitsForPath(file: string): (d: Record<string, unknown>) => boolean {
  return (d) => d['event'] === 'waiting' && d['path'] === file;
}

/** A temp log dir holding an empty `<type>.log`, and the sidecar following it. */
export async function followEmptyFile(
  name: string,
  type = 'mongodb',
  args: readonly string[] = [],
): Promise<{ dir: string; file: string; sidecar: SidecarProcess }> {
  const dir = tempDir(name);
  const file = path.join(dir, `${type}.log`);
  fs.writeFileSync(file, '');
  const sidecar = new SidecarProcess(['--log-dir', dir, ...args]);
  await sidecar.waitForDiagnostic(followsPath(file));
  return { dir, file, sidecar };
}
