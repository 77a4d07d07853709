/**
 * The sidecar's cost against today's pipelines (docs/anchors.md §1, speed and cost), in the same
 * run: catching up on a million mixed lines, and idling.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn, type ChildProcess } from 'node:child_process';
import { windowSeconds, type BenchOptions } from './bench-options.js';
import { catchUpFiles } from './inputs.js';
import { fmt, measure, measureInTurns, type Measured } from './measure.js';
import { SIDECAR_BIN, logDirFiles, pipelineScript, sidecarArgs } from './followers.js';
import { cpuTicks } from './proc-stats.js';
import { checkSameOutput } from './same-output.js';

/** Lines of the input the two outputs are compared on. */
const SAMPLE_LINES = 25_000;

/** Both systems' commands over a set of files, writing to stdout. */
function catchUpScripts(files: ReadonlyMap<string, string>): { pipelines: string; sidecar: string } {
  const jqs = [...files].map(([type, file]) => `jq --unbuffered -n -c -R 'inputs | {"logType": "${type}", "contents": .}' < "${file}" &`).join('\n');
  const args = [...files].map(([type, file]) => `--file "${type}=${file}"`).join(' ');
  return {
    pipelines: `( ${jqs}\nwait ) | cat`,
    sidecar: `"${process.execPath}" "${SIDECAR_BIN}" --once --stats-interval 0 ${args} 2>/dev/null | cat`,
  };
}

export function runCatchUpBench(options: BenchOptions): string {
  // The same work: the pipelines interleave their files in the pipe, so the entries are compared sorted.
  const sampleLines = Math.min(SAMPLE_LINES, options.entries);
  const sample = catchUpScripts(catchUpFiles(sampleLines).files);
  const check = checkSameOutput(() => `${sample.sidecar} | LC_ALL=C sort`, () => `${sample.pipelines} | LC_ALL=C sort`, '', sampleLines);
  const compared = check.same
    ? `the same entries as the pipelines' on a ${sampleLines.toLocaleString('en-US')}-line input of the same mix (sorted, then compared byte for byte)`
    : `NOT the same entries as the pipelines' on a ${sampleLines.toLocaleString('en-US')}-line input of the same mix (sorted): ${check.text}`;

  const { files } = catchUpFiles(options.entries);
  const bytes = [...files.values()].reduce((sum, file) => sum + fs.statSync(file).size, 0);
  const scripts = catchUpScripts(files);
  measure(`cat ${[...files.values()].map((f) => `"${f}"`).join(' ')} > /dev/null`);
  const [jq, ours] = measureInTurns([`${scripts.pipelines} > /dev/null`, `${scripts.sidecar} > /dev/null`], options.turns) as [Measured, Measured];
  return [
    `Input: ${options.entries.toLocaleString('en-US')} lines, ${fmt(bytes / 1e6, 0)} MB in ${files.size} files (70% server JSON with 0.5% slow queries of 2-20 KB, 30% agent text), into a pipe. Each figure: the median of ${options.turns} runs, taken in turns. Output: ${compared}.`,
    '',
    '| system | CPU-s | peak RSS MB | lines/s (wall) |',
    '|---|---|---|---|',
    `| jq per file (the launcher's encoding) | ${fmt(jq.cpuSeconds)} | ${fmt(jq.peakRssMb, 0)} (largest process) | ${fmt(options.entries / jq.wallSeconds, 0)} |`,
    `| logtype-sidecar --once | ${fmt(ours.cpuSeconds)} | ${fmt(ours.peakRssMb, 0)} | ${fmt(options.entries / ours.wallSeconds, 0)} |`,
    '',
    `Fewer CPU-seconds than jq: **${fmt(jq.cpuSeconds / ours.cpuSeconds, 1)}x** (target 6x: ${jq.cpuSeconds / ours.cpuSeconds >= 6 ? 'met' : 'NOT met'}); ` +
      `peak RSS ${fmt(ours.peakRssMb, 0)} MB (target under 64 MB: ${ours.peakRssMb < 64 ? 'met' : 'NOT met'}).`,
  ].join('\n');
}

interface Idler {
  readonly name: string;
  readonly child: ChildProcess;
  /** A process group (the pipelines), measured as a whole. */
  readonly group: boolean;
  /** For a sidecar: which idler is the pipelines on its dir. */
  readonly beside?: number;
}

/**
 * CPU of the pipelines and the sidecar idling on the same log dirs (all eight files present;
 * none present), and of a bare node with a 1 s timer, all over the same window after start-up
 * has settled. The sidecar runs as deployed: default stats interval, the state file on the dir.
 */
export async function runIdleBench(options: BenchOptions): Promise<string> {
  const seconds = windowSeconds(options, 120);
  const present = fs.mkdtempSync(path.join(os.tmpdir(), 'logtype-idle-'));
  const missing = fs.mkdtempSync(path.join(os.tmpdir(), 'logtype-idle-'));
  for (const file of logDirFiles(present)) fs.writeFileSync(file.path, 'x\n');
  const pipelinesOn = (dir: string) => spawn('bash', ['-c', pipelineScript(logDirFiles(dir))], { stdio: 'ignore', detached: true });
  const idlers: Idler[] = [
    { name: 'tail -F | jq, files present', child: pipelinesOn(present), group: true },
    { name: 'tail -F | jq, files missing', child: pipelinesOn(missing), group: true },
    { name: 'logtype-sidecar, files present', child: spawn(process.execPath, [SIDECAR_BIN, ...sidecarArgs(present)], { stdio: 'ignore' }), group: false, beside: 0 },
    { name: 'logtype-sidecar, files missing', child: spawn(process.execPath, [SIDECAR_BIN, ...sidecarArgs(missing)], { stdio: 'ignore' }), group: false, beside: 1 },
    { name: 'for reference: bare node, a 1 s timer', child: spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' }), group: false },
  ];
  // Start-up work (compilation, the first collections, jq's start) settles before the window opens.
  await new Promise((resolve) => setTimeout(resolve, 5000));
  const before = idlers.map(({ child, group }) => cpuTicks(child.pid!, group));
  await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  const perMinute = idlers.map(({ child, group }, index) => ((cpuTicks(child.pid!, group) - before[index]!) / 100) * (60 / seconds));
  // /proc counts CPU in 10 ms ticks: over 120 s one tick is 0.005 CPU-s per minute.
  const tick = fmt(0.01 * (60 / seconds), 3);
  const rows = [
    `Window: ${seconds} s, the same for every process (one /proc tick: ${tick} CPU-s per minute). Target (sidecar): under 0.05 CPU-s per minute.`,
    '',
    '| process | CPU-s per minute | the pipelines on the same dir, same window | target |',
    '|---|---|---|---|',
  ];
  idlers.forEach(({ name, beside }, index) => {
    const pipelines = beside === undefined ? '' : fmt(perMinute[beside]!, 3);
    const target = beside === undefined ? '' : perMinute[index]! < 0.05 ? 'met' : 'NOT met';
    rows.push(`| ${name.replaceAll('|', '\\|')} | ${fmt(perMinute[index]!, 3)} | ${pipelines} | ${target} |`);
  });
  // The sidecars save their state into the directories as they stop: they are removed after.
  await Promise.all(
    idlers.map(({ child, group }) => {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      if (group) process.kill(-child.pid!, 'SIGTERM');
      else child.kill('SIGTERM');
      return exited;
    }),
  );
  fs.rmSync(present, { recursive: true, force: true });
  fs.rmSync(missing, { recursive: true, force: true });
  return rows.join('\n');
}
