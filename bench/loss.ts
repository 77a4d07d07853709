/**
 * Loss and corruption: the scenarios of docs/anchors.md §1, each run through today's pipelines and
 * through logtype-sidecar in the same run, counting written / delivered / lost / invalid JSON.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { NumberedWriter, sleep } from '../test/_helpers/numbered-writer.js';
import { checkNumbered, parseEntries } from '../test/_helpers/delivery.js';
import { pipelines, sidecar, type FollowerSystem } from './followers.js';

export interface LossRow {
  readonly scenario: string;
  readonly system: string;
  readonly written: number;
  readonly delivered: number;
  readonly lost: number;
  readonly invalidJson: number;
  /** The writers' longest pause between two writes (ms). */
  readonly writerPauseMs: number;
}

type Scenario = (system: FollowerSystem, dir: string) => Promise<Omit<LossRow, 'scenario' | 'system'>>;

const one = (dir: string, type = 'mongodb') => [{ logType: type, path: path.join(dir, `${type}.log`) }];

function tally(output: string, type: string, writers: readonly NumberedWriter[]): Omit<LossRow, 'scenario' | 'system'> {
  const lines = output.split('\n').filter(Boolean);
  let delivered = 0;
  let lost = 0;
  let written = 0;
  for (const writer of writers) {
    const result = checkNumbered(lines, type === '*' ? writer.tag : type, writer.tag, writer.written);
    delivered += result.delivered;
    lost += result.lost.length;
    written += writer.written;
  }
  return { written, delivered, lost, invalidJson: parseEntries(lines).invalidJson, writerPauseMs: Math.max(...writers.map((w) => w.longestPauseMs)) };
}

/** One line written: was it delivered whole? */
function tallyOne(output: string, line: string): Omit<LossRow, 'scenario' | 'system'> {
  const { entries, invalidJson } = parseEntries(output.split('\n').filter(Boolean));
  const delivered = entries.some((entry) => entry.contents === line) ? 1 : 0;
  return { written: 1, delivered, lost: 1 - delivered, invalidJson, writerPauseMs: 0 };
}

/** 2000 lines/s for `seconds`, `rotate` called six times, evenly spaced. */
async function writeWithRotations(writer: NumberedWriter, seconds: number, rotate: (n: number) => Promise<void>): Promise<void> {
  const writing = writer.writeFor(seconds * 1000, 10);
  for (let n = 1; n <= 6; n++) {
    await sleep((seconds * 1000) / 7);
    await rotate(n);
  }
  await writing;
}

const scenarios: Record<string, Scenario> = {
  'rename rotation, reopen 0.1 s later, 2000/s, 6 rotations': async (system, dir) => {
    const files = one(dir);
    fs.writeFileSync(files[0]!.path, '');
    const running = await system.start(files, ['--rotate-wait', '1']);
    const writer = new NumberedWriter(files[0]!.path, 'mongodb');
    await writeWithRotations(writer, 21 / 6, async (n) => {
      fs.renameSync(files[0]!.path, `${files[0]!.path}.${n}`);
      await sleep(100);
      writer.reopen();
    });
    await sleep(1500);
    return tally(await running.stop(), 'mongodb', [writer]);
  },
  'copytruncate, 2000/s, 6 rotations': async (system, dir) => {
    const files = one(dir);
    fs.writeFileSync(files[0]!.path, '');
    const running = await system.start(files);
    const writer = new NumberedWriter(files[0]!.path, 'mongodb');
    await writeWithRotations(writer, 21 / 6, async (n) => {
      fs.copyFileSync(files[0]!.path, `${files[0]!.path}.${n}`);
      fs.truncateSync(files[0]!.path, 0);
    });
    await sleep(1000);
    return tally(await running.stop(), 'mongodb', [writer]);
  },
  'restart: stop, 1000 lines written, start again': async (system, dir) => {
    const files = one(dir);
    fs.writeFileSync(files[0]!.path, '');
    const writer = new NumberedWriter(files[0]!.path, 'mongodb');
    const first = await system.start(files);
    writer.write(1000);
    await sleep(500);
    const before = await first.stop();
    writer.write(1000);
    const second = await system.start(files);
    writer.write(1000);
    await sleep(500);
    return tally(before + (await second.stop()), 'mongodb', [writer]);
  },
  'deleted while written to for 3 s, then reopened': async (system, dir) => {
    const files = one(dir);
    fs.writeFileSync(files[0]!.path, '');
    const running = await system.start(files, ['--rotate-wait', '1']);
    const writer = new NumberedWriter(files[0]!.path, 'mongodb');
    const writing = writer.writeFor(4000, 1, 3);
    await sleep(500);
    fs.unlinkSync(files[0]!.path);
    await sleep(3000);
    writer.reopen();
    await writing;
    await sleep(1500);
    return tally(await running.stop(), 'mongodb', [writer]);
  },
  'last line without newline, then SIGTERM': async (system, dir) => {
    const files = one(dir);
    fs.writeFileSync(files[0]!.path, '');
    const running = await system.start(files);
    const line = 'mongodb-00000001 the last words';
    fs.appendFileSync(files[0]!.path, line);
    await sleep(500);
    return tallyOne(await running.stop(), line);
  },
};

