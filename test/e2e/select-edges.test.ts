/**
 * Selection at its edges, through the real logtype: what mutation testing of src/select found
 * untested (docs/mutation.md).
 */
import test from 'ava';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { FILTER_BIN, cleanEnv } from '../_helpers/sidecar-process.js';
import { entryLine } from '../_helpers/filter-process.js';

test('--max-count 0 on a stream that stays open: nothing written, the command ends at once (it needs no line to know)', async (t) => {
  const child = spawn(process.execPath, [FILTER_BIN, '--max-count', '0'], { env: cleanEnv(), stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  const ended = once(child, 'close');
  // Never ended by the writer, as kubectl logs -f.
  child.stdin.write(`${entryLine('mongodb', 'a line')}\n`);
  const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
  const [status, signal] = (await ended) as [number | null, NodeJS.Signals | null];
  clearTimeout(timer);
  child.stdin.destroy();
  t.is(signal, null, 'still reading after 20 s');
  t.is(status, 0);
  t.is(stdout, '');
});
