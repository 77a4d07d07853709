/**
 * The torture test's CI budget (about two minutes): three fixed seeds, which together use every
 * action, and one random seed, printed in the test's title so a failure can be replayed with
 * `npm run torture -- --seed S`. Each schedule runs 20 s against the real sidecar
 * ($LOGTYPE_SIDECAR, else this build's) and must come out with nothing lost, repeated,
 * reordered, damaged or invalid.
 */
import test from 'ava';
import { randomInt } from 'node:crypto';
import { runTorture } from './torture.js';

const SCHEDULE_MS = 20_000;
const FIXED_SEEDS = [1, 2, 3];
const RANDOM_SEED = randomInt(1000, 2 ** 31 - 1);

for (const [seed, kind] of [...FIXED_SEEDS.map((s) => [s, 'fixed'] as const), [RANDOM_SEED, 'random'] as const]) {
  test.serial(`torture schedule, ${kind} seed ${seed}: nothing lost, repeated, reordered or damaged`, async (t) => {
    t.timeout(150_000);
    const result = await runTorture({ seed, durationMs: SCHEDULE_MS });
    t.log(result.verdict.passed ? result.summary : result.report);
    t.true(result.verdict.passed, `seed ${seed} failed; replay: npm run torture -- --seed ${seed} --schedule-seconds ${SCHEDULE_MS / 1000}`);
  });
}
