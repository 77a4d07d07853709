/**
 * `logtype-sidecar` arguments: the option table, the help, and what they resolve to.
 */
import fs from 'node:fs';
import path from 'node:path';
import { FILE_LOG_TYPES, DEFAULT_LOG_DIR } from '../log-types.js';
import { resolveSources } from '../config/sidecar-config.js';
import { parseDurationMs, parseSize, type Parsed } from '../config/parse-size.js';
import { EXIT_ONCE_MISSING, EXIT_STATE_IN_USE, type SidecarOptions } from '../sidecar/run-sidecar.js';
import { usageError, type CommandLine } from './usage-error.js';
import { allValues, helpText, lastValue, parseByTable, VERSION_OPTION, type HelpRenderer, type OptionTable } from './options.js';

export const SIDECAR_COMMAND = 'logtype-sidecar';

const OPTIONS: OptionTable = {
  'log-dir': { type: 'string', value: 'DIR', describe: `Directory of the default files [default: $MMS_LOG_DIR, else ${DEFAULT_LOG_DIR}]` },
  file: { type: 'string', multiple: true, value: 'TYPE=PATH', describe: 'Follow PATH as TYPE (repeatable)' },
  'stdin-type': { type: 'string', value: 'TYPE', describe: "Read stdin as one more source of this type (automation-agent-stdout for the agent's stdout)" },
  'rotate-wait': { type: 'string', default: '5', value: 'SECONDS', describe: 'Keep reading a rotated or deleted file until it was quiet this long (or 500ms)' },
  'poll-interval': {
    type: 'string',
    default: '2',
    value: 'SECONDS',
    describe: "Safety-net poll for changes inotify missed, as Fluent Bit's progress check (or 250ms)",
  },
  'max-line-bytes': { type: 'string', default: '1MiB', value: 'SIZE', min: 64, describe: 'Longer lines leave as pieces marked "partial":true' },
  'state-file': {
    type: 'string',
    value: 'PATH',
    describe: 'Read positions kept across restarts [default: <log dir>/.logtype-sidecar.state; none with --once; "" for none]',
  },
  'from-start': { type: 'boolean', describe: 'With no saved state, read files present at start from their start' },
  once: { type: 'boolean', describe: 'Read what the files hold now (from their start, or from --state-file), then exit' },
  'stats-interval': { type: 'string', default: '60', value: 'SECONDS', min: 0, describe: 'One health line per file this often (0: only at shutdown)' },
  'stop-timeout': {
    type: 'string',
    default: '30',
    value: 'SECONDS',
    min: 0,
    describe: 'After SIGTERM/SIGINT/SIGHUP, go on reading and offering entries this long, then save and exit 0',
  },
  'missing-warning': {
    type: 'string',
    default: '180',
    value: 'SECONDS',
    min: 0,
    describe: 'Warn about a followed file still missing after this long, then hourly (0: never)',
  },
  'heartbeat-file': {
    type: 'string',
    value: 'PATH',
    describe: 'Refresh this file\'s mtime at every poll (at most once a second), for a liveness probe; made at the start whatever is found, then not refreshed while a followed file is there and may not be read (the liveness probe then fails, and the pod shows it)',
  },
  help: { type: 'boolean', short: 'h', describe: 'Show this help' },
  version: VERSION_OPTION,
};

export function sidecarHelp(render: HelpRenderer = helpText): string {
  return render(OPTIONS, {
    usage: `${SIDECAR_COMMAND} [options]`,
    about: [
      "Follows the pod's log files by name and writes one JSON entry per line to stdout:",
      '  {"logType":"mongodb","contents":"<the line, unchanged>"}',
    ],
    examples: [
      [SIDECAR_COMMAND, 'Follow the eight files named by the MDB_LOG_FILE_* variables'],
      [`${SIDECAR_COMMAND} --log-dir ./logs`, 'Follow ./logs/mongodb.log, ./logs/automation-agent.log, ...'],
      [`${SIDECAR_COMMAND} --file mongodb=/data/mongod.log --rotate-wait 10`, 'Override one file; drain rotated files for 10 s'],
      [`agent | ${SIDECAR_COMMAND} --stdin-type automation-agent-stdout`, "Carry the agent's stdout through the same writer"],
      [`${SIDECAR_COMMAND} --once --log-dir samples | logtype`, 'Read the sample logs once and read them with the filter'],
    ],
    epilogue: [
      'Files followed (first match wins: --file, the variable, then <log dir>/<type>.log):',
      ...FILE_LOG_TYPES.map((t) => `  ${t.name.padEnd(26)} ${t.envVar}`),
      `Log dir: --log-dir, else MMS_LOG_DIR, else ${DEFAULT_LOG_DIR}.`,
      'A file missing at start is waited for and read from its start when it appears; files present',
      'at start are read from their end (as `tail -F -n0` does), or from where the last run stopped',
      'when the state file knows them. A named pipe (FIFO) is read as a stream. Diagnostics are JSON',
      'lines on stderr with "logType":"logtype-sidecar".',
      '',
      'Stopping: SIGTERM, SIGINT and SIGHUP read what is left and deliver it for --stop-timeout; an',
      'unfinished last line leaves as a "partial":true piece (the next start sends its rest), the',
      'positions of what the reader took are saved, exit 0. If the reader takes nothing until then,',
      'only an entry the pipe already has part of is finished; the next start delivers the rest.',
      'SIGUSR1 is ignored (it does not open a debugger port).',
    ],
    exitStatus: [
      [0, 'Stopped by SIGTERM, SIGINT or SIGHUP after delivering what was read (or the stop timeout), --once done, or stdout closed'],
      [1, 'Writing to stdout failed (other than a closed reader)'],
      [2, 'Bad usage'],
      [EXIT_ONCE_MISSING, '--once, and a followed file (or its directory) was not there, or held compressed data (not read): the others were read'],
      [EXIT_STATE_IN_USE, 'Another logtype-sidecar is running on the same --state-file (its lock, STATE.lock, names it): nothing was read; or, when no lock could be made at the start (its directory not there yet), the other took it first once one could: this one saves nothing over it'],
    ],
  });
}

