/**
 * `npm run mutate [TARGET ...]`: StrykerJS over each target folder in turn (stryker.config.mjs
 * says what each mutates and which tests judge it; default: all of them), at low priority
 * (nice 10: the machine is shared), then one table row per target: mutants, what became of
 * them, the score, and the wall time it took. The reports stay in reports/mutation/ (an HTML
 * page and the JSON of each target), the instrumented sandbox in .stryker-tmp/TARGET/.
 *
 * `npm run mutate -- --survivors TARGET ...`: the mutants that survived the last run, judged
 * again by the tests as they are now (copied into the kept sandbox, each mutant switched on by
 * its id as Stryker does): minutes instead of an hour while writing tests that kill them.
 * Adding tests never revives a killed mutant, so the new score is the old kills and these.
 * Refused when the target's compiled code changed since the run (its mutants would be others).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const REPO = path.resolve(import.meta.dirname, '../../..');

interface Mutant {
  readonly id: string;
  /** Rewritten when a survivor is judged again. */
  status: string;
  readonly mutatorName: string;
  readonly replacement?: string;
  readonly location: { readonly start: { readonly line: number; readonly column: number } };
}

interface MutantReport {
  readonly files: Readonly<Record<string, { readonly source: string; readonly mutants: Mutant[] }>>;
}

interface Target {
  readonly mutate: readonly string[];
  readonly tests: readonly string[];
}

/** Mutants by status, and the score as Stryker counts it: detected over detected and undetected. */
export function tally(report: MutantReport): { counts: Record<string, number>; total: number; score: number } {
  const counts: Record<string, number> = {};
  let total = 0;
  for (const file of Object.values(report.files)) {
    for (const { status } of file.mutants) {
      counts[status] = (counts[status] ?? 0) + 1;
      total++;
    }
  }
  const detected = (counts['Killed'] ?? 0) + (counts['Timeout'] ?? 0);
  const undetected = (counts['Survived'] ?? 0) + (counts['NoCoverage'] ?? 0);
  return { counts, total, score: detected + undetected === 0 ? 0 : (100 * detected) / (detected + undetected) };
}

const reportPath = (target: string): string => path.join(REPO, 'reports/mutation', `${target}.json`);

/** The survivors of the last run of `target`, judged again; the report is updated with the new kills. */
function rejudgeSurvivors(target: string, command: string): string {
  const report = JSON.parse(fs.readFileSync(reportPath(target), 'utf8')) as MutantReport;
  for (const [file, { source }] of Object.entries(report.files)) {
    if (fs.readFileSync(path.join(REPO, file), 'utf8') !== source) throw new Error(`${file} changed since the last run of ${target}: run it whole again`);
  }
  const parent = path.join(REPO, '.stryker-tmp', target);
  const sandbox = fs.existsSync(parent) ? fs.readdirSync(parent).filter((name) => name.startsWith('sandbox-')).map((name) => path.join(parent, name))[0] : undefined;
  if (!sandbox) throw new Error(`no sandbox kept in ${parent}: run ${target} whole first`);
  fs.cpSync(path.join(REPO, 'dist/test'), path.join(sandbox, 'dist/test'), { recursive: true });
  const lines: string[] = [];
  for (const [file, { mutants }] of Object.entries(report.files)) {
    for (const mutant of mutants) {
      if (mutant.status !== 'Survived' && mutant.status !== 'NoCoverage') continue;
      const run = spawnSync('nice', ['-n', '10', 'sh', '-c', command], {
        cwd: sandbox,
        env: { ...process.env, __STRYKER_ACTIVE_MUTANT__: mutant.id },
        stdio: 'ignore',
        timeout: 300_000,
      });
      const killed = run.status !== 0;
      if (killed) mutant.status = 'Killed';
      lines.push(`${killed ? 'killed  ' : 'survived'} ${file}:${mutant.location.start.line}:${mutant.location.start.column} ${mutant.mutatorName} -> ${JSON.stringify(mutant.replacement ?? '')}`);
    }
  }
  fs.writeFileSync(reportPath(target), JSON.stringify(report));
  return lines.join('\n');
}

async function main(): Promise<number> {
  const { TARGETS, commandFor } = (await import(path.join(REPO, 'stryker.config.mjs'))) as { TARGETS: Record<string, Target>; commandFor: (target: Target) => string };
  const survivorsOnly = process.argv[2] === '--survivors';
  const asked = process.argv.slice(survivorsOnly ? 3 : 2);
  const unknown = asked.filter((name) => !(name in TARGETS));
  if (unknown.length > 0) {
    process.stderr.write(`mutate: no target ${unknown.join(', ')}; the targets are ${Object.keys(TARGETS).join(', ')}\n`);
    return 2;
  }
  const rows: string[] = [];
  for (const target of asked.length > 0 ? asked : Object.keys(TARGETS)) {
    const started = Date.now();
    if (survivorsOnly) {
      process.stdout.write(`${target}: the last run's survivors, judged again\n${rejudgeSurvivors(target, commandFor(TARGETS[target]!))}\n`);
    } else {
        const run = spawnSync('nice', ['-n', '10', process.execPath, 'node_modules/@stryker-mutator/core/bin/stryker.js', 'run'], {
        cwd: REPO,
        env: { ...process.env, MUTATE: target },
        stdio: 'inherit',
      });
      if (run.status !== 0) {
        process.stderr.write(`mutate: stryker failed on ${target} (exit ${run.status}); see its output above\n`);
        return 1;
      }
    }
    const minutes = (Date.now() - started) / 60_000;
    const report = JSON.parse(fs.readFileSync(reportPath(target), 'utf8')) as MutantReport;
    const { counts, total, score } = tally(report);
    const n = (status: string): number => counts[status] ?? 0;
    rows.push(
      `| ${target} | ${total} | ${n('Killed')} | ${n('Timeout')} | ${n('Survived')} | ${n('NoCoverage')} | ${n('RuntimeError') + n('CompileError')} | ${score.toFixed(1)} % | ${minutes.toFixed(0)} min |`,
    );
  }
  process.stdout.write(
    ['', '| target | mutants | killed | timed out | survived | no coverage | errors | score | wall time |', '|---|--:|--:|--:|--:|--:|--:|--:|--:|', ...rows, ''].join('\n'),
  );
  return 0;
}

process.exitCode = await main();
