/**
 * What `logtype doctor` prints: for each problem found, what it means, how to fix it, and the
 * evidence; or that none was found. Text for a person (escaped for the terminal), JSON for
 * scripts.
 */
import { timesReadWords } from '../select/reading-notices.js';
import type { TimesRead } from '../select/record-query.js';
import { newestFirstWords, type TimeSteps } from '../summary/time-order.js';
import type { Palette } from '../render/colors.js';
import { escapeTerminal } from '../render/escape-terminal.js';
import { formatTime, localTimeWords } from '../render/format-time.js';
import { groupedNumber } from '../render/grouped-number.js';
import type { ProblemFinding } from './find-problems.js';
import { KNOWN_PROBLEMS, remedyOf } from './known-problems.js';

/** What was not looked at: the inputs not read to their end, and a Ctrl-C; undefined when all was read. */
export interface DoctorIncomplete {
  /** Each input not read to its end, and why (`read rs1.log.gz up to where its gzip data ends early (the file was cut short)`). */
  readonly unread: readonly string[];
  readonly interrupted: boolean;
  /** Lines counted but not looked at (a defect of logtype's), and the first of them with why. */
  readonly failedLines?: number;
  readonly firstFailure?: string;
}

/** The report's warnings that it did not see everything, one a line. */
function incompleteLines(incomplete: DoctorIncomplete | undefined): string[] {
  if (!incomplete) return [];
  const lines = incomplete.unread.map((why) => `${why}; only what was read of it was looked at`);
  if (incomplete.interrupted) lines.push('interrupted (Ctrl-C) before the end of the input; only what was read until then was looked at');
  if (incomplete.failedLines) lines.push(`${groupedNumber(incomplete.failedLines)} ${incomplete.failedLines === 1 ? 'line was' : 'lines were'} counted but not looked at (a logtype defect: please report it with the line); the first: ${incomplete.firstFailure ?? ''}`);
  return lines;
}

/** The lines read, and those of them the selection let doctor look at (all, without one). */
export interface DoctorLines {
  readonly read: number;
  readonly lookedAt: number;
  /** The first and last time of the entries --since/--until looked at. */
  readonly timesRead?: TimesRead | undefined;
}

export function renderDoctorText(findings: readonly ProblemFinding[], lines: DoctorLines, palette: Palette, utc: boolean, incomplete?: DoctorIncomplete, newestFirst?: TimeSteps): string {
  // Counts grouped as summary writes them (12,859 lines).
  const plural = (n: number, word: string): string => `${groupedNumber(n)} ${word}${n === 1 ? '' : 's'}`;
  // The report says itself that it saw part of the input: pasted into a ticket, it does not pass for the whole.
  const warnings =
    incompleteLines(incomplete).map((why) => `${palette.yellow(`incomplete: ${escapeTerminal(why)}`)}\n`).join('') +
    (newestFirst ? `${palette.yellow(`order: ${newestFirstWords(newestFirst)}`)}\n` : '');
  if (lines.read === 0) {
    // `kubectl logs POD | logtype doctor` with a wrong pod name: nothing was looked at, which is not "no problem".
    const why = incomplete ? 'nothing was read (incomplete, above)' : 'the input was empty';
    return `${warnings}${palette.yellow('Nothing looked at')}: ${why}, 0 lines. Check the command that feeds doctor (kubectl logs POD, its -c CONTAINER, --since).\n`;
  }
  if (lines.lookedAt === 0) {
    // `doctor --since 30m` on a pod quiet for an hour: nothing looked at is not "no problem" either.
    const times = lines.timesRead ? `; ${timesReadWords(lines.timesRead, utc)}` : '';
    return `${warnings}${palette.yellow('Nothing looked at')}: the selection left out all ${plural(lines.read, 'line')} read${times}. Widen it (--since, --until, -t, -l, …) or leave it out to look at every line.\n`;
  }
  // Part of the input, by the selection: the count says which part was looked at.
  const part = lines.lookedAt < lines.read;
  const looked = part ? `${groupedNumber(lines.lookedAt)} of the ${plural(lines.read, 'line')} read` : plural(lines.read, 'line');
  const leftOut = part ? '; the selection left out the rest' : '';
  if (findings.length === 0) {
    return `${warnings}${palette.green('No known problem found')} in ${looked} (${KNOWN_PROBLEMS.length} known problems looked for${leftOut}).\n`;
  }
  const out = [`${warnings}${palette.bold(`${plural(findings.length, 'known problem')} found`)} in ${looked}${part ? ' (the selection left out the rest)' : ''}:`, ''];
  for (const finding of findings) {
    const { problem } = finding;
    const found = foundBeside(finding, findings);
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
    // One event in several logs (a failed login in the server's log and the audit log), or in several lines (a crash's): counted once.
    const counted = finding.count === finding.lines ? '' : ` (${plural(finding.lines, 'line')}: ${problem.oneEventWithin?.lines ?? 'each of its logs writes it, counted once'})`;
    out.push(`  Seen:     ${plural(finding.count, 'time')}${counted}, ${when}, in ${escapeTerminal(seenIn(finding))} (shows in: ${problem.where})`);
    if (finding.sources.length > 0) out.push(`  ${finding.sources.length === 1 && !finding.moreSources ? 'Source: ' : 'Sources:'}  ${escapeTerminal(named(finding.sources, finding.moreSources))}`);
    out.push(`  Means:    ${problem.meaning}`);
    out.push(`  Fix:      ${palette.green(remedyOf(problem, finding.types, found))}`);
    out.push(`  Example:  ${palette.gray(escapeTerminal(finding.example))}`);
    out.push('');
  }
  return out.join('\n');
}

