/**
 * The sidecar loads only what it runs: no log parser, no registry of formats (it reads the
 * types' facts). Every module loaded costs memory in every database pod, and the parsers are
 * the filter's: a static import graph walked from the sidecar's bin tells.
 */
import test from 'ava';
import fs from 'node:fs';
import path from 'node:path';
import { DIST } from '../_helpers/sidecar-process.js';

const IMPORT = /(?:^|\n)\s*(?:import|export)\b[^'"]*?\bfrom\s*['"](\.{1,2}\/[^'"]+)['"]|\bimport\s*\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)|(?:^|\n)\s*import\s*['"](\.{1,2}\/[^'"]+)['"]/g;

/** Our modules reachable from `entry` by relative imports, relative to dist. */
function moduleGraph(entry: string): string[] {
  const seen = new Set<string>();
  const pending = [entry];
  while (pending.length > 0) {
    const file = pending.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const match of fs.readFileSync(file, 'utf8').matchAll(IMPORT)) {
      pending.push(path.resolve(path.dirname(file), match[1] ?? match[2] ?? match[3]!));
    }
  }
  return [...seen].map((file) => path.relative(DIST, file)).sort();
}

const sidecarModules = moduleGraph(path.join(DIST, 'bin', 'logtype-sidecar.js'));

test('the walk finds the sidecar, its follower and its writer (the graph is real)', (t) => {
  for (const module of ['src/sidecar/run-sidecar.js', 'src/follow/file-follower.js', 'src/output/entry-writer.js', 'src/log-types.js']) {
    t.true(sidecarModules.includes(module), module);
  }
});

test('the sidecar loads no log parser and not the registry of formats', (t) => {
  t.deepEqual(
    sidecarModules.filter(
      (module) =>
        module.startsWith('src/parse/') ||
        module === 'src/formats/log-formats.js' ||
        module.startsWith('src/summary/') ||
        // The usage line quotes what was typed (a path a glob found), escaped for the terminal
        // as the filter's is: that one pure function of no imports, no other renderer.
        (module.startsWith('src/render/') && module !== 'src/render/escape-terminal.js'),
    ),
    [],
  );
});

test('the filter does load the registry (the walk sees what a bin imports)', (t) => {
  t.true(moduleGraph(path.join(DIST, 'bin', 'logtype.js')).includes('src/formats/log-formats.js'));
});
