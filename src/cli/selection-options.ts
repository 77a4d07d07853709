/**
 * The options that choose lines, the same for `logtype`, `logtype summary` and
 * `logtype doctor`: inputs, types, grep, and the record query.
 */
import fs from 'node:fs';
import { findLogFormat } from '../formats/log-formats.js';
import { AUDIT_EVENT_TYPES, COMPONENT_SETTING_NAMES, SERVER_COMPONENTS } from '../formats/server-names.js';
import { LEVELS, levelOf, type Level } from '../parse/log-record.js';
import { cannotRead } from '../read/read-error.js';
import { fileHead } from '../read/file-head.js';
import { COMPRESSION_HEAD_BYTES, otherCompression, otherCompressionError } from '../read/other-compression.js';
import type { Selection } from '../select/entry-selector.js';
import { globToRegExp, isGlob, knownTypeNames, knownTypesNamed, typePatterns, unknownTypePatterns } from '../select/type-matcher.js';
import { contradiction, inSkippedTime, parseTimeBound, parseUntilBound, type RecordQuery } from '../select/record-query.js';
import type { InputSelection } from '../read/read-entries.js';
import type { Parsed } from '../config/parse-size.js';
import { usageError } from './usage-error.js';
import { nearestName } from './did-you-mean.js';
import { allValues, lastValue, type OptionTable, type ParsedArgs } from './options.js';

/** The levels `--level` takes: every log's five, and the server's debug depths (`-l D2`: D1 and D2, not D3-D5). */
const DEBUG_DEPTHS = ['D1', 'D2', 'D3', 'D4', 'D5'] as const;
const LEVEL_CHOICES: readonly string[] = [...LEVELS, ...DEBUG_DEPTHS];

function debugLevelChoice(value: string): string | undefined {
  return /^d[1-5]$/i.test(value) ? value.toUpperCase() : undefined;
}

/** `--slow` without a value means operations of 100 ms and more, as the server's slowms. */
export const DEFAULT_SLOW_MS = 100;

export const SELECTION_OPTIONS: OptionTable = {
  type: {
    type: 'string',
    short: 't',
    multiple: true,
    value: 'TYPE',
    complete: 'type',
    describe: 'Only these types, by name or the short name pretty shows (repeatable, comma lists, globs: automation-agent*). A name logtype does not know is warned of at once and read on (the input may hold it: a type of your own); exit 2 at the end if no entry had it',
  },
  exclude: { type: 'string', short: 'x', multiple: true, value: 'TYPE', complete: 'type', describe: 'Not these types (repeatable, comma lists, globs)' },
  grep: { type: 'string', short: 'g', value: 'REGEX', describe: 'Only lines whose contents match this regular expression (a record over several lines, as an agent error and its detail: whole, if any of its lines does)' },
  'ignore-case': { type: 'boolean', short: 'i', describe: 'Make --grep and --message case-insensitive' },
  'invert-grep': { type: 'boolean', short: 'v', describe: 'Only lines whose contents do not match --grep (a record over several lines: none of its lines)' },
  message: { type: 'string', short: 'm', value: 'REGEX', describe: 'Only lines whose parsed message matches (-i for case); a line that does not parse: its text' },
  level: {
    type: 'string',
    short: 'l',
    value: 'LEVEL',
    choices: LEVEL_CHOICES,
    choiceOf: (value) => debugLevelChoice(value.trim()) ?? levelOf(value.trim()),
    describe: "This level and worse, in any case, or as the server writes it (F E W I, warning); every log's levels map onto these. The server's debug depths: -l D2 keeps D1 and D2, not D3-D5",
  },
  since: { type: 'string', value: 'TIME', describe: 'Lines at or after TIME: RFC 3339 (without a zone, in the zone times are shown in: local, UTC with --utc), or a span back from now (15m, 2h, 1h30m, 1d)' },
  until: { type: 'string', value: 'TIME', describe: 'Lines at or before TIME (same forms; a time takes in all of its last unit: 2026-11-22T10:05:44 keeps that second\'s lines, 2026-11-22 its day)' },
  component: { type: 'string', short: 'c', multiple: true, value: 'NAME', describe: 'Server lines of these components (REPL, NETWORK, COMMAND; lists)' },
  id: { type: 'string', multiple: true, value: 'ID', describe: 'Server lines with these message ids (51803 is a slow operation; lists)' },
  ctx: { type: 'string', multiple: true, value: 'CTX', describe: 'Server lines of these threads (conn42, "conn*")' },
  ns: { type: 'string', multiple: true, value: 'NS', describe: 'Server lines on these namespaces (app.orders, "app.*")' },
  slow: {
    type: 'string',
    value: '[MS]',
    bare: String(DEFAULT_SLOW_MS),
    min: 0,
    describe: `Slow operations (slow queries, oplog entries applied slowly, slow transactions): at least MS milliseconds, or a duration in ms or s (500ms, 2s) [default: ${DEFAULT_SLOW_MS}]`,
  },
  plan: { type: 'string', value: 'PLAN', describe: 'Operations whose plan starts so (COLLSCAN, IXSCAN)' },
  atype: { type: 'string', multiple: true, value: 'ATYPE', describe: 'Audit events of these types (authenticate, dropCollection; lists)' },
  user: { type: 'string', multiple: true, value: 'USER', describe: 'Audit events by these users (alice, alice@admin, an X.509 subject whole: CN=client,OU=apps; globs; case-sensitive, as the server\'s names; repeat the flag for several)' },
  failed: { type: 'boolean', describe: 'Audit events that failed (a non-zero result)' },
  resource: { type: 'string', multiple: true, value: 'NAME', describe: "Operator lines about this resource (my-replica-set, mongodb/my-replica-set)" },
  as: { type: 'string', value: 'TYPE', complete: 'type', describe: 'Read raw log lines (a copied server log) as entries of this type; kubectl\'s, stern\'s and the runtime\'s prefixes and shippers\' records are taken off as without it, and a line that is an entry already is read as the entry it is' },
};

