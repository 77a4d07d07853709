/**
 * A torture schedule: from a seed, the sidecar's settings and a time line of steps over 2-4
 * followed files. Pure: the same (seed, duration) gives the same steps, so a failure replays
 * with its seed (the timing of a replay differs; the steps, their order and the bytes do not).
 *
 * Steps are the primitive things the interpreter does (write lines, rename, copy, truncate,
 * unlink, stall the reader, signal the sidecar...). Actions are the named scenarios that
 * produce them (a rename rotation whose writer keeps writing to the old file for a moment; a
 * SIGKILL with two copytruncates while the sidecar is down...), each step tagged with its
 * action for the log.
 */
import { FILE_LOG_TYPES } from '../../src/log-types.js';
import { Random } from './random.js';
import type { SizeClass } from './line-content.js';

export interface TortureSettings {
  readonly seed: number;
  readonly durationMs: number;
  /** The followed files' log types, one file each: `<dir>/<type>.log`. */
  readonly types: readonly string[];
  readonly rotateWaitMs: number;
  readonly pollMs: number;
  readonly maxLineBytes: number;
  /** --from-start: with no state, files present at start are read from their start. */
  readonly fromStart: boolean;
  /** Background lines a second, per file. */
  readonly rates: readonly number[];
  /** The actions drawn from (all when undefined): a narrower soak while hunting one class. */
  readonly actions?: readonly ActionName[] | undefined;
}

export type Operation =
  | { readonly op: 'write'; readonly file: number; readonly lines: number; readonly size: SizeClass }
  | { readonly op: 'partial'; readonly file: number; readonly size: SizeClass; readonly fraction: number }
  | { readonly op: 'finish'; readonly file: number }
  | { readonly op: 'rename'; readonly file: number }
  | { readonly op: 'reopen'; readonly file: number; readonly banner: boolean }
  | { readonly op: 'copy'; readonly file: number }
  /** A home-made copytruncate: the path copied over `.1` in place (its inode rewritten), older rotations left as they are. */
  | { readonly op: 'copy-over'; readonly file: number }
  | { readonly op: 'truncate'; readonly file: number }
  | { readonly op: 'unlink'; readonly file: number }
  | { readonly op: 'recreate'; readonly file: number; readonly banner: boolean }
  | { readonly op: 'stall'; readonly ms: number }
  | { readonly op: 'start' }
  | { readonly op: 'term' }
  | { readonly op: 'kill' }
  | { readonly op: 'wait-exit' };

export type Step = Operation & {
  /** Planned time, ms after the schedule began (blocking steps push later steps back). */
  readonly at: number;
  /** The action it belongs to (index in `actions`); -1 for background writing. */
  readonly action: number;
  /** Writes that are load (background, bursts, a stall's filling): not listed in the action log. */
  readonly load?: true;
};

export type ActionName =
  | 'initial'
  | 'rename-rotate'
  | 'copytruncate'
  | 'copy-over-rotated'
  | 'delete-while-writing'
  | 'delete-recreate-now'
  | 'tiny-file'
  | 'partial-line'
  | 'burst'
  | 'big-lines'
  | 'stall'
  | 'rotate-during-stall'
  | 'sigterm-restart'
  | 'sigkill-restart'
  | 'sigterm-during-stall'
  | 'restart-during-rotation'
  | 'rotations-while-down';

export interface Action {
  readonly index: number;
  readonly name: ActionName;
  readonly at: number;
  readonly detail: string;
}

export interface Schedule {
  readonly settings: TortureSettings;
  readonly steps: readonly Step[];
  readonly actions: readonly Action[];
}

/** The agent-launcher-script type passes entry-shaped lines through: not a wrapping test. */
const TYPES = FILE_LOG_TYPES.filter((t) => !t.holdsEntries).map((t) => t.name);

const ACTION_WEIGHTS: readonly (readonly [ActionName, number])[] = [
  ['rename-rotate', 10],
  ['copytruncate', 8],
  ['copy-over-rotated', 4],
  ['delete-while-writing', 5],
  ['delete-recreate-now', 4],
  ['tiny-file', 3],
  ['partial-line', 8],
  ['burst', 5],
  ['big-lines', 4],
  ['stall', 5],
  ['rotate-during-stall', 5],
  ['sigterm-restart', 4],
  ['sigkill-restart', 4],
  ['sigterm-during-stall', 3],
  ['restart-during-rotation', 4],
  ['rotations-while-down', 4],
];

export function settingsFor(seed: number, durationMs: number, actions?: readonly ActionName[]): TortureSettings {
  const random = new Random(seed, 0x5e7);
  const count = random.int(2, 4);
  return {
    seed,
    durationMs,
    types: random.sample(TYPES, count),
    rotateWaitMs: random.pick([800, 1000, 1500, 2000]),
    pollMs: random.pick([250, 500, 1000]),
    maxLineBytes: random.pick([16 * 1024, 64 * 1024, 1024 * 1024]),
    fromStart: random.chance(0.25),
    rates: Array.from({ length: count }, () => random.int(20, 400)),
    ...(actions ? { actions } : {}),
  };
}

