/**
 * `logtype-sidecar` arguments: yargs for parsing and help, the library for everything else.
 */
import path from 'node:path';
import yargs from 'yargs';
import { FILE_LOG_TYPES, KNOWN_LOG_TYPES, DEFAULT_LOG_DIR } from '../log-types.js';
import { resolveSources } from '../config/sidecar-config.js';
import { parseDurationMs, parseSize, type Parsed } from '../config/parse-size.js';
import type { SidecarOptions } from '../sidecar/run-sidecar.js';
import { failUsage } from './fail.js';

export const SIDECAR_COMMAND = 'logtype-sidecar';

const ENV_HELP = [
  'Files followed (first match wins: --file, the variable, then <log dir>/<type>.log):',
  ...FILE_LOG_TYPES.map((t) => `  ${t.name.padEnd(26)} ${t.envVar}`),
  `Log dir: --log-dir, else MMS_LOG_DIR, else ${DEFAULT_LOG_DIR}.`,
  'A file missing at start is waited for and read from its start when it appears; files',
  'present at start are read from their end (as `tail -F -n0` does). A named pipe (FIFO) is',
  'read as a stream. Diagnostics are JSON lines on stderr with "logType":"logtype-sidecar".',
].join('\n');

export function parseSidecarArgs(argv: readonly string[], env: NodeJS.ProcessEnv): SidecarOptions {
  const args = yargs([...argv])
    .scriptName(SIDECAR_COMMAND)
    .usage(
      `$0 [options]\n\nFollows the pod's log files by name and writes one JSON entry per line to stdout:\n` +
        `  {"logType":"mongodb","contents":"<the line, unchanged>"}`,
    )
    .option('log-dir', { type: 'string', describe: 'Directory of the default log files' })
    .option('file', {
      type: 'string',
      describe: 'Follow PATH as TYPE (repeatable): TYPE=PATH',
      requiresArg: true,
    })
    .option('stdin-type', {
      type: 'string',
      describe: `Read stdin as one more source of this type (${KNOWN_LOG_TYPES.at(-1)} for the agent's stdout)`,
      requiresArg: true,
    })
    .option('rotate-wait', {
      type: 'string',
      default: '5',
      describe: 'Keep reading a rotated or deleted file until it was quiet this long (seconds, or 500ms)',
    })
    .option('poll-interval', {
      type: 'string',
      default: '1',
      describe: 'Safety-net poll for changes inotify missed (seconds, or 250ms)',
    })
    .option('max-line-bytes', {
      type: 'string',
      default: '1MiB',
      describe: 'Longer lines leave as pieces marked "partial":true',
    })
    .option('state-file', {
      type: 'string',
      describe: 'Read positions kept across restarts [default: <log dir>/.logtype-sidecar.state; none with --once; "" for none]',
    })
    .option('from-start', { type: 'boolean', default: false, describe: 'With no saved state, read files present at start from their start' })
    .option('once', { type: 'boolean', default: false, describe: 'Read what the files hold now (from their start, or from --state-file), then exit' })
    .option('stats-interval', {
      type: 'string',
      default: '60',
      describe: 'One health line per file this often (seconds; 0: only at shutdown)',
    })
    .example('$0', 'Follow the eight files named by the MDB_LOG_FILE_* variables')
    .example('$0 --log-dir ./logs', 'Follow ./logs/mongodb.log, ./logs/automation-agent.log, ...')
    .example('$0 --file mongodb=/data/mongod.log --rotate-wait 10', 'Override one file; drain rotated files for 10 s')
    .example('agent | $0 --stdin-type automation-agent-stdout', "Carry the agent's stdout through the same writer")
    .example('$0 --once --log-dir samples | logtype', 'Read the sample logs once and read them with the filter')
    .example('$0 --state-file /data/logs/.positions', 'Keep read positions elsewhere (the log volume outlives the container)')
    .epilogue(ENV_HELP)
    .strict()
    .help()
    .alias('help', 'h')
    .version(false)
    .wrap(Math.min(110, process.stdout.columns || 100))
    .showHelpOnFail(false)
    .fail((message, error) => failUsage(SIDECAR_COMMAND, message || error?.message || 'invalid arguments'))
    .parseSync();

  if (args._.length > 0) failUsage(SIDECAR_COMMAND, `unexpected argument "${String(args._[0])}"`);
  const sources = orFail(
    resolveSources(env, { logDir: args['log-dir'], files: asList(args.file), stdinType: lastOf(args['stdin-type']) }),
  );
  const maxLineBytes = orFail(parseSize(lastOf(args['max-line-bytes']) ?? ''), '--max-line-bytes');
  if (maxLineBytes < 64) failUsage(SIDECAR_COMMAND, '--max-line-bytes must be at least 64');
  const stateFlag = lastOf(args['state-file']);
  const stateFile =
    stateFlag !== undefined ? stateFlag || undefined : args.once ? undefined : path.join(sources.logDir, '.logtype-sidecar.state');
  return {
    stateFile,
    files: sources.files,
    stdinType: sources.stdinType,
    maxLineBytes,
    rotateWaitMs: orFail(parseDurationMs(lastOf(args['rotate-wait']) ?? ''), '--rotate-wait'),
    pollMs: Math.max(10, orFail(parseDurationMs(lastOf(args['poll-interval']) ?? ''), '--poll-interval')),
    fromStart: args['from-start'] || args.once,
    once: args.once,
    statsIntervalMs: orFail(parseDurationMs(lastOf(args['stats-interval']) ?? ''), '--stats-interval'),
  };
}

function orFail<T>(parsed: Parsed<T>, flag?: string): T {
  if (!parsed.ok) failUsage(SIDECAR_COMMAND, flag ? `${flag}: ${parsed.error}` : parsed.error);
  return parsed.value;
}

/** yargs gives a string for one use of a flag and an array for several. */
export function asList(value: string | string[] | undefined): string[] {
  return value === undefined ? [] : Array.isArray(value) ? value : [value];
}

export function lastOf(value: string | string[] | undefined): string | undefined {
  return asList(value).at(-1);
}
