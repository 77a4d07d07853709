/**
 * The built commands a bench run measures: this checkout's, or those of another built checkout
 * named by LOGTYPE_BENCH_BUILD (its `dist/bin`), so a change's before and after are measured by
 * one harness on one machine, back to back: `LOGTYPE_BENCH_BUILD=../before npm run bench -- filter`.
 * The anchors (jq, tail) are the same in both runs; compare the two runs' ratios.
 */
import fs from 'node:fs';
import path from 'node:path';

const otherBuild = process.env.LOGTYPE_BENCH_BUILD;
const binDir = otherBuild ? path.resolve(otherBuild, 'dist/bin') : path.resolve(import.meta.dirname, '../bin');

if (otherBuild && !fs.existsSync(path.join(binDir, 'logtype.js'))) {
  throw new Error(`LOGTYPE_BENCH_BUILD=${otherBuild} has no dist/bin/logtype.js: run "npm ci && npx tsc -p ." there first`);
}

export const FILTER_BIN = path.join(binDir, 'logtype.js');
export const SIDECAR_BIN = path.join(binDir, 'logtype-sidecar.js');

/** A line under a bench's title naming the build measured, when it is not this checkout's. */
export const buildNote = (): string => (otherBuild ? `Commands measured: ${binDir} (LOGTYPE_BENCH_BUILD).\n\n` : '');
