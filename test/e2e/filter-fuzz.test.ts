import test from 'ava';
import fs from 'node:fs';
import path from 'node:path';
import { entryLine, runFilter } from '../_helpers/filter-process.js';
import { tempDir } from '../_helpers/sidecar-process.js';
import { seededRandom } from '../../bench/log-lines.js';

function fuzzInput(seed: number): Buffer {
  const random = seededRandom(seed);
  const parts: Buffer[] = [];
  for (let i = 0; i < 400; i++) {
    const roll = random();
    const line = Buffer.from(`${entryLine(roll < 0.5 ? 'mongodb' : 'x', 'é"\\'.repeat(Math.floor(random() * 20)), random() < 0.1)}\n`);
    if (roll < 0.3) {
      // An entry cut anywhere, as a container runtime or a crash leaves it.
      parts.push(line.subarray(0, Math.floor(random() * line.length)), Buffer.from('\n'));
    } else if (roll < 0.5) {
      const noise = Buffer.alloc(Math.floor(random() * 300));
      for (let b = 0; b < noise.length; b++) noise[b] = Math.floor(random() * 256);
      parts.push(noise);
    } else {
      parts.push(line);
    }
  }
  return Buffer.concat(parts);
}

for (const seed of [1, 2, 3, 4, 5]) {
  test(`fuzz ${seed}: random bytes and cut lines never crash any output mode`, (t) => {
    const input = fuzzInput(seed);
    for (const mode of ['raw', 'json', 'entry', 'pretty']) {
      const result = runFilter(['-o', mode, '--summary', '--keep-other'], input);
      t.is(result.status, 0, `${mode}: ${result.stderr}`);
      t.regex(result.stderr, /entr(?:y|ies) read/);
    }
  });
}

test('a 100 MB line without newline, and a 20 MB entry: no crash', (t) => {
  const dir = tempDir('huge');
  const file = path.join(dir, 'in');
  const fd = fs.openSync(file, 'w');
  fs.writeSync(fd, `${entryLine('mongodb', 'y'.repeat(20 * 1024 * 1024))}\n`);
  const chunk = Buffer.alloc(1024 * 1024, 0x41);
  for (let i = 0; i < 100; i++) fs.writeSync(fd, chunk);
  fs.closeSync(fd);
  const result = runFilter(['--summary', '-t', 'mongodb', file]);
  t.is(result.status, 0, result.stderr);
  t.is(result.stdout.length, 20 * 1024 * 1024 + 1);
  t.regex(result.stderr, /1 entry read, 1 written, 2 other lines/);
});
