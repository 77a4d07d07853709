/**
 * Performs a schedule for real: files written, renamed, copied, truncated and deleted in a temp
 * directory; the real sidecar started, signalled and restarted; its stdout pipe read, or not
 * (a stall). Steps run at their planned times; a step that has to wait (the sidecar's exit, its
 * first look at the files) pushes the rest of the time line back by as long as it waited.
 *
 * At the end the sidecar is given its chance before anything is judged: the reader is resumed,
 * unfinished lines are finished, the output is left to go quiet, and the sidecar is stopped with
 * SIGTERM and its exit and the end of its output awaited.
 */
import fs from 'node:fs';
import path from 'node:path';
import { LogFiles, type Condition } from './log-files.js';
import { SidecarRun, readStateOnDisk } from './sidecar-run.js';
import { sidecarArgs, type Operation, type Schedule } from './schedule.js';

export interface StepRecord {
  readonly index: number;
  /** When it ran, ms since the schedule began. */
  readonly at: number;
  readonly condition: Condition;
  /** What it did, when that is more than its operation says (lines written, skipped). */
  readonly note: string;
}

export interface Observation {
  readonly schedule: Schedule;
  readonly sidecar: string;
  readonly dir: string;
  readonly stateFile: string;
  readonly files: LogFiles;
  readonly runs: readonly SidecarRun[];
  readonly records: readonly StepRecord[];
  readonly stalls: readonly { readonly from: number; readonly to: number }[];
  /** Runs that did not exit within the bound after a signal (then killed). */
  readonly hangs: readonly { readonly run: number; readonly signal: string; readonly at: number }[];
  /** How long the whole thing took, ms. */
  readonly elapsedMs: number;
}

export interface InterpretOptions {
  /** The sidecar's script (run with this Node). */
  readonly sidecar: string;
  /** An empty directory for the log files and the state file. */
  readonly dir: string;
  /** Extra arguments for the sidecar (a stop timeout it supports, say). */
  readonly extraArgs?: readonly string[];
}

/** How long a signalled sidecar may take to exit before it counts as hung (and is killed). */
const EXIT_BOUND_MS = 30_000;
/** How long the first look at the files may take at a start without state. */
const READY_BOUND_MS = 15_000;
/** At the end: output quiet this long (and writers quiet for the rotate wait) before the stop. */
const SETTLE_QUIET_MS = 2500;
const SETTLE_BOUND_MS = 30_000;

export async function interpret(schedule: Schedule, options: InterpretOptions): Promise<Observation> {
  return new Interpreter(schedule, options).run();
}

class Interpreter {
  readonly #schedule: Schedule;
  readonly #options: InterpretOptions;
  readonly #t0 = Date.now();
  readonly #stateFile: string;
  readonly #files: LogFiles;
  readonly #runs: SidecarRun[] = [];
  readonly #records: StepRecord[] = [];
  readonly #stalls: { from: number; to: number }[] = [];
  readonly #hangs: { run: number; signal: string; at: number }[] = [];
  #stallUntil = 0;
  #stalled = false;
  #stallTimer: NodeJS.Timeout | undefined;
  #step = 0;

