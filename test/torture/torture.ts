/**
 * One torture schedule from seed to verdict: generate, perform against the real sidecar, judge.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { keepTempDir, SIDECAR_BIN, tempDir } from '../_helpers/sidecar-process.js';
import { interpret, type Observation } from './interpreter.js';
import { judge, type Verdict } from './oracle.js';
import { fullReport, summaryLine } from './report.js';
import { generateSchedule, type ActionName } from './schedule.js';

export interface TortureOptions {
  readonly seed: number;
  readonly durationMs: number;
  /** The sidecar's script; default: $LOGTYPE_SIDECAR, else this build's. */
  readonly sidecar?: string | undefined;
  /** Keep the log files of a passing run too (a failing run's are always kept). */
  readonly keepFiles?: boolean;
  /** Draw only these actions (all when undefined). */
  readonly actions?: readonly ActionName[] | undefined;
}

export interface TortureResult {
  readonly observation: Observation;
  readonly verdict: Verdict;
  /** One line of figures. */
  readonly summary: string;
  /** Everything, with the action log when it failed. */
  readonly report: string;
}

export function defaultSidecar(env: NodeJS.ProcessEnv = process.env): string {
  return env['LOGTYPE_SIDECAR'] || SIDECAR_BIN;
}

/** The seconds a SIGTERMed sidecar may keep offering what it read, when the build has the option. */
const STOP_TIMEOUT = '3';
const optionsOf = new Map<string, string>();

function extraArgsFor(sidecar: string): string[] {
  let help = optionsOf.get(sidecar);
  if (help === undefined) {
    help = spawnSync(process.execPath, [sidecar, '--help'], { encoding: 'utf8', timeout: 20_000 }).stdout ?? '';
    optionsOf.set(sidecar, help);
  }
  return help.includes('--stop-timeout') ? ['--stop-timeout', STOP_TIMEOUT] : [];
}

export async function runTorture(options: TortureOptions): Promise<TortureResult> {
  const sidecar = options.sidecar ?? defaultSidecar();
  if (!fs.existsSync(sidecar)) throw new Error(`no sidecar at ${sidecar}: build it (npx tsc -p .) or pass --sidecar PATH`);
  const schedule = generateSchedule(options.seed, options.durationMs, options.actions);
  const dir = tempDir(`torture-${options.seed}`);
  const observation = await interpret(schedule, { sidecar, dir, extraArgs: extraArgsFor(sidecar) });
  const verdict = judge(observation);
  if (verdict.passed && !options.keepFiles) fs.rmSync(dir, { recursive: true, force: true });
  else {
    keepTempDir(dir);
    // Beside the log files of a failed run: what each run wrote, to look into by hand.
    for (const run of observation.runs) {
      fs.writeFileSync(path.join(dir, `run-${run.index}.stdout`), Buffer.concat(run.chunks));
      fs.writeFileSync(path.join(dir, `run-${run.index}.stderr`), run.stderr);
    }
  }
  return { observation, verdict, summary: summaryLine(observation, verdict), report: fullReport(observation, verdict) };
}
