/**
 * The declarations a package's root (tsc's .d.ts output) reaches, read as text: from each export
 * of the root, every name its declaration mentions that its file declares or imports, and so
 * on. A reached declaration the root does not export is one a user of the package may have to
 * name (an options object, an IO, a part of a result) and cannot import: only the package's root
 * is in its `exports`, so `logtype/dist/src/...` is refused.
 *
 * tsc's declaration output is regular: one top-level statement per line or block, comments
 * as written, no expressions. That is what this reads; it is not a TypeScript parser.
 */
import fs from 'node:fs';
import path from 'node:path';

interface DeclarationFile {
  /** Local name to where it comes from: this file's own declaration, or an import's. */
  readonly scope: Map<string, { readonly file: string; readonly name: string }>;
  /** This file's own declarations (every overload and merged part together). */
  readonly declarations: Map<string, string>;
  /** `export { a, type B as C } from './x.js'`: the exported name to where it comes from. */
  readonly reexports: Map<string, { readonly file: string; readonly name: string }>;
}

export interface UnexportedDeclaration {
  /** The declaration's name, in the file (relative to the root's directory) that declares it. */
  readonly name: string;
  readonly file: string;
  /** The first declaration found mentioning it (`file#name`). */
  readonly mentionedBy: string;
}

const DECLARATION = /^(?:export\s+)?(?:declare\s+)?(?:abstract\s+)?(?:interface|type|class|enum|function|const|let|var|namespace)\s+([\w$]+)/;
const BLOCK = /^(?:export\s+)?(?:declare\s+)?(?:abstract\s+)?(?:interface|class|enum|namespace)\s/;
const NAMED = /^(?:import|export)\s+(?:type\s+)?\{([^}]*)\}\s*(?:from\s+'([^']+)')?/;

/** String literals blanked (a string's words are not names), their places kept. */
function withoutStrings(text: string): string {
  return text.replace(/'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"|`(?:[^`\\]|\\.)*`/g, (match) => ' '.repeat(match.length));
}

/** Top-level statements: to a `;` outside brackets, or to the `}` that closes a block declaration. */
function statements(code: string): string[] {
  const found: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < code.length; i++) {
    const c = code[i];
    if (c === '{' || c === '(' || c === '[') depth++;
    else if (c === '}' || c === ')' || c === ']') depth--;
    const text = (): string => code.slice(start, i + 1).trim();
    if (depth === 0 && (c === ';' || (c === '}' && BLOCK.test(text())))) {
      if (text() !== '') found.push(text());
      start = i + 1;
    }
  }
  return found;
}

function readDeclarationFile(file: string, sources: string): DeclarationFile {
  const text = fs.readFileSync(file, 'utf8');
  // Module specifiers are needed: strings are blanked only after imports and exports are read.
  const withStrings = text.replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*/g, (match) => ' '.repeat(match.length));
  const scope = new Map<string, { file: string; name: string }>();
  const declarations = new Map<string, string>();
  const reexports = new Map<string, { file: string; name: string }>();
  for (const statement of statements(withStrings)) {
    const named = NAMED.exec(statement);
    if (named) {
      const from = named[2] === undefined ? undefined : path.resolve(path.dirname(file), named[2].replace(/\.js$/, '.d.ts'));
      for (const part of named[1]!.split(',').map((p) => p.trim().replace(/^type\s+/, '')).filter(Boolean)) {
        const [original, local = original] = part.split(/\s+as\s+/) as [string, string?];
        if (statement.startsWith('import') && from && from.startsWith(sources)) scope.set(local, { file: from, name: original });
        else if (statement.startsWith('export') && from && from.startsWith(sources)) reexports.set(local, { file: from, name: original });
      }
      continue;
    }
    const declared = DECLARATION.exec(statement);
    if (declared) {
      const name = declared[1]!;
      declarations.set(name, `${declarations.get(name) ?? ''}\n${withoutStrings(statement)}`);
      scope.set(name, { file, name });
    }
  }
  return { scope, declarations, reexports };
}

/**
 * Every declaration reached from the root's exports that the root does not export (by the
 * file that declares it and its name there).
 */
export function unexportedDeclarations(root: string): UnexportedDeclaration[] {
  const sources = path.dirname(root);
  const files = new Map<string, DeclarationFile>();
  const fileOf = (file: string): DeclarationFile | undefined => {
    if (!files.has(file)) {
      if (!fs.existsSync(file)) return undefined;
      files.set(file, readDeclarationFile(file, sources));
    }
    return files.get(file);
  };
  /** Where a name of a file is declared, through its imports and re-exports. */
  const declaringFile = (file: string, name: string, seen = new Set<string>()): { file: string; name: string } | undefined => {
    const key = `${file}#${name}`;
    if (seen.has(key)) return undefined;
    seen.add(key);
    const parsed = fileOf(file);
    if (!parsed) return undefined;
    if (parsed.declarations.has(name)) return { file, name };
    const next = parsed.scope.get(name) ?? parsed.reexports.get(name);
    return next ? declaringFile(next.file, next.name, seen) : undefined;
  };
  const rootFile = fileOf(root)!;
  const exported = new Set<string>();
  const queue: { file: string; name: string; mentionedBy: string }[] = [];
  for (const [name, from] of rootFile.reexports) {
    const declared = declaringFile(from.file, from.name);
    if (!declared) continue;
    exported.add(`${declared.file}#${declared.name}`);
    queue.push({ ...declared, mentionedBy: `index#${name}` });
  }
  for (const name of rootFile.declarations.keys()) {
    exported.add(`${root}#${name}`);
    queue.push({ file: root, name, mentionedBy: `index#${name}` });
  }
  const seen = new Set<string>();
  const unexported: UnexportedDeclaration[] = [];
  while (queue.length > 0) {
    const { file, name, mentionedBy } = queue.shift()!;
    const key = `${file}#${name}`;
    if (seen.has(key)) continue;
    seen.add(key);
    if (!exported.has(key)) unexported.push({ name, file: path.relative(sources, file), mentionedBy });
    const parsed = fileOf(file)!;
    const text = parsed.declarations.get(name) ?? '';
    for (const word of new Set(text.match(/[A-Za-z_$][\w$]*/g) ?? [])) {
      if (word === name || !parsed.scope.has(word)) continue;
      const declared = declaringFile(file, word);
      if (declared) queue.push({ ...declared, mentionedBy: `${path.relative(sources, file)}#${name}` });
    }
  }
  return unexported;
}
