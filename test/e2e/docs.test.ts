/**
 * The docs show what the commands really print and name what the code declares: the README's
 * tour is run as written, and the hand-written tables of docs/formats.md are checked against
 * the log types and known problems they describe. (docs/cli.md is checked in
 * test/unit/cli-reference.test.ts.)
 */
import test from 'ava';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { KNOWN_PROBLEMS } from '../../src/doctor/known-problems.js';
import { FILE_LOG_TYPES } from '../../src/log-types.js';
import { FILTER_BIN, REPO, SIDECAR_BIN, cleanEnv, tempDir } from '../_helpers/sidecar-process.js';

interface Example {
  readonly command: string;
  /** The output as shown: a line ending in `…` is the start of the real line, a line `…` stands for any lines. */
  readonly shown: readonly string[];
}

/** The `$ command` lines of the README's code blocks, each with the output shown below it. */
function readmeExamples(markdown: string): Example[] {
  const examples: Example[] = [];
  for (const block of markdown.split(/^```[a-z]*\n/m).filter((_, index) => index % 2 === 1)) {
    let current: { command: string; shown: string[] } | undefined;
    for (const line of block.replace(/```\n?$/, '').split('\n')) {
      if (line.startsWith('$ ')) examples.push((current = { command: line.slice(2), shown: [] }));
      else if (current && line !== '') current.shown.push(line);
    }
  }
  return examples;
}

/** Where the shown lines do not appear, in order, in the real output; undefined when they all do. */
function mismatch(shown: readonly string[], actual: readonly string[]): string | undefined {
  let at = 0;
  let anyLines = false;
  for (const line of shown) {
    if (line === '…') {
      anyLines = true;
      continue;
    }
    const matches = (real: string) => (line.endsWith('…') ? real.startsWith(line.slice(0, -1)) : real === line);
    const found = anyLines ? actual.findIndex((real, index) => index >= at && matches(real)) : matches(actual[at] ?? '') ? at : -1;
    if (found < 0) return `expected ${JSON.stringify(line)} at line ${at + 1} or after, got ${JSON.stringify(actual[at])}`;
    at = found + 1;
    anyLines = false;
  }
  return undefined;
}

test("README: the tour's commands print what it shows", (t) => {
  const examples = readmeExamples(fs.readFileSync(path.join(REPO, 'README.md'), 'utf8'));
  t.true(examples.length >= 5, `${examples.length} examples`);
  // The commands run as written: in a directory with samples/, with both commands on PATH.
  const dir = tempDir('readme');
  fs.symlinkSync(path.join(REPO, 'samples'), path.join(dir, 'samples'));
  // The replica set's example reads Hatchet's members under the names it gives them.
  for (const member of ['rs1', 'rs2']) fs.copyFileSync(path.join(REPO, `test/fixtures/real/mongod-replica-${member}.log.gz`), path.join(dir, `${member}.log.gz`));
  const bin = path.join(dir, 'bin');
  fs.mkdirSync(bin);
  for (const [name, target] of [['logtype', FILTER_BIN], ['logtype-sidecar', SIDECAR_BIN]] as const) {
    fs.writeFileSync(path.join(bin, name), `#!/bin/sh\nexec "${process.execPath}" "${target}" "$@"\n`, { mode: 0o755 });
  }
  const env = cleanEnv({ PATH: `${bin}${path.delimiter}${process.env['PATH'] ?? ''}`, NO_COLOR: '1' });
  for (const { command, shown } of examples) {
    const result = spawnSync('bash', ['-c', command], { cwd: dir, env, encoding: 'utf8', timeout: 30_000 });
    // doctor's 1 means "problems found", which the README shows.
    t.true(result.status === 0 || (result.status === 1 && command.includes('logtype doctor')), `${command}: exit ${result.status}\n${result.stderr}`);
    const problem = mismatch(shown, result.stdout.split('\n'));
    t.is(problem, undefined, `${command}: ${problem}`);
  }
});

const formats = fs.readFileSync(path.join(REPO, 'docs/formats.md'), 'utf8');

test('docs/formats.md §1 names every log file type and its variable', (t) => {
  for (const type of FILE_LOG_TYPES) t.true(formats.includes(`| \`${type.name}\` | \`${type.envVar}\` |`), type.name);
});

test('docs/formats.md §7 names every known problem doctor looks for', (t) => {
  const section = formats.split(/^## 7\. /m)[1]?.split(/^## /m)[0] ?? '';
  t.not(section, '');
  for (const problem of KNOWN_PROBLEMS) t.regex(section, new RegExp(`^\\| \`${problem.id}\``, 'm'), problem.id);
});

test('docs/report.md: every row logtype says yes or partly to names a test that exists, in the file it names', (t) => {
  const report = fs.readFileSync(path.join(REPO, 'docs/report.md'), 'utf8');
  const rows = report.split('\n').filter((line) => line.startsWith('| ') && !line.startsWith('| what') && !line.startsWith('|---'));
  t.true(rows.length >= 15, `${rows.length} rows`);
  for (const row of rows) {
    const [what, , , logtype, backed] = row.split(' | ').map((cell) => cell.replace(/^\| |\s\|$/g, ''));
    if (logtype!.startsWith('no')) {
      t.is(backed, '-', `${what}: no test for a row not built`);
      continue;
    }
    const named = /^`([^`]+)` › "([^"]+)"/.exec(backed ?? '');
    if (logtype!.startsWith('partly') && backed === '-') continue;
    t.truthy(named, `${what}: names its test`);
    const source = fs.readFileSync(path.join(REPO, named![1]!), 'utf8');
    t.true(source.includes(named![2]!), `${what}: ${named![1]} has "${named![2]}"`);
  }
});
