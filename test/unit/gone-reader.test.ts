/**
 * From a library trial: runFilter writing to a caller's stream that was destroyed (an HTTP
 * response whose client went away) waited for a 'drain' that never came: the promise never
 * settled and the input stayed open. It now stops reading as the command does at EPIPE.
 */
import fs from 'node:fs';
import path from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import test from 'ava';
import { runFilter, type FilterOptions } from '../../src/filter/run-filter.js';
import { entryLine } from '../_helpers/filter-process.js';
import { tempDir } from '../_helpers/sidecar-process.js';

function bigInput(name: string): string {
  const file = path.join(tempDir(name), 'big.log');
  const line = entryLine('mongodb', `{"t":{"$date":"2026-11-22T10:00:00.000+00:00"},"s":"I","c":"NETWORK","id":1,"ctx":"c","msg":"${'x'.repeat(900)}"}`);
  // 40 MB: many chunks, so the stream is destroyed while the reading goes on.
  fs.writeFileSync(file, `${`${line}\n`.repeat(40_000)}`);
  return file;
}

const options = (input: string): FilterOptions => ({
  inputs: [input], types: [], exclude: [], invertGrep: false, query: {},
  output: 'raw', expand: false, keepPrefix: false, keepOther: false, strict: false, quiet: false, summary: false, color: false, utc: true,
});
const stderr = (): Writable => new Writable({ write: (_chunk, _encoding, done) => done() });

/** Settles within `ms`, or says it did not. */
function within<T>(promise: Promise<T>, ms: number): Promise<T | 'pending'> {
  return Promise.race([promise, new Promise<'pending'>((resolve) => setTimeout(() => resolve('pending'), ms).unref())]);
}

test('runFilter to a stream its reader destroys or ends: resolves 0, not waiting for a drain that never comes nor writing after its end; destroyed with an error, rejects with it', async (t) => {
  const input = bigInput('gone-reader');
  const gone = new PassThrough();
  let taken = 0;
  gone.on('data', (chunk: Buffer) => {
    taken += chunk.length;
    if (taken > 1 << 20) gone.destroy();
  });
  t.is(await within(runFilter(options(input), { stdin: new PassThrough().end(), stdout: gone, stderr: stderr(), stdoutIsTTY: false }), 10_000), 0);

  // Ended by its reader while a chunk is written (a review): no write after its end, whose error
  // no one listens for (it crashed the caller's process), and the reading stops.
  const ended = new PassThrough();
  let endedTaken = 0;
  ended.on('data', (chunk: Buffer) => {
    endedTaken += chunk.length;
    if (endedTaken > 1 << 20 && !ended.writableEnded) ended.end();
  });
  t.is(await within(runFilter(options(input), { stdin: new PassThrough().end(), stdout: ended, stderr: stderr(), stdoutIsTTY: false }), 10_000), 0);

  const failed = new PassThrough();
  failed.on('error', () => undefined);
  failed.on('data', () => failed.destroy(Object.assign(new Error('client went away'), { code: 'ECONNRESET' })));
  const result = await within(
    runFilter(options(input), { stdin: new PassThrough().end(), stdout: failed, stderr: stderr(), stdoutIsTTY: false }).then(
      (code) => `resolved ${code}`,
      (error: NodeJS.ErrnoException) => `rejected ${error.code}`,
    ),
    10_000,
  );
  t.is(result, 'rejected ECONNRESET');
});