export const ACTION_NAMES: readonly ActionName[] = ACTION_WEIGHTS.map(([name]) => name);

/** The sidecar's arguments for these settings (besides the paths). */
export function sidecarArgs(settings: TortureSettings): string[] {
  return [
    '--rotate-wait',
    `${settings.rotateWaitMs}ms`,
    '--poll-interval',
    `${settings.pollMs}ms`,
    '--max-line-bytes',
    String(settings.maxLineBytes),
    '--stats-interval',
    '0',
    ...(settings.fromStart ? ['--from-start'] : []),
  ];
}

export function generateSchedule(seed: number, durationMs: number, actions?: readonly ActionName[]): Schedule {
  return new ScheduleBuilder(settingsFor(seed, durationMs, actions)).build();
}

interface Window {
  readonly from: number;
  readonly to: number;
}

class ScheduleBuilder {
  readonly #settings: TortureSettings;
  readonly #random: Random;
  readonly #steps: (Step & { readonly order: number })[] = [];
  readonly #actions: Action[] = [];
  /** Until when each file is taken by an action (no other rotation may start on it). */
  readonly #fileBusy: number[];
  /** When each file's writer first opens it. */
  readonly #createdAt: number[];
  /** Times a file's background writer is silent (a partial line pending, a tiny file kept small). */
  readonly #quiet: Window[][];
  #sidecarBusyUntil = 0;
  #stallUntil = 0;

  constructor(settings: TortureSettings) {
    this.#settings = settings;
    this.#random = new Random(settings.seed, 0x5c4ed);
    this.#fileBusy = settings.types.map(() => 0);
    this.#createdAt = settings.types.map(() => 0);
    this.#quiet = settings.types.map(() => []);
  }

  build(): Schedule {
    this.#initial();
    const end = this.#settings.durationMs;
    const allowed = this.#settings.actions;
    const weights = allowed ? ACTION_WEIGHTS.filter(([name]) => allowed.includes(name)) : ACTION_WEIGHTS;
    for (let t = 800; t < end - 1500 && weights.length > 0; t += this.#random.int(300, 1200)) {
      for (let attempt = 0; attempt < 6; attempt++) {
        if (this.#tryAction(this.#random.weighted(weights), t)) break;
      }
    }
    this.#background();
    const steps = [...this.#steps].sort((a, b) => a.at - b.at || a.order - b.order).map(({ order: _order, ...step }) => step as Step);
    return { settings: this.#settings, steps, actions: this.#actions };
  }

  /** Files there before the first start (some with lines and a banner), others created later. */
  #initial(): void {
    const action = this.#action('initial', 0, '');
    const details: string[] = [];
    this.#settings.types.forEach((type, file) => {
      if (this.#random.chance(0.6)) {
        this.#add(0, action, { op: 'reopen', file, banner: this.#random.chance(0.4) });
        this.#add(0, action, { op: 'write', file, lines: this.#random.int(0, 50), size: 'short' });
        details.push(`${type} present`);
      } else {
        const at = this.#random.int(200, 3000);
        this.#createdAt[file] = at;
        this.#fileBusy[file] = at;
        this.#add(at, action, { op: 'reopen', file, banner: this.#random.chance(0.4) });
        details.push(`${type} appears at ${at} ms`);
      }
    });
    this.#add(0, action, { op: 'start' });
    this.#actions[action] = { ...this.#actions[action]!, detail: details.join(', ') };
  }

