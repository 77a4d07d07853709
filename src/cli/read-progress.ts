/**
 * Progress of a long read on stderr, for a person at a terminal only: bytes read of the total
 * (when the inputs are files of known size), and the rate; erased when done.
 */
import fs from 'node:fs';
import type { ReadProgress } from '../summary/run-summary.js';

const MB = 1024 * 1024;
/** Redraws at most this often. */
const REDRAW_MS = 250;

export function terminalProgress(inputs: readonly string[], stderr: NodeJS.WriteStream, now: () => number = Date.now): ReadProgress | undefined {
  if (!stderr.isTTY) return undefined;
  let total = 0;
  for (const input of inputs.length > 0 ? inputs : ['-']) {
    try {
      const stat = input === '-' ? fs.fstatSync(0) : fs.statSync(input);
      total = stat.isFile() ? total + stat.size : Number.NaN;
    } catch {
      total = Number.NaN;
    }
  }
  const started = now();
  let read = 0;
  // The first chunk draws at once, so even a short read says what it is doing.
  let drawn = Number.NEGATIVE_INFINITY;
  let shown = false;
  return {
    read(bytes) {
      read += bytes;
      const at = now();
      if (at - drawn < REDRAW_MS) return;
      drawn = at;
      shown = true;
      const rate = read / MB / Math.max(0.001, (at - started) / 1000);
      // Gzip inputs grow as they are read: the share of the total is then left out.
      const amount = Number.isFinite(total) && read <= total ? `${sizeOf(read, total)} of ${sizeOf(total, total)} (${Math.floor((read / total) * 100)}%)` : sizeOf(read, read);
      stderr.write(`\r\u001b[Kreading ${amount}, ${rate.toFixed(0)} MB/s`);
    },
    done() {
      if (shown) stderr.write('\r\u001b[K');
    },
  };
}

/** `bytes` in the unit `scale` is best said in: KB under a megabyte, MB with a decimal under ten (a 44 KB file read "0 of 0 MB"). */
export function sizeOf(bytes: number, scale: number): string {
  if (scale < MB) return `${Math.ceil(bytes / 1024)} KB`;
  return `${(bytes / MB).toFixed(scale < 10 * MB ? 1 : 0)} MB`;
}
