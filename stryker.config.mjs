// @ts-check
/**
 * StrykerJS over the compiled code (dist/src), one target folder a run: `npm run mutate`
 * (docs/mutation.md), or `MUTATE=select npx stryker run` for one. The compiled JavaScript is
 * mutated, not the TypeScript: no compiler runs per mutant. Mutants are switched by the
 * __STRYKER_ACTIVE_MUTANT__ variable (the command runner), which the real commands the
 * end-to-end tests spawn inherit, so those tests judge mutants too. Each target runs only the
 * tests that exercise it, AVA stopping at the first failure.
 */

/** What each target mutates, and the compiled tests that judge it. */
export const TARGETS = {
  select: {
    mutate: ['dist/src/select/**/*.js'],
    tests: [
      'unit/record-query',
      'unit/filter-parts',
      'unit/library',
      'e2e/split-pieces',
      'e2e/audit-failed',
      'e2e/filter',
      'e2e/filter-records',
      'e2e/filter-habits',
      'e2e/select-edges',
    ],
  },
  render: {
    mutate: ['dist/src/render/**/*.js'],
    tests: ['unit/escape-terminal', 'unit/filter-parts', 'unit/library', 'unit/log-formats', 'e2e/filter', 'e2e/filter-records', 'e2e/filter-habits', 'e2e/terminal-safety'],
  },
  read: {
    mutate: ['dist/src/read/**/*.js'],
    tests: ['unit/entry-reader', 'unit/filter-parts', 'unit/encode-entry', 'e2e/filter', 'e2e/split-pieces', 'e2e/filter-fuzz', 'e2e/filter-habits'],
  },
  doctor: {
    mutate: ['dist/src/doctor/**/*.js'],
    tests: ['unit/known-problems', 'unit/find-problems', 'unit/library', 'e2e/doctor-types', 'e2e/summary-doctor'],
  },
  reconcile: {
    mutate: ['dist/src/follow/reconcile.js'],
    tests: ['unit/reconcile', 'unit/reconcile-identity'],
  },
};

/**
 * The command that judges a target's mutants: AVA on its compiled tests, stopping at the first
 * failure.
 * @param {{ readonly tests: readonly string[] }} target
 */
export function commandFor(target) {
  return `node node_modules/ava/entrypoints/cli.mjs --fail-fast ${target.tests.map((t) => `dist/test/${t}.test.js`).join(' ')}`;
}

const target = process.env['MUTATE'] ?? 'reconcile';
const chosen = TARGETS[/** @type {keyof typeof TARGETS} */ (target)];
if (!chosen) throw new Error(`MUTATE=${target}: not a target; the targets are ${Object.keys(TARGETS).join(', ')}`);

/**
 * MUTATE_FILES (comma-separated names in the target's folder, without .js) narrows a run to
 * those files: a folder too big to judge whole in the time at hand is judged file by file.
 */
const files = (process.env['MUTATE_FILES'] ?? '').split(',').filter(Boolean);
const mutate = files.length === 0 ? chosen.mutate : files.map((name) => chosen.mutate[0].replace(/[^/]*$/, `${name}.js`));

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
const config = {
  mutate,
  testRunner: 'command',
  commandRunner: { command: commandFor(chosen) },
  // The command runner sees no coverage: every mutant runs the target's tests.
  coverageAnalysis: 'off',
  // Two mutants at once: the machine has two cores, and each run's AVA runs two test files at once.
  concurrency: Number(process.env['MUTATE_CONCURRENCY'] ?? 2),
  // A mutant that makes a test wait for what never comes is a timeout (detected), not a hang.
  timeoutMS: 20_000,
  timeoutFactor: 2,
  // The sandbox holds what the compiled tests read: dist/, the fixtures, docs, samples, package.json.
  // No tsconfig: nothing is compiled there (and Stryker's rewrite of it needs TypeScript's JS API,
  // which TypeScript 7 has not).
  ignorePatterns: ['/tsconfig*.json', '/src', '/bin', '/bench', '/sidecar', '/test/**', '!/test/fixtures/**', '/reports', '/dist/**/*.map', '*.tgz'],
  // mutant-log: each mutant logged as it is judged, so a run cut short still tells what it judged.
  plugins: ['@stryker-mutator/*', new URL('./test/mutation/mutant-log-reporter.mjs', import.meta.url).pathname],
  reporters: ['clear-text', 'progress-append-only', 'html', 'json', 'mutant-log'],
  htmlReporter: { fileName: `reports/mutation/${target}.html` },
  jsonReporter: { fileName: `reports/mutation/${target}.json` },
  clearTextReporter: { allowColor: false, logTests: false, maxTestsToLog: 0 },
  // Kept, one per target: `npm run mutate -- --survivors TARGET` judges the survivors again there.
  tempDirName: `.stryker-tmp/${target}`,
  cleanTempDir: false,
};

export default config;
