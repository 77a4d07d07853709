import test from 'ava';
import fs from 'node:fs';
import path from 'node:path';
import { REPO } from '../_helpers/sidecar-process.js';
import { WASM_SOURCES, compileWat, embeddedSource } from '../_helpers/wasm-source.js';

for (const { wat, embedded } of WASM_SOURCES) {
  test(`${embedded} holds ${wat}, compiled (npm run wasm writes it)`, async (t) => {
    t.is(fs.readFileSync(path.join(REPO, embedded), 'utf8'), embeddedSource(wat, await compileWat(wat)));
  });
}
