/**
 * The library as a user's own TypeScript project meets it: imported as `logtype` through the
 * package's `exports` (its root only), typed by the .d.ts files it ships, under strict NodeNext.
 * docs/library.md's examples are compiled there as written; every type the declarations name
 * can be imported from the root.
 */
import test from 'ava';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { unexportedDeclarations } from '../_helpers/declared-types.js';
import { DIST, REPO, tempDir } from '../_helpers/sidecar-process.js';

const ROOT_TYPES = path.join(DIST, 'src/index.d.ts');

/** The ```ts blocks of a markdown file. */
function typeScriptBlocks(markdown: string): string[] {
  return [...markdown.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((match) => match[1]!);
}

/** A user's project: `logtype` installed (linked to this repository, as `npm install` of a clone does), Node's types, strict ESM. */
function userProject(name: string, files: Readonly<Record<string, string>>): string {
  const dir = tempDir(name);
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'user-project', private: true, type: 'module' }));
  fs.writeFileSync(
    path.join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'es2022',
        module: 'nodenext',
        moduleResolution: 'nodenext',
        strict: true,
        noUncheckedIndexedAccess: true,
        exactOptionalPropertyTypes: true,
        // The package's own .d.ts files are checked too, as a user's build would.
        skipLibCheck: false,
        noEmit: true,
        types: ['node'],
      },
      include: ['*.ts'],
    }),
  );
  fs.mkdirSync(path.join(dir, 'node_modules/@types'), { recursive: true });
  fs.symlinkSync(REPO, path.join(dir, 'node_modules/logtype'));
  fs.symlinkSync(path.join(REPO, 'node_modules/@types/node'), path.join(dir, 'node_modules/@types/node'));
  for (const [file, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, file), text);
  return dir;
}

function typeCheck(dir: string): { status: number | null; output: string } {
  const tsc = spawnSync(process.execPath, [path.join(REPO, 'node_modules/typescript/bin/tsc'), '-p', dir], { encoding: 'utf8' });
  return { status: tsc.status, output: `${tsc.stdout}${tsc.stderr}` };
}

test("docs/library.md: every example compiles as written in a user's strict NodeNext project, importing 'logtype'", (t) => {
  const blocks = typeScriptBlocks(fs.readFileSync(path.join(REPO, 'docs/library.md'), 'utf8'));
  t.true(blocks.length >= 3, `${blocks.length} blocks`);
  const dir = userProject('library-docs', Object.fromEntries(blocks.map((block, i) => [`example-${i + 1}.ts`, block])));
  const { status, output } = typeCheck(dir);
  t.is(status, 0, output);
});

test("every type the package's declarations name is exported from its root", (t) => {
  const missing = unexportedDeclarations(ROOT_TYPES);
  t.deepEqual(
    missing.map((d) => `${d.name} (${d.file}, named by ${d.mentionedBy})`),
    [],
  );
});
