/**
 * The summary for a person at a terminal: tables, an activity strip, every string from a log
 * escaped for the terminal.
 */
import { timesReadWords } from '../select/reading-notices.js';
import { MAX_PATTERN_CHARS } from './summary-limits.js';
import { MAX_CLIENT_DRIVERS, MAX_CLIENT_IPS, MAX_RESPONSE_SIZE_KEYS, MAX_SERVER_PROBLEMS } from './summary-limits.js';
import { countCell, foldedWords, ownRows, rowsWords } from './folded-rows.js';
import { OTHER } from './client-connections.js';
import { cutLine } from './slowest-operations.js';
import { counted } from '../render/counted.js';
import { typeLabel } from './type-label.js';
import { newestFirstWords } from './time-order.js';
import type { Palette } from '../render/colors.js';
import { cutToWidth, displayWidth, padToWidth } from '../render/display-width.js';
import { escapeTerminal } from '../render/escape-terminal.js';
import { formatTime, localTimeWords } from '../render/format-time.js';
import { laneStrip, stripKey } from './lane-strip.js';
import type { Counted, MemberCount, ResponseSize, ServerSummary, Summary, TypeProblems } from './summary.js';
import { foldActivity } from './activity-fold.js';
import { durationCells, sketchNote } from './duration-cells.js';
import { groupedNumber } from '../render/grouped-number.js';

export interface SummaryTextOptions {
  readonly palette: Palette;
  readonly utc: boolean;
  /** Columns of the activity strip. */
  readonly width: number;
}

/**
 * The most terminal columns a table's cell takes, but in its last column: one 300-character
 * namespace or an 85-character appName would otherwise widen its column in every row, and every
 * row would wrap. 40 keeps whole the namespaces, appNames, pod names and threads met in practice
 * (`config.tenantMigrationRecipients` is 32), and the widest table (the slowest operations, with
 * its member, appName and namespace at the bound) near 180 columns before its last one. The
 * JSON and the page keep the whole text.
 */
export const TEXT_CELL_COLUMNS = 40;

/** Every entry read was selected (the pieces of a split line count as the line they make). */
export function allSelected(lines: Summary['lines']): boolean {
  return (lines.selectedAsRead ?? lines.selected) === lines.entries;
}

/** After the selected count, when pieces of split lines were joined: what they were as read, so "2 read, 1 selected" reads as no entry left out. */
export function joinedWords(lines: Summary['lines']): string {
  return lines.selectedAsRead === undefined ? '' : ` (${number(lines.selectedAsRead)} as read: pieces of split lines joined)`;
}

/**
 * Rows under a header, columns padded to their widest cell, each cell but the last column's cut
 * at TEXT_CELL_COLUMNS (with `…`); `right` columns align right.
 */
export function formatTable(header: readonly string[], rows: readonly (readonly string[])[], right: readonly boolean[] = []): string[] {
  const last = header.length - 1;
  const cells = rows.map((row) => row.map((cell, i) => (i === last ? cell : cutToWidth(cell, TEXT_CELL_COLUMNS))));
  // Columns by the terminal's cells, not string length: a CJK appName takes two a character.
  const widths = header.map((h, i) => Math.max(displayWidth(h), ...cells.map((row) => displayWidth(row[i] ?? ''))));
  const line = (row: readonly string[]): string =>
    row
      .map((cell, i) => (i === row.length - 1 && !right[i] ? cell : padToWidth(cell, widths[i]!, right[i])))
      .join('  ')
      .trimEnd();
  return [line(header), ...cells.map(line)].map((l) => `  ${l}`);
}

/** What a group's first line said, under its message (`first: …`): escaped, cut, grey. */
const firstWords = (text: string, palette: Palette): string => palette.gray(`first: ${cutLine(escapeTerminal(text), TEXT_LINE_CHARS)}`);

/** Server messages listed in the text, the most frequent (the JSON and the page have them all). */
const TEXT_MESSAGES = 15;
/** Slowest operations listed in the text (the JSON and the page have all that are kept). */
const TEXT_SLOWEST = 10;
/** Client IPs and drivers listed in the text, the most connections first. */
const TEXT_CLIENTS = 10;
/** A slowest operation's line in the text, cut here: the terminal wraps it, the page has more. */
const TEXT_LINE_CHARS = 400;

const number = groupedNumber;
const millis = (ms: number): string => (ms >= 10_000 ? `${(ms / 1000).toFixed(1)}s` : `${Math.round(ms)}ms`);
/** Bytes in the largest unit that keeps a number of at least 1 (1024 to a KiB). */
export function bytes(n: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let value = n;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return unit === 0 ? `${number(n)} B` : `${value.toFixed(1)} ${units[unit]}`;
}

