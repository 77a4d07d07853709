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

/** Runs per figure: this machine is shared, and one run can be 20% off either way. */
export const RUNS = 3;

/**
 * The run with the median CPU-seconds of `runs` runs (ours and the anchors' alike), and the
 * highest peak RSS of them.
 */
export function measureMedian(script: string, runs = RUNS): Measured {
  const all = Array.from({ length: runs }, () => measure(script)).sort((a, b) => a.cpuSeconds - b.cpuSeconds);
  return { ...all[Math.floor(runs / 2)]!, peakRssMb: Math.max(...all.map((m) => m.peakRssMb)) };
}
