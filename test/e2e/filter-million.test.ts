import test from 'ava';
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { FILTER_BIN, cleanEnv, tempDir } from '../_helpers/sidecar-process.js';
import { entryLine } from '../_helpers/filter-process.js';
import { seededRandom } from '../../bench/log-lines.js';

const TYPES = ['mongodb', 'mongodb-audit', 'automation-agent', 'automation-agent-verbose', 'backup-agent'];
const WORDS = ['conn', '"quoted"', 'back\\slash', 'é', '€', '😀', '\t', '\u0001', '{"json":1}', 'plain', ' '];

test('a million generated entries: the real command selects exactly what JSON.parse per line selects', (t) => {
  const random = seededRandom(7);
  const dir = tempDir('million');
  const input = path.join(dir, 'in.jsonl');
  const fd = fs.openSync(input, 'w');
  let batch = '';
  for (let i = 0; i < 1_000_000; i++) {
    const roll = random();
    let contents = `${i}`;
    for (let w = Math.floor(random() * 6); w > 0; w--) contents += WORDS[Math.floor(random() * WORDS.length)];
    if (roll < 0.002) batch += 'not an entry at all\n';
    else if (roll < 0.004) batch += `2026-11-22T10:00:00.000000001Z ${entryLine('mongodb', contents)}\n`;
    else batch += `${entryLine(TYPES[Math.floor(random() * TYPES.length)]!, contents)}\n`;
    if (batch.length > 1 << 20) {
      fs.writeSync(fd, batch);
      batch = '';
    }
  }
  fs.writeSync(fd, batch);
  fs.closeSync(fd);

  const expectedRaw: string[] = [];
  const expectedJson: string[] = [];
  for (const line of fs.readFileSync(input, 'utf8').split('\n')) {
    const json = line.startsWith('2026-') ? line.slice(31) : line;
    let value: { logType?: unknown; contents?: unknown } | undefined;
    try {
      value = JSON.parse(json) as typeof value;
    } catch {
      continue;
    }
    if (value?.logType === 'mongodb') {
      expectedRaw.push(`${String(value.contents)}\n`);
      expectedJson.push(`${json}\n`);
    }
  }
  for (const [mode, expected] of [
    ['raw', expectedRaw],
    ['entry', expectedJson],
  ] as const) {
    const result = spawnSync(process.execPath, [FILTER_BIN, '-t', 'mongodb', '-o', mode, input], { env: cleanEnv(), maxBuffer: 1 << 30 });
    t.is(result.status, 0);
    t.true(result.stdout.equals(Buffer.from(expected.join(''))), `-o ${mode} differs from JSON.parse's selection`);
  }
  fs.rmSync(dir, { recursive: true });
});
