/**
 * The sizes of a bench run, one table: `npm run bench -- [NAME ...] [--entries N] [--turns N]
 * [--window S]`. The defaults are the full run the published figures come from; smaller values
 * are for trying a bench out on a busy machine, and their figures are not comparable with them.
 */
import { parseArgs } from 'node:util';

export interface BenchOptions {
  /** Entries of the filter's inputs, lines of the catch-up input. */
  readonly entries: number;
  /**
   * How many times every command of a CPU bench runs, the median taken: the machine is shared,
   * and one run can be 20% off either way.
   */
  readonly turns: number;
  /** Seconds of every timed window, where set: live writing, latency, idle, the stopped reader. */
  readonly window: number | undefined;
}

export const FULL_RUN: BenchOptions = { entries: 1_000_000, turns: 5, window: undefined };

export const USAGE =
  'usage: npm run bench -- [NAME ...] [--entries N] [--turns N] [--window SECONDS]\n' +
  '  --entries N       entries of the filter inputs and lines of the catch-up input [default: 1000000]\n' +
  '  --turns N         runs of every command in the CPU benches, and windows of live at 1000 lines/s, the median taken [default: 5]\n' +
  '  --window SECONDS  length of every timed window (live 20, latency 10, idle 120, stopped reader 30 by default)\n' +
  'environment: LOGTYPE_BENCH_BUILD=DIR measures the commands built in another checkout (DIR/dist/bin), for a before/after\n';

function positiveInteger(name: string, text: string | undefined, fallback: number): number {
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} takes a whole number of at least 1, not ${JSON.stringify(text)}`);
  return value;
}

/** The bench names and the sizes; throws with a message naming the fix on a wrong option. */
export function parseBenchArgs(args: readonly string[]): { names: string[]; options: BenchOptions } {
  const { values, positionals } = parseArgs({
    args: [...args],
    allowPositionals: true,
    options: { entries: { type: 'string' }, turns: { type: 'string' }, window: { type: 'string' } },
  });
  const window = values.window === undefined ? undefined : Number(values.window);
  if (window !== undefined && !(window > 0)) throw new Error(`--window takes a number of seconds above 0, not ${JSON.stringify(values.window)}`);
  return {
    names: positionals,
    options: {
      entries: positiveInteger('entries', values.entries, FULL_RUN.entries),
      turns: positiveInteger('turns', values.turns, FULL_RUN.turns),
      window,
    },
  };
}

/** A timed window: its full-run length unless --window sets every window. */
export const windowSeconds = (options: BenchOptions, fullRun: number): number => options.window ?? fullRun;

/** The options as a note under a bench's title when they are not the full run's. */
export function sizeNote(options: BenchOptions): string {
  const changed = [
    options.entries !== FULL_RUN.entries ? `--entries ${options.entries}` : '',
    options.turns !== FULL_RUN.turns ? `--turns ${options.turns}` : '',
    options.window !== undefined ? `--window ${options.window}` : '',
  ].filter(Boolean);
  return changed.length === 0 ? '' : `A small run (${changed.join(' ')}): figures not comparable with a full run's.\n\n`;
}