/**
 * The problems found where a finding was (a source of theirs is one of its own, or either names
 * none): a fatal error in rs0-0's log is not where rs0-1's crash starts.
 */
function foundBeside(finding: Pick<ProblemFinding, 'sources'>, findings: readonly ProblemFinding[]): Set<string> {
  const mine = new Set(finding.sources);
  return new Set(findings.filter((f) => mine.size === 0 || f.sources.length === 0 || f.sources.some((source) => mine.has(source))).map((f) => f.problem.id));
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

/** One known problem as `logtype doctor --json` writes it: the problem's words, and where and how often it showed. */
export interface DoctorProblem {
  /** The known problem's id (`KnownProblem.id`), stable across versions: what a script matches on. */
  readonly id: string;
  readonly title: string;
  /** Worth knowing, not wrong: alone, such findings leave doctor's exit status 0. */
  readonly informational: boolean;
  /** Which container log or file it shows in. */
  readonly where: string;
  readonly meaning: string;
  /** The fix, with the log types it was seen in put into its commands. */
  readonly remedy: string;
  /** Times it happened (one event written to several logs counts once). */
  readonly count: number;
  /** Lines that showed it. */
  readonly lines: number;
  /** Its first and last time (ISO 8601, UTC), when the lines had times. */
  readonly first?: string | undefined;
  readonly last?: string | undefined;
  /** One line that showed it, as read (cut when long). */
  readonly example: string;
  readonly exampleType: string | null;
  /** The log types it showed in (at most a few: `moreTypes` when there were more). */
  readonly types: readonly string[];
  readonly moreTypes: boolean;
  /** It showed in lines that are not entries (kubectl's own lines, a pod's plain output). */
  readonly inOtherLines: boolean;
  /** The pods or files it showed in, where the input names them (`moreSources` when there were more). */
  readonly sources: readonly string[];
  readonly moreSources: boolean;
}

/** `logtype doctor --json`: one document. */
export interface DoctorReport {
  readonly linesRead: number;
  /** Lines the selection let through (all of them without one). */
  readonly linesLookedAt: number;
  /** Present when the input was not read to its end (a cut gzip file, Ctrl-C). */
  readonly incomplete?: DoctorIncomplete;
  /** Present when the server's lines run newest first: what is told by their order (a killed server) may be missed. */
  readonly newestFirst?: TimeSteps;
  /** Present when a time bound left out every line: when the entries it looked at run (summary's JSON has the same). */
  readonly timesRead?: { readonly first: string; readonly last: string };
  /** Most serious first, as the text lists them. */
  readonly problems: readonly DoctorProblem[];
}

export function doctorJson(findings: readonly ProblemFinding[], lines: DoctorLines, incomplete?: DoctorIncomplete, newestFirst?: TimeSteps): DoctorReport {
  return {
    linesRead: lines.read,
    linesLookedAt: lines.lookedAt,
    ...(incomplete ? { incomplete } : {}),
    ...(newestFirst ? { newestFirst } : {}),
    ...(lines.lookedAt === 0 && lines.timesRead ? { timesRead: { first: new Date(lines.timesRead.first).toISOString(), last: new Date(lines.timesRead.last).toISOString() } } : {}),
    problems: findings.map(({ problem, count, lines, first, last, example, exampleType, types, sources, inOtherLines, moreTypes, moreSources }) => ({
      id: problem.id,
      title: problem.title,
      informational: problem.informational === true,
      where: problem.where,
      meaning: problem.meaning,
      remedy: remedyOf(problem, types, foundBeside({ sources }, findings)),
      count,
      lines,
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