/** The options `argv` asks for, `'help'`, `'version'`, or a usage error (the first found). */
export function parseSidecarArgs(argv: readonly string[], env: NodeJS.ProcessEnv): CommandLine<SidecarOptions> {
  const parsed = parseByTable(argv, OPTIONS, false);
  if (!parsed.ok) return parsed;
  const { values } = parsed.value;
  if (values['help']) return { ok: true, value: 'help' };
  if (values['version']) return { ok: true, value: 'version' };
  const text = (name: string): string | undefined => lastValue(values, name, OPTIONS);
  const sources = resolveSources(env, { logDir: text('log-dir'), files: allValues(values, 'file'), stdinType: text('stdin-type') });
  if (!sources.ok) return sources;
  // A directory not there yet is waited for (a pod still starting); a file where it should be is a mistake, said at once.
  const logDirNow = fs.statSync(sources.value.logDir, { throwIfNoEntry: false });
  if (logDirNow && !logDirNow.isDirectory()) {
    return usageError(`${text('log-dir') !== undefined ? '--log-dir' : 'MMS_LOG_DIR'} ${sources.value.logDir} is not a directory: give the directory the log files are in`);
  }
  const maxLineBytes = ofFlag(parseSize(text('max-line-bytes')!), '--max-line-bytes');
  if (!maxLineBytes.ok) return maxLineBytes;
  if (maxLineBytes.value < 64) return usageError('--max-line-bytes must be at least 64');
  const rotateWaitMs = ofFlag(parseDurationMs(text('rotate-wait')!), '--rotate-wait');
  if (!rotateWaitMs.ok) return rotateWaitMs;
  const pollMs = ofFlag(parseDurationMs(text('poll-interval')!), '--poll-interval');
  if (!pollMs.ok) return pollMs;
  const statsIntervalMs = ofFlag(parseDurationMs(text('stats-interval')!), '--stats-interval');
  if (!statsIntervalMs.ok) return statsIntervalMs;
  // A health line per file each time: below a tenth of a second it floods stderr (a trial's 0.001: 15,000 lines in 2 s).
  if (statsIntervalMs.value > 0 && statsIntervalMs.value < 100) return usageError('--stats-interval must be 0 (only at shutdown) or at least 0.1 second');
  const stopTimeoutMs = ofFlag(parseDurationMs(text('stop-timeout')!), '--stop-timeout');
  if (!stopTimeoutMs.ok) return stopTimeoutMs;
  const missingWarningMs = ofFlag(parseDurationMs(text('missing-warning')!), '--missing-warning');
  if (!missingWarningMs.ok) return missingWarningMs;
  const once = values['once'] === true;
  const stateFlag = text('state-file');
  return {
    ok: true,
    value: {
      files: sources.value.files,
      stdinType: sources.value.stdinType,
      maxLineBytes: maxLineBytes.value,
      rotateWaitMs: rotateWaitMs.value,
      pollMs: Math.max(10, pollMs.value),
      fromStart: values['from-start'] === true || once,
      once,
      statsIntervalMs: statsIntervalMs.value,
      heartbeatFile: text('heartbeat-file'),
      stopTimeoutMs: stopTimeoutMs.value,
      missingWarningMs: missingWarningMs.value,
      stateFile: stateFlag !== undefined ? stateFlag || undefined : once ? undefined : path.join(sources.value.logDir, '.logtype-sidecar.state'),
    },
  };
}

/** A flag's value, or its error named after the flag. */
function ofFlag<T>(parsed: Parsed<T>, flag: string): Parsed<T> {
  return parsed.ok ? parsed : usageError(`${flag}: ${parsed.error}`);
}
