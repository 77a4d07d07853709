/**
 * The sidecar's cost against today's pipelines (ANCHORS.md §1, speed and cost), in the same run:
 * catching up on a million mixed lines, and idling.
 */
import fs from 'node:fs';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { catchUpFiles } from './inputs.js';
import { fmt, measure } from './measure.js';
import { SIDECAR_BIN } from './followers.js';

export function runCatchUpBench(): string {
  const { files } = catchUpFiles();
  const bytes = [...files.values()].reduce((sum, file) => sum + fs.statSync(file).size, 0);
  const node = process.execPath;
  const pipelines = [...files]
    .map(([type, file]) => `jq --unbuffered -n -c -R 'inputs | {"logType": "${type}", "contents": .}' < "${file}" &`)
    .join('\n');
  measure(`cat ${[...files.values()].map((f) => `"${f}"`).join(' ')} > /dev/null`);
  const jq = measure(`( ${pipelines}\nwait ) | cat > /dev/null`);
  const args = [...files].map(([type, file]) => `--file "${type}=${file}"`).join(' ');
  const ours = measure(`"${node}" "${SIDECAR_BIN}" --once --stats-interval 0 ${args} 2>/dev/null | cat > /dev/null`);
  return [
    `Input: 1,000,000 lines, ${fmt(bytes / 1e6, 0)} MB in ${files.size} files (70% server JSON with 0.5% slow queries of 2-20 KB, 30% agent text), into a pipe`,
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

/** CPU of an idle sidecar (files present, and files missing) over `seconds`, from /proc. */
export async function runIdleBench(seconds = 20): Promise<string> {
  const rows: string[] = ['| case | CPU-s over the run | per minute | target per minute |', '|---|---|---|---|'];
  for (const present of [true, false]) {
    const dir = fs.mkdtempSync(path.join(fs.realpathSync('/tmp'), 'logtype-idle-'));
    if (present) for (const name of ['mongodb.log', 'automation-agent.log', 'mongodb-audit.log']) fs.writeFileSync(path.join(dir, name), 'x\n');
    const child = spawn(process.execPath, [SIDECAR_BIN, '--log-dir', dir], { stdio: 'ignore' });
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const before = cpuTicks(child.pid!);
    await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
    const used = (cpuTicks(child.pid!) - before) / 100;
    child.kill('SIGTERM');
    rows.push(`| idle, files ${present ? 'present' : 'missing'} (${seconds} s) | ${fmt(used, 3)} | ${fmt((used * 60) / seconds, 3)} | 0.05 ${(used * 60) / seconds < 0.05 ? 'met' : 'NOT met'} |`);
    fs.rmSync(dir, { recursive: true, force: true });
  }
  return rows.join('\n');
}

/** utime + stime of a process, in clock ticks (100 per second on Linux). */
function cpuTicks(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return Number(fields[11]) + Number(fields[12]);
}
