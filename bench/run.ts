/**
 * `npm run bench [-- NAME ...] [--entries N] [--turns N] [--window S]`: every benchmark, or those
 * named, each printing our figures beside the anchor's from the same run (the anchors:
 * docs/anchors.md).
 */
import { USAGE, parseBenchArgs, sizeNote, type BenchOptions } from './bench-options.js';
import { formatLoss, runLoss } from './loss.js';
import { runFilterBench, runRealFilterBench } from './filter.js';
import { runCatchUpBench, runIdleBench } from './sidecar.js';
import { runLiveBench } from './live.js';
import { runMemoryBench } from './memory.js';

const benches: Record<string, (options: BenchOptions) => Promise<string>> = {
  loss: async () => `## Loss and corruption (docs/anchors.md §1)\n\n${formatLoss(await runLoss())}\n`,
  'catch-up': async (options) => `## Sidecar catch-up (docs/anchors.md §1, speed and cost)\n\n${runCatchUpBench(options)}\n`,
  idle: async (options) => `## Sidecar idle, beside the pipelines idle (docs/anchors.md §1)\n\n${await runIdleBench(options)}\n`,
  live: async (options) => `## Sidecar live load and latency (docs/anchors.md §1)\n\n${await runLiveBench(options)}\n`,
  memory: async (options) => `## Sidecar memory under pressure (docs/anchors.md §1)\n\n${await runMemoryBench(options)}\n`,
  filter: async (options) => `## The filter on generated entries (docs/anchors.md §2)\n\n${runFilterBench(options)}\n`,
  'filter-real': async (options) => `## The filter on real log lines (docs/anchors.md §2)\n\n${runRealFilterBench(options)}\n`,
};

let parsed: ReturnType<typeof parseBenchArgs>;
try {
  parsed = parseBenchArgs(process.argv.slice(2));
} catch (error) {
  process.stderr.write(`bench: ${(error as Error).message}\n${USAGE}`);
  process.exit(2);
}
const { names, options } = parsed;
const unknown = names.filter((name) => !(name in benches));
if (unknown.length > 0) {
  process.stderr.write(`bench: unknown benchmark ${unknown.join(', ')} (known: ${Object.keys(benches).join(', ')})\n${USAGE}`);
  process.exit(2);
}
for (const [name, bench] of Object.entries(benches)) {
  if (names.length > 0 && !names.includes(name)) continue;
  const started = Date.now();
  const text = await bench(options);
  process.stdout.write(`${text.replace('\n\n', `\n\n${sizeNote(options)}`)}(${name}: ${((Date.now() - started) / 1000).toFixed(0)} s)\n\n`);
}