function levelOfChoice(choice: string | undefined): Level | undefined {
  return choice === undefined ? undefined : (DEBUG_DEPTHS as readonly string[]).includes(choice) ? 'debug' : (choice as Level);
}

function debugDepthOfChoice(choice: string | undefined): number | undefined {
  return choice !== undefined && (DEBUG_DEPTHS as readonly string[]).includes(choice) ? Number(choice[1]) : undefined;
}

/**
 * Files given must be readable, now: one clear line rather than a report on part of the input
 * (summary and doctor; the filter reads what it can and names the rest, as grep does). A file
 * compressed other than with gzip is one that cannot be read, named with the command that reads it.
 */
export function checkInputs(inputs: readonly string[]): Parsed<readonly string[]> {
  for (const input of inputs) {
    if (input === '-') continue;
    try {
      fs.accessSync(input, fs.constants.R_OK);
      const stat = fs.statSync(input);
      if (stat.isDirectory()) return usageError(cannotRead(input, { code: 'EISDIR' }));
      const compression = stat.isFile() ? otherCompression(fileHead(input, COMPRESSION_HEAD_BYTES)) : undefined;
      if (compression) return usageError(cannotRead(input, otherCompressionError(compression, input)));
    } catch (error) {
      return usageError(cannotRead(input, error));
    }
  }
  return { ok: true, value: inputs };
}

const SLOW = /^(\d+(?:\.\d+)?)(ms|s)?$/i;

/** `--slow`: milliseconds, or a duration in ms or s. */
function slowOption(value: string | undefined): Parsed<number | undefined> {
  if (value === undefined) return { ok: true, value: undefined };
  const match = SLOW.exec(value.trim());
  if (!match) return usageError(`--slow takes milliseconds (500) or a duration in ms or s (500ms, 2s), not "${value}"`);
  return { ok: true, value: Number(match[1]) * (match[2]?.toLowerCase() === 's' ? 1000 : 1) };
}

/**
 * A warning for each -t or -x name that is no type logtype knows, with the nearest known name.
 * Not an error: a stream may carry types logtype does not know, and they are matched by name as
 * any other; but a typo would otherwise show nothing, silently, for as long as `kubectl logs -f`
 * runs. (`--as` names the type itself: an unknown one is a usage error, unknownAsType.)
 */
