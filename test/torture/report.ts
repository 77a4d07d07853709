/**
 * What a torture run prints: the verdict and its figures in a few lines; on failure every
 * problem with what happened around it, the action log, and the command that replays it.
 */
import path from 'node:path';
import type { Observation } from './interpreter.js';
import { seconds, type Figures, type Problem, type Verdict } from './oracle.js';
import type { ActionName, Step } from './schedule.js';

/** At most this many problems are printed (all are counted). */
const MAX_PROBLEMS = 40;

export function summaryLine(observation: Observation, verdict: Verdict): string {
  const f = verdict.figures;
  const s = observation.schedule.settings;
  return (
    `seed ${s.seed}: ${verdict.passed ? 'passed' : 'FAILED'}; ${s.types.length} files, ${observation.schedule.actions.length} actions, ` +
    `${f.runs} runs (${f.sigterms} SIGTERM, ${f.sigkills} SIGKILL), ${f.lines} lines (${(f.bytes / 1e6).toFixed(1)} MB) written, ` +
    `${f.delivered} delivered; lost ${f.lost}, repeated ${f.repeated} (+${f.repeatedAfterKill} allowed after SIGKILL), ` +
    `out of order ${f.outOfOrder}, damaged ${f.damaged + f.split + f.interleaved + f.unidentified + f.wrongType}, invalid JSON ${f.invalidJson}; ` +
    `destroyed by copytruncate ${f.destroyed}, unreachable ${f.unreachable}, late ${f.late}, before the first look ${f.beforeFirstLook}; ` +
    `${(observation.elapsedMs / 1000).toFixed(1)} s`
  );
}

export function fullReport(observation: Observation, verdict: Verdict): string {
  const s = observation.schedule.settings;
  const out: string[] = [];
  out.push(`torture seed ${s.seed} (${s.durationMs / 1000} s schedule) against ${observation.sidecar}: ${verdict.passed ? 'passed' : 'FAILED'}`);
  out.push(
    `  settings: ${s.types.map((t, i) => `${i}=${t}.log (${s.rates[i]}/s)`).join(', ')}; --rotate-wait ${s.rotateWaitMs}ms --poll-interval ${s.pollMs}ms ` +
      `--max-line-bytes ${s.maxLineBytes}${s.fromStart ? ' --from-start' : ''}; files in ${observation.dir}`,
  );
  out.push(`  ${summaryLine(observation, verdict)}`);
  out.push(`  actions: ${countActions(observation)}`);
  out.push(`  operations: ${countOperations(observation)}`);
  out.push(`  figures: ${figuresText(verdict.figures)}`);
  if (!verdict.passed) {
    out.push(`  problems (${verdict.problems.length}${verdict.problems.length > MAX_PROBLEMS ? `, first ${MAX_PROBLEMS}` : ''}):`);
    for (const problem of verdict.problems.slice(0, MAX_PROBLEMS)) {
      out.push(`  - ${problemText(observation, problem)}`);
      for (const line of around(observation, problem.at)) out.push(`      ${line}`);
    }
    if (verdict.excused.length > 0) out.push(`  not delivered and not owed (${verdict.excused.length} groups${verdict.excused.length > 10 ? ', first 10' : ''}):`);
    for (const group of verdict.excused.slice(0, 10)) out.push(`  - ${problemText(observation, group).replace(/^LOST/, 'NOT OWED')}`);
    out.push('  runs:');
    for (const run of observation.runs) {
      const end = run.endedBy ? `${run.endedBy.signal} at ${seconds(run.endedBy.at)} s${run.endedBy.stalled ? ' (reader stalled)' : ''}` : 'not signalled';
      out.push(
        `    run ${run.index}: started ${seconds(run.startedAt)} s${run.hadState ? '' : ' without state'}, ${end}, exit ${run.exit ? `${run.exit.code ?? run.exit.signal} at ${seconds(run.exit.at)} s` : '?'}, ${run.outputBytes} bytes out`,
      );
    }
    out.push('  action log:');
    for (const line of actionLog(observation)) out.push(`    ${line}`);
  }
  out.push(
    `  replay: npm run torture -- --seed ${s.seed} --schedule-seconds ${s.durationMs / 1000}${s.actions ? ` --actions ${s.actions.join(',')}` : ''} --sidecar ${observation.sidecar}`,
  );
  return out.join('\n');
}