/** How long a connection lived: `850ms`, `12.3s`, `5m 07s`, `3h 02m`, `2d 04h`. */
export function lifetime(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)}ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)}s`;
  const [big, small, bigUnit, smallUnit]: [number, number, string, string] = ms < 3_600_000 ? [60_000, 1000, 'm', 's'] : ms < 86_400_000 ? [3_600_000, 60_000, 'h', 'm'] : [86_400_000, 3_600_000, 'd', 'h'];
  const whole = Math.floor(ms / big);
  return `${whole}${bigUnit} ${String(Math.floor((ms - whole * big) / small)).padStart(2, '0')}${smallUnit}`;
}

const inline = (counts: readonly Counted[], n = 12): string =>
  counts
    .slice(0, n)
    .map(({ key, count }) => `${escapeTerminal(key)} ${number(count)}`)
    .join(', ') + (counts.length > n ? `, … ${counts.length - n} more` : '');

const SPARKS = '▁▂▃▄▅▆▇█';

/** One character per column: the lines (or errors) of the minutes it covers, scaled to the busiest. */
export function sparkline(values: readonly number[]): string {
  const max = Math.max(0, ...values);
  return values.map((v) => (v === 0 ? ' ' : SPARKS[Math.min(SPARKS.length - 1, Math.floor((v / max) * (SPARKS.length - 1) + 0.5))])).join('');
}

/**
 * The connections' peak in words: with several members it is one member's own count, named
 * (`peak 27 open, on my-db-1`), for a bare figure beside the members' summed opened and
 * closed reads as the replica set's.
 */
export function peakWords(connections: ServerSummary['connections']): string {
  if (connections.peak === null) return 'peak unknown';
  return `peak ${number(connections.peak)} open${connections.peakMember === undefined ? '' : `, on ${connections.peakMember} (each member counts its own)`}`;
}

/**
 * Where a type's lines span less than a minute, its rate is its count (a minute at the least:
 * 7 lines in 126 ms are no 3,333 a minute): said, so the column is not read as a measured rate.
 */
export function perMinuteNote(summary: Pick<Summary, 'types'>): string | undefined {
  const short = summary.types.some((t) => t.perMinute !== undefined && t.first != null && t.last != null && Date.parse(t.last) - Date.parse(t.first) < 60_000);
  return short ? 'per min: entries from the first line to the last, over a minute at the least (a type whose lines span less: its count)' : undefined;
}

/** Who was primary in an interval, in words. */
export function primaryWords(interval: NonNullable<NonNullable<Summary['server']>['primaries']>[number]): string {
  const { primaries, unknown } = interval;
  if (interval.uncovered) return "unknown (no member's log covers this time)";
  if (primaries.length === 1) return primaries[0]!;
  if (primaries.length > 1) return `${primaries.join(' and ')} (each said PRIMARY)`;
  // A member whose state is not known (its log does not cover the time, or said no state yet) may have been it: unknown, not none.
  return unknown.length > 0 ? `unknown: none said PRIMARY (${unknown.join(', ')}: state not known)` : 'none';
}

/**
 * Whose lines a row's are, when the input holds several members: one member's name alone, else
 * each member with its count, the most first (`my-db-0 118, my-db-1 2`): in an incident the
 * question is whether a slow shape or a warning is one pod's (the primary's, a sick node's) or
 * every pod's, and the counts say how much of it each one has, which a list of names hides.
 */
export function memberCountWords(members: readonly MemberCount[] | undefined): string {
  if (members === undefined || members.length === 0) return '-';
  if (members.length === 1) return members[0]!.name;
  return members.map((m) => `${m.name} ${number(m.count)}`).join(', ');
}

/**
 * memberCountWords for a text table's cell: where the words would be cut at TEXT_CELL_COLUMNS
 * (`mongod-replica-rs1 10, mongod-replica-r…`: the second member's count lost), the members
 * are named by what sets them apart, their names' common beginning up to a separator left out
 * (`rs1 10, rs2 10`); the members' table above names them whole.
 */
export function memberCountCell(members: readonly MemberCount[] | undefined): string {
  const words = memberCountWords(members);
  if (members === undefined || members.length < 2 || displayWidth(words) <= TEXT_CELL_COLUMNS) return words;
  const names = members.map((m) => m.name);
  let shared = names.reduce((prefix, name) => {
    let i = 0;
    while (i < prefix.length && i < name.length && prefix[i] === name[i]) i++;
    return prefix.slice(0, i);
  });
  // Up to its last separator: `my-db-1` and `my-db-12` keep `1` and `12`, not `` and `2`.
  shared = shared.slice(0, Math.max(...[...'-_./:'].map((separator) => shared.lastIndexOf(separator))) + 1);
  if (shared === '') return words;
  return members.map((m) => `${m.name.slice(shared.length)} ${number(m.count)}`).join(', ');
}

/** What the members' `slow ops` column counts: more than the slow operations' section, which a reader compares it with. */
export const SLOW_OPS_COLUMN = 'slow ops: slow queries, oplog entries applied slowly and slow transactions together (the sections below count each apart)';

/** The members' table, their lanes as strips, and who was primary when. */
function membersText(server: NonNullable<Summary['server']>, out: string[], time: (iso: string | null | undefined) => string, width: number): void {
  const members = server.members!;
  out.push(`  members (${members.length}), each a pod or an input:`);
  out.push(
    ...formatTable(
      ['member', 'lines', 'warnings', 'errors', 'slow ops', 'restarts', 'elections or step-downs', 'state changes', 'last state', 'first', 'last'],
      members.map((m) => [escapeTerminal(m.name), number(m.lines), number(m.warnings), number(m.errors), number(m.slowOperations), number(m.restarts), number(m.elections), number(m.stateChanges), escapeTerminal(m.lastState ?? '-'), time(m.first), time(m.last)]),
      [false, true, true, true, true, true, true, true],
    ).map((l) => `  ${l}`),
  );
  out.push(`  ${SLOW_OPS_COLUMN}`);
  const starts = members.flatMap((m) => (m.first === null ? [] : [Date.parse(m.first)]));
  const ends = members.flatMap((m) => (m.last === null ? [] : [Date.parse(m.last)]));
  if (starts.length > 0) {
    const start = Math.min(...starts);
    const end = Math.max(...ends);
    const names = members.map((m) => escapeTerminal(m.name));
    const nameWidth = Math.max(...names.map((n) => n.length));
    const columns = Math.max(10, width - nameWidth - 6);
    out.push(`  lanes from ${time(new Date(start).toISOString())} to ${time(new Date(end).toISOString())} (${stripKey(members)}; blank: no line):`);
    members.forEach((m, i) => out.push(`    ${names[i]!.padEnd(nameWidth)}  ${laneStrip(m.lane, start, end, columns)}`));
  }
  if (server.primaries && server.primaries.length > 0) {
    out.push('  who was primary when (from the members\' own state changes):');
    out.push(...formatTable(['from', 'to', 'for', 'primary'], server.primaries.map((p) => [time(p.from), time(p.to), lifetime(Date.parse(p.to) - Date.parse(p.from)), escapeTerminal(primaryWords(p))]), [false, false, true]).map((l) => `  ${l}`));
  }
}

/** How many of those kept a table shows, when not all: the rest are in --json and --html. */
const keptNote = (shown: number, kept: number): string => (shown < kept ? ` (${shown} of the ${number(kept)} kept; --json and --html have them all)` : '');

/**
 * Where most timed lines are, when a few far from them stretch every chart's time axis
 * (time-focus.ts), and the options that chart those alone; undefined otherwise. `time` writes
 * a time as the report does; the options' times are exact, to be copied.
 */
export function focusLine(summary: Summary, time: (iso: string) => string): string | undefined {
  const focus = summary.activity.focus;
  if (!focus) return undefined;
  const others = focus.before + focus.after;
  const where = [focus.before > 0 ? `${number(focus.before)} before` : '', focus.after > 0 ? `${number(focus.after)} after` : ''].filter((part) => part !== '').join(', ');
  return (
    `${number(focus.lines)} of the ${number(focus.lines + others)} timed lines are from ${time(focus.from)} to ${time(focus.to)}; ` +
    `${others === 1 ? 'the other' : `the other ${number(others)}`} (${where}) stretch every chart's time axis: ` +
    `--since ${focus.from} --until ${focus.to} charts those ${number(focus.lines)} alone`
  );
}