function typeWarnings(values: ParsedArgs['values']): string[] {
  const names = knownTypeNames();
  const warnings: string[] = [];
  for (const [flag, name] of [['-t', 'type'], ['-x', 'exclude']] as const) {
    for (const pattern of unknownTypePatterns(allValues(values, name))) warnings.push(unknownTypeMessage(flag, pattern, names));
  }
  return warnings;
}

/**
 * A warning for each -c or --atype name (or pattern) that matches none the server writes, as
 * far as logtype knows them (formats/server-names.ts), with the nearest: `-c REPL,ELECTIO`
 * would select REPL's lines and leave out the elections without a word. Not an error: a newer
 * server may write a name logtype does not know.
 */
function serverNameWarnings(values: ParsedArgs['values']): string[] {
  const warnings: string[] = [];
  for (const [flag, name, known, what] of [
    ['-c', 'component', SERVER_COMPONENTS, 'component the server writes'],
    ['--atype', 'atype', AUDIT_EVENT_TYPES, 'audit event type'],
  ] as const) {
    for (const pattern of typePatterns(allValues(values, name))) {
      // Matched as the query matches them: globs, case aside (record-query.ts).
      const re = globToRegExp(pattern, 'i');
      if (known.some((value) => re.test(value))) continue;
      const glob = isGlob(pattern);
      // A component by its setting's name (`replication`): the log's name for it.
      const setting = flag === '-c' && !glob ? COMPONENT_SETTING_NAMES.get(pattern.toLowerCase()) : undefined;
      // Not the default component's `-`: one edit from any one-letter typo, and no name.
      const nearest = setting ?? (glob ? undefined : nearestName(pattern, known.filter((name) => name !== '-')));
      const hint = nearest
        ? `; did you mean "${nearest}"${setting ? ` (the log's name for ${pattern})` : ''}?`
        : ` (logtype knows ${known.length}: ${known.slice(0, 8).join(', ')}, …; a newer server may write others)`;
      warnings.push(`${flag} "${pattern}" ${glob ? 'matches' : 'names'} no ${what}${hint}`);
    }
  }
  return warnings;
}

/**
 * `--as TYPE` with a TYPE logtype has no reader for: every line would be read as an entry of a
 * type nothing parses (no level, time or message), so a typo (`--as mongo`) is refused.
 */
function unknownAsType(asType: string | undefined): string | undefined {
  if (asType === undefined || findLogFormat(asType)) return undefined;
  if (isGlob(asType)) return `--as takes one log type, not a pattern ("${asType}")`;
  return unknownTypeMessage('--as', asType, knownTypeNames());
}

/** `FLAG "NAME" names no log type logtype knows`, with the nearest known name or the names it begins. */
function unknownTypeMessage(flag: string, pattern: string, names: readonly string[]): string {
  const glob = isGlob(pattern);
  const nearest = glob ? undefined : nearestName(pattern, names);
  // A name's beginning (`mongo`): the names it begins, or a pattern for them all.
  const begun = glob || nearest ? [] : [...names].filter((name) => name.toLowerCase().startsWith(pattern.toLowerCase()));
  const hint = nearest
    ? `; did you mean "${nearest}"?`
    : begun.length === 1
      ? `; did you mean "${begun[0]}"?`
      : begun.length > 1
        ? `; did you mean one of ${begun.map((name) => `"${name}"`).join(', ')}${flag === '--as' ? '' : `, or "${pattern}*" for them all`}?`
        : flag === '--as'
          ? `: it takes ${names.join(', ')}`
          : ' (logtype --help lists them)';
  return `${flag} "${pattern}" ${glob ? 'matches' : 'names'} no log type logtype knows${hint}`;
}

/** A repeatable option of whole numbers (lists too); undefined when it is not given. */
function numbers(name: string, values: readonly string[]): Parsed<number[] | undefined> {
  if (values.length === 0) return { ok: true, value: undefined };
  const parsed: number[] = [];
  for (const value of values.flatMap((v) => v.split(',')).filter((v) => v.trim() !== '')) {
    const number = Number(value);
    if (!Number.isInteger(number)) return usageError(`--${name} takes whole numbers, not "${value}"`);
    parsed.push(number);
  }
  return { ok: true, value: parsed };
}

/** A regular expression option (`-i` for case); undefined when it is not given. */
function regExpOption(values: ParsedArgs['values'], name: string): Parsed<RegExp | undefined> {
  const source = lastValue(values, name);
  if (source === undefined) return { ok: true, value: undefined };
  try {
    return { ok: true, value: new RegExp(source, values['ignore-case'] ? 'iu' : 'u') };
  } catch (error) {
    // Other tools' inline flags (grep -P, Python): JavaScript's are -i here.
    const inline = /^\(\?[a-z]+\)/.test(source) ? ': JavaScript has no inline flags; for (?i), give -i' : '';
    return usageError(`--${name}: ${(error as Error).message}${inline}`);
  }
}

/** `--since`/`--until`; undefined when it is not given. */
function timeOption(values: ParsedArgs['values'], name: 'since' | 'until', now: Date): Parsed<Date | undefined> {
  const value = lastValue(values, name);
  if (value === undefined) return { ok: true, value: undefined };
  const time = (name === 'until' ? parseUntilBound : parseTimeBound)(value, now, values['utc'] === true);
  return time ? { ok: true, value: time } : usageError(`--${name} takes an RFC 3339 time (2024-03-18T14:52Z, or as the output shows it: "2024-03-18 14:52:44") or a span back from now such as 15m, 2h, 1h30m, 1d, not "${value}"`);
}

/** The selection the options ask for; the first usage error, in the order the options are checked. */
export function parseSelection(parsed: ParsedArgs, now: Date): Parsed<Selection & InputSelection> {
  const { values, positionals } = parsed;
  const text = (name: string): string | undefined => lastValue(values, name);
  const list = (name: string): string[] | undefined => {
    const all = allValues(values, name);
    return all.length > 0 ? all : undefined;
  };
  const grep = regExpOption(values, 'grep');
  if (!grep.ok) return grep;
  if (values['invert-grep'] && !grep.value) return usageError('--invert-grep needs --grep');
  const slow = slowOption(text('slow'));
  if (!slow.ok) return slow;
  const message = regExpOption(values, 'message');
  if (!message.ok) return message;
  const since = timeOption(values, 'since', now);
  if (!since.ok) return since;
  const until = timeOption(values, 'until', now);
  if (!until.ok) return until;
  if (since.value && until.value && since.value.getTime() > until.value.getTime()) {
    const [from, to] = [lastValue(values, 'since'), lastValue(values, 'until')];
    // Both in the hour the clocks skip: one instant (its end), and nothing between them.
    if (values['utc'] !== true && inSkippedTime(from ?? '') && inSkippedTime(to ?? '')) {
      return usageError(`--since ${from} and --until ${to} are both in the hour the clocks skipped here (summer time): no time is between them; give times outside it`);
    }
    return usageError(`--since ${from} is after --until ${to}: no line can be both (swap them?)`);
  }
  // `--as ''` (a variable left empty): no --as, as before it was read.
  const asType = text('as') || undefined;
  const unknownAs = unknownAsType(asType);
  if (unknownAs !== undefined) return usageError(unknownAs);
  const ids = numbers('id', allValues(values, 'id'));
  if (!ids.ok) return ids;
  const query: RecordQuery = {
    level: levelOfChoice(text('level')),
    debugDepth: debugDepthOfChoice(text('level')),
    message: message.value,
    since: since.value,
    until: until.value,
    components: list('component'),
    ids: ids.value,
    contexts: list('ctx'),
    namespaces: list('ns'),
    slowMillis: slow.value,
    plan: text('plan'),
    atypes: list('atype'),
    users: list('user'),
    failed: values['failed'] === true ? true : undefined,
    resources: list('resource'),
  };
  const nothing = contradiction(allValues(values, 'type'), allValues(values, 'exclude'), query, knownTypesNamed);
  if (nothing) return usageError(nothing);
  return {
    ok: true,
    value: {
      inputs: positionals,
      as: asType === undefined ? undefined : (findLogFormat(asType)?.name ?? asType),
      types: allValues(values, 'type'),
      exclude: allValues(values, 'exclude'),
      grep: grep.value,
      invertGrep: values['invert-grep'] === true,
      query,
      warnings: [...typeWarnings(values), ...serverNameWarnings(values)],
      unknownTypes: unknownTypePatterns(allValues(values, 'type')),
    },
  };
}