  constructor(schedule: Schedule, options: InterpretOptions) {
    this.#schedule = schedule;
    this.#options = options;
    this.#stateFile = path.join(options.dir, '.logtype-sidecar.state');
    this.#files = new LogFiles({
      dir: options.dir,
      types: schedule.settings.types,
      seed: schedule.settings.seed,
      rotateWaitMs: schedule.settings.rotateWaitMs,
      clock: () => this.#clock(),
      condition: () => this.#condition(),
      sidecarHolds: (ino, dev) => this.#current()?.holds(ino, dev),
    });
  }

  async run(): Promise<Observation> {
    let shift = 0;
    const steps = this.#schedule.steps;
    try {
      for (let i = 0; i < steps.length; i++) {
        const step = steps[i]!;
        const wait = step.at + shift - this.#clock();
        // Sleep, or at least let the pipe readers run: a schedule behind time must not starve them.
        await (wait > 0 ? sleep(wait) : new Promise((resolve) => setImmediate(resolve)));
        this.#step = i;
        this.#files.step = i;
        const before = this.#clock();
        const note = await this.#perform(step);
        this.#records.push({ index: i, at: before, condition: this.#condition(), note });
        if (step.op === 'wait-exit' || step.op === 'start') shift += this.#clock() - before;
      }
      await this.#finish();
    } finally {
      clearTimeout(this.#stallTimer);
      for (const run of this.#runs) if (run.alive) run.child.kill('SIGKILL');
      this.#files.close();
    }
    return {
      schedule: this.#schedule,
      sidecar: this.#options.sidecar,
      dir: this.#options.dir,
      stateFile: this.#stateFile,
      files: this.#files,
      runs: this.#runs,
      records: this.#records,
      stalls: this.#stalls,
      hangs: this.#hangs,
      elapsedMs: this.#clock(),
    };
  }

  #clock(): number {
    return Date.now() - this.#t0;
  }

  #current(): SidecarRun | undefined {
    return this.#runs.at(-1);
  }

  #condition(): Condition {
    const run = this.#current();
    if (!run || !run.alive) return 'down';
    if (run.endedBy) return 'stopping';
    return this.#stalled ? 'stalled' : 'up';
  }

  async #perform(step: Operation): Promise<string> {
    const files = this.#files;
    switch (step.op) {
      case 'write': {
        const first = files.lines[step.file]!.length + 1;
        const written = files.write(step.file, step.lines, step.size);
        return written === 0 ? (step.lines > 0 ? 'skipped (no file yet, or a line unfinished)' : '') : `lines ${first}-${first + written - 1}`;
      }
      case 'partial':
        return files.writePartial(step.file, step.size, step.fraction) ? `line ${files.lines[step.file]!.length} begun` : 'skipped';
      case 'finish':
        return files.finishPartial(step.file) ? 'finished' : 'nothing unfinished';
      case 'rename':
        return files.rename(step.file) ? '' : 'skipped (no file)';
      case 'reopen':
        files.reopen(step.file, step.banner);
        return '';
      case 'copy':
        return files.copy(step.file) ? '' : 'skipped (no file)';
      case 'copy-over': {
        const how = files.copyOver(step.file);
        return how === undefined ? 'skipped (no file)' : how;
      }
      case 'truncate':
        return files.truncate(step.file) ? '' : 'skipped (no file)';
      case 'unlink':
        return files.unlink(step.file) ? '' : 'skipped (no file)';
      case 'recreate':
        files.recreateSameInode(step.file, step.banner);
        return files.gens.at(-1)?.reusedInode ? 'inode reused' : 'new inode';
      case 'stall':
        this.#stall(step.ms);
        return '';
      case 'start':
        return this.#start();
      case 'term':
      case 'kill': {
        const run = this.#current();
        if (!run?.alive) return 'not running';
        run.signal(step.op === 'term' ? 'SIGTERM' : 'SIGKILL', this.#step, this.#stalled);
        return `run ${run.index}`;
      }
      case 'wait-exit':
        return this.#waitExit();
    }
  }

  async #start(): Promise<string> {
    const previous = this.#current();
    if (previous?.alive) return 'already running';
    const hadState = fs.existsSync(this.#stateFile);
    const settings = this.#schedule.settings;
    const run = new SidecarRun({
      index: this.#runs.length,
      bin: this.#options.sidecar,
      args: ['--log-dir', this.#options.dir, '--state-file', this.#stateFile, ...sidecarArgs(settings), ...(this.#options.extraArgs ?? [])],
      clock: () => this.#clock(),
      step: this.#step,
      hadState,
      stalled: this.#stalled,
    });
    this.#runs.push(run);
    if (hadState) return `run ${run.index}`;
    // Without state, files there now are read from their end: wait for the first look, so that
    // which lines came before it is certain.
    const paths = settings.types.map((_, file) => this.#files.pathOf(file));
    const deadline = this.#clock() + READY_BOUND_MS;
    while (this.#clock() < deadline && run.alive) {
      const seen = new Set(
        run
          .diagnostics()
          .json.filter((d) => d['event'] === 'opened' || d['event'] === 'waiting' || d['event'] === 'resumed')
          .map((d) => d['path']),
      );
      if (paths.every((p) => seen.has(p))) {
        run.readyAt = this.#clock();
        break;
      }
      await sleep(20);
    }
    return `run ${run.index}, no state${run.readyAt === undefined ? ', first look not seen' : ''}`;
  }

  /** The state file as a run left it, parsed, and kept beside the logs (a failure is read by hand). */
  #stateAtExit(index: number): ReturnType<typeof readStateOnDisk> {
    try {
      fs.copyFileSync(this.#stateFile, path.join(this.#options.dir, `state-after-run-${index}.json`));
    } catch {
      // no state file (yet)
    }
    return readStateOnDisk(this.#stateFile, this.#t0);
  }

  async #waitExit(): Promise<string> {
    const run = this.#current();
    if (!run) return 'no run';
    const exit = await this.#awaitExit(run);
    run.stateAtExit = this.#stateAtExit(run.index);
    return `run ${run.index} exit ${exit.code ?? exit.signal}`;
  }

  async #awaitExit(run: SidecarRun): Promise<{ code: number | null; signal: string | null }> {
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), EXIT_BOUND_MS);
    });
    const result = await Promise.race([run.exited, timedOut]);
    clearTimeout(timer);
    if (result !== 'timeout') return result;
    this.#hangs.push({ run: run.index, signal: run.endedBy?.signal ?? 'none', at: this.#clock() });
    run.child.kill('SIGKILL');
    return run.exited;
  }

  #stall(ms: number): void {
    const now = this.#clock();
    this.#stallUntil = Math.max(this.#stallUntil, now + ms);
    if (!this.#stalled) {
      this.#stalled = true;
      this.#stalls.push({ from: now, to: this.#stallUntil });
      for (const run of this.#runs) run.setStalled(true);
    }
    this.#stalls.at(-1)!.to = this.#stallUntil;
    clearTimeout(this.#stallTimer);
    this.#stallTimer = setTimeout(() => this.#unstall(), this.#stallUntil - now);
  }

  #unstall(): void {
    clearTimeout(this.#stallTimer);
    if (!this.#stalled) return;
    this.#stalled = false;
    const last = this.#stalls.at(-1);
    if (last) last.to = this.#clock();
    for (const run of this.#runs) run.setStalled(false);
  }

  async #finish(): Promise<void> {
    const settings = this.#schedule.settings;
    this.#step = this.#schedule.steps.length;
    this.#files.step = this.#step;
    this.#unstall();
    for (let file = 0; file < settings.types.length; file++) this.#files.finishPartial(file);
    if (!this.#current()?.alive) await this.#start();
    const lastWrite = (): number => Math.max(0, ...this.#files.gens.map((g) => g.lastWriteAt ?? 0));
    const lastOutput = (): number => Math.max(0, ...this.#runs.map((r) => r.arrivals.at(-1)?.at ?? r.startedAt));
    const writersQuietMs = settings.rotateWaitMs + settings.pollMs + 500;
    const deadline = this.#clock() + SETTLE_BOUND_MS;
    while (this.#clock() < deadline) {
      const now = this.#clock();
      if (now - lastOutput() >= Math.max(SETTLE_QUIET_MS, 2 * settings.pollMs) && now - lastWrite() >= writersQuietMs) break;
      await sleep(100);
    }
    const run = this.#current()!;
    run.signal('SIGTERM', this.#step, false);
    await this.#awaitExit(run);
    run.stateAtExit = this.#stateAtExit(run.index);
    for (const each of this.#runs) {
      await Promise.race([each.outputEnded, sleep(10_000)]);
    }
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