/**
 * The server's starts and shutdowns: the restarts the input shows, each saying whether its
 * member logged a shutdown before it (a start without one follows a process killed or crashed;
 * `everyLine`: false when a selection left lines out, which may be the shutdown's, and then it
 * says only that none was selected); then (when there are some) the starts its members' logs
 * begin with, which are no restart seen (a container's log begins so); then the shutdowns, each
 * with what began it and its exit code; then the log rotations, each with the version and the
 * member state its lines said (a log that begins at one has no start lines: only they say them).
 * Each with its time, its member when there are several, and the version it started when known.
 */
export function startLines(server: ServerSummary, time: (iso: string | null) => string, everyLine = true): string[] {
  const words = (r: ServerSummary['restarts'][number]): string => `${time(r.time)}${r.member === undefined ? '' : ` ${r.member}`}${r.version === null ? '' : ` v${r.version}`}`;
  const before = (r: ServerSummary['restarts'][number]): string =>
    r.shutdownBefore === true ? ', after a shutdown' : r.shutdownBefore === false ? (everyLine ? ', no shutdown logged before it: killed or crashed' : ', no shutdown among the selected lines before it') : '';
  const restarts = server.restarts.filter((r) => r.atLogStart !== true);
  const atLogStart = server.restarts.filter((r) => r.atLogStart === true);
  const shutdown = (d: ServerSummary['shutdowns'][number]): string =>
    `${time(d.time)}${d.member === undefined ? '' : ` ${d.member}`}${d.cause === null ? '' : ` on ${d.cause === 'shutdown command' ? 'the shutdown command' : d.cause}`}` +
    `${d.exited === null ? ', no exit logged' : `, exit code ${d.exitCode ?? 'unknown'}${time(d.exited) === time(d.time) ? '' : ` at ${time(d.exited)}`}`}`;
  const shutdowns = server.shutdowns.length + server.shutdownsNotKept;
  // A rotation: what its lines said, and nothing they did not (no state: no replica set, or not written).
  const rotation = (r: ServerSummary['logRotations'][number]): string =>
    `${time(r.time)}${r.member === undefined ? '' : ` ${r.member}`}${r.version === null ? '' : ` v${r.version}`}${r.memberState === null ? '' : `, member state ${r.memberState}`}${r.atLogStart === true ? `, where ${r.member === undefined ? 'its' : 'its member\'s'} log begins` : ''}`;
  const rotations = server.logRotations.length + server.logRotationsNotKept;
  return [
    // A start a log begins with is its server's "SERVER RESTARTED" all the same: said apart, so
    // that "none" is not read as denying it.
    `restarts: ${restarts.length === 0 ? (everyLine ? 'none' : 'none among the selected lines (a start\'s lines are info: a selection such as -l warn leaves them out)') : `${restarts.length}${everyLine ? '' : ' among the selected lines'} (${restarts.map((r) => `${words(r)}${before(r)}`).join('; ')})`}${atLogStart.length === 0 ? '' : ' after the log begins'}`,
    ...(atLogStart.length === 0 ? [] : [`started where ${atLogStart.length === 1 ? 'its log begins' : 'their logs begin'} (what ran before is not in the input): ${atLogStart.map(words).join(', ')}`]),
    ...(shutdowns === 0 ? [] : [`shutdowns: ${shutdowns} (${server.shutdowns.map(shutdown).join('; ')}${server.shutdownsNotKept > 0 ? `; ${server.shutdownsNotKept} more not listed` : ''})`]),
    ...(rotations === 0 ? [] : [`log rotations: ${rotations} (${server.logRotations.map(rotation).join('; ')}${server.logRotationsNotKept > 0 ? `; ${server.logRotationsNotKept} more not listed` : ''})`]),
  ];
}

