/**
 * The sidecar's cost against today's pipelines (ANCHORS.md §1, speed and cost), in the same run:
 * catching up on a million mixed lines, and idling.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { catchUpFiles } from './inputs.js';
import { RUNS, fmt, measure, measureInTurns, type Measured } from './measure.js';
import { SIDECAR_BIN } from './followers.js';

export function runCatchUpBench(): string {
  const { files } = catchUpFiles();
  const bytes = [...files.values()].reduce((sum, file) => sum + fs.statSync(file).size, 0);
  const node = process.execPath;
  const pipelines = [...files]
    .map(([type, file]) => `jq --unbuffered -n -c -R 'inputs | {"logType": "${type}", "contents": .}' < "${file}" &`)
    .join('\n');
  measure(`cat ${[...files.values()].map((f) => `"${f}"`).join(' ')} > /dev/null`);
  const args = [...files].map(([type, file]) => `--file "${type}=${file}"`).join(' ');
  const [jq, ours] = measureInTurns([
    `( ${pipelines}\nwait ) | cat > /dev/null`,
    `"${node}" "${SIDECAR_BIN}" --once --stats-interval 0 ${args} 2>/dev/null | cat > /dev/null`,
  ]) as [Measured, Measured];
  return [
    `Input: 1,000,000 lines, ${fmt(bytes / 1e6, 0)} MB in ${files.size} files (70% server JSON with 0.5% slow queries of 2-20 KB, 30% agent text), into a pipe. Each figure: the median of ${RUNS} runs, taken in turns.`,
    '',
    '| system | CPU-s | peak RSS MB | lines/s (wall) |',
    '|---|---|---|---|',
    `| jq per file (the launcher's encoding) | ${fmt(jq.cpuSeconds)} | ${fmt(jq.peakRssMb, 0)} (largest process) | ${fmt(1e6 / jq.wallSeconds, 0)} |`,
    `| logtype-sidecar --once | ${fmt(ours.cpuSeconds)} | ${fmt(ours.peakRssMb, 0)} | ${fmt(1e6 / ours.wallSeconds, 0)} |`,
    '',
    `Fewer CPU-seconds than jq: **${fmt(jq.cpuSeconds / ours.cpuSeconds, 1)}x** (target 6x: ${jq.cpuSeconds / ours.cpuSeconds >= 6 ? 'met' : 'NOT met'}); ` +
      `peak RSS ${fmt(ours.peakRssMb, 0)} MB (target under 64 MB: ${ours.peakRssMb < 64 ? 'met' : 'NOT met'}).`,
  ].join('\n');
}

/**
 * CPU of idle sidecars (files present; files missing) and of a bare node with a 1 s timer, all
 * over the same window after start-up has settled.
 */
export async function runIdleBench(seconds = 120): Promise<string> {
  const present = fs.mkdtempSync(path.join(os.tmpdir(), 'logtype-idle-'));
  const missing = fs.mkdtempSync(path.join(os.tmpdir(), 'logtype-idle-'));
  for (const name of ['mongodb.log', 'automation-agent.log', 'mongodb-audit.log']) fs.writeFileSync(path.join(present, name), 'x\n');
  const processes = [
    { name: 'logtype-sidecar, files present', child: spawn(process.execPath, [SIDECAR_BIN, '--log-dir', present], { stdio: 'ignore' }) },
    { name: 'logtype-sidecar, files missing', child: spawn(process.execPath, [SIDECAR_BIN, '--log-dir', missing], { stdio: 'ignore' }) },
    { name: 'for reference: bare node, a 1 s timer', child: spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' }) },
  ];
  // Start-up work (compilation, the first collections) settles before the window opens.
  await new Promise((resolve) => setTimeout(resolve, 5000));
  const before = processes.map(({ child }) => cpuTicks(child.pid!));
  await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  // /proc counts CPU in 10 ms ticks: over 120 s one tick is 0.005 CPU-s per minute.
  const rows = [`Window: ${seconds} s. Target: under 0.05 CPU-s per minute (the pipelines: 0.0).`, '', '| process | CPU-s per minute | target |', '|---|---|---|'];
  processes.forEach(({ name, child }, index) => {
    const perMinute = ((cpuTicks(child.pid!) - before[index]!) / 100) * (60 / seconds);
    const target = name.startsWith('logtype') ? (perMinute < 0.05 ? 'met' : 'NOT met') : '';
    rows.push(`| ${name} | ${fmt(perMinute, 3)} | ${target} |`);
  });
  // The sidecars save their state into the directories as they stop: they are removed after.
  await Promise.all(
    processes.map(({ child }) => {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      return exited;
    }),
  );
  fs.rmSync(present, { recursive: true, force: true });
  fs.rmSync(missing, { recursive: true, force: true });
  return rows.join('\n');
}

/** utime + stime of a process, in clock ticks (100 per second on Linux). */
function cpuTicks(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return Number(fields[11]) + Number(fields[12]);
}