  #tryAction(name: ActionName, t: number): boolean {
    const random = this.#random;
    const free = this.#settings.types.map((_, file) => file).filter((file) => this.#fileBusy[file]! <= t && this.#createdAt[file]! < t);
    const file = free.length > 0 ? random.pick(free) : undefined;
    const sidecarFree = this.#sidecarBusyUntil <= t;
    const stallFree = this.#stallUntil <= t;
    switch (name) {
      case 'rename-rotate':
      case 'copytruncate':
      case 'copy-over-rotated':
      case 'delete-while-writing':
      case 'delete-recreate-now': {
        if (file === undefined) return false;
        const action = this.#action(name, t, this.#type(file));
        this.#rotation(name, file, t, action);
        return true;
      }
      case 'tiny-file': {
        if (file === undefined) return false;
        const quietUntil = t + random.int(2000, 5000);
        const action = this.#action(name, t, `${this.#type(file)} quiet until ${quietUntil} ms`);
        this.#add(t, action, random.chance(0.5) ? { op: 'rename', file } : { op: 'unlink', file });
        this.#add(t + 10, action, { op: 'reopen', file, banner: false });
        this.#add(t + 20, action, { op: 'write', file, lines: random.int(1, 2), size: 'tiny' });
        this.#quiet[file]!.push({ from: t, to: quietUntil });
        this.#fileBusy[file] = quietUntil;
        return true;
      }
      case 'partial-line': {
        if (file === undefined) return false;
        const size = random.weighted<SizeClass>([
          ['tiny', 2],
          ['short', 5],
          ['medium', 3],
          ['long', 2],
          ['huge', 2],
        ]);
        const finishAt = Math.min(t + random.int(50, 3000), this.#settings.durationMs - 50);
        const action = this.#action(name, t, `${this.#type(file)}, a ${size} line finished at ${finishAt} ms`);
        this.#add(t, action, { op: 'partial', file, size, fraction: Math.round(random.next() * 100) / 100 });
        this.#add(finishAt, action, { op: 'finish', file });
        this.#quiet[file]!.push({ from: t - 1, to: finishAt + 1 });
        this.#fileBusy[file] = finishAt + 1;
        return true;
      }
      case 'burst': {
        const target = random.int(0, this.#settings.types.length - 1);
        if (this.#createdAt[target]! >= t) return false;
        const ms = random.int(500, 2000);
        this.#burst(target, t, ms, this.#action(name, t, `${this.#type(target)}, 10k lines/s for ${ms} ms`));
        return true;
      }
      case 'big-lines': {
        const target = random.int(0, this.#settings.types.length - 1);
        if (this.#createdAt[target]! >= t) return false;
        const count = random.int(2, 8);
        const action = this.#action(name, t, `${this.#type(target)}, ${count} lines of 20-70 KB`);
        for (let i = 0; i < count; i++) this.#add(t + i * 50, action, { op: 'write', file: target, lines: 1, size: 'huge' });
        return true;
      }
      case 'stall': {
        if (!stallFree) return false;
        const ms = random.int(1000, 10_000);
        const action = this.#action(name, t, `${ms} ms`);
        this.#stall(t, ms, action);
        return true;
      }
      case 'rotate-during-stall': {
        if (!stallFree || free.length === 0) return false;
        const ms = random.int(2000, 8000);
        const rotations = random.int(1, 3);
        const targets: number[] = [];
        for (let i = 0; i < rotations; i++) targets.push(random.pick(free));
        const action = this.#action(name, t, `${ms} ms; ${targets.map((f) => this.#type(f)).join(', ')}`);
        this.#stall(t, ms, action);
        let at = t + random.int(300, 800);
        for (const target of targets) {
          const kind = random.pick(['rename-rotate', 'copytruncate', 'copy-over-rotated', 'delete-while-writing'] as const);
          at = this.#rotation(kind, target, at, action) + random.int(50, 400);
        }
        return true;
      }
      case 'sigterm-restart':
      case 'sigkill-restart':
      case 'rotations-while-down': {
        if (!sidecarFree) return false;
        const signal = name === 'sigterm-restart' ? 'term' : name === 'sigkill-restart' ? 'kill' : random.pick(['term', 'kill'] as const);
        const action = this.#action(name, t, signal === 'term' ? 'SIGTERM' : 'SIGKILL');
        this.#add(t, action, { op: signal });
        this.#add(t, action, { op: 'wait-exit' });
        let at = t + random.int(20, 300);
        const downActions = name === 'rotations-while-down' ? random.int(2, 4) : random.int(0, 2);
        for (let i = 0; i < downActions; i++) {
          const target = free.length > 0 ? random.pick(free) : undefined;
          if (target === undefined) break;
          const kind = random.weighted<ActionName>([
            ['rename-rotate', 4],
            ['copytruncate', 4],
            ['copy-over-rotated', 2],
            ['delete-recreate-now', 2],
            ['delete-while-writing', 1],
          ]);
          at = this.#rotation(kind, target, at, action) + random.int(20, 300);
        }
        const startAt = Math.max(at, t + random.int(100, 2000));
        this.#add(startAt, action, { op: 'start' });
        this.#sidecarBusyUntil = startAt + 500;
        return true;
      }
      case 'sigterm-during-stall': {
        if (!sidecarFree || !stallFree) return false;
        const ms = random.int(2000, 8000);
        const termAt = t + random.int(300, 1500);
        const action = this.#action(name, t, `stall ${ms} ms, SIGTERM at ${termAt} ms`);
        this.#stall(t, ms, action);
        this.#add(termAt, action, { op: 'term' });
        this.#add(termAt, action, { op: 'wait-exit' });
        const startAt = termAt + random.int(100, 1500);
        this.#add(startAt, action, { op: 'start' });
        this.#sidecarBusyUntil = startAt + 500;
        return true;
      }
      case 'restart-during-rotation': {
        if (!sidecarFree || file === undefined) return false;
        const signal = random.pick(['term', 'kill'] as const);
        const action = this.#action(name, t, `${this.#type(file)}, ${signal === 'term' ? 'SIGTERM' : 'SIGKILL'}`);
        this.#add(t, action, { op: 'rename', file });
        this.#add(t + random.int(0, 100), action, { op: signal });
        this.#add(t + 100, action, { op: 'wait-exit' });
        let at = t + random.int(110, 250);
        this.#add(at, action, { op: 'reopen', file, banner: random.chance(0.3) });
        if (random.chance(0.5)) {
          at += random.int(20, 200);
          this.#add(at, action, { op: 'write', file, lines: random.int(1, 30), size: 'short' });
          this.#add(at + 1, action, { op: 'rename', file });
          at += random.int(20, 200);
          this.#add(at, action, { op: 'reopen', file, banner: random.chance(0.3) });
        }
        const startAt = at + random.int(50, 1500);
        this.#add(startAt, action, { op: 'start' });
        this.#fileBusy[file] = at + 10;
        this.#sidecarBusyUntil = startAt + 500;
        return true;
      }
      case 'initial':
        return false;
    }
  }

  /** One rotation of `file` at `t`; returns when it is over. */
  #rotation(kind: ActionName, file: number, t: number, action: number): number {
    const random = this.#random;
    let end = t;
    switch (kind) {
      case 'rename-rotate':
      case 'delete-while-writing': {
        // The writer keeps writing to the renamed (or deleted) file for a moment, then reopens.
        const moment = random.int(20, 300);
        this.#add(t, action, kind === 'rename-rotate' ? { op: 'rename', file } : { op: 'unlink', file });
        this.#add(t + moment, action, { op: 'reopen', file, banner: random.chance(0.25) });
        end = t + moment;
        break;
      }
      case 'copytruncate':
      case 'copy-over-rotated':
        // Lines written between the copy and the truncate are on disk nowhere afterwards.
        this.#add(t, action, { op: kind === 'copytruncate' ? 'copy' : 'copy-over', file });
        this.#add(t, action, { op: 'write', file, lines: random.int(0, 12), size: 'short' });
        this.#add(t, action, { op: 'truncate', file });
        break;
      case 'delete-recreate-now':
        this.#add(t, action, { op: 'recreate', file, banner: random.chance(0.5) });
        break;
      default:
        throw new Error(`not a rotation: ${kind}`);
    }
    this.#fileBusy[file] = Math.max(this.#fileBusy[file]!, end + 10);
    return end;
  }

  #stall(t: number, ms: number, action: number): void {
    this.#add(t, action, { op: 'stall', ms });
    this.#stallUntil = t + ms;
    // A stall only bites once the pipe and the sidecar's buffer are full: give it output.
    const target = this.#random.int(0, this.#settings.types.length - 1);
    if (this.#createdAt[target]! >= t) return;
    if (this.#random.chance(0.6)) this.#burst(target, t + 50, this.#random.int(500, 1500), action);
    else for (let i = 0; i < 30; i++) this.#add(t + 50 + i * 20, action, { op: 'write', file: target, lines: 1, size: 'huge' }, true);
  }

  /** 10,000 lines a second: 100 every 10 ms. */
  #burst(file: number, t: number, ms: number, action: number): void {
    for (let at = t; at < t + ms; at += 10) this.#add(at, action, { op: 'write', file, lines: 100, size: 'short' }, true);
  }

  /** Every file's steady writer: a batch every 50 ms, outside its quiet windows. */
  #background(): void {
    const random = new Random(this.#settings.seed, 0xbac);
    this.#settings.types.forEach((_, file) => {
      const perBatch = (this.#settings.rates[file]! * 50) / 1000;
      for (let at = this.#createdAt[file]! + 50; at < this.#settings.durationMs; at += 50) {
        if (this.#quiet[file]!.some((w) => at >= w.from && at <= w.to)) continue;
        const lines = Math.floor(perBatch) + (random.next() < perBatch % 1 ? 1 : 0);
        const size = random.weighted<SizeClass>([
          ['tiny', 15],
          ['short', 70],
          ['medium', 12],
          ['long', 3],
        ]);
        if (lines > 0) this.#add(at, -1, { op: 'write', file, lines, size }, true);
      }
    });
  }

  #action(name: ActionName, at: number, detail: string): number {
    this.#actions.push({ index: this.#actions.length, name, at, detail });
    return this.#actions.length - 1;
  }

  #add(at: number, action: number, operation: Operation, load = false): void {
    this.#steps.push({ ...operation, at, action, order: this.#steps.length, ...(load ? { load: true as const } : {}) });
  }

  #type(file: number): string {
    return this.#settings.types[file]!;
  }
}
