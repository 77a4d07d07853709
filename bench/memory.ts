/**
 * The sidecar's memory where it is most at risk (ANCHORS.md §1): a 100 MB line with no newline,
 * and a reader stopped for 30 s while 10,000 lines/s are written.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fmt } from './measure.js';
import { SIDECAR_BIN } from './followers.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function rssMb(pid: number): number {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
  } catch {
    return 0;
  }
}

/** Starts the sidecar on `dir` with its stdout going to `out` through `cat` (a reader we can stop). */
async function startWithReader(dir: string, out: string): Promise<{ sidecarPid: number; readerPid: number; done: Promise<void> }> {
  const reader = spawn('bash', ['-c', `cat > "${out}"`], { stdio: ['pipe', 'ignore', 'ignore'] });
  const sidecar = spawn(process.execPath, [SIDECAR_BIN, '--log-dir', dir, '--stats-interval', '0', '--state-file', ''], { stdio: ['ignore', reader.stdin!, 'ignore'] });
  // Only the sidecar writes to the reader now: when it ends, the reader sees the end.
  reader.stdin!.destroy();
  await sleep(800);
  const done = new Promise<void>((resolve) => reader.on('close', () => resolve()));
  return { sidecarPid: sidecar.pid!, readerPid: spawnedCat(reader.pid!), done };
}

/** The `cat` under the bash that runs it. */
function spawnedCat(bashPid: number): number {
  for (const entry of fs.readdirSync('/proc').filter((e) => /^\d+$/.test(e))) {
    try {
      const fields = fs.readFileSync(`/proc/${entry}/stat`, 'utf8').split(') ')[1]!.split(' ');
      if (Number(fields[1]) === bashPid) return Number(entry);
    } catch {
      // gone
    }
  }
  return bashPid;
}

export async function runMemoryBench(): Promise<string> {
  const rows = ['| case | peak RSS MB | delivered | target |', '|---|---|---|---|'];

  // A 100 MB line with no newline, written in 1 MiB pieces, then ended.
  {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'logtype-mem-'));
    const file = path.join(dir, 'mongodb.log');
    fs.writeFileSync(file, '');
    const out = path.join(dir, 'out');
    const { sidecarPid, done } = await startWithReader(dir, out);
    let peak = rssMb(sidecarPid);
    const fd = fs.openSync(file, 'a');
    const chunk = Buffer.alloc(1024 * 1024, 0x61);
    for (let i = 0; i < 100; i++) {
      fs.writeSync(fd, chunk);
      if (i % 10 === 0) await sleep(20);
      peak = Math.max(peak, rssMb(sidecarPid));
    }
    fs.writeSync(fd, '\n');
    fs.closeSync(fd);
    for (let i = 0; i < 30; i++) {
      await sleep(100);
      peak = Math.max(peak, rssMb(sidecarPid));
    }
    process.kill(sidecarPid, 'SIGTERM');
    await done;
    const pieces = fs.readFileSync(out, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as { contents: string });
    const whole = pieces.map((p) => p.contents).join('').length === 100 * 1024 * 1024;
    rows.push(`| a 100 MB line without newline | ${fmt(peak, 0)} | ${pieces.length} pieces, ${whole ? 'rejoining to the whole line' : 'NOT the whole line'} | under 64: ${peak < 64 ? 'met' : 'NOT met'} |`);
    fs.rmSync(dir, { recursive: true, force: true });
  }

  // The reader stopped for 30 s while 10,000 lines/s are written.
  {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'logtype-mem-'));
    const file = path.join(dir, 'mongodb.log');
    fs.writeFileSync(file, '');
    const out = path.join(dir, 'out');
    const { sidecarPid, readerPid, done } = await startWithReader(dir, out);
    process.kill(readerPid, 'SIGSTOP');
    const fd = fs.openSync(file, 'a');
    let written = 0;
    let peak = 0;
    const started = Date.now();
    while (Date.now() - started < 30_000) {
      let batch = '';
      const due = Math.floor(((Date.now() - started) / 1000) * 10_000);
      for (; written < due; ) batch += `stop-${String(++written).padStart(9, '0')} ${'s'.repeat(180)}\n`;
      fs.writeSync(fd, batch);
      peak = Math.max(peak, rssMb(sidecarPid));
      await sleep(50);
    }
    fs.closeSync(fd);
    process.kill(readerPid, 'SIGCONT');
    const deadline = Date.now() + 60_000;
    const delivered = (): number => (fs.existsSync(out) ? fs.readFileSync(out, 'utf8').split('\n').length - 1 : 0);
    while (delivered() < written && Date.now() < deadline) await sleep(200);
    const count = delivered();
    process.kill(sidecarPid, 'SIGTERM');
    await done;
    rows.push(`| reader stopped 30 s, 10,000 lines/s written (${written} lines) | ${fmt(peak, 0)} | ${count} of ${written}, ${written - count} lost | under 64: ${peak < 64 ? 'met' : 'NOT met'}; nothing lost: ${count === written ? 'met' : 'NOT met'} |`);
    fs.rmSync(dir, { recursive: true, force: true });
  }
  return rows.join('\n');
}
