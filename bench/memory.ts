/**
 * Memory where the sidecar is most at risk (docs/anchors.md §1), the pipelines put through the
 * same in the same run: a 100 MB line with no newline, and a reader stopped while 10,000
 * lines/s are written. Both followers run on a log dir as deployed (the sidecar's state file on
 * it) and write into a `cat` that stands for the container's stdout.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { windowSeconds, type BenchOptions } from './bench-options.js';
import { fmt } from './measure.js';
import { SIDECAR_BIN, logDirFiles, pipelineScript, sidecarArgs } from './followers.js';
import { anonymousMb, childOf, rssMb, waitUntilOpen } from './proc-stats.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Follower {
  readonly name: string;
  /** A process group (the pipelines): its RSS is the sum over its processes. */
  readonly group: boolean;
  start(dir: string, stdout: NonNullable<ChildProcess['stdin']>): ChildProcess;
}

const FOLLOWERS: readonly Follower[] = [
  {
    name: 'tail -F | jq (17 processes, RSS summed)',
    group: true,
    start: (dir, stdout) => spawn('bash', ['-c', pipelineScript(logDirFiles(dir))], { stdio: ['ignore', stdout, 'ignore'], detached: true }),
  },
  {
    name: 'logtype-sidecar',
    group: false,
    start: (dir, stdout) => spawn(process.execPath, [SIDECAR_BIN, ...sidecarArgs(dir), '--stats-interval', '0'], { stdio: ['ignore', stdout, 'ignore'] }),
  },
];

interface Running {
  readonly rss: () => number;
  readonly anonymous: () => number;
  /** The `cat` reading the follower's output. */
  readonly readerPid: number;
  readonly stop: () => Promise<void>;
}

/** Starts a follower on `dir` with its stdout going to `out` through `cat` (a reader we can stop). */
async function startWithReader(follower: Follower, dir: string, out: string): Promise<Running> {
  const reader = spawn('bash', ['-c', `cat > "${out}"`], { stdio: ['pipe', 'ignore', 'ignore'] });
  const child = follower.start(dir, reader.stdin!);
  // Only the follower writes to the reader now: when it ends, the reader sees the end.
  reader.stdin!.destroy();
  // The file is present at start, so it is followed from its end: write once it is open.
  if (!(await waitUntilOpen(child.pid!, follower.group, [path.join(dir, 'mongodb.log')]))) throw new Error(`bench: ${follower.name} did not open ${dir}/mongodb.log within 10 s`);
  const done = new Promise<void>((resolve) => reader.on('close', () => resolve()));
  return {
    rss: () => rssMb(child.pid!, follower.group),
    anonymous: () => anonymousMb(child.pid!, follower.group),
    readerPid: childOf(reader.pid!),
    stop: async () => {
      if (follower.group) process.kill(-child.pid!, 'SIGTERM');
      else child.kill('SIGTERM');
      await done;
    },
  };
}

/** True once `file` holds more than `bytes` and ends with a newline. */
function endsWholeAfter(file: string, bytes: number): boolean {
  if (!fs.existsSync(file)) return false;
  const size = fs.statSync(file).size;
  if (size <= bytes) return false;
  const last = Buffer.alloc(1);
  const fd = fs.openSync(file, 'r');
  fs.readSync(fd, last, 0, 1, size - 1);
  fs.closeSync(fd);
  return last[0] === 0x0a;
}

/** The entries written to `file`: their contents joined, how many, and lines that are not an entry. */
function readEntries(file: string): { contents: string; entries: number; broken: number } {
  let contents = '';
  let entries = 0;
  let broken = 0;
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    if (line === '') continue;
    try {
      contents += (JSON.parse(line) as { contents: string }).contents;
      entries++;
    } catch {
      broken++;
    }
  }
  return { contents, entries, broken };
}

const systemCell = (follower: Follower): string => follower.name.replaceAll('|', '\\|');

/** The peaks of a follower's RSS and of its anonymous part, over the samples taken. */
class PeakMemory {
  rss = 0;
  anonymous = 0;
  readonly #running: Running;

  constructor(running: Running) {
    this.#running = running;
  }