/** What the summary did not read, one line each (none when it read its whole input). */
export function incompleteLines(summary: Summary): string[] {
  const incomplete = summary.incomplete;
  if (!incomplete) return [];
  const lines = incomplete.unread.map((why) => `${why}; this summary covers what was read of it`);
  if (incomplete.interrupted) lines.push('interrupted (Ctrl-C) before the end of the input; this summary covers what was read until then');
  if (incomplete.failedLines) lines.push(`${number(incomplete.failedLines)} ${incomplete.failedLines === 1 ? 'line was' : 'lines were'} counted but not read into this summary (a logtype defect: please report it with the line); the first: ${incomplete.firstFailure ?? ''}`);
  return lines;
}

/** Inputs read as members of their own that are one server (their start lines name one host): how to read them as one. */
export function sameServerWords(summary: Summary): string[] {
  return (summary.server?.sameServer ?? []).map(
    ({ host, members }) =>
      `${members.join(' and ')} are one server (host ${host}, their start lines say), read as ${members.length} members: a restart between them is not counted, and each has a lane of its own. Give their files as one input, oldest first (cat OLDER NEWER | logtype summary), or take them with kubectl's --prefix`,
  );
}

/** Each member whose lines' times step back (not when the whole input runs newest first: that is said once). */
export function clockStepWords(summary: Summary, time: (iso: string) => string): string[] {
  if (summary.newestFirst) return [];
  return (summary.server?.clockSteps ?? []).map(
    ({ member, at, backMillis, count }) =>
      `${member}'s lines step back in time${count > 1 ? ` ${number(count)} times, by up to` : ' by'} ${lifetime(backMillis)}, first at ${time(at)} (its clock set back, or set right after a jump forward; or its lines out of order): its lane and who was primary when are unsure around ${count > 1 ? 'them' : 'it'}`,
  );
}

/** Each member whose log holds lines twice: the counts below are not to be trusted as they are. */
export function repeatedLinesWords(summary: Summary): string[] {
  return (summary.server?.repeatedLines ?? []).map(({ member, lines, sameAs }) =>
    sameAs !== undefined
      ? `${member}'s ${number(lines)} lines are ${sameAs}'s again (one log given twice, under two names): every count below includes them twice, and ${member} is left out of who was primary when; give each log once`
      : `about ${number(lines)} of ${member}'s lines repeat lines before them (the same log given twice, or a copy that overlaps it): every count below includes the repeats; give each log once`,
  );
}

/** A column's span in the unit that reads (47348 min is 32.9 days). */
export function columnSpanWords(minutes: number): string {
  const tenths = (n: number): string => String(Math.round(n * 10) / 10);
  if (minutes < 120) return `${minutes} min`;
  if (minutes < 2 * 1440) return `${tenths(minutes / 60)} h`;
  return `${tenths(minutes / 1440)} days`;
}

/** Why no log type has a row: nothing read, nothing that was an entry, or nothing selected. */
function noTypes(lines: Summary['lines'], incomplete: Summary['incomplete'], utc: boolean): string {
  if (lines.entries > 0 && lines.timesRead) {
    return `the selection left out every entry read; ${timesReadWords({ first: Date.parse(lines.timesRead.first), last: Date.parse(lines.timesRead.last) }, utc)}`;
  }
  if (lines.entries > 0) return 'the selection left out every entry read';
  if (incomplete && lines.notEntries === 0) return 'nothing was read (incomplete, above)';
  if (lines.notEntries > 0 && lines.notLogs) return `no line read was a log entry: ${lines.notLogs}`;
  if (lines.notEntries > 0) return `no line read was a log entry or a log line logtype knows (logtype --keep-other -o raw shows ${lines.notEntries === 1 ? 'it' : 'them'})`;
  return 'the input was empty';
}

