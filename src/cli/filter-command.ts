/**
 * `logtype` arguments: the option table, the help, and what they resolve to.
 */
import { MAX_INPUT_LINE_BYTES } from '../read/entry-reader.js';
import { LOG_FORMATS } from '../formats/log-formats.js';
import { colorEnabled, type ColorMode } from '../render/colors.js';
import { OUTPUT_MODES, type FilterOptions, type OutputMode } from '../filter/run-filter.js';
import { parseFieldPaths } from '../parse/record-object.js';
import fs from 'node:fs';
import { afterTerminator, commandAmongFiles } from './misplaced-argument.js';
import { usageError, type CommandLine } from './usage-error.js';
import { parseSelection, SELECTION_OPTIONS } from './selection-options.js';
import type { Parsed } from '../config/parse-size.js';
import { allValues, COLOR_OPTIONS, colorWhen, helpText, lastValue, parseByTable, VERSION_OPTION, type HelpRenderer, type OptionTable, type ParsedArgs } from './options.js';

/** The longest input line the readers hold, as help names it. */
const LONGEST_LINE = `${MAX_INPUT_LINE_BYTES / (1024 * 1024)} MiB`;

export const FILTER_COMMAND = 'logtype';

export const FILTER_OPTIONS: OptionTable = {
  ...SELECTION_OPTIONS,
  output: {
    type: 'string',
    short: 'o',
    value: 'MODE',
    choices: OUTPUT_MODES,
    describe:
      'raw: the contents, as jq -r; json: server and audit lines as their JSON objects, other types as entries; entry: the entry lines as they came (a log\'s line read bare, as the entry the sidecar writes); pretty: for people [default: pretty on a terminal, else raw]',
  },
  fields: {
    type: 'string',
    short: 'f',
    multiple: true,
    value: 'PATHS',
    describe: "Only these fields of each line's object (msg,attr.ns), in json and pretty output [default output with it: pretty on a terminal, else json]",
  },
  expand: { type: 'boolean', short: 'e', describe: 'Pretty output shows whole attributes, indented, below each line [default output with it: pretty]' },
  'keep-prefix': { type: 'boolean', describe: 'With -o entry (and json for other types), keep the kubectl/stern prefix [default output with it: entry; with -f, json]' },
  'keep-other': { type: 'boolean', describe: 'Write lines that are not entries too (raw and entry: as they came; json: as {"other":"LINE"}, so every line stays JSON)' },
  'max-count': { type: 'string', value: 'N', min: 0, habits: ['n'], describe: 'Stop after N selected entries (grep -m, head -n; here -m is --message)' },
  'after-context': { type: 'string', short: 'A', value: 'N', min: 0, describe: 'Also the N entries after each selected one, of its type and pod (grep -A)' },
  'before-context': { type: 'string', short: 'B', value: 'N', min: 0, describe: 'Also the N entries before each selected one, of its type and pod (grep -B)' },
  context: { type: 'string', short: 'C', value: 'N', min: 0, describe: 'Both: N entries before and after (grep -C)' },
  quiet: { type: 'boolean', short: 'q', describe: 'Write nothing: exit 0 at the first selected entry, 1 if there is none (grep -q)' },
  strict: { type: 'boolean', describe: 'Exit 1 at the end if any line was not an entry' },
  summary: { type: 'boolean', describe: 'At the end, and at a Ctrl-C, on stderr: entries read and written, and the entries read of each type (see logtype summary for more)' },
  ...COLOR_OPTIONS,
  utc: { type: 'boolean', describe: 'Times in UTC instead of local time' },
  help: { type: 'boolean', short: 'h', describe: 'Show this help' },
  version: VERSION_OPTION,
};

