/**
 * The sidecar's stderr into the same pipe as its stdout (`2>&1 |`, a container with a
 * terminal): its diagnostics leave between whole entries, at a slow reader and at the stop
 * deadline (DiagnosticRoute). Apart from signals-and-pipes.test.ts: each run here reads a
 * large file slowly, and is given a core of its own rather than shared with that file's tests.
 */
import test from 'ava';
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { sleep } from '../_helpers/numbered-writer.js';
import { SIDECAR_BIN, cleanEnv, tempDir, waitUntil } from '../_helpers/sidecar-process.js';

test.serial('stderr into the same pipe as stdout (2>&1, a container with a terminal), read slowly: diagnostics stand between whole entries, never inside one', (t) => {
  const dir = tempDir('shared-pipe');
  const file = path.join(dir, 'mongodb.log');
  const pad = 'x'.repeat(300);
  fs.writeFileSync(file, Array.from({ length: 20000 }, (_, n) => JSON.stringify({ t: { $date: '2026-11-27T10:00:00.000+00:00' }, s: 'I', c: 'NETWORK', id: 22943, ctx: 'l', msg: 'm', attr: { pad, seq: n } })).join('\n') + '\n');
  // A slow reader: 16 KiB every 10 ms, so the pipe is full and each chunk of entries leaves in parts.
  const reader = `"${process.execPath}" -e 'const fs=require("fs");const b=Buffer.alloc(16384);const w=new Int32Array(new SharedArrayBuffer(4));for(let n;(n=fs.readSync(0,b))>0;){fs.writeSync(1,b.subarray(0,n));Atomics.wait(w,0,0,10)}'`;
  const run = spawnSync(
    'bash',
    ['-c', `timeout -s TERM 8 "${process.execPath}" "${SIDECAR_BIN}" --from-start --state-file '' --file "mongodb=${file}" --stats-interval 0.2 --missing-warning 0 2>&1 | ${reader} > "${dir}/merged"`],
    { env: cleanEnv(), timeout: 60_000 },
  );
  t.is(run.status, 0);
  const lines = fs.readFileSync(path.join(dir, 'merged'), 'utf8').split('\n').filter(Boolean);
  const broken = lines.filter((line) => {
    try {
      JSON.parse(line);
      return false;
    } catch {
      return true;
    }
  });
  t.deepEqual(broken.map((line) => line.slice(0, 80)), []);
  const objects = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
  const seqs = objects.filter((o) => typeof o['contents'] === 'string').map((o) => (JSON.parse(o['contents'] as string) as { attr: { seq: number } }).attr.seq);
  t.deepEqual(seqs, Array.from({ length: seqs.length }, (_, n) => n));
  t.true(seqs.length > 1000, `${seqs.length} entries`);
  t.true(objects.filter((o) => o['event'] === 'stats').length >= 5, 'stats lines among the entries');
  t.like(objects.at(-1), { event: 'stopped', cause: 'SIGTERM' });
});

test.serial('stderr into stdout\'s pipe, the reader stalled past the stop timeout: the stop-timeout warning and the last lines come after whole entries, none dropped', async (t) => {
  const dir = tempDir('shared-pipe-deadline');
  const file = path.join(dir, 'mongodb.log');
  fs.writeFileSync(file, Array.from({ length: 100000 }, (_, n) => `line ${n} ${'y'.repeat(50)}`).join('\n') + '\n');
  const merged = path.join(dir, 'merged');
  const script = `"${process.execPath}" "${SIDECAR_BIN}" --from-start --state-file "${dir}/state" --file "mongodb=${file}" --stop-timeout 1 --stats-interval 0 --missing-warning 0 > >(sleep 4; cat > "${merged}") 2>&1 & echo $! > "${dir}/pid"; wait $!; echo "$?" > "${dir}/status"; sleep 5`;
  const shell = spawn('bash', ['-c', script], { env: cleanEnv(), stdio: 'ignore' });
  await waitUntil(() => fs.existsSync(path.join(dir, 'pid')) && fs.readFileSync(path.join(dir, 'pid'), 'utf8').trim() !== '', 10_000, 'the sidecar to start');
  await sleep(1000);
  // Rotations while the reader stalls: their lines wait in the writer behind the entries.
  for (let i = 1; i <= 3; i++) {
    fs.renameSync(file, `${file}.${i}`);
    fs.writeFileSync(file, `after rotation ${i}\n`);
    await sleep(150);
  }
  await sleep(500);
  process.kill(Number(fs.readFileSync(path.join(dir, 'pid'), 'utf8')), 'SIGTERM');
  await new Promise((resolve) => shell.on('close', resolve));
  t.is(fs.readFileSync(path.join(dir, 'status'), 'utf8').trim(), '0');
  const lines = fs.readFileSync(merged, 'utf8').split('\n').filter(Boolean);
  const objects = lines.map((line) => {
    try {
      return JSON.parse(line) as Record<string, unknown>;
    } catch {
      return { broken: line.slice(0, 80) };
    }
  });
  t.deepEqual(objects.filter((o) => 'broken' in o), []);
  const events = objects.filter((o) => typeof o['event'] === 'string').map((o) => o['event']);
  t.true(events.includes('stop-timeout'), events.join(' '));
  // Those that waited in the writer at the deadline are written too.
  t.is(events.filter((event) => event === 'rotated').length, 3, events.join(' '));
  t.is(events.at(-1), 'stopped');
  const seqs = objects.filter((o) => typeof o['contents'] === 'string' && (o['contents'] as string).startsWith('line ')).map((o) => Number((o['contents'] as string).split(' ')[1]));
  t.deepEqual(seqs, Array.from({ length: seqs.length }, (_, n) => n));
});
