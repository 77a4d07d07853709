/**
 * Live load, latency and memory (ANCHORS.md §1), the pipelines and the sidecar in one run.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fmt } from './measure.js';
import { pipelines, sidecar, type FollowerSystem } from './followers.js';

const WRITER = path.resolve(import.meta.dirname, 'live-writer.js');
const TYPES = ['automation-agent-verbose', 'automation-agent-stderr', 'automation-agent', 'monitoring-agent', 'backup-agent', 'mongodb', 'mongodb-audit', 'agent-launcher-script'];
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** CPU ticks (1/100 s) of every process in a process group, or of one process. */
function cpuTicks(pid: number, group: boolean): number {
  let ticks = 0;
  for (const entry of group ? fs.readdirSync('/proc').filter((e) => /^\d+$/.test(e)) : [String(pid)]) {
    try {
      const fields = fs.readFileSync(`/proc/${entry}/stat`, 'utf8').split(') ')[1]!.split(' ');
      if (!group || Number(fields[2]) === pid) ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // gone
    }
  }
  return ticks;
}

function rssMb(pid: number): number {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
  } catch {
    return 0;
  }
}

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
  const files = TYPES.map((type) => ({ logType: type, path: path.join(dir, `${type}.log`) }));
  for (const file of files) fs.writeFileSync(file.path, '');
  // The FollowerSystem collects stdout itself; here the bench reads it, so start it the same way.
  if (system === pipelines) {
    const script = files
      .map((f) => `tail -F -n0 '${f.path}' 2>/dev/null | jq --unbuffered -n -c -R 'inputs | {"logType": "${f.logType}", "contents": .}' &`)
      .join('\n');
    const child = spawn('bash', ['-c', `${script}\nwait`], { stdio: ['ignore', 'pipe', 'ignore'], detached: true });
    await sleep(500);
    return { child, group: true };
  }
  const child = spawn(process.execPath, [path.resolve(import.meta.dirname, '../bin/logtype-sidecar.js'), '--log-dir', dir, '--stats-interval', '0', '--state-file', ''], {
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  await sleep(800);
  return { child, group: false };
}

function stop(child: ChildProcess, group: boolean): void {
  try {
    if (group) process.kill(-child.pid!, 'SIGTERM');
    else child.kill('SIGTERM');
  } catch {
    // gone
  }
}

interface LiveResult {
  readonly written: number;
  readonly delivered: number;
  readonly drainSeconds: number;
  readonly cpuMicrosPerLine: number;
  readonly peakRssMb: number;
}

async function live(system: FollowerSystem, rate: number, seconds: number): Promise<LiveResult> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'logtype-live-'));
  const { child, group } = await startFollower(system, dir);
  const lines = countLines(child);
  let peakRssMb = 0;
  const sampler = setInterval(() => {
    peakRssMb = Math.max(peakRssMb, group ? 0 : rssMb(child.pid!));
  }, 100);
  const before = cpuTicks(child.pid!, group);
  const writer = spawn(process.execPath, [WRITER, String(rate), String(seconds), ...TYPES.map((t) => path.join(dir, `${t}.log`))], { stdio: ['ignore', 'pipe', 'inherit'] });
  let perFile = 0;
  writer.stdout!.on('data', (chunk: Buffer) => {
    perFile = Number(chunk.toString().trim());
  });
  await new Promise((resolve) => writer.on('close', resolve));
  const stopped = Date.now();
  const written = perFile * TYPES.length;
  while (lines.count() < written && Date.now() - stopped < 60_000) await sleep(5);
  const drainSeconds = (Date.now() - stopped) / 1000;
  const used = cpuTicks(child.pid!, group) - before;
  clearInterval(sampler);
  stop(child, group);
  fs.rmSync(dir, { recursive: true, force: true });
  return { written, delivered: lines.count(), drainSeconds, cpuMicrosPerLine: (used * 10_000) / Math.max(1, lines.count()), peakRssMb };
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
  stop(child, group);
  fs.rmSync(dir, { recursive: true, force: true });
  return samples;
}

const percentile = (sorted: number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

export async function runLiveBench(seconds = 20): Promise<string> {
  const out: string[] = [];
  for (const rate of [1000, 30_000]) {
    out.push(`### Live: 8 files x ${rate} lines/s for ${seconds} s`, '', '| system | written | delivered | delivered within (s of the writer stopping) | CPU-µs per line | peak RSS MB |', '|---|---|---|---|---|---|');
    for (const system of [pipelines, sidecar]) {
      const r = await live(system, rate, seconds);
      out.push(`| ${system.name.replaceAll('|', '\\|')} | ${r.written} | ${r.delivered} | ${fmt(r.drainSeconds, 2)} | ${fmt(r.cpuMicrosPerLine, 1)} | ${system === sidecar ? fmt(r.peakRssMb, 0) : ''} |`);
    }
    out.push('', rate === 30_000 ? 'Targets (sidecar): delivered within 1 s, 5 CPU-µs per line or less, RSS under 64 MB.' : 'Target (sidecar): 8 CPU-µs per line or less, RSS under 64 MB.', '');
  }
  out.push('### Latency: write() to the line read from the pipe, 100 lines/s to one file', '', '| system | others | p50 ms | p99 ms | max ms | samples |', '|---|---|---|---|---|---|');
  for (const othersRate of [0, 30_000]) {
    for (const system of [pipelines, sidecar]) {
      const sorted = (await latency(system, othersRate, 10)).sort((a, b) => a - b);
      out.push(`| ${system.name.replaceAll('|', '\\|')} | ${othersRate === 0 ? 'idle' : `7 x ${othersRate}/s`} | ${fmt(percentile(sorted, 50))} | ${fmt(percentile(sorted, 99))} | ${fmt(sorted.at(-1) ?? NaN)} | ${sorted.length} |`);
    }
  }
  out.push('', 'Targets (sidecar): p50 under 1 ms and p99 under 5 ms with the others idle; p99 under 15 ms with them at 30,000/s.');
  return out.join('\n');
}