export function filterHelp(render: HelpRenderer = helpText): string {
  return render(FILTER_OPTIONS, {
    usage: `${FILTER_COMMAND} [options] [FILE ...]\n       ${FILTER_COMMAND} summary [options] [FILE ...]   (what happened: see logtype summary --help)\n       ${FILTER_COMMAND} doctor [options] [FILE ...]    (known problems and their fixes)`,
    about: [
      'Reads the entries logtype-sidecar writes (from kubectl logs, files or gzip files; - is stdin),',
      "and the operator's log (kubectl logs deployment/OPERATOR), selects them and writes them raw,",
      'as JSON, or pretty.',
    ],
    examples: [
      ['kubectl logs POD | logtype -t mongodb', "The server's log lines, as they were written"],
      ['kubectl logs -f POD | logtype -o pretty -x automation-agent-verbose', 'Follow everything but the verbose agent log, coloured'],
      ['kubectl logs POD | logtype --level warn --since 30m', 'Warnings and errors of every log, from the last half hour'],
      ['kubectl logs POD | logtype -m "election|state transition" -i', 'Lines whose message (not their attributes) says so, in every log'],
      ['kubectl logs POD | logtype --slow 500 --plan COLLSCAN', 'Operations of 500 ms or more that scanned a whole collection'],
      ['kubectl logs POD | logtype -c REPL,ELECTION -o pretty', "The server's replication and election lines"],
      ['kubectl logs POD | logtype --atype authenticate --failed', 'Failed logins: who, from where'],
      ['kubectl logs deployment/mongodb-kubernetes-operator | logtype --resource my-replica-set -l warn', "The operator's trouble with one resource (the Enterprise operator's: deployment/mongodb-enterprise-operator)"],
      ['kubectl logs POD | logtype -t mongodb -o json -f t.\\$date,attr.durationMillis,attr.ns', 'Fields of the server\'s JSON, for other tools'],
      ['kubectl logs POD | logtype -t "automation-agent*" -g "error|failed" -i', 'Agent lines that mention errors'],
      ['kubectl logs POD | logtype -t mongodb -m "Slow query" -C 2 --max-count 5', 'The first five slow queries, with the two server lines before and after each'],
      ['kubectl logs POD | logtype -q -l error && echo "errors in the log"', 'Only the answer, as an exit status'],
      ['kubectl logs --timestamps --prefix --tail=-1 -l app=db | logtype -o pretty', 'Several pods at once, with kubectl times (with -l, kubectl keeps 10 lines a pod unless --tail=-1)'],
      ['logtype --as mongodb mongodb.log.2026-11-20T10-23-09.gz --expand', 'A rotated server log copied out of a pod, attributes in full'],
    ],
    epilogue: [
      'Log types (-t, -x and --as take the name or the short name pretty shows):',
      ...LOG_FORMATS.map((format) => `  ${format.name.padEnd(26)} ${format.shortName}`),
      '',
      'Input lines may carry kubectl --timestamps and --prefix, or stern prefixes (with its',
      '--timestamps too). Lines that are not entries are counted, shown dimmed in pretty output and',
      'dropped from raw and json output (--keep-other keeps them); as grep would, -g and -m test',
      'their text, and -l, --since, --until and one log\'s filters leave them out. Entries are',
      'selected by their first bytes; entry and json output write one whose JSON is broken (garbled',
      'by two writers, a raw control, a bad escape) anew, and say how many. Split lines',
      `("partial":true) are joined. A line longer than ${LONGEST_LINE} is one line`,
      `that is no entry (its first ${LONGEST_LINE}; stderr says so). A record over several lines (an agent's`,
      'error and its detail, the operator\'s stack trace) is selected whole or left out whole, even',
      'where another pod\'s or log\'s lines stand between its lines; everything leaves in the order',
      'it came. Levels: the server\'s F E W I D1-D5, the agents\' .info/.warn, the operator\'s',
      'info/warn/error map onto fatal, error, warn, info, debug (-l D2: debug no deeper than D2).',
      'Lines without a level or time are left out by --level and --since/--until (those --since',
      'leaves out are counted on stderr). A local time the clocks skip (a change to summer time)',
      'is the skip\'s end; one they repeat is --since\'s first pass and --until\'s second: no line',
      'is left out; pretty output writes such a repeated time with its offset (01:30:00.000-04:00).',
      'Server, audit and operator filters keep only that log\'s',
      'lines (with -t leaving that log out, or two logs\' filters together, they select nothing:',
      'a usage error). Context (-A, -B, -C) is taken from the selected entry\'s own log, pod and',
      'FILE; -- stands between runs that do not follow on, and between one pod\'s run and',
      'another\'s (raw and pretty output). FILEs are kept apart, as grep keeps them: a record or',
      'context never runs from one into the next; pretty output names each line\'s FILE before it',
      'where several are given. A FILE that cannot be read is named on stderr and the others are',
      'read. Shell completion: logtype completion bash|zsh|fish (docs/cli.md).',
    ],
    exitStatus: [
      [0, 'Done (with -q: an entry was selected), or the reader of stdout went away (| head)'],
      [1, 'With --strict, some lines were not entries; with -q, no entry was selected; or writing to stdout failed'],
      [2, 'Bad usage, or a FILE that could not be read (the others were)'],
      [130, 'Interrupted (Ctrl-C); with --summary, the counts of what was read are written first'],
    ],
  });
}

