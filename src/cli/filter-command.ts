/**
 * `logtype` arguments: the option table, the help, and what they resolve to.
 */
import { KNOWN_LOG_TYPES, SIDECAR_LOG_TYPE } from '../log-types.js';
import { colorEnabled, type ColorMode } from '../render/colors.js';
import type { FilterOptions, OutputMode } from '../filter/run-filter.js';
import { parseFieldPaths } from '../parse/record-object.js';
import { usageError, type CommandLine } from './usage-error.js';
import { parseSelection, SELECTION_OPTIONS, withSlowDefault } from './selection-options.js';
import { allValues, helpText, lastValue, parseByTable, VERSION_OPTION, type HelpRenderer, type OptionTable } from './options.js';

export const FILTER_COMMAND = 'logtype';

const OPTIONS: OptionTable = {
  ...SELECTION_OPTIONS,
  output: {
    type: 'string',
    short: 'o',
    value: 'MODE',
    choices: ['raw', 'json', 'entry', 'pretty'],
    describe:
      'raw: the contents, as jq -r; json: server and audit lines as their JSON objects, other types as entries; entry: the entry lines as they came; pretty: for people [default: pretty on a terminal, else raw]',
  },
  fields: { type: 'string', short: 'f', multiple: true, value: 'PATHS', describe: "Only these fields of each line's object (msg,attr.ns), in json and pretty output" },
  expand: { type: 'boolean', short: 'e', describe: 'Pretty output shows whole attributes, indented, below each line' },
  'keep-prefix': { type: 'boolean', describe: 'With -o entry (and json for other types), keep the kubectl/stern prefix' },
  'keep-other': { type: 'boolean', describe: 'Write lines that are not entries too (raw, json and entry)' },
  strict: { type: 'boolean', describe: 'Exit 1 at the end if any line was not an entry' },
  summary: { type: 'boolean', describe: 'At the end, counts per type on stderr (see logtype summary for more)' },
  color: { type: 'string', value: 'WHEN', choices: ['auto', 'always', 'never'], default: 'auto', describe: 'Colour (NO_COLOR and FORCE_COLOR are honoured)' },
  utc: { type: 'boolean', describe: 'Times in UTC instead of local time' },
  help: { type: 'boolean', short: 'h', describe: 'Show this help' },
  version: VERSION_OPTION,
};

export function filterHelp(render: HelpRenderer = helpText): string {
  return render(OPTIONS, {
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
      ['kubectl logs deployment/mongodb-enterprise-operator | logtype --resource my-replica-set -l warn', "The operator's trouble with one resource"],
      ['kubectl logs POD | logtype -t mongodb -o json -f t.\\$date,attr.durationMillis,attr.ns', 'Fields of the server\'s JSON, for other tools'],
      ['kubectl logs POD | logtype -t "automation-agent*" -g "error|failed" -i', 'Agent lines that mention errors'],
      ['kubectl logs --timestamps --prefix -l app=db | logtype -o pretty', 'Several pods at once, with kubectl times'],
      ['logtype --as mongodb mongodb.log.2026-11-20T10-23-09.gz --expand', 'A rotated server log copied out of a pod, attributes in full'],
    ],
    epilogue: [
      `Log types: ${[...KNOWN_LOG_TYPES, SIDECAR_LOG_TYPE].join(', ')}.`,
      'Input lines may carry kubectl --timestamps and --prefix, or stern prefixes. Lines that are',
      'not entries are counted, shown dimmed in pretty output and dropped from raw and json output',
      '(--keep-other keeps them). Entries are selected by their first bytes, so a line that starts',
      'like an entry is not otherwise validated. Split lines ("partial":true) are joined.',
      'Levels: the server\'s F E W I D1-D5, the agents\' .info/.warn, the operator\'s info/warn/error',
      'map onto fatal, error, warn, info, debug. Lines without a level or time are left out by',
      '--level and --since/--until. Server, audit and operator filters keep only that log\'s lines.',
    ],
    exitStatus: [
      [0, 'Done, or the reader of stdout went away (| head)'],
      [1, 'With --strict, some lines were not entries; or reading or writing failed midway'],
      [2, 'Bad usage, or a FILE that cannot be read'],
    ],
  });
}

export interface FilterTerminal {
  readonly stdoutIsTTY: boolean;
  readonly env: NodeJS.ProcessEnv;
}

/** The options `argv` asks for, `'help'`, `'version'`, or a usage error (the first found). */
export function parseFilterArgs(argv: readonly string[], terminal: FilterTerminal, now = new Date()): CommandLine<FilterOptions> {
  const parsed = parseByTable(withSlowDefault(argv), OPTIONS, true);
  if (!parsed.ok) return parsed;
  const { values } = parsed.value;
  if (values['help']) return { ok: true, value: 'help' };
  if (values['version']) return { ok: true, value: 'version' };
  const text = (name: string): string | undefined => lastValue(values, name, OPTIONS);
  const fields = allValues(values, 'fields');
  const output = (text('output') ?? (terminal.stdoutIsTTY ? 'pretty' : 'raw')) as OutputMode;
  if (fields.length > 0 && output !== 'json' && output !== 'pretty') return usageError('--fields needs -o json or -o pretty');
  const selection = parseSelection(parsed.value, now);
  if (!selection.ok) return selection;
  const options: FilterOptions = {
    ...selection.value,
    output,
    fields: fields.length > 0 ? parseFieldPaths(fields) : undefined,
    expand: values['expand'] === true,
    keepPrefix: values['keep-prefix'] === true,
    keepOther: values['keep-other'] === true,
    strict: values['strict'] === true,
    summary: values['summary'] === true,
    color: colorEnabled(text('color') as ColorMode, terminal.env, terminal.stdoutIsTTY),
    utc: values['utc'] === true,
  };
  return { ok: true, value: options };
}