/**
 * How many of the slow operations were COLLSCANs (a whole collection read, the first thing to
 * look for): the figure --json's collscansSeen and the page's plot say, beside the operations'
 * count (their groups', the `(other shapes)` row's included) and how many groups they make.
 */
export function collscanWords(server: Pick<ServerSummary, 'slowOperations' | 'collscansSeen'>): string {
  const operations = server.slowOperations.reduce((n, g) => n + g.count, 0);
  const all = `${counted(operations, 'slow operation', 'slow operations', number)}`;
  if (server.collscansSeen === 0) return `COLLSCANs: none among the ${all}`;
  const groups = server.slowOperations.filter((g) => g.collscan).length;
  return `COLLSCANs: ${number(server.collscansSeen)} of the ${all}, in ${counted(groups, 'group', 'groups', number)}, marked ◀`;
}

/** A group of agent or operator messages: seen once, the message as written; else its shape, numbers masked. */
export const problemWords = (m: TypeProblems['messages'][number]): string => (m.count === 1 ? m.example : m.message);

/**
 * A group of several messages: its first as written, shown beside its shape (the shape masks
 * which host, which version, which number); undefined for a group of one (its words are the
 * example already) or one whose shape is its example (nothing was masked).
 */
export const problemExample = (m: TypeProblems['messages'][number]): string | undefined => (m.count > 1 && m.example !== m.message ? m.example : undefined);

/** Slow-operation groups the text lists: the most total time, and every COLLSCAN group after them (up to as many more): the heading says COLLSCANs are marked. */
const SLOW_GROUPS_SHOWN = 15;
function shownSlowGroups<G extends { readonly collscan: boolean }>(groups: readonly G[]): G[] {
  let collscans = 0;
  return groups.filter((g, i) => i < SLOW_GROUPS_SHOWN || (g.collscan && collscans++ < SLOW_GROUPS_SHOWN));
}

/** What a log's problems list leaves out: `… 16 more warning messages (40 lines)`. */
export function notListedWords(notListed: NonNullable<TypeProblems['notListed']>, number: (n: number) => string): string {
  const groups = notListed.messages > 0 ? `${number(notListed.messages)} more warning ${notListed.messages === 1 ? 'message' : 'messages'}` : '';
  // Lines past the messages kept may be of any level: said apart from the warnings' groups.
  const ungrouped = notListed.ungrouped > 0 ? `${counted(notListed.ungrouped, 'line', 'lines', number)} past the messages kept` : '';
  return `… ${[groups, ungrouped].filter((words) => words !== '').join(' and ')} (${counted(notListed.lines, 'line', 'lines', number)})`;
}