export interface FilterTerminal {
  readonly stdoutIsTTY: boolean;
  readonly env: NodeJS.ProcessEnv;
}

/** A count option (`--max-count`, `-A`): a whole number; undefined when it is not given. */
function countOption(values: ParsedArgs['values'], name: string): Parsed<number | undefined> {
  const value = lastValue(values, name);
  if (value === undefined) return { ok: true, value: undefined };
  return /^\d+$/.test(value.trim()) ? { ok: true, value: Number(value) } : usageError(`--${name} takes a whole number, not "${value}"`);
}

/** The options `argv` asks for, `'help'`, `'version'`, or a usage error (the first found). */
export function parseFilterArgs(argv: readonly string[], terminal: FilterTerminal, now = new Date()): CommandLine<FilterOptions> {
  const parsed = parseByTable(argv, FILTER_OPTIONS, true);
  if (!parsed.ok) return parsed;
  const { values } = parsed.value;
  if (values['help']) return { ok: true, value: 'help' };
  if (values['version']) return { ok: true, value: 'version' };
  const text = (name: string): string | undefined => lastValue(values, name, FILTER_OPTIONS);
  const fields = allValues(values, 'fields');
  const expand = values['expand'] === true;
  const keepPrefix = values['keep-prefix'] === true;
  // An option that belongs to one output mode picks it when -o is not given (with --fields the
  // machine's form is json, raw has no fields; --expand is pretty's; --keep-prefix writes entries);
  // with -o naming another mode it is a usage error, not an option silently ignored.
  const given = text('output') as OutputMode | undefined;
  if (given === undefined && expand && keepPrefix) return usageError('--expand (pretty output) and --keep-prefix (entry output) ask for two output modes: give one, or -o');
  const output = given ?? (expand ? 'pretty' : keepPrefix ? (fields.length > 0 ? 'json' : 'entry') : terminal.stdoutIsTTY ? 'pretty' : fields.length > 0 ? 'json' : 'raw');
  if (fields.length > 0 && output !== 'json' && output !== 'pretty') return usageError('--fields needs -o json or -o pretty');
  // `-f ''` or `-f ,`: no field at all, which would write `{}` for every line.
  if (fields.length > 0 && parseFieldPaths(fields).length === 0) return usageError('--fields names no field: give the fields to keep (-f msg,attr.ns)');
  const emptyPart = parseFieldPaths(fields).find((path) => path.some((part) => part === ''));
  if (emptyPart && emptyPart[0] === '' && emptyPart.slice(1).every((part) => part !== '')) {
    return usageError(`--fields ${emptyPart.join('.')}: a path starts with its field's name, not jq's dot: -f ${emptyPart.slice(1).join('.')}`);
  }
  if (emptyPart) return usageError(`--fields ${emptyPart.join('.')}: a path with an empty part names no field; name each part (-f attr.ns, attr.command.filter)`);
  if (expand && output !== 'pretty') return usageError(`--expand shows attributes below pretty lines: it needs -o pretty, not -o ${output}`);
  if (keepPrefix && output !== 'entry' && output !== 'json') return usageError(`--keep-prefix keeps kubectl's prefix on entry lines: it needs -o entry (or json), not -o ${output}`);
  const selection = parseSelection(parsed.value, now);
  if (!selection.ok) return selection;
  const counts: Partial<Record<'max-count' | 'after-context' | 'before-context' | 'context', number>> = {};
  for (const name of ['max-count', 'after-context', 'before-context', 'context'] as const) {
    const count = countOption(values, name);
    if (!count.ok) return count;
    counts[name] = count.value;
  }
  const misplaced = commandAmongFiles(parsed.value.positionals, (name) => fs.existsSync(name), afterTerminator(argv));
  if (misplaced !== undefined) return usageError(misplaced);
  const color: ColorMode = colorWhen(values, text('color'));
  const options: FilterOptions = {
    ...selection.value,
    output,
    fields: fields.length > 0 ? parseFieldPaths(fields) : undefined,
    expand,
    keepPrefix,
    keepOther: values['keep-other'] === true,
    maxCount: counts['max-count'],
    before: counts['before-context'] ?? counts.context ?? 0,
    after: counts['after-context'] ?? counts.context ?? 0,
    quiet: values['quiet'] === true,
    strict: values['strict'] === true,
    summary: values['summary'] === true,
    color: colorEnabled(color, terminal.env, terminal.stdoutIsTTY),
    utc: values['utc'] === true,
  };
  return { ok: true, value: options };
}
