/**
 * What `logtype doctor` prints: for each problem found, what it means, how to fix it, and the
 * evidence; or that none was found. Text for a person (escaped for the terminal), JSON for
 * scripts.
 */
import type { Palette } from '../render/colors.js';
import { escapeTerminal } from '../render/escape-terminal.js';
import { formatTime } from '../render/format-time.js';
import { groupedNumber } from '../render/grouped-number.js';
import type { ProblemFinding } from './find-problems.js';
import { KNOWN_PROBLEMS } from './known-problems.js';

export function renderDoctorText(findings: readonly ProblemFinding[], linesRead: number, palette: Palette, utc: boolean): string {
  // Counts grouped as summary writes them (12,859 lines).
  const plural = (n: number, word: string): string => `${groupedNumber(n)} ${word}${n === 1 ? '' : 's'}`;
  if (findings.length === 0) {
    return `${palette.green('No known problem found')} in ${plural(linesRead, 'line')} (${KNOWN_PROBLEMS.length} known problems looked for).\n`;
  }
  const out = [`${palette.bold(`${plural(findings.length, 'known problem')} found`)} in ${plural(linesRead, 'line')}:`, ''];
  for (const finding of findings) {
    const { problem } = finding;
    const mark = problem.informational ? palette.cyan('i') : palette.redBadge('!');
    const when =
      finding.first !== undefined
      ? finding.first === finding.last
        ? `at ${formatTime(finding.first, utc)}`
        : `from ${formatTime(finding.first, utc)} to ${formatTime(finding.last!, utc)}`
      : 'time unknown';
    out.push(`${mark} ${palette.bold(problem.title)}  ${palette.gray(`[${problem.id}]`)}`);
    out.push(`  Seen:     ${plural(finding.count, 'time')}, ${when}, in ${finding.exampleType === undefined ? 'lines that are not entries' : escapeTerminal(finding.exampleType)} (shows in: ${problem.where})`);
    out.push(`  Means:    ${problem.meaning}`);
    out.push(`  Fix:      ${palette.green(problem.remedy)}`);
    out.push(`  Example:  ${palette.gray(escapeTerminal(finding.example))}`);
    out.push('');
  }
  return out.join('\n');
}

export function doctorJson(findings: readonly ProblemFinding[], linesRead: number): unknown {
  return {
    linesRead,
    problems: findings.map(({ problem, count, first, last, example, exampleType }) => ({
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
    })),
  };
}
