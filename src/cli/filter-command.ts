/**
 * `logtype` arguments: the option table, the help, and what they resolve to.
 */
import fs from 'node:fs';
import { KNOWN_LOG_TYPES, SIDECAR_LOG_TYPE } from '../log-types.js';
import { colorEnabled, type ColorMode } from '../render/colors.js';
import type { FilterOptions, OutputMode } from '../filter/run-filter.js';
import { failUsage } from './fail.js';
import { allValues, helpText, lastValue, parseByTable, type OptionTable } from './options.js';

export const FILTER_COMMAND = 'logtype';

const OPTIONS: OptionTable = {
  type: { type: 'string', short: 't', multiple: true, value: 'TYPE', describe: 'Only these types (repeatable, comma lists, globs: automation-agent*)' },
  exclude: { type: 'string', short: 'x', multiple: true, value: 'TYPE', describe: 'Not these types (repeatable, comma lists, globs)' },
  grep: { type: 'string', short: 'g', value: 'REGEX', describe: 'Only entries whose contents match this regular expression' },
  'ignore-case': { type: 'boolean', short: 'i', describe: 'Make --grep case-insensitive' },
  'invert-grep': { type: 'boolean', short: 'v', describe: 'Only entries whose contents do not match --grep' },
  output: {
    type: 'string',
    short: 'o',
    value: 'MODE',
    choices: ['raw', 'json', 'pretty'],
    describe: 'raw: the contents, as jq -r; json: the entry line; pretty: for people [default: pretty on a terminal, else raw]',
  },
  as: { type: 'string', value: 'TYPE', describe: 'Read raw log lines (a copied server log) as entries of this type' },
  'keep-prefix': { type: 'boolean', describe: 'With -o json, keep the kubectl/stern prefix' },
  'keep-other': { type: 'boolean', describe: 'Write lines that are not entries too (raw and json)' },
  strict: { type: 'boolean', describe: 'Exit 1 at the end if any line was not an entry' },
  summary: { type: 'boolean', describe: 'At the end, counts per type on stderr' },
  color: { type: 'string', value: 'WHEN', choices: ['auto', 'always', 'never'], default: 'auto', describe: 'Colour (NO_COLOR and FORCE_COLOR are honoured)' },
  utc: { type: 'boolean', describe: 'Times in UTC instead of local time' },
  help: { type: 'boolean', short: 'h', describe: 'Show this help' },
};

export function filterHelp(): string {
  return helpText(OPTIONS, {
    usage: `${FILTER_COMMAND} [options] [FILE ...]`,
    about: [
      'Reads the entries logtype-sidecar writes (from kubectl logs, files or gzip files; - is stdin),',
      'selects them and writes them raw, as JSON, or pretty.',
    ],
    examples: [
      ['kubectl logs POD | logtype -t mongodb', "The server's log lines, as they were written"],
      ['kubectl logs -f POD | logtype -o pretty -x automation-agent-verbose', 'Follow everything but the verbose agent log, coloured'],
      ['kubectl logs POD | logtype -t "automation-agent*" -g "error|failed" -i', 'Agent lines that mention errors'],
      ['kubectl logs POD | logtype -t mongodb -o json > server.jsonl', 'Keep the entries of one type'],
      ['kubectl logs --timestamps --prefix -l app=db | logtype -o pretty', 'Several pods at once, with kubectl times'],
      ['logtype --as mongodb mongodb.log.2026-11-20T10-23-09.gz', 'A rotated server log copied out of a pod'],
      ['kubectl logs POD | logtype --summary -o json > /dev/null', 'How many lines of each type'],
    ],
    epilogue: [
      `Log types: ${[...KNOWN_LOG_TYPES, SIDECAR_LOG_TYPE].join(', ')}.`,
      'Input lines may carry kubectl --timestamps and --prefix, or stern prefixes. Lines that are',
      'not entries are counted, shown dimmed in pretty output and dropped from raw and json output',
      '(--keep-other keeps them). Entries are selected by their first bytes, so a line that starts',
      'like an entry is not otherwise validated. Split lines ("partial":true) are joined.',
    ],
  });
}

export interface FilterTerminal {
  readonly stdoutIsTTY: boolean;
  readonly env: NodeJS.ProcessEnv;
}

/** Parsed options, or `'help'` when --help was asked for. */
export function parseFilterArgs(argv: readonly string[], terminal: FilterTerminal): FilterOptions | 'help' {
  const { values, positionals } = parseByTable(FILTER_COMMAND, argv, OPTIONS, true);
  if (values['help']) return 'help';
  const text = (name: string): string | undefined => lastValue(values, name, OPTIONS);
  for (const input of positionals) {
    if (input === '-') continue;
    try {
      fs.accessSync(input, fs.constants.R_OK);
      if (fs.statSync(input).isDirectory()) failUsage(FILTER_COMMAND, `${input} is a directory`);
    } catch (error) {
      failUsage(FILTER_COMMAND, `cannot read ${input}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
    }
  }
  const grepSource = text('grep');
  let grep: RegExp | undefined;
  if (grepSource !== undefined) {
    try {
      grep = new RegExp(grepSource, values['ignore-case'] ? 'iu' : 'u');
    } catch (error) {
      failUsage(FILTER_COMMAND, `--grep: ${(error as Error).message}`);
    }
  }
  if (values['invert-grep'] && !grep) failUsage(FILTER_COMMAND, '--invert-grep needs --grep');
  return {
    inputs: positionals,
    as: text('as'),
    types: allValues(values, 'type'),
    exclude: allValues(values, 'exclude'),
    grep,
    invertGrep: values['invert-grep'] === true,
    output: (text('output') ?? (terminal.stdoutIsTTY ? 'pretty' : 'raw')) as OutputMode,
    keepPrefix: values['keep-prefix'] === true,
    keepOther: values['keep-other'] === true,
    strict: values['strict'] === true,
    summary: values['summary'] === true,
    color: colorEnabled(text('color') as ColorMode, terminal.env, terminal.stdoutIsTTY),
    utc: values['utc'] === true,
  };
}
