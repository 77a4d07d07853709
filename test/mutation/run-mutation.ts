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
 *
 * `npm run mutate -- --minutes N TARGET ...`: each run stopped after N minutes. Stryker writes its
 * reports only at the end; the mutants it judged before the stop are in TARGET.mutants.jsonl
 * (mutant-log-reporter.mjs), and the report is made from them, marked partial with the count
 * judged of those instrumented. MUTATE_FILES narrows a run to some files (stryker.config.mjs).
 */
import { spawn, spawnSync } from 'node:child_process';
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
  /** Set when the run was stopped before every mutant was judged. */
  readonly partial?: { readonly judged: number; readonly instrumented: number; readonly minutes: number };
}

/** A line of TARGET.mutants.jsonl. */
interface LoggedMutant extends Mutant {
  readonly fileName: string;
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
  // The newest sandbox is the last run's: its mutant ids are the report's.
  const sandbox = fs.existsSync(parent)
    ? fs
        .readdirSync(parent)
        .filter((name) => name.startsWith('sandbox-'))
        .map((name) => path.join(parent, name))
        .sort((a, b) => fs.statSync(b).mtimeMs - fs.statSync(a).mtimeMs)[0]
    : undefined;
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

/**
 * Stryker on one target at nice 10, its output passed on; stopped (its whole process group)
 * after `minutes` when given. Reports how many mutants it instrumented, read from its output.
 */
async function runStryker(target: string, minutes: number | undefined): Promise<{ status: number | null; stopped: boolean; instrumented: number }> {
  const child = spawn('nice', ['-n', '10', process.execPath, 'node_modules/@stryker-mutator/core/bin/stryker.js', 'run'], {
    cwd: REPO,
    env: { ...process.env, MUTATE: target },
    stdio: ['ignore', 'pipe', 'inherit'],
    detached: true,
  });
  let instrumented = 0;
  child.stdout.on('data', (chunk: Buffer) => {
    process.stdout.write(chunk);
    const match = /Instrumented \d+ source file\(s\) with (\d+) mutant/.exec(chunk.toString('utf8'));
    if (match) instrumented = Number(match[1]);
  });
  let stopped = false;
  const timer =
    minutes === undefined
      ? undefined
      : setTimeout(() => {
          stopped = true;
          process.stdout.write(`\nmutate: ${target} stopped after ${minutes} min (--minutes); the report holds the mutants judged so far\n`);
          process.kill(-child.pid!, 'SIGTERM');
          setTimeout(() => {
            try {
              process.kill(-child.pid!, 'SIGKILL');
            } catch {
              // gone already
            }
          }, 10_000).unref();
        }, minutes * 60_000);
  const status = await new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  clearTimeout(timer);
  return { status, stopped, instrumented };
}

/** The report of a run stopped early: the mutants it logged as judged, by file. */
function writePartialReport(target: string, instrumented: number, minutes: number): void {
  const logged = fs
    .readFileSync(path.join(REPO, 'reports/mutation', `${target}.mutants.jsonl`), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as LoggedMutant);
  const files: Record<string, { source: string; mutants: Mutant[] }> = {};
  for (const { fileName, ...mutant } of logged) {
    files[fileName] ??= { source: fs.readFileSync(path.join(REPO, fileName), 'utf8'), mutants: [] };
    files[fileName].mutants.push(mutant);
  }
  const report: MutantReport = { files, partial: { judged: logged.length, instrumented, minutes } };
  fs.writeFileSync(reportPath(target), JSON.stringify(report));
}

async function main(): Promise<number> {
  const { TARGETS, commandFor } = (await import(path.join(REPO, 'stryker.config.mjs'))) as { TARGETS: Record<string, Target>; commandFor: (target: Target) => string };
  const args = process.argv.slice(2);
  const survivorsOnly = args[0] === '--survivors';
  if (survivorsOnly) args.shift();
  let minutes: number | undefined;
  if (args[0] === '--minutes') {
    minutes = Number(args[1]);
    if (!(minutes > 0)) {
      process.stderr.write(`mutate: --minutes takes a number of minutes, not ${JSON.stringify(args[1] ?? '')}\n`);
      return 2;
    }
    args.splice(0, 2);
  }
  const asked = args;
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
      const run = await runStryker(target, minutes);
      if (run.status !== 0 && !run.stopped) {
        process.stderr.write(`mutate: stryker failed on ${target} (exit ${run.status}); see its output above\n`);
        return 1;
      }
      if (run.stopped) writePartialReport(target, run.instrumented, (Date.now() - started) / 60_000);
    }
    const took = (Date.now() - started) / 60_000;
    const report = JSON.parse(fs.readFileSync(reportPath(target), 'utf8')) as MutantReport;
    const { counts, total, score } = tally(report);
    const n = (status: string): number => counts[status] ?? 0;
    const judged = report.partial ? `${total} of ${report.partial.instrumented} (partial)` : String(total);
    rows.push(
      `| ${target}${process.env['MUTATE_FILES'] ? ` (${process.env['MUTATE_FILES']})` : ''} | ${judged} | ${n('Killed')} | ${n('Timeout')} | ${n('Survived')} | ${n('NoCoverage')} | ${n('RuntimeError') + n('CompileError')} | ${score.toFixed(1)} % | ${took.toFixed(0)} min |`,
    );
  }
  process.stdout.write(
    ['', '| target | mutants | killed | timed out | survived | no coverage | errors | score | wall time |', '|---|--:|--:|--:|--:|--:|--:|--:|--:|', ...rows, ''].join('\n'),
  );
  return 0;
}

process.exitCode = await main();
