/**
 * `npm run bench [-- NAME ...]`: every benchmark, or those named, each printing our figures
 * beside the anchor's from the same run.
 */
import { formatLoss, runLoss } from './loss.js';
import { runFilterBench } from './filter.js';
import { runCatchUpBench, runIdleBench } from './sidecar.js';
import { runLiveBench } from './live.js';
import { runMemoryBench } from './memory.js';

const benches: Record<string, () => Promise<string>> = {
  loss: async () => `## Loss and corruption (ANCHORS.md §1)\n\n${formatLoss(await runLoss())}\n`,
  'catch-up': async () => `## Sidecar catch-up (ANCHORS.md §1, speed and cost)\n\n${runCatchUpBench()}\n`,
  idle: async () => `## Sidecar idle (ANCHORS.md §1: the pipelines use 0.0 s over 20 s)\n\n${await runIdleBench()}\n`,
  live: async () => `## Sidecar live load and latency (ANCHORS.md §1)\n\n${await runLiveBench()}\n`,
  memory: async () => `## Sidecar memory under pressure (ANCHORS.md §1)\n\n${await runMemoryBench()}\n`,
  filter: async () => `## The filter on a million entries (ANCHORS.md §2)\n\n${runFilterBench()}\n`,
};

const wanted = process.argv.slice(2);
const unknown = wanted.filter((name) => !(name in benches));
if (unknown.length > 0) {
  process.stderr.write(`bench: unknown benchmark ${unknown.join(', ')} (known: ${Object.keys(benches).join(', ')})\n`);
  process.exit(2);
}
for (const [name, bench] of Object.entries(benches)) {
  if (wanted.length > 0 && !wanted.includes(name)) continue;
  process.stdout.write(`${await bench()}\n`);
}
