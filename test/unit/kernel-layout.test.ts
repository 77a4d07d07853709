import test from 'ava';
import fs from 'node:fs';
import path from 'node:path';
import wabtInit from 'wabt';
import { kernelLayoutProblems, leaseKernelOutputChunk, moduleLayoutProblems } from '../../src/kernels/json-kernels.js';
import { LAYOUT, MEMORY_PAGES, OUTPUT_CHUNK_BYTES, PAGE_BYTES, READ_PAST_BYTES, layoutProblems, type Region } from '../../src/kernels/kernel-layout.js';
import { CHUNK_BYTES } from '../../src/output/byte-output.js';
import { REPO } from '../_helpers/sidecar-process.js';
import { WASM_SOURCES, expandWat, layoutNames } from '../_helpers/wasm-source.js';

/** The little of the WebAssembly global used here (the compiler's libraries leave it out). */
declare const WebAssembly: {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object) => { exports: Record<string, unknown> };
};

test('the layout\'s regions are disjoint and within memory, and the loaded module was built from it', (t) => {
  t.deepEqual(layoutProblems(), []);
  t.deepEqual(kernelLayoutProblems(), []);
});

const region = (start: number, bytes: number): Region => ({ start, bytes, holds: '' });
const MEMORY = 4096;
const unsound: [string, Record<string, Region>, RegExp][] = [
  ['two regions that overlap by a byte', { a: region(0, 100), b: region(99, 10) }, /^a \[0, 100\) overlaps b \[99, 109\)$/],
  ['a region inside another', { a: region(0, 1000), b: region(200, 10), c: region(1000, 10) }, /^a \[0, 1000\) overlaps b/],
  ['a region that passes the end of memory', { a: region(4000, 200) }, /^a ends at 4200/],
  ['a region too near the end for the wide loops to read past it', { a: region(4000, MEMORY - 4000 - READ_PAST_BYTES + 1) }, /within 32 bytes of the memory's end/],
  ['an empty region', { a: region(0, 0) }, /is not a range of memory/],
];
for (const [name, layout, problem] of unsound) {
  test(`layoutProblems finds ${name}`, (t) => {
    const problems = layoutProblems(layout, MEMORY);
    t.is(problems.length, 1, problems.join('; '));
    t.regex(problems[0]!, problem);
  });
}

test('regions side by side are sound', (t) => {
  t.deepEqual(layoutProblems({ a: region(0, 100), b: region(100, 100), c: region(200, MEMORY - 200 - READ_PAST_BYTES) }, MEMORY), []);
});

test('a module built from another layout is refused, naming the region', async (t) => {
  const [{ wat }] = WASM_SOURCES;
  const names = layoutNames();
  names.set('headAnswer', String(LAYOUT.headAnswer.start + 16));
  names.set('layoutExports', names.get('layoutExports')!.replace(`"layout.headAnswer") i32 (i32.const ${LAYOUT.headAnswer.start})`, `"layout.headAnswer") i32 (i32.const ${LAYOUT.headAnswer.start + 16})`));
  const wabt = await wabtInit();
  const parsed = wabt.parseWat('kernels.wat', expandWat(fs.readFileSync(path.join(REPO, wat), 'utf8'), names), { simd: true });
  const bytes = parsed.toBinary({}).buffer;
  parsed.destroy();
  const { exports } = new WebAssembly.Instance(new WebAssembly.Module(bytes));
  t.deepEqual(moduleLayoutProblems(exports, MEMORY_PAGES * PAGE_BYTES), [`headAnswer starts at ${LAYOUT.headAnswer.start} in the layout and at ${LAYOUT.headAnswer.start + 16} in the module`]);
  t.deepEqual(moduleLayoutProblems({}, PAGE_BYTES).length, Object.keys(LAYOUT).length + 1);
});

test('the template: names become their numbers, @name+N adds N, comments are left as written', (t) => {
  const names = new Map([['a', '100'], ['a.end', '150'], ['text', '"x"']]);
  t.is(expandWat('(i32.const @a) (i32.const @a+16) offset=@a.end (data (i32.const 0) @text) ;; @a stays', names), '(i32.const 100) (i32.const 116) offset=150 (data (i32.const 0) "x") ;; @a stays');
  t.throws(() => expandWat('(i32.const @b)', names), { message: /no place named @b/ });
  t.throws(() => expandWat('(i32.const @text+1)', names), { message: /@text is not a number/ });
});

test('every name kernels.wat uses is declared, and every region is exported', (t) => {
  const [{ wat }] = WASM_SOURCES;
  const expanded = expandWat(fs.readFileSync(path.join(REPO, wat), 'utf8'));
  for (const name of Object.keys(LAYOUT)) t.true(expanded.includes(`(export "layout.${name}")`), name);
});

test('the output chunks leased from the kernels\' memory are the chunks the byte output fills', (t) => {
  t.is(OUTPUT_CHUNK_BYTES, CHUNK_BYTES);
  t.is(leaseKernelOutputChunk()?.length, CHUNK_BYTES);
});
