/**
 * What `logtype doctor` prints: for each problem found, what it means, how to fix it, and the
 * evidence; or that none was found. Text for a person (escaped for the terminal), JSON for
 * scripts.
 */
import type { Palette } from '../render/colors.js';
import { escapeTerminal } from '../render/escape-terminal.js';
import { formatTime, localTimeWords } from '../render/format-time.js';
import { groupedNumber } from '../render/grouped-number.js';
import type { ProblemFinding } from './find-problems.js';
import { KNOWN_PROBLEMS } from './known-problems.js';

/** What was not looked at: the inputs not read to their end, and a Ctrl-C; undefined when all was read. */
export interface DoctorIncomplete {
  /** Each input not read to its end, and why (`cannot read rs1.log.gz: its gzip data ends early (the file was cut short)`). */
  readonly unread: readonly string[];
  readonly interrupted: boolean;
}

/** The report's warnings that it did not see everything, one a line. */
function incompleteLines(incomplete: DoctorIncomplete | undefined): string[] {
  if (!incomplete) return [];
  const lines = incomplete.unread.map((why) => `${why}; only what was read of it was looked at`);
  if (incomplete.interrupted) lines.push('interrupted (Ctrl-C) before the end of the input; only what was read until then was looked at');
  return lines;
}

export function renderDoctorText(findings: readonly ProblemFinding[], linesRead: number, palette: Palette, utc: boolean, incomplete?: DoctorIncomplete): string {
  // Counts grouped as summary writes them (12,859 lines).
  const plural = (n: number, word: string): string => `${groupedNumber(n)} ${word}${n === 1 ? '' : 's'}`;
  // The report says itself that it saw part of the input: pasted into a ticket, it does not pass for the whole.
  const warnings = incompleteLines(incomplete).map((why) => `${palette.yellow(`incomplete: ${escapeTerminal(why)}`)}\n`).join('');
  if (linesRead === 0) {
    // `kubectl logs POD | logtype doctor` with a wrong pod name: nothing was looked at, which is not "no problem".
    const why = incomplete ? 'nothing was read (incomplete, above)' : 'the input was empty';
    return `${warnings}${palette.yellow('Nothing looked at')}: ${why}, 0 lines. Check the command that feeds doctor (kubectl logs POD, its -c CONTAINER, --since).\n`;
  }
  if (findings.length === 0) {
    return `${warnings}${palette.green('No known problem found')} in ${plural(linesRead, 'line')} (${KNOWN_PROBLEMS.length} known problems looked for).\n`;
  }
  const out = [`${warnings}${palette.bold(`${plural(findings.length, 'known problem')} found`)} in ${plural(linesRead, 'line')}:`, ''];
  for (const finding of findings) {
    const { problem } = finding;
    const mark = problem.informational ? palette.cyan('i') : palette.redBadge('!');
    // UTC times end in Z; local ones say their zone, as summary's do.
    const zone = utc || finding.first === undefined ? '' : ` ${localTimeWords(finding.first, finding.last)}`;
    const when =
      finding.first !== undefined
      ? finding.first === finding.last
        ? `at ${formatTime(finding.first, utc)}${zone}`
        : `from ${formatTime(finding.first, utc)} to ${formatTime(finding.last!, utc)}${zone}`
      : 'time unknown';
    out.push(`${mark} ${palette.bold(problem.title)}  ${palette.gray(`[${problem.id}]`)}`);
    out.push(`  Seen:     ${plural(finding.count, 'time')}, ${when}, in ${escapeTerminal(seenIn(finding))} (shows in: ${problem.where})`);
    if (finding.sources.length > 0) out.push(`  ${finding.sources.length === 1 && !finding.moreSources ? 'Source: ' : 'Sources:'}  ${escapeTerminal(named(finding.sources, finding.moreSources))}`);
    out.push(`  Means:    ${problem.meaning}`);
    out.push(`  Fix:      ${palette.green(problem.remedy)}`);
    out.push(`  Example:  ${palette.gray(escapeTerminal(finding.example))}`);
    out.push('');
  }
  return out.join('\n');
}

/** The names kept, and that there were more. */
function named(names: readonly string[], more: boolean): string {
  return more ? `${names.join(', ')} and more` : names.join(', ');
}

/** Every log it showed in, and the lines that are not entries. */
export function seenIn(finding: Pick<ProblemFinding, 'types' | 'moreTypes' | 'inOtherLines'>): string {
  const other = finding.inOtherLines ? 'lines that are not entries' : undefined;
  if (finding.types.length === 0) return other ?? 'no line';
  const types = named(finding.types, finding.moreTypes);
  return other ? `${types}; ${other}` : types;
}

export function doctorJson(findings: readonly ProblemFinding[], linesRead: number, incomplete?: DoctorIncomplete): unknown {
  return {
    linesRead,
    ...(incomplete ? { incomplete } : {}),
    problems: findings.map(({ problem, count, first, last, example, exampleType, types, sources, inOtherLines, moreTypes, moreSources }) => ({
      id: problem.id,
      title: problem.title,
      informational: problem.informational === true,
      where: problem.where,
      meaning: problem.meaning,
      remedy: problem.remedy,
      count,
      first: first === undefined ? undefined : new Date(first).toISOString(),
      last: last === undefined ? undefined : new Date(last).toISOString(),
      example,
      exampleType: exampleType ?? null,
      types,
      inOtherLines,
      moreTypes,
      sources,
      moreSources,
    })),
  };
}
