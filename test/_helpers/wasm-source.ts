/**
 * Builds the WebAssembly kernels: kernels.wat is a template whose places in memory are named
 * (`@name`, `@name+N`) and declared once in kernel-layout.ts; the names are replaced by their
 * numbers, and the text is compiled with wabt (a dev dependency). For the test that checks the
 * embedded bytes and for `npm run wasm`, which writes them.
 */
import fs from 'node:fs';
import path from 'node:path';
import wabtInit from 'wabt';
import {
  HEAD_PUNCTUATION,
  HEAD_SLOT,
  KEPT_TEXTS,
  LAYOUT,
  MEMORY_PAGES,
  escapedPunctuation,
  punctuationAt,
  type PunctuationName,
} from '../../src/kernels/kernel-layout.js';
import { REPO } from './sidecar-process.js';

export const WASM_SOURCES = [{ wat: 'src/kernels/kernels.wat', embedded: 'src/kernels/kernels-wasm.ts' }] as const;

/** A WebAssembly text string literal of `text`'s UTF-8 bytes. */
function watString(text: string): string {
  return `"${[...Buffer.from(text)].map((byte) => (byte >= 0x20 && byte < 0x7f && byte !== 0x22 && byte !== 0x5c ? String.fromCharCode(byte) : `\\${byte.toString(16).padStart(2, '0')}`)).join('')}"`;
}

/** Every name the template may use, and the text it stands for. */
export function layoutNames(): Map<string, string> {
  const names = new Map<string, string>();
  for (const [name, { start, bytes }] of Object.entries(LAYOUT)) {
    names.set(name, String(start));
    names.set(`${name}.end`, String(start + bytes));
    names.set(`${name}.bytes`, String(bytes));
  }
  for (const [slot, index] of Object.entries(HEAD_SLOT)) names.set(`head.${slot}`, String(LAYOUT.headAnswer.start + index * 4));
  for (const escaped of [false, true]) {
    const region = escaped ? 'escapedPunctuation' : 'punctuation';
    const spell = (text: string): string => (escaped ? escapedPunctuation(text) : text);
    for (const [piece, { start, bytes }] of Object.entries(punctuationAt(escaped)) as [PunctuationName, { start: number; bytes: number }][]) {
      names.set(`${region}.${piece}`, String(start));
      names.set(`${region}.${piece}.bytes`, String(bytes));
    }
    names.set(`${region}.data`, watString(Object.values(HEAD_PUNCTUATION).map(spell).join('')));
  }
  names.set('keptTexts.slotMask', String(KEPT_TEXTS.slots - 1));
  names.set('keptTexts.most', String(KEPT_TEXTS.most));
  names.set('keptTexts.longest', String(KEPT_TEXTS.longest));
  names.set('memoryPages', String(MEMORY_PAGES));
  names.set(
    'layoutExports',
    Object.entries(LAYOUT)
      .map(([name, { start }]) => `(global (export "layout.${name}") i32 (i32.const ${start}))`)
      .join('\n  '),
  );
  return names;
}

const NAME = /@([A-Za-z][A-Za-z0-9]*(?:\.[A-Za-z][A-Za-z0-9]*)*)(?:\+(\d+))?/g;

/** The template with every name replaced (comments are left as written); throws at an unknown name. */
export function expandWat(template: string, names = layoutNames()): string {
  return template
    .split('\n')
    .map((line) => {
      const comment = line.indexOf(';;');
      const code = comment < 0 ? line : line.slice(0, comment);
      const expanded = code.replace(NAME, (_, name: string, plus: string | undefined) => {
        const value = names.get(name);
        if (value === undefined) throw new Error(`kernels.wat: no place named @${name} in kernel-layout.ts`);
        if (plus === undefined) return value;
        if (!/^\d+$/.test(value)) throw new Error(`kernels.wat: @${name} is not a number, so not @${name}+${plus}`);
        return String(Number(value) + Number(plus));
      });
      return comment < 0 ? expanded : expanded + line.slice(comment);
    })
    .join('\n');
}

export async function compileWat(watPath: string): Promise<Buffer> {
  const wabt = await wabtInit();
  const module = wabt.parseWat(path.basename(watPath), expandWat(fs.readFileSync(path.join(REPO, watPath), 'utf8')), { simd: true });
  try {
    return Buffer.from(module.toBinary({}).buffer);
  } finally {
    module.destroy();
  }
}

export function embeddedSource(watPath: string, bytes: Buffer): string {
  return [
    `// Written by \`npm run wasm\` from ${path.basename(watPath)} and kernel-layout.ts: do not edit.`,
    `export const WASM_BASE64 = '${bytes.toString('base64')}';`,
    '',
  ].join('\n');
}

/** `npm run wasm`: writes the embedded modules. */
export async function writeEmbeddedModules(): Promise<void> {
  for (const { wat, embedded } of WASM_SOURCES) {
    const bytes = await compileWat(wat);
    fs.writeFileSync(path.join(REPO, embedded), embeddedSource(wat, bytes));
    process.stdout.write(`${embedded}: ${bytes.length} bytes from ${wat}\n`);
  }
}

if (process.argv[1] === import.meta.filename) await writeEmbeddedModules();
