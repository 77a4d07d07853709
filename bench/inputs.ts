/**
 * Benchmark inputs, written once under the OS temp dir (never into the repo) and reused.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { encodeEntry } from '../src/encode/encode-entry.js';
import { LogClock, lineFor, pickCatchUpType, pickFilterType, seededRandom, type GeneratedType } from './log-lines.js';
import { realPools } from './real-lines.js';

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

/** The filter's input: `count` entries as kubectl logs prints them (docs/anchors.md §2 mix). */
export function entriesFile(count = 1_000_000): string {
  const random = seededRandom(4);
  const clock = new LogClock();
  return writeLines(path.join(BENCH_DIR, `entries-${count}.jsonl`), count, () => {
    const type = pickFilterType(random);
    return encodeEntry(type, lineFor(type, random, clock.tick(random, 5)));
  });
}

/**
 * The filter's input made of real lines (real-lines.ts): `count` entries in the same mix of
 * types as entriesFile's, each type's real lines taken in turn and encoded as the sidecar
 * encodes them.
 */
export function realEntriesFile(count = 1_000_000): string {
  const random = seededRandom(6);
  const { server, audit, agents } = realPools();
  const next = { server: 0, audit: 0, agents: 0 };
  return writeLines(path.join(BENCH_DIR, `real-entries-${count}.jsonl`), count, () => {
    const type = pickFilterType(random);
    if (type === 'mongodb') return encodeEntry(server.logType, server.lines[next.server++ % server.lines.length]!);
    if (type === 'mongodb-audit') return encodeEntry(audit.logType, audit.lines[next.audit++ % audit.lines.length]!);
    const agent = agents[next.agents++ % agents.length]!;
    return encodeEntry(agent.logType, agent.contents);
  });
}

/** The first `entries` lines of an input, for checking outputs against each other. */
export function sampleOf(file: string, entries: number): string {
  const sample = file.replace(/\.jsonl$/, `.first-${entries}.jsonl`);
  if (fs.existsSync(sample)) return sample;
  // Read from the start until `entries` newlines: the input itself can be larger than a string.
  const fd = fs.openSync(file, 'r');
  const chunks: Buffer[] = [];
  let lines = 0;
  let end = -1;
  for (let position = 0; end < 0; ) {
    const chunk = Buffer.alloc(1 << 20);
    const read = fs.readSync(fd, chunk, 0, chunk.length, position);
    if (read === 0) break;
    position += read;
    for (let at = chunk.indexOf(10); at !== -1 && at < read; at = chunk.indexOf(10, at + 1)) {
      if (++lines === entries) {
        end = at + 1;
        break;
      }
    }
    chunks.push(chunk.subarray(0, end < 0 ? read : end));
  }
  fs.closeSync(fd);
  fs.writeFileSync(`${sample}.tmp`, Buffer.concat(chunks));
  fs.renameSync(`${sample}.tmp`, sample);
  return sample;
}

/** The sidecar catch-up input: `count` raw lines spread over the log files (docs/anchors.md §1 mix). */
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