  sample(): void {
    this.rss = Math.max(this.rss, this.#running.rss());
    this.anonymous = Math.max(this.anonymous, this.#running.anonymous());
  }

  /** The table's cell: RSS, and its anonymous part in brackets. */
  get cell(): string {
    return `${fmt(this.rss, 0)} (${fmt(this.anonymous, 0)})`;
  }
}

const under64 = (follower: Follower, peak: number): string => (follower.group ? '' : `under 64: ${peak < 64 ? 'met' : 'NOT met'}`);

/** A 100 MB line with no newline, written in 1 MiB pieces, then ended. */
async function longLine(follower: Follower): Promise<string> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'logtype-mem-'));
  try {
    const file = path.join(dir, 'mongodb.log');
    fs.writeFileSync(file, '');
    const out = path.join(dir, 'out');
    const running = await startWithReader(follower, dir, out);
    const peak = new PeakMemory(running);
    peak.sample();
    const fd = fs.openSync(file, 'a');
    const chunk = Buffer.alloc(1024 * 1024, 0x61);
    for (let i = 0; i < 100; i++) {
      fs.writeSync(fd, chunk);
      if (i % 10 === 0) await sleep(20);
      peak.sample();
    }
    fs.writeSync(fd, '\n');
    fs.closeSync(fd);
    // Until the line is out, ended by its newline (jq holds it whole before it writes it), or 30 s.
    for (let i = 0; i < 300 && (i < 30 || !endsWholeAfter(out, 100 * 1024 * 1024)); i++) {
      await sleep(100);
      peak.sample();
    }
    await running.stop();
    const { contents, entries, broken } = readEntries(out);
    const whole = contents.length === 100 * 1024 * 1024 && broken === 0;
    const delivered = `${entries} ${entries === 1 ? 'entry' : 'pieces'}${broken > 0 ? `, ${broken} broken` : ''}, ${whole ? 'the whole line' : 'NOT the whole line'}`;
    return `| a 100 MB line without newline | ${systemCell(follower)} | ${peak.cell} | ${delivered} | ${under64(follower, peak.rss)} |`;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** The reader stopped for `seconds` while 10,000 lines/s are written, then resumed. */
async function stoppedReader(follower: Follower, seconds: number): Promise<string> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'logtype-mem-'));
  try {
    const file = path.join(dir, 'mongodb.log');
    fs.writeFileSync(file, '');
    const out = path.join(dir, 'out');
    const running = await startWithReader(follower, dir, out);
    process.kill(running.readerPid, 'SIGSTOP');
    const fd = fs.openSync(file, 'a');
    let written = 0;
    const peak = new PeakMemory(running);
    const started = Date.now();
    while (Date.now() - started < seconds * 1000) {
      let batch = '';
      const due = Math.floor(((Date.now() - started) / 1000) * 10_000);
      for (; written < due; ) batch += `stop-${String(++written).padStart(9, '0')} ${'s'.repeat(180)}\n`;
      fs.writeSync(fd, batch);
      peak.sample();
      await sleep(50);
    }
    fs.closeSync(fd);
    process.kill(running.readerPid, 'SIGCONT');
    const deadline = Date.now() + 60_000;
    const delivered = (): number => (fs.existsSync(out) ? fs.readFileSync(out, 'utf8').split('\n').length - 1 : 0);
    while (delivered() < written && Date.now() < deadline) {
      peak.sample();
      await sleep(200);
    }
    const count = delivered();
    await running.stop();
    const lost = `nothing lost: ${count === written ? 'met' : 'NOT met'}`;
    return `| reader stopped ${seconds} s, 10,000 lines/s written (${written} lines) | ${systemCell(follower)} | ${peak.cell} | ${count} of ${written}, ${written - count} lost | ${follower.group ? '' : `${under64(follower, peak.rss)}; ${lost}`} |`;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export async function runMemoryBench(options: BenchOptions): Promise<string> {
  const rows = ['| case | system | peak RSS MB (anonymous) | delivered | target (sidecar) |', '|---|---|---|---|---|'];
  for (const follower of FOLLOWERS) rows.push(await longLine(follower));
  for (const follower of FOLLOWERS) rows.push(await stoppedReader(follower, windowSeconds(options, 30)));
  return rows.join('\n');
}