export function renderSummaryText(summary: Summary, options: SummaryTextOptions): string {
  const { palette, utc } = options;
  const time = (iso: string | null | undefined): string => (iso ? formatTime(Date.parse(iso), utc).slice(0, 19) : '-');
  const out: string[] = [];
  const heading = (text: string): void => {
    out.push('', palette.bold(text));
  };
  const { lines } = summary;
  out.push(
    `${palette.bold('logtype summary')}: ${counted(lines.entries, 'entry', 'entries', number)} read, ${number(lines.selected)} selected${joinedWords(lines)}, ${counted(lines.notEntries, 'line that was not an entry', 'lines that were not entries', number)}`,
  );
  if (summary.first) out.push(`from ${time(summary.first)} to ${time(summary.last)} ${utc ? 'UTC' : localTimeWords(Date.parse(summary.first), Date.parse(summary.last ?? summary.first))}`);
  const focus = focusLine(summary, time);
  if (focus) out.push(palette.yellow(`most lines: ${focus}`));
  for (const why of incompleteLines(summary)) out.push(palette.yellow(`incomplete: ${escapeTerminal(why)}`));
  if (summary.newestFirst) out.push(palette.yellow(`order: ${newestFirstWords(summary.newestFirst)}`));
  for (const why of repeatedLinesWords(summary)) out.push(palette.yellow(`repeated: ${escapeTerminal(why)}`));
  for (const why of clockStepWords(summary, (iso) => time(iso))) out.push(palette.yellow(`clock: ${escapeTerminal(why)}`));
  for (const why of sameServerWords(summary)) out.push(palette.yellow(`members: ${escapeTerminal(why)}`));

  heading('Log types');
  // No rows: say why, rather than a table's heading alone (the page says "none" too).
  if (summary.types.length === 0) out.push(`  none: ${noTypes(lines, summary.incomplete, utc)}`);
  else {
    const rows = summary.types.map((t) => [
      escapeTerminal(typeLabel(t.logType, summary)),
      number(t.entries),
      time(t.first),
      time(t.last),
      t.perMinute === undefined ? '-' : String(t.perMinute),
      number(t.errors),
      number(t.warnings),
      number(t.unparsed),
    ]);
    out.push(...formatTable(['type', 'entries', 'first', 'last', 'per min', 'errors', 'warnings', 'unparsed'], rows, [false, true, false, false, true, true, true, true]));
    const note = perMinuteNote(summary);
    if (note) out.push(`  ${note}`);
  }

  if (summary.activity.buckets.length > 1) {
    const folded = foldActivity(summary.activity, options.width);
    heading(`Activity (one column = ${columnSpanWords(folded.minutesPerColumn)}, from ${time(summary.activity.start)})`);
    out.push(`  lines  ${palette.cyan(sparkline(folded.lines))}  peak ${number(Math.max(...folded.lines))}`);
    out.push(`  errors ${palette.red(sparkline(folded.errors))}  peak ${number(Math.max(...folded.errors))}`);
  }

  const server = summary.server;
  // Several members: the rows that are one line or one group say whose (the connection table already does).
  const several = server?.members !== undefined;
  if (server) {
    heading('Server (mongodb)');
    out.push(`  severity:   ${inline(server.bySeverity)}`);
    out.push(`  components: ${inline(server.byComponent)}`);
    const { opened, closed } = server.connections;
    out.push(`  connections: ${number(opened)} opened, ${number(closed)} closed, ${escapeTerminal(peakWords(server.connections))}${allSelected(summary.lines) ? '' : ' (of the selected lines)'}`);
    for (const line of startLines(server, time, allSelected(summary.lines))) out.push(`  ${escapeTerminal(line)}`);
    if (server.replication.length > 0) {
      out.push('  replica set, in time order:');
      for (const { time: at, event, member } of server.replication) out.push(`    ${time(at)}  ${member === undefined ? '' : `${escapeTerminal(member)}: `}${escapeTerminal(event)}`);
    }
    if (server.members) membersText(server, out, time, options.width);
    if (server.clients.length > 0) {
      const own = ownRows(server.clients, (c) => c.ip);
      out.push(`  connections by client IP${own > TEXT_CLIENTS ? ` (the ${TEXT_CLIENTS} that opened the most of ${rowsWords(server.clients, (c) => c.ip, number)})` : ''}:`);
      out.push(...formatTable(['opened', 'ended', 'IP'], firstAndOther(server.clients, (c) => c.ip).map((c) => [countCell(number(c.opened), c), number(c.ended), escapeTerminal(c.ip)]), [true, true]).map((l) => `  ${l}`));
      foldedNote(out, server.clients, (c) => c.ip, MAX_CLIENT_IPS);
    }
    if (server.drivers.length > 0) {
      const own = ownRows(server.drivers, (d) => d.driver);
      out.push(`  drivers (client metadata)${own > TEXT_CLIENTS ? ` (the ${TEXT_CLIENTS} with the most connections of ${rowsWords(server.drivers, (d) => d.driver, number)})` : ''}:`);
      out.push(
        ...formatTable(
          ['connections', 'driver', 'version', 'appName', 'from'],
          firstAndOther(server.drivers, (d) => d.driver).map((d) => [countCell(number(d.connections), d), escapeTerminal(d.driver), escapeTerminal(d.version), escapeTerminal(d.appName), escapeTerminal(`${d.ips.join(', ')}${d.moreIps ? ', …' : ''}`)]),
          [true],
        ).map((l) => `  ${l}`),
      );
      foldedNote(out, server.drivers, (d) => d.driver, MAX_CLIENT_DRIVERS);
    }
    const bySize = (title: string, rows: readonly ResponseSize[]): void => {
      if (rows.length === 0) return;
      const own = ownRows(rows, (r) => r.key);
      out.push(`  response sizes (reslen of slow operations) by ${title}${own > TEXT_CLIENTS ? ` (the ${TEXT_CLIENTS} with the most bytes of ${rowsWords(rows, (r) => r.key, number)})` : ''}:`);
      out.push(...formatTable(['count', 'total', 'max', title], firstAndOther(rows, (r) => r.key).map((r) => [number(r.count), countCell(bytes(r.totalBytes), r), bytes(r.maxBytes), escapeTerminal(r.key)]), [true, true, true]).map((l) => `  ${l}`));
      foldedNote(out, rows, (r) => r.key, MAX_RESPONSE_SIZE_KEYS, bytes);
    };
    bySize('namespace', server.responseSizes.byNamespace);
    bySize('appName', server.responseSizes.byAppName);
    bySize('client IP', server.responseSizes.byClient);
    if (server.longLivedConnections.length > 0) {
      const shown = server.longLivedConnections.slice(0, TEXT_CLIENTS);
      out.push(`  longest-lived connections${server.longLivedConnections.length > shown.length ? ` (${shown.length} of the ${number(server.longLivedConnections.length)} kept)` : ''}${server.connectionsNotFollowed > 0 ? `, ${number(server.connectionsNotFollowed)} not followed (too many open at once)` : ''}:`);
      out.push(
        ...formatTable(
          ['lived', 'opened', 'closed', 'conn', 'remote', 'appName', ...(shown.some((c) => c.member !== undefined) ? ['member'] : [])],
          shown.map((c) => [lifetime(c.durationMillis), time(c.opened), c.end === 'still open' ? 'still open at the end' : `${time(c.closed)}${c.end === 'restart' || c.end === 'shutdown' ? ` (${c.end})` : ''}`, String(c.connectionId), escapeTerminal(c.remote), escapeTerminal(c.appName ?? '-'), ...(c.member !== undefined ? [escapeTerminal(c.member)] : [])]),
          [true, false, false, true],
        ).map((l) => `  ${l}`),
      );
    }
    // The server's own failed logins (auditing is off by default): who and from where.
    if (server.failedAuthentications.length > 0) {
      out.push('  failed authentications (the server\'s own lines), by user and client:');
      out.push(...formatTable(['count', 'user', 'from'], server.failedAuthentications.map((f) => [number(f.count), escapeTerminal(f.user), escapeTerminal(f.source)]), [true]).map((l) => `  ${l}`));
    }
    if (server.problems.length === 0) out.push('  warnings and errors: none');
    else {
      out.push(`  every warning and error message (${rowsWords(server.problems, (p) => p.msg, number)}), the worst first:`);
      const [header, ...rows] = formatTable(
        ['count', 'id', 's', 'first', 'last', ...(several ? ['members'] : []), 'message'],
        server.problems.map((p) => [countCell(number(p.count), p), p.id === null ? '-' : String(p.id), escapeTerminal(p.severity), time(p.first), time(p.last), ...(several ? [escapeTerminal(memberCountCell(p.members))] : []), escapeTerminal(p.msg)]),
        [true, true],
      );
      // Under each message, what its first line said beyond it (the why: a warning's error), in the message's column.
      const messageColumn = ' '.repeat(header!.lastIndexOf('message'));
      out.push(`  ${header}`);
      server.problems.forEach((p, i) => {
        out.push(`  ${rows[i]}`);
        if (p.example !== undefined) out.push(`  ${messageColumn}${firstWords(p.example, palette)}`);
      });
      foldedNote(out, server.problems, (p) => p.msg, MAX_SERVER_PROBLEMS);
    }
    const listed = server.messages.slice(0, TEXT_MESSAGES);
    out.push(listed.length < server.messages.length ? `  most frequent messages (${listed.length} of ${rowsWords(server.messages, (m) => m.msg, number)}; --json and --html have them all):` : '  most frequent messages:');
    out.push(
      ...formatTable(
        ['count', 'id', 's', ...(several ? ['members'] : []), 'message'],
        listed.map((m) => [number(m.count), m.id === null ? '-' : String(m.id), escapeTerminal(m.severity), ...(several ? [escapeTerminal(memberCountCell(m.members))] : []), escapeTerminal(m.msg)]),
        [true, true],
      ).map((l) => `  ${l}`),
    );
    if (server.slowOperations.length > 0) {
      heading('Slow operations, by total time');
      out.push(`  ${collscanWords(server)}`);
      const shown = shownSlowGroups(server.slowOperations);
      out.push(
        ...formatTable(
          ['total', 'count', 'p50', 'p95', 'max', 'examined/returned', ...(several ? ['members'] : []), 'namespace', 'operation', 'query', 'shape / plan'],
          shown.map((g) => [
            ...durationCells(g, millis, number),
            g.examinedPerReturned === null ? '-' : number(g.examinedPerReturned),
            ...(several ? [escapeTerminal(memberCountCell(g.members))] : []),
            escapeTerminal(g.ns),
            escapeTerminal(g.operation),
            escapeTerminal(cutLine(g.pattern ?? '-', MAX_PATTERN_CHARS)),
            `${escapeTerminal(g.shape)}${g.plan && g.plan !== g.shape ? ` ${escapeTerminal(g.plan)}` : ''}${g.collscan ? ' ◀' : ''}`,
          ]),
          [true, true, true, true, true, true],
        ).map((l) => (l.endsWith(' ◀') ? palette.bold(l) : l)),
      );
      if (server.slowOperations.length > shown.length) out.push(`  … ${number(server.slowOperations.length - shown.length)} more groups (--json has them all)`);
      const sketched = sketchNote(shown, 'operations');
      if (sketched !== undefined) out.push(`  ${sketched}`);
    }
    if (server.appliedOperations.length > 0) {
      const shown = server.appliedOperations.slice(0, 15);
      heading(`Oplog entries applied slowly (by secondaries), by total time${shown.length < server.appliedOperations.length ? ` (${shown.length} of ${number(server.appliedOperations.length)} groups; --json has them all)` : ''}`);
      out.push(
        ...formatTable(
          ['total', 'count', 'p50', 'p95', 'max', ...(several ? ['members'] : []), 'namespace', 'operation'],
          shown.map((g) => [...durationCells(g, millis, number), ...(several ? [escapeTerminal(memberCountCell(g.members))] : []), escapeTerminal(g.ns), escapeTerminal(g.operation)]),
          [true, true, true, true, true],
        ),
      );
      const sketched = sketchNote(shown, 'entries');
      if (sketched !== undefined) out.push(`  ${sketched}`);
    }
    if (server.slowest.length > 0) {
      const shown = server.slowest.slice(0, TEXT_SLOWEST);
      heading(`Slowest operations${keptNote(shown.length, server.slowest.length)}`);
      const cell = (value: number | null): string => (value === null ? '-' : number(value));
      out.push(
        ...formatTable(
          ['#', 'duration', 'time', ...(several ? ['member'] : []), 'connection', 'appName', 'keys', 'docs', 'namespace', 'operation', 'plan'],
          shown.map((op, i) => [
            String(i + 1),
            millis(op.durationMillis),
            time(op.time),
            ...(several ? [escapeTerminal(op.member ?? '-')] : []),
            escapeTerminal(op.connection ?? '-'),
            escapeTerminal(op.appName ?? '-'),
            cell(op.keysExamined),
            cell(op.docsExamined),
            escapeTerminal(op.ns),
            escapeTerminal(op.operation),
            `${escapeTerminal(op.plan ?? '-')}${op.plan?.startsWith('COLLSCAN') ? ' ◀' : ''}`,
          ]),
          [true, true, false, ...(several ? [false] : []), false, false, true, true],
        ).map((l) => (l.endsWith(' ◀') ? palette.bold(l) : l)),
      );
      // A collector given records without their entries (the library's add(type, record)) has no lines to show.
      if (shown.some((op) => op.line !== null)) out.push('  their lines:');
      shown.forEach((op, i) => {
        if (op.line !== null) out.push(`  ${String(i + 1).padStart(3)}  ${cutLine(escapeTerminal(op.line), TEXT_LINE_CHARS)}`);
      });
    }
  }

  const transactions = server?.slowestTransactions ?? [];
  if (transactions.length > 0) {
    const shown = transactions.slice(0, TEXT_SLOWEST);
    heading(`Slowest transactions${keptNote(shown.length, transactions.length)}`);
    const cell = (value: number | null): string => (value === null ? '-' : number(value));
    out.push(
      ...formatTable(
        ['duration', 'time', ...(several ? ['member'] : []), 'connection', 'txnNumber', 'ended', 'active µs', 'inactive µs', 'yields', 'readConcern', 'autocommit', 'lsid'],
        shown.map((x) => [millis(x.durationMillis), time(x.time), ...(several ? [escapeTerminal(x.member ?? '-')] : []), escapeTerminal(x.connection ?? '-'), cell(x.txnNumber), escapeTerminal(x.terminationCause ?? '-'), cell(x.timeActiveMicros), cell(x.timeInactiveMicros), cell(x.numYields), escapeTerminal(x.readConcern ?? '-'), x.autocommit === null ? '-' : String(x.autocommit), escapeTerminal(x.lsid ?? '-')]),
        [true, false, ...(several ? [false] : []), false, true, false, true, true, true],
      ),
    );
  }

  const audit = summary.audit;
  if (audit) {
    heading('Audit (mongodb-audit)');
    out.push(`  events: ${inline(audit.byAtype)}`);
    if (audit.failedAuthentications.length === 0) out.push('  failed authentications: none');
    else {
      out.push('  failed authentications:');
      out.push(...formatTable(['count', 'user', 'from'], audit.failedAuthentications.map((f) => [number(f.count), escapeTerminal(f.user), escapeTerminal(f.source)]), [true]).map((l) => `  ${l}`));
    }
    if (audit.otherFailures.length > 0) out.push(`  other failed events: ${inline(audit.otherFailures)}`);
  }

  for (const problems of summary.problems) {
    heading(`${escapeTerminal(problems.logType)}: ${counted(problems.errors, 'error', 'errors', number)}, ${counted(problems.warnings, 'warning', 'warnings', number)}`);
    for (const m of problems.messages) {
      const level = m.level === 'warn' ? palette.yellow('warn ') : palette.red(m.level.padEnd(5));
      out.push(`  ${number(m.count).padStart(7)}  ${level}  ${escapeTerminal(problemWords(m))}`);
      // Several pods' lines: whose they are (a failing agent is one pod's to fix).
      if (m.members !== undefined) out.push(`  ${' '.repeat(7)}  ${' '.repeat(5)}  ${palette.gray(`pods: ${escapeTerminal(memberCountWords(m.members))}`)}`);
      const example = problemExample(m);
      // Under the shape, cut as the slowest operations' lines are.
      if (example !== undefined) out.push(`  ${' '.repeat(7)}  ${' '.repeat(5)}  ${firstWords(example, palette)}`);
    }
    if (problems.notListed) out.push(`  ${notListedWords(problems.notListed, number)}`);
  }
  return `${out.join('\n')}\n`;
}

/** The first TEXT_CLIENTS rows, and the "(other)" row (always last) whether or not it is among them. */
function firstAndOther<R>(rows: readonly R[], keyOf: (row: R) => string): readonly R[] {
  const first = rows.slice(0, TEXT_CLIENTS);
  const other = rows.at(-1);
  return other !== undefined && keyOf(other) === OTHER && !first.includes(other) ? [...first, other] : first;
}

/** foldedWords under a table, indented as its rows. */
function foldedNote<R extends { readonly missedAtMost?: number }>(out: string[], rows: readonly R[], keyOf: (row: R) => string, limit: number, measure?: (n: number) => string): void {
  const words = foldedWords(rows, keyOf, limit, number, measure);
  if (words !== undefined) out.push(`    ${words}`);
}