for (const [bytes, label] of [
  [8 * 1024, '8 KiB'],
  [64 * 1024, '64 KiB'],
] as const) {
  scenarios[`7 files into one pipe, lines of ${label}`] = async (system, dir) => {
    const types = ['automation-agent-verbose', 'automation-agent', 'monitoring-agent', 'backup-agent', 'mongodb', 'mongodb-audit', 'automation-agent-stderr'];
    const files = types.map((type) => ({ logType: type, path: path.join(dir, `${type}.log`) }));
    for (const file of files) fs.writeFileSync(file.path, '');
    const running = await system.start(files);
    const writers = files.map((file) => new NumberedWriter(file.path, file.logType, bytes));
    const total = (6 * 1024 * 1024) / bytes; // 6 MiB per file
    for (let written = 0; written < total; written += 16) {
      for (const writer of writers) writer.write(16);
      await sleep(1);
    }
    await sleep(3000);
    return tally(await running.stop(), '*', writers);
  };
}

scenarios['one 10 MB line'] = async (system, dir) => {
  const files = one(dir);
  fs.writeFileSync(files[0]!.path, '');
  // The sidecar splits lines over --max-line-bytes; give it room for this one.
  const running = await system.start(files, ['--max-line-bytes', '16MiB']);
  const line = `mongodb-00000001 ${'x'.repeat(10_000_000)}`;
  fs.appendFileSync(files[0]!.path, `${line}\n`);
  await sleep(3000);
  return tallyOne(await running.stop(), line);
};

export async function runLoss(only?: RegExp, systems: readonly FollowerSystem[] = [pipelines, sidecar]): Promise<LossRow[]> {
  const rows: LossRow[] = [];
  for (const [scenario, run] of Object.entries(scenarios)) {
    if (only && !only.test(scenario)) continue;
    for (const system of systems) {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'logtype-loss-'));
      const result = await run(system, dir);
      fs.rmSync(dir, { recursive: true, force: true });
      rows.push({ scenario, system: system.name, ...result });
      process.stderr.write(`  ${scenario} / ${system.name}: ${result.delivered}/${result.written}\n`);
    }
  }
  return rows;
}

export function formatLoss(rows: readonly LossRow[]): string {
  const lines = ["| scenario | system | written | delivered | lost | invalid JSON | writer's longest pause, ms |", '|---|---|---|---|---|---|---|'];
  for (const r of rows) lines.push(`| ${r.scenario} | ${r.system.replaceAll("|", "\\|")} | ${r.written} | ${r.delivered} | ${r.lost} | ${r.invalidJson} | ${r.writerPauseMs} |`);
  return lines.join('\n');
}
