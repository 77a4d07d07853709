/**
 * Benchmark inputs, written once under the OS temp dir (never into the repo) and reused.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { encodeEntry } from '../src/encode/encode-entry.js';
import { LogClock, lineFor, pickCatchUpType, pickFilterType, seededRandom, type GeneratedType } from './log-lines.js';

export const BENCH_DIR = path.join(os.tmpdir(), 'logtype-bench');

function writeLines(file: string, count: number, next: () => string): string {
  if (fs.existsSync(file)) return file;
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const fd = fs.openSync(`${file}.tmp`, 'w');
  let batch = '';
  for (let i = 0; i < count; i++) {
    batch += next();
    if (batch.length > 1 << 20) {
      fs.writeSync(fd, batch);
      batch = '';
    }
  }
  fs.writeSync(fd, batch);
  fs.closeSync(fd);
  fs.renameSync(`${file}.tmp`, file);
  return file;
}

/** The filter's input: `count` entries as kubectl logs prints them (ANCHORS.md §2 mix). */
export function entriesFile(count = 1_000_000): string {
  const random = seededRandom(4);
  const clock = new LogClock();
  return writeLines(path.join(BENCH_DIR, `entries-${count}.jsonl`), count, () => {
    const type = pickFilterType(random);
    return encodeEntry(type, lineFor(type, random, clock.tick(random, 5)));
  });
}

/** The sidecar catch-up input: `count` raw lines spread over the log files (ANCHORS.md §1 mix). */
export function catchUpFiles(count = 1_000_000): { dir: string; files: Map<GeneratedType, string> } {
  const dir = path.join(BENCH_DIR, `catch-up-${count}`);
  const random = seededRandom(5);
  const clock = new LogClock();
  const marker = path.join(dir, '.complete');
  const files = new Map<GeneratedType, string>();
  const types: GeneratedType[] = ['mongodb', 'automation-agent', 'automation-agent-verbose', 'monitoring-agent', 'backup-agent'];
  for (const type of types) files.set(type, path.join(dir, `${type}.log`));
  if (fs.existsSync(marker)) return { dir, files };
  fs.mkdirSync(dir, { recursive: true });
  const batches = new Map<GeneratedType, string[]>(types.map((t) => [t, []]));
  const fds = new Map(types.map((t) => [t, fs.openSync(files.get(t)!, 'w')]));
  for (let i = 0; i < count; i++) {
    const type = pickCatchUpType(random);
    const batch = batches.get(type)!;
    batch.push(lineFor(type, random, clock.tick(random, 5)));
    if (batch.length >= 5000) {
      fs.writeSync(fds.get(type)!, batch.join('\n') + '\n');
      batch.length = 0;
    }
  }
  for (const type of types) {
    const batch = batches.get(type)!;
    if (batch.length > 0) fs.writeSync(fds.get(type)!, batch.join('\n') + '\n');
    fs.closeSync(fds.get(type)!);
  }
  fs.writeFileSync(marker, '');
  return { dir, files };
}
