/**
 * Compiles the WebAssembly text sources under src/ with wabt (a dev dependency), for the test
 * that checks the embedded bytes and for `npm run wasm`, which writes them.
 */
import fs from 'node:fs';
import path from 'node:path';
import wabtInit from 'wabt';
import { REPO } from './sidecar-process.js';

export const WASM_SOURCES = [{ wat: 'src/encode/json-string.wat', embedded: 'src/encode/json-string-wasm.ts' }] as const;

export async function compileWat(watPath: string): Promise<Buffer> {
  const wabt = await wabtInit();
  const module = wabt.parseWat(path.basename(watPath), fs.readFileSync(path.join(REPO, watPath), 'utf8'), { simd: true });
  try {
    return Buffer.from(module.toBinary({}).buffer);
  } finally {
    module.destroy();
  }
}

export function embeddedSource(watPath: string, bytes: Buffer): string {
  return [
    `// Written by \`npm run wasm\` from ${path.basename(watPath)}: do not edit.`,
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
