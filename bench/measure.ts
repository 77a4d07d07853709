/**
 * CPU-seconds (user + system, children included) and peak RSS of one command, from GNU time.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface Measured {
  readonly cpuSeconds: number;
  readonly wallSeconds: number;
  readonly peakRssMb: number;
}

/** Runs `bash -c script` under /usr/bin/time (Debian package `time`). */
export function measure(script: string): Measured {
  const report = path.join(os.tmpdir(), `logtype-time-${process.pid}`);
  const started = process.hrtime.bigint();
  const result = spawnSync('/usr/bin/time', ['-o', report, '-f', '%U %S %M', 'bash', '-c', script], { stdio: ['ignore', 'ignore', 'inherit'] });
  const wallSeconds = Number(process.hrtime.bigint() - started) / 1e9;
  if (result.error) throw new Error(`/usr/bin/time is needed (apt-get install time): ${result.error.message}`);
  const [user, system, rssKb] = fs.readFileSync(report, 'utf8').trim().split('\n').at(-1)!.split(' ').map(Number);
  fs.rmSync(report, { force: true });
  return { cpuSeconds: user! + system!, wallSeconds, peakRssMb: rssKb! / 1024 };
}

export const fmt = (n: number, digits = 2): string => n.toFixed(digits);

/** The run with the median CPU-seconds, and the highest peak RSS of them all. */
function medianOf(runs: readonly Measured[]): Measured {
  const sorted = [...runs].sort((a, b) => a.cpuSeconds - b.cpuSeconds);
  return { ...sorted[Math.floor(sorted.length / 2)]!, peakRssMb: Math.max(...sorted.map((m) => m.peakRssMb)) };
}

/**
 * The median run of each script (by CPU-seconds), their runs taken in turns (every script once, then again):
 * the machine is shared and slows down for minutes at a time, so a figure and the anchor it
 * is compared with are measured in the same minutes, not one after the other.
 */
export function measureInTurns(scripts: readonly string[], runs: number): Measured[] {
  const all = scripts.map((): Measured[] => []);
  for (let turn = 0; turn < runs; turn++) scripts.forEach((script, i) => all[i]!.push(measure(script)));
  return all.map(medianOf);
}