export function figuresText(f: Figures): string {
  const causes = Object.entries(f.lostByCause)
    .map(([cause, n]) => `${cause} ${n}`)
    .join(', ');
  return (
    `lines ${f.lines}, bytes ${f.bytes}, delivered ${f.delivered}, entries ${f.entries} (${f.pieces} pieces), ` +
    `lost ${f.lost}${causes ? ` (${causes})` : ''}, repeated ${f.repeated}, repeated after SIGKILL ${f.repeatedAfterKill}, ` +
    `out of order ${f.outOfOrder}, damaged ${f.damaged}, split ${f.split} (+${f.splitAtStop} across a SIGTERM, allowed; +${f.restNotOwed} begun before a SIGTERM whose rest no run could read), interleaved ${f.interleaved}, unidentified ${f.unidentified}, ` +
    `wrong type ${f.wrongType}, invalid JSON ${f.invalidJson} (+${f.cutByKill} cut by SIGKILL, allowed), pieces sent again after SIGKILL ${f.piecesAgain} (allowed), bad exits ${f.badExits} (+${f.termWhileStarting} SIGTERM while Node was starting, allowed), stderr noise ${f.stderrNoise}, hangs ${f.hangs}; ` +
    `excused: destroyed by copytruncate ${f.destroyed}, copied before any was read ${f.racedCopy}, unreachable ${f.unreachable}, late ${f.late}, before the first look ${f.beforeFirstLook}`
  );
}

function problemText(observation: Observation, p: Problem): string {
  const type = p.file === undefined ? '' : ` ${observation.schedule.settings.types[p.file]}`;
  const lines = p.seqs ? (p.seqs[0] === p.seqs[1] ? ` line ${p.seqs[0]}` : ` lines ${p.seqs[0]}-${p.seqs[1]}`) : '';
  const run = p.run === undefined ? '' : ` run ${p.run}`;
  const cause = p.cause ? ` [${p.cause}]` : '';
  return `${p.kind.toUpperCase()} ${p.count}${type}${lines}${run} at ${seconds(p.at)} s${cause}: ${p.detail}`;
}

/** Steps worth naming (everything but plain writes) from 3 s before `at` to 0.5 s after. */
function around(observation: Observation, at: number): string[] {
  return observation.records
    .filter((r) => r.at >= at - 3000 && r.at <= at + 500)
    .filter((r) => observation.schedule.steps[r.index]!.op !== 'write')
    .slice(-10)
    .map((r) => `${seconds(r.at)} s  ${stepText(observation, observation.schedule.steps[r.index]!)} (${r.condition})${r.note ? ` ${r.note}` : ''}`);
}

function actionLog(observation: Observation): string[] {
  const lines: string[] = [];
  const { steps, actions } = observation.schedule;
  let burstRecords = 0;
  for (const record of observation.records) {
    const step = steps[record.index]!;
    if (step.load) {
      burstRecords++;
      continue;
    }
    const action = step.action >= 0 ? actions[step.action]! : undefined;
    lines.push(
      `${seconds(record.at).padStart(6)} s  #${String(record.index).padEnd(5)} ${stepText(observation, step)} (${record.condition})${record.note ? ` ${record.note}` : ''}` +
        (action ? `  [${action.name} ${action.index}${action.detail ? `: ${action.detail}` : ''}]` : ''),
    );
  }
  lines.push(`(${burstRecords} writes of background, burst and stall load not listed)`);
  return lines;
}

export function stepText(observation: Observation, step: Step): string {
  const name = (file: number): string => path.basename(observation.files.pathOf(file));
  switch (step.op) {
    case 'write':
      return `write ${step.lines} ${step.size} line(s) to ${name(step.file)}`;
    case 'partial':
      return `write the first ${Math.round(step.fraction * 100)}% of a ${step.size} line to ${name(step.file)}`;
    case 'finish':
      return `finish the unfinished line of ${name(step.file)}`;
    case 'rename':
      return `rename ${name(step.file)} -> .1 (shifting older ones)`;
    case 'reopen':
      return `writer reopens ${name(step.file)}${step.banner ? ' (banner first)' : ''}`;
    case 'copy':
      return `copy ${name(step.file)} -> .1 (copytruncate)`;
    case 'copy-over':
      return `copy ${name(step.file)} over .1 in place (a home-made copytruncate)`;
    case 'truncate':
      return `truncate ${name(step.file)} to 0 (copytruncate)`;
    case 'unlink':
      return `delete ${name(step.file)} (the writer keeps writing)`;
    case 'recreate':
      return `delete and create ${name(step.file)} again at once${step.banner ? ' (banner first)' : ''}`;
    case 'stall':
      return `reader stalls ${step.ms} ms`;
    case 'start':
      return 'start the sidecar';
    case 'term':
      return 'SIGTERM';
    case 'kill':
      return 'SIGKILL';
    case 'wait-exit':
      return 'wait for its exit';
  }
}

function countActions(observation: Observation): string {
  const counts = new Map<ActionName, number>();
  for (const action of observation.schedule.actions) counts.set(action.name, (counts.get(action.name) ?? 0) + 1);
  return [...counts].map(([name, n]) => `${name} ${n}`).join(', ');
}

function countOperations(observation: Observation): string {
  const counts = new Map<string, number>();
  for (const step of observation.schedule.steps) counts.set(step.op, (counts.get(step.op) ?? 0) + 1);
  return [...counts].map(([op, n]) => `${op} ${n}`).join(', ');
}

