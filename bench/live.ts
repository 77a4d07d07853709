/**
 * Live load, latency and memory (docs/anchors.md §1), the pipelines and the sidecar in one run.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { windowSeconds, type BenchOptions } from './bench-options.js';
import { fmt } from './measure.js';
import { LOG_TYPES, SIDECAR_BIN, logDirFiles, pipelineScript, pipelines, sidecar, sidecarArgs, type FollowerSystem } from './followers.js';
import { cpuTicks, rssMb, waitUntilOpen } from './proc-stats.js';

const WRITER = path.resolve(import.meta.dirname, 'live-writer.js');
const TYPES = LOG_TYPES;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** How long the load runs before a window that shows a follower as it runs after its start. */
const WARM_SECONDS = 20;

/** Counts newlines the follower writes; calls `onLine` with each line when asked. */
function countLines(child: ChildProcess, onLine?: (line: string) => void): { readonly count: () => number } {
  let count = 0;
  let rest = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    if (onLine) {
      const lines = (rest + chunk.toString('utf8')).split('\n');
      rest = lines.pop()!;
      for (const line of lines) onLine(line);
    }
    for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) count++;
  });
  return { count: () => count };
}

async function startFollower(system: FollowerSystem, dir: string): Promise<{ child: ChildProcess; group: boolean }> {
  const files = logDirFiles(dir);
  for (const file of files) fs.writeFileSync(file.path, '');
  // The FollowerSystem collects stdout itself; here the bench reads it, so start it the same way.
  const group = system === pipelines;
  const child = group
    ? spawn('bash', ['-c', pipelineScript(files)], { stdio: ['ignore', 'pipe', 'ignore'], detached: true })
    : // As deployed: the state file on the log dir, written as the sidecar goes.
      spawn(process.execPath, [SIDECAR_BIN, ...sidecarArgs(dir), '--stats-interval', '0'], { stdio: ['ignore', 'pipe', 'ignore'] });
  // Files present at start are followed from their end (tail -n0, and the sidecar alike): writing
  // starts once every file is open, or a busy machine makes the first lines nobody's to read.
  if (!(await waitUntilOpen(child.pid!, group, files.map((f) => f.path)))) throw new Error(`bench: ${system.name} did not open the log files within 10 s`);
  return { child, group };
}

/** Stops a follower as a container stop does, and waits for it to end (the sidecar saves its state file as it stops). */
async function stop(child: ChildProcess, group: boolean): Promise<void> {
  const exited = child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((resolve) => child.once('exit', resolve));
  try {
    if (group) process.kill(-child.pid!, 'SIGTERM');
    else child.kill('SIGTERM');
  } catch {
    // gone
  }
  await exited;
}

interface LiveResult {
  readonly written: number;
  readonly delivered: number;
  readonly drainSeconds: number;
  readonly cpuMicrosPerLine: number;
  readonly peakRssMb: number;
}

/**
 * One window of `seconds` at `rate` lines/s a file. With `warmSeconds`, the same load runs that
 * long before the window, in the same process: the window then shows a follower that has run a
 * while (as a deployed sidecar has: V8 compiles its hot code in its first seconds, a one-time
 * cost a fresh window counts in full), and what was written before it is left out.
 */
async function live(system: FollowerSystem, rate: number, seconds: number, warmSeconds = 0): Promise<LiveResult> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'logtype-live-'));
  const { child, group } = await startFollower(system, dir);
  const lines = countLines(child);
  let peakRssMb = 0;
  const sampler = setInterval(() => {
    peakRssMb = Math.max(peakRssMb, rssMb(child.pid!, group));
  }, 100);
  let before = cpuTicks(child.pid!, group);
  const writer = spawn(process.execPath, [WRITER, String(rate), String(seconds + warmSeconds), ...TYPES.map((t) => path.join(dir, `${t}.log`))], { stdio: ['ignore', 'pipe', 'inherit'] });
  let perFile = 0;
  writer.stdout!.on('data', (chunk: Buffer) => {
    perFile = Number(chunk.toString().trim());
  });
  const closed = new Promise((resolve) => writer.on('close', resolve));
  let deliveredBefore = 0;
  if (warmSeconds > 0) {
    await sleep(warmSeconds * 1000);
    before = cpuTicks(child.pid!, group);
    deliveredBefore = lines.count();
  }
  await closed;
  const stopped = Date.now();
  const written = perFile * TYPES.length;
  while (lines.count() < written && Date.now() - stopped < 60_000) await sleep(5);
  const drainSeconds = (Date.now() - stopped) / 1000;
  const used = cpuTicks(child.pid!, group) - before;
  clearInterval(sampler);
  await stop(child, group);
  fs.rmSync(dir, { recursive: true, force: true });
  const delivered = lines.count() - deliveredBefore;
  return { written: written - deliveredBefore, delivered, drainSeconds, cpuMicrosPerLine: (used * 10_000) / Math.max(1, delivered), peakRssMb };
}

async function latency(system: FollowerSystem, othersRate: number, seconds: number): Promise<number[]> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'logtype-latency-'));
  const { child, group } = await startFollower(system, dir);
  const samples: number[] = [];
  countLines(child, (line) => {
    const match = /lat-(\d+)-/.exec(line);
    if (match) samples.push(Number(process.hrtime.bigint() - BigInt(match[1]!)) / 1e6);
  });
  const others = othersRate > 0
    ? spawn(process.execPath, [WRITER, String(othersRate), String(seconds + 1), ...TYPES.filter((t) => t !== 'mongodb').map((t) => path.join(dir, `${t}.log`))], { stdio: 'ignore' })
    : undefined;
  const fd = fs.openSync(path.join(dir, 'mongodb.log'), 'a');
  const end = Date.now() + seconds * 1000;
  while (Date.now() < end) {
    fs.writeSync(fd, `lat-${process.hrtime.bigint()}-${'q'.repeat(150)}\n`);
    await sleep(10);
  }
  fs.closeSync(fd);
  await sleep(1000);
  others?.kill();
  await stop(child, group);
  fs.rmSync(dir, { recursive: true, force: true });
  return samples;
}

