/**
 * `npm run torture -- [--minutes N] [--seed S] [--schedule-seconds D] [--sidecar PATH]`
 *
 * With --seed and no --minutes: that one schedule (a replay). With --minutes: schedules one
 * after another (seeds S, S+1, ...; S random when not given) until N minutes have passed, a
 * line of figures each, the full report of each failure, and the totals at the end. The exit
 * status is 1 when any schedule failed.
 */
import { parseArgs } from 'node:util';
import { figuresText } from './report.js';
import { defaultSidecar, runTorture } from './torture.js';
import type { Figures } from './oracle.js';
import { ACTION_NAMES, type ActionName } from './schedule.js';

const USAGE = 'usage: npm run torture -- [--minutes N] [--seed S] [--schedule-seconds D] [--sidecar PATH] [--actions A,B,...]';

interface SoakOptions {
  readonly minutes: number | undefined;
  readonly seed: number;
  readonly seconds: number;
  readonly sidecar: string;
  readonly actions: ActionName[] | undefined;
}

/** The options, or undefined once the help or a usage error was written (the exit status set). */
function parse(): SoakOptions | undefined {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        minutes: { type: 'string' },
        seed: { type: 'string' },
        'schedule-seconds': { type: 'string' },
        sidecar: { type: 'string' },
        actions: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (error) {
    return usageError((error as Error).message);
  }
  if (values.help) {
    process.stdout.write(
      `${USAGE}\n  --seed S: replay one schedule; --minutes N: a soak of N minutes; --sidecar: another build's dist/bin/logtype-sidecar.js;\n  --actions: draw only these (${ACTION_NAMES.join(', ')})\n`,
    );
    return undefined;
  }
  const numbers: Record<string, number | undefined> = {};
  for (const name of ['minutes', 'seed', 'schedule-seconds'] as const) {
    const text = values[name];
    if (text === undefined) continue;
    const value = Number(text);
    if (!Number.isFinite(value) || value < 0) return usageError(`--${name} takes a number, not "${text}"`);
    numbers[name] = value;
  }
  const actions = values.actions?.split(',').map((a) => a.trim()) as ActionName[] | undefined;
  const unknown = actions?.filter((a) => !ACTION_NAMES.includes(a)) ?? [];
  if (unknown.length > 0) return usageError(`--actions: unknown ${unknown.join(', ')} (known: ${ACTION_NAMES.join(', ')})`);
  return {
    actions,
    minutes: numbers['minutes'],
    seed: numbers['seed'] ?? Math.floor(Math.random() * 2 ** 31),
    seconds: numbers['schedule-seconds'] ?? 30,
    sidecar: values.sidecar ?? defaultSidecar(),
  };
}

function usageError(message: string): undefined {
  process.stderr.write(`${message}\n${USAGE}\n`);
  process.exitCode = 2;
  return undefined;
}

async function soak(options: SoakOptions): Promise<void> {
  const totals = new Map<string, number>();
  /** Actions drawn over all schedules, by kind, and the sidecar's stops by signal. */
  const actionCounts = new Map<string, number>();
  const stops = { SIGTERM: 0, SIGKILL: 0 };
  let schedules = 0;
  let failed = 0;
  const end = Date.now() + (options.minutes ?? 0) * 60_000;
  process.stdout.write(`torture against ${options.sidecar}, schedules of ${options.seconds} s${options.minutes ? `, for ${options.minutes} minutes` : ''}\n`);
  for (let seed = options.seed; schedules === 0 || Date.now() < end; seed++) {
    const result = await runTorture({ seed, durationMs: options.seconds * 1000, sidecar: options.sidecar, actions: options.actions });
    schedules++;
    if (!result.verdict.passed) failed++;
    process.stdout.write(`${result.summary}\n`);
    if (!result.verdict.passed) process.stdout.write(`${result.report}\n`);
    for (const action of result.observation.schedule.actions) actionCounts.set(action.name, (actionCounts.get(action.name) ?? 0) + 1);
    for (const run of result.observation.runs) if (run.endedBy) stops[run.endedBy.signal]++;
    for (const [key, value] of Object.entries(result.verdict.figures)) {
      if (typeof value === 'number') totals.set(key, (totals.get(key) ?? 0) + value);
      else for (const [cause, n] of Object.entries(value as Record<string, number>)) totals.set(`lost: ${cause}`, (totals.get(`lost: ${cause}`) ?? 0) + n);
    }
  }
  const total = Object.fromEntries(totals) as unknown as Figures;
  const causes = [...totals].filter(([k]) => k.startsWith('lost: ')).map(([k, v]) => [k.slice(6), v] as const);
  process.stdout.write(`\n${schedules} schedules, ${failed} failed; ${figuresText({ ...total, lostByCause: Object.fromEntries(causes) })}\n`);
  const kinds = [...actionCounts].sort((a, b) => b[1] - a[1]).map(([name, n]) => `${name} ${n}`);
  process.stdout.write(`actions: ${kinds.join(', ')}; sidecar stops: ${stops.SIGTERM} SIGTERM, ${stops.SIGKILL} SIGKILL\n`);
  if (failed > 0) process.exitCode = 1;
}

const options = parse();
if (options) await soak(options);
