// @ts-check
/**
 * A Stryker reporter that appends each mutant to reports/mutation/TARGET.mutants.jsonl as soon
 * as it is judged. Stryker writes its own reports only when every mutant is judged; a run cut
 * short by `npm run mutate -- --minutes N` (docs/mutation.md) still leaves what it judged here,
 * and run-mutation.ts makes the partial report (and the survivors to judge again) from it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { PluginKind, declareClassPlugin } from '@stryker-mutator/api/plugin';

const REPO = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');

/** Where the mutants of TARGET are logged. */
export const mutantLogPath = (/** @type {string} */ target) => path.join(REPO, 'reports/mutation', `${target}.mutants.jsonl`);

class MutantLogReporter {
  constructor() {
    // The target is the one stryker.config.mjs read (MUTATE).
    this.file = mutantLogPath(process.env['MUTATE'] ?? 'reconcile');
    fs.mkdirSync(path.dirname(this.file), { recursive: true });
    // A new run starts a new log.
    fs.writeFileSync(this.file, '');
  }

  /** @param {Readonly<import('@stryker-mutator/api/core').MutantResult>} result */
  onMutantTested(result) {
    const { id, mutatorName, replacement, location, status, statusReason, killedBy } = result;
    const fileName = path.relative(REPO, result.fileName);
    fs.appendFileSync(this.file, `${JSON.stringify({ id, fileName, mutatorName, replacement, location, status, statusReason, killedBy })}\n`);
  }
}

export const strykerPlugins = [declareClassPlugin(PluginKind.Reporter, 'mutant-log', MutantLogReporter)];