/**
 * The windows as one row: the median CPU per line (the lower middle one of an even count) with
 * the lowest and highest; what every window wrote and delivered summed (a window that lost
 * lines shows); the longest drain and the highest peak RSS of any window.
 */
function medianRun(results: readonly LiveResult[]): LiveResult & { readonly low: number; readonly high: number } {
  const sorted = [...results].sort((a, b) => a.cpuMicrosPerLine - b.cpuMicrosPerLine);
  const median = sorted[(sorted.length - 1) >> 1]!;
  return {
    written: results.reduce((sum, r) => sum + r.written, 0),
    delivered: results.reduce((sum, r) => sum + r.delivered, 0),
    drainSeconds: Math.max(...results.map((r) => r.drainSeconds)),
    cpuMicrosPerLine: median.cpuMicrosPerLine,
    peakRssMb: Math.max(...results.map((r) => r.peakRssMb)),
    low: sorted[0]!.cpuMicrosPerLine,
    high: sorted.at(-1)!.cpuMicrosPerLine,
  };
}

const percentile = (sorted: number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

export async function runLiveBench(options: BenchOptions): Promise<string> {
  const seconds = windowSeconds(options, 20);
  const latencySeconds = windowSeconds(options, 10);
  const out: string[] = ['The sidecar runs as deployed: its state file on the log dir. RSS of the pipelines: the sum over their 17 processes.', ''];
  for (const rate of [1000, 30_000]) {
    // At 1000 lines/s a line's CPU is mostly the wake that brings it (a turn reads what a few
    // writes left), so one window's figure moves with the machine by 30% and more: the median of
    // `turns` windows, taken in turns. At 30,000/s turns are full and one window tells.
    const windows = rate === 1000 ? options.turns : 1;
    out.push(
      `### Live: 8 files x ${rate} lines/s for ${seconds} s${windows > 1 ? `, ${windows} windows in turns: lines summed over them, CPU the median (the range after it), drain and RSS the worst` : ''}`,
      '',
      '| system | written | delivered | delivered within (s of the writer stopping) | CPU-µs per line | fewer CPU-µs per line than the pipelines | peak RSS MB |',
      '|---|---|---|---|---|---|---|',
    );
    // At 1000 lines/s the fresh windows are joined by windows after WARM_SECONDS of the same
    // load: a fresh window's CPU counts V8 compiling the sidecar's hot code, about a third of it.
    const warmings = rate === 1000 ? [0, WARM_SECONDS] : [0];
    const runs = new Map<string, { system: FollowerSystem; warm: number; results: LiveResult[] }>();
    for (const warm of warmings) {
      for (const system of [pipelines, sidecar]) runs.set(`${system.name}${warm}`, { system, warm, results: [] });
    }
    for (const warm of warmings) {
      for (let turn = 0; turn < windows; turn++) {
        for (const run of runs.values()) if (run.warm === warm) run.results.push(await live(run.system, rate, seconds, warm));
      }
    }
    for (const warm of warmings) {
      const theirs = medianRun(runs.get(`${pipelines.name}${warm}`)!.results);
      for (const { system, results } of [...runs.values()].filter((run) => run.warm === warm)) {
        const r = medianRun(results);
        const ratio = system === sidecar ? `**${fmt(theirs.cpuMicrosPerLine / r.cpuMicrosPerLine, 1)}x**` : '';
        const cpu = results.length > 1 ? `${fmt(r.cpuMicrosPerLine, 2)} (${fmt(r.low, 2)}-${fmt(r.high, 2)})` : fmt(r.cpuMicrosPerLine, 2);
        const name = `${system.name}${warm > 0 ? `, after ${warm} s of this load` : ''}`;
        out.push(`| ${name.replaceAll('|', '\\|')} | ${r.written} | ${r.delivered} | ${fmt(r.drainSeconds, 2)} | ${cpu} | ${ratio} | ${fmt(r.peakRssMb, 0)} |`);
      }
    }
    out.push('', rate === 30_000 ? 'Targets (sidecar): delivered within 1 s, 5 CPU-µs per line or less, RSS under 64 MB.' : 'Target (sidecar): 8 CPU-µs per line or less, RSS under 64 MB.', '');
  }
  out.push('### Latency: write() to the line read from the pipe, 100 lines/s to one file', '', '| system | others | p50 ms | p99 ms | max ms | samples |', '|---|---|---|---|---|---|');
  for (const othersRate of [0, 30_000]) {
    for (const system of [pipelines, sidecar]) {
      const sorted = (await latency(system, othersRate, latencySeconds)).sort((a, b) => a - b);
      out.push(`| ${system.name.replaceAll('|', '\\|')} | ${othersRate === 0 ? 'idle' : `7 x ${othersRate}/s`} | ${fmt(percentile(sorted, 50))} | ${fmt(percentile(sorted, 99))} | ${fmt(sorted.at(-1) ?? NaN)} | ${sorted.length} |`);
    }
  }
  out.push('', 'Targets (sidecar): p50 under 1 ms and p99 under 5 ms with the others idle; p99 under 15 ms with them at 30,000/s.');
  return out.join('\n');
}
