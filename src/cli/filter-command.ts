/**
 * `logtype` arguments: yargs for parsing and help, the library for everything else.
 */
import fs from 'node:fs';
import yargs from 'yargs';
import { KNOWN_LOG_TYPES, SIDECAR_LOG_TYPE } from '../log-types.js';
import { colorEnabled, type ColorMode } from '../render/colors.js';
import type { FilterOptions, OutputMode } from '../filter/run-filter.js';
import { failUsage } from './fail.js';
import { asList, lastOf } from './args.js';

export const FILTER_COMMAND = 'logtype';

const TYPES_HELP = [
  'Log types: ' + [...KNOWN_LOG_TYPES, SIDECAR_LOG_TYPE].join(', ') + '.',
  'Input lines may carry kubectl --timestamps and --prefix, or stern prefixes. Lines that are',
  'not entries are counted, shown dimmed in pretty output and dropped from raw and json output',
  '(--keep-other keeps them). Entries are selected by their first bytes, so a line that starts',
  'like an entry is not otherwise validated. Split lines ("partial":true) are joined.',
].join('\n');

export interface FilterTerminal {
  readonly stdoutIsTTY: boolean;
  readonly env: NodeJS.ProcessEnv;
}

export function parseFilterArgs(argv: readonly string[], terminal: FilterTerminal): FilterOptions {
  const args = yargs([...argv])
    .scriptName(FILTER_COMMAND)
    .usage('$0 [options] [FILE ...]\n\nReads the entries logtype-sidecar writes (from kubectl logs, files or gzip files; - is stdin),\nselects them and writes them raw, as JSON, or pretty.')
    .option('type', { alias: 't', type: 'string', describe: 'Only these types (repeatable, comma lists, globs: automation-agent*)' })
    .option('exclude', { alias: 'x', type: 'string', describe: 'Not these types (repeatable, comma lists, globs)' })
    .option('grep', { alias: 'g', type: 'string', describe: 'Only entries whose contents match this regular expression' })
    .option('ignore-case', { alias: 'i', type: 'boolean', default: false, describe: 'Make --grep case-insensitive' })
    .option('invert-grep', { alias: 'v', type: 'boolean', default: false, describe: 'Only entries whose contents do not match --grep' })
    .option('output', {
      alias: 'o',
      type: 'string',
      choices: ['raw', 'json', 'pretty'],
      describe: 'raw: the contents, as jq -r; json: the entry line; pretty: for people [default: pretty on a terminal, else raw]',
    })
    .option('as', { type: 'string', describe: 'Read raw log lines (a copied server log) as entries of this type' })
    .option('keep-prefix', { type: 'boolean', default: false, describe: 'With -o json, keep the kubectl/stern prefix' })
    .option('keep-other', { type: 'boolean', default: false, describe: 'Write lines that are not entries too (raw and json)' })
    .option('strict', { type: 'boolean', default: false, describe: 'Exit 1 at the end if any line was not an entry' })
    .option('summary', { type: 'boolean', default: false, describe: 'At the end, counts per type on stderr' })
    .option('color', { type: 'string', choices: ['auto', 'always', 'never'], default: 'auto', describe: 'Colour (NO_COLOR and FORCE_COLOR are honoured)' })
    .option('utc', { type: 'boolean', default: false, describe: 'Times in UTC instead of local time' })
    .example('kubectl logs POD | $0 -t mongodb', "The server's log lines, as they were written")
    .example('kubectl logs -f POD | $0 -o pretty -x automation-agent-verbose', 'Follow everything but the verbose agent log, coloured')
    .example('kubectl logs POD | $0 -t "automation-agent*" -g "error|failed" -i', 'Agent lines that mention errors')
    .example('kubectl logs POD | $0 -t mongodb -o json > server.jsonl', 'Keep the entries of one type')
    .example('kubectl logs --timestamps --prefix -l app=db | $0 -o pretty', 'Several pods at once, with kubectl times')
    .example('$0 --as mongodb mongodb.log.2026-11-20T10-23-09.gz', 'A rotated server log copied out of a pod')
    .example('kubectl logs POD | $0 --summary -o json > /dev/null', 'How many lines of each type')
    .epilogue(TYPES_HELP)
    .strictOptions()
    .help()
    .alias('help', 'h')
    .version(false)
    .wrap(Math.min(110, process.stdout.columns || 100))
    .showHelpOnFail(false)
    .fail((message, error) => failUsage(FILTER_COMMAND, message || error?.message || 'invalid arguments'))
    .parseSync();

  const inputs = args._.map(String);
  for (const input of inputs) {
    if (input === '-') continue;
    try {
      fs.accessSync(input, fs.constants.R_OK);
      if (fs.statSync(input).isDirectory()) failUsage(FILTER_COMMAND, `${input} is a directory`);
    } catch (error) {
      failUsage(FILTER_COMMAND, `cannot read ${input}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
    }
  }
  const grepSource = lastOf(args.grep);
  let grep: RegExp | undefined;
  if (grepSource !== undefined) {
    try {
      grep = new RegExp(grepSource, args['ignore-case'] ? 'iu' : 'u');
    } catch (error) {
      failUsage(FILTER_COMMAND, `--grep: ${(error as Error).message}`);
    }
  }
  if (args['invert-grep'] && !grep) failUsage(FILTER_COMMAND, '--invert-grep needs --grep');
  const output = (args.output ?? (terminal.stdoutIsTTY ? 'pretty' : 'raw')) as OutputMode;
  return {
    inputs,
    as: lastOf(args.as),
    types: asList(args.type),
    exclude: asList(args.exclude),
    grep,
    invertGrep: args['invert-grep'],
    output,
    keepPrefix: args['keep-prefix'],
    keepOther: args['keep-other'],
    strict: args.strict,
    summary: args.summary,
    color: colorEnabled(args.color as ColorMode, terminal.env, terminal.stdoutIsTTY),
    utc: args.utc,
  };
}
