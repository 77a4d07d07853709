/**
 * The command-line parsers, as functions: arguments in, the options or the exact usage line
 * out (bin/ writes that line and exits 2; the e2e tests prove that end).
 */
import test from 'ava';
import fs from 'node:fs';
import path from 'node:path';
import type { Parsed } from '../../src/config/parse-size.js';
import { FILTER_COMMAND, parseFilterArgs } from '../../src/cli/filter-command.js';
import { DOCTOR_COMMAND, SUMMARY_COMMAND, parseDoctorArgs, parseSummaryArgs, type ReportTerminal } from '../../src/cli/report-commands.js';
import { SIDECAR_COMMAND, parseSidecarArgs } from '../../src/cli/sidecar-command.js';
import { usageLine } from '../../src/cli/usage-error.js';
import { REAL_DATA, tempDir } from '../_helpers/sidecar-process.js';
import { knownTypeNames } from '../../src/select/type-matcher.js';

const NOW = new Date('2026-11-22T12:00:00.000Z');
const PIPE: ReportTerminal = { stdoutIsTTY: false, env: {}, columns: undefined };
const TERMINAL: ReportTerminal = { stdoutIsTTY: true, env: { TERM: 'xterm' }, columns: 80 };

const dir = tempDir('cli-args');
const FILE = path.join(dir, 'entries.jsonl');
fs.writeFileSync(FILE, '');
/** A server log copied out of a pod, and a page an earlier `summary --html` wrote. */
const LOG = path.join(dir, 'mongodb.log');
fs.copyFileSync(path.join(REAL_DATA, 'mongod-4.2-text.log'), LOG);
const PAGE = path.join(dir, 'pod.html');
fs.writeFileSync(PAGE, '<!doctype html>\n<html lang="en"></html>\n');

/** What a parser gave: its options (as `expected` names them), 'help', or the line a person reads. */
function outcome<T>(command: string, parsed: Parsed<T | 'help'>): T | 'help' | string {
  return parsed.ok ? parsed.value : usageLine(command, parsed.error);
}

/** The selection every command takes, with nothing asked for. */
const NO_SELECTION = {
  inputs: [],
  as: undefined,
  types: [],
  exclude: [],
  grep: undefined,
  invertGrep: false,
  query: {
    level: undefined,
    debugDepth: undefined,
    message: undefined,
    since: undefined,
    until: undefined,
    components: undefined,
    ids: undefined,
    contexts: undefined,
    namespaces: undefined,
    slowMillis: undefined,
    plan: undefined,
    atypes: undefined,
    users: undefined,
    failed: undefined,
    resources: undefined,
  },
  warnings: [],
  unknownTypes: [],
};

const FILTER_DEFAULTS = {
  ...NO_SELECTION,
  output: 'raw',
  fields: undefined,
  expand: false,
  keepPrefix: false,
  keepOther: false,
  maxCount: undefined,
  before: 0,
  after: 0,
  quiet: false,
  strict: false,
  summary: false,
  color: false,
  utc: false,
};

const filterError = (message: string): string => `logtype: ${message} (see logtype --help)\n`;

const filterCases: { name: string; args: string[]; terminal?: ReportTerminal; expected: unknown }[] = [
  { name: 'nothing: raw to a pipe', args: [], expected: FILTER_DEFAULTS },
  { name: 'nothing: pretty and coloured on a terminal', args: [], terminal: TERMINAL, expected: { ...FILTER_DEFAULTS, output: 'pretty', color: true } },
  { name: '--help', args: ['-o', 'json', '--help'], expected: 'help' },
  { name: 'a file and -', args: [FILE, '-'], expected: { ...FILTER_DEFAULTS, inputs: [FILE, '-'] } },
  {
    name: 'output options',
    args: ['-o', 'pretty', '-f', 'msg,attr.ns', '-f', 't', '-e', '--keep-other', '--strict', '--summary', '--color', 'always', '--utc'],
    expected: {
      ...FILTER_DEFAULTS,
      output: 'pretty',
      fields: [['msg'], ['attr', 'ns'], ['t']],
      expand: true,
            keepOther: true,
      strict: true,
      summary: true,
      color: true,
      utc: true,
    },
  },
  { name: 'a repeated flag: the last one', args: ['-o', 'json', '-o', 'entry'], expected: { ...FILTER_DEFAULTS, output: 'entry' } },
  {
    name: 'selection options',
    args: ['-t', 'mongodb,mongodb-audit', '-x', 'x*', '-g', 'a.c', '-i', '-v', '-m', 'elect', '-l', 'warn', '--since', '15m', '--until', '2026-11-23', '--as', 'mongodb'],
    expected: {
      ...FILTER_DEFAULTS,
      as: 'mongodb',
      types: ['mongodb,mongodb-audit'],
      exclude: ['x*'],
      grep: /a.c/iu,
      invertGrep: true,
      query: { ...NO_SELECTION.query, level: 'warn', message: /elect/iu, since: new Date('2026-11-22T11:45:00.000Z'), until: new Date(2026, 10, 23, 23, 59, 59, 999) },
      warnings: ['-x "x*" matches no log type logtype knows (logtype --help lists them)'],
    },
  },
  {
    name: "the server's filters",
    args: ['-c', 'REPL', '-c', 'NETWORK', '--id', '51803, 21358', '--ctx', 'conn*', '--ns', 'app.*', '--slow', '--plan', 'COLLSCAN'],
    expected: {
      ...FILTER_DEFAULTS,
      query: { ...NO_SELECTION.query, components: ['REPL', 'NETWORK'], ids: [51803, 21358], contexts: ['conn*'], namespaces: ['app.*'], slowMillis: 100, plan: 'COLLSCAN' },
    },
  },
  { name: "the audit log's filters", args: ['--atype', 'authenticate', '--user', 'alice', '--failed'], expected: { ...FILTER_DEFAULTS, query: { ...NO_SELECTION.query, atypes: ['authenticate'], users: ['alice'], failed: true } } },
  { name: "the operator's filter", args: ['--resource', 'my-rs'], expected: { ...FILTER_DEFAULTS, query: { ...NO_SELECTION.query, resources: ['my-rs'] } } },
  // Two logs' filters together select nothing: said before reading.
  { name: "two logs' filters together", args: ['--slow', '--atype', 'authenticate'], expected: filterError("--slow (mongodb) and --atype (mongodb-audit) select nothing together: no line is of both logs; give one log's filters, or run logtype once for each") },
  { name: '--slow with its value', args: ['--slow', '250'], expected: { ...FILTER_DEFAULTS, query: { ...NO_SELECTION.query, slowMillis: 250 } } },
  { name: 'an unknown flag', args: ['--nope'], expected: filterError("Unknown option '--nope'") },
  { name: 'a misspelt flag: the nearest named', args: ['--tpye', 'mongodb'], expected: filterError("Unknown option '--tpye'; did you mean '--type'?") },
  { name: 'a misspelt flag with its value joined', args: ['--sicne=1h'], expected: filterError("Unknown option '--sicne'; did you mean '--since'?") },
  { name: 'a flag without its value', args: ['-o'], expected: filterError("Option '-o, --output <value>' argument missing") },
  { name: 'a value to a switch', args: ['--utc=yes'], expected: filterError("Option '--utc' does not take an argument") },
  { name: 'a value not among the choices', args: ['-o', 'xml'], expected: filterError('--output takes raw, json, entry, pretty, not "xml"') },
  { name: 'a level not among the choices', args: ['-l', 'loud'], expected: filterError('--level takes fatal, error, warn, info, debug, D1, D2, D3, D4, D5, not "loud"') },
  { name: '--fields with raw output', args: ['-o', 'raw', '-f', 'msg'], expected: filterError('--fields needs -o json or -o pretty') },
  { name: '--fields into a pipe: json', args: ['-f', 'msg'], expected: { ...FILTER_DEFAULTS, output: 'json', fields: [['msg']] } },
  { name: '--fields on a terminal: pretty', args: ['-f', 'msg'], terminal: TERMINAL, expected: { ...FILTER_DEFAULTS, output: 'pretty', color: true, fields: [['msg']] } },
  { name: '--invert-grep alone', args: ['-v'], expected: filterError('--invert-grep needs --grep') },
  { name: 'a broken --grep', args: ['-g', '('], expected: filterError('--grep: Invalid regular expression: /(/u: Unterminated group') },
  { name: 'a broken --message', args: ['-m', '[a'], expected: filterError('--message: Invalid regular expression: /[a/u: Unterminated character class') },
  { name: 'a negative --slow', args: ['--slow=-5'], expected: filterError('--slow must be at least 0') },
  { name: 'a negative --slow, apart', args: ['--slow', '-5'], expected: filterError('--slow must be at least 0') },
  { name: '--slow in milliseconds', args: ['--slow', '100ms'], expected: { ...FILTER_DEFAULTS, query: { ...NO_SELECTION.query, slowMillis: 100 } } },
  { name: '--slow in seconds', args: ['--slow', '2s'], expected: { ...FILTER_DEFAULTS, query: { ...NO_SELECTION.query, slowMillis: 2000 } } },
  { name: '--slow=0.5s', args: ['--slow=0.5s'], expected: { ...FILTER_DEFAULTS, query: { ...NO_SELECTION.query, slowMillis: 500 } } },
  { name: '--slow alone before a file', args: ['--slow', FILE], expected: { ...FILTER_DEFAULTS, inputs: [FILE], query: { ...NO_SELECTION.query, slowMillis: 100 } } },
  { name: '--slow with a bad unit', args: ['--slow', '5m'], expected: filterError('--slow takes milliseconds (500) or a duration in ms or s (500ms, 2s), not "5m"') },
  { name: '--slow with a word', args: ['--slow', '1x'], expected: filterError('--slow takes milliseconds (500) or a duration in ms or s (500ms, 2s), not "1x"') },
  // A word that names no file is a mistyped value, not a file to read ("cannot read fast").
  { name: '--slow with a bare word', args: ['--slow', 'fast'], expected: filterError('--slow takes milliseconds (500) or a duration in ms or s (500ms, 2s), not "fast"') },
  { name: '--slow alone before a path that is not there', args: ['--slow', 'logs/mongodb.log'], expected: { ...FILTER_DEFAULTS, inputs: ['logs/mongodb.log'], query: { ...NO_SELECTION.query, slowMillis: 100 } } },
  { name: '--slow alone before a pattern the shell left as it is', args: ['--slow', 'mongod*'], expected: { ...FILTER_DEFAULTS, inputs: ['mongod*'], query: { ...NO_SELECTION.query, slowMillis: 100 } } },
  { name: '--slow alone before stdin', args: ['--slow', '-'], expected: { ...FILTER_DEFAULTS, inputs: ['-'], query: { ...NO_SELECTION.query, slowMillis: 100 } } },
  { name: '--slow alone before a flag', args: ['--slow', '-t', 'mongodb'], expected: { ...FILTER_DEFAULTS, types: ['mongodb'], query: { ...NO_SELECTION.query, slowMillis: 100 } } },
  { name: '--expand without -o: pretty output (in a pipe too)', args: ['--expand'], expected: { ...FILTER_DEFAULTS, output: 'pretty', expand: true } },
  { name: '--expand with -o raw: a usage error, not ignored', args: ['-o', 'raw', '-e'], expected: filterError('--expand shows attributes below pretty lines: it needs -o pretty, not -o raw') },
  { name: '--keep-prefix without -o: entry output', args: ['--keep-prefix'], expected: { ...FILTER_DEFAULTS, output: 'entry', keepPrefix: true } },
  { name: '--keep-prefix without -o on a terminal: entry output too (pretty would drop the prefix)', args: ['--keep-prefix'], terminal: TERMINAL, expected: { ...FILTER_DEFAULTS, output: 'entry', keepPrefix: true, color: true } },
  { name: '--expand and --keep-prefix without -o: two modes asked, a usage error', args: ['--expand', '--keep-prefix'], expected: filterError('--expand (pretty output) and --keep-prefix (entry output) ask for two output modes: give one, or -o') },
  { name: '--keep-prefix with -o json', args: ['--keep-prefix', '-o', 'json'], expected: { ...FILTER_DEFAULTS, output: 'json', keepPrefix: true } },
  { name: '--keep-prefix with -o raw: a usage error, not ignored', args: ['--keep-prefix', '-o', 'raw'], expected: filterError("--keep-prefix keeps kubectl's prefix on entry lines: it needs -o entry (or json), not -o raw") },
  { name: '--keep-prefix with -o pretty: a usage error', args: ['--keep-prefix', '-o', 'pretty'], expected: filterError("--keep-prefix keeps kubectl's prefix on entry lines: it needs -o entry (or json), not -o pretty") },
  { name: '-l WARN', args: ['-l', 'WARN'], expected: { ...FILTER_DEFAULTS, query: { ...NO_SELECTION.query, level: 'warn' } } },
  { name: '-l W', args: ['-l', 'W'], expected: { ...FILTER_DEFAULTS, query: { ...NO_SELECTION.query, level: 'warn' } } },
  { name: '--level=warning', args: ['--level=warning'], expected: { ...FILTER_DEFAULTS, query: { ...NO_SELECTION.query, level: 'warn' } } },
  { name: '-l F, E, I and D3', args: ['-l', 'F', '-l', 'e', '-l', 'I', '-l', 'D3'], expected: { ...FILTER_DEFAULTS, query: { ...NO_SELECTION.query, level: 'debug', debugDepth: 3 } } },
  { name: '-l d2 (a debug depth, any case)', args: ['-l', 'd2'], expected: { ...FILTER_DEFAULTS, query: { ...NO_SELECTION.query, level: 'debug', debugDepth: 2 } } },
  { name: '-l debug: every depth', args: ['-l', 'debug'], expected: { ...FILTER_DEFAULTS, query: { ...NO_SELECTION.query, level: 'debug' } } },
  { name: '-l E', args: ['-l', 'E'], expected: { ...FILTER_DEFAULTS, query: { ...NO_SELECTION.query, level: 'error' } } },
  { name: '-l fatal in capitals', args: ['-l', 'FATAL'], expected: { ...FILTER_DEFAULTS, query: { ...NO_SELECTION.query, level: 'fatal' } } },
  { name: '-l D6 is no level', args: ['-l', 'D6'], expected: filterError('--level takes fatal, error, warn, info, debug, D1, D2, D3, D4, D5, not "D6"') },
  {
    name: '-t short names and a typo: the typo warned of',
    args: ['-t', 'audit,agent,sidecar', '-t', 'mongdb', '-x', 'nope*'],
    expected: {
      ...FILTER_DEFAULTS,
      types: ['audit,agent,sidecar', 'mongdb'],
      exclude: ['nope*'],
      warnings: ['-t "mongdb" names no log type logtype knows; did you mean "mongodb"?', '-x "nope*" matches no log type logtype knows (logtype --help lists them)'],
      unknownTypes: ['mongdb'],
    },
  },
  // --as names the type itself: one logtype has no reader for is refused (its lines would be read as nothing).
  { name: '--as a typo', args: ['--as', 'audt'], expected: filterError('--as "audt" names no log type logtype knows; did you mean "audit"?') },
  { name: '--as a pattern', args: ['--as', 'mongo*'], expected: filterError('--as takes one log type, not a pattern ("mongo*")') },
  { name: '--as empty (a variable left empty): no --as', args: ['--as='], expected: FILTER_DEFAULTS },
  { name: '--as a name two types begin', args: ['--as', 'mongo'], expected: filterError('--as "mongo" names no log type logtype knows; did you mean one of "mongodb", "mongodb-audit"?') },
  {
    name: '--as a name far from any',
    args: ['--as', 'nginx'],
    expected: filterError(`--as "nginx" names no log type logtype knows: it takes ${knownTypeNames().join(', ')}`),
  },
  { name: '--as a short name', args: ['--as', 'audit'], expected: { ...FILTER_DEFAULTS, as: 'mongodb-audit' } },
  {
    name: 'the grep-like options',
    args: ['--max-count', '3', '-C', '2', '-A', '4', '-q', '--no-color'],
    terminal: TERMINAL,
    expected: { ...FILTER_DEFAULTS, output: 'pretty', maxCount: 3, before: 2, after: 4, quiet: true, color: false },
  },
  { name: '-B alone', args: ['-B', '1'], expected: { ...FILTER_DEFAULTS, before: 1 } },
  { name: 'a --max-count that is no number', args: ['--max-count', 'ten'], expected: filterError('--max-count takes a whole number, not "ten"') },
  { name: 'a negative --max-count', args: ['--max-count', '-1'], expected: filterError('--max-count must be at least 0') },
  { name: 'a negative -A', args: ['-A', '-2'], expected: filterError('--after-context must be at least 0') },
  { name: 'a value that starts with a dash', args: ['-g', '-foo'], expected: filterError("Option '-g' argument is ambiguous: to give a value that starts with a dash, write --grep=VALUE") },
  { name: 'a negative number for --grep is its value', args: ['-g', '-1'], expected: { ...FILTER_DEFAULTS, grep: /-1/u } },
  { name: 'a --since that is no time', args: ['--since', 'yesterday'], expected: filterError('--since takes an RFC 3339 time (2024-03-18T14:52Z, or as the output shows it: "2024-03-18 14:52:44") or a span back from now such as 15m, 2h, 1h30m, 1d, not "yesterday"') },
  { name: 'an --until that is no time', args: ['--until', '2026-13-45'], expected: filterError('--until takes an RFC 3339 time (2024-03-18T14:52Z, or as the output shows it: "2024-03-18 14:52:44") or a span back from now such as 15m, 2h, 1h30m, 1d, not "2026-13-45"') },
  { name: 'an --id that is no number', args: ['--id', '12,x'], expected: filterError('--id takes whole numbers, not "x"') },
  // The filter reads what it can and names the rest (e2e); summary and doctor refuse at once (below).
  { name: 'a file that is not there: read later', args: [path.join(dir, 'none.jsonl')], expected: { ...FILTER_DEFAULTS, inputs: [path.join(dir, 'none.jsonl')] } },
  // The first error found is the one told: the table's, then --fields, then the inputs, then the rest in order.
  { name: 'first: a wrong flag before a missing file', args: ['-o', 'xml', '/nonexistent'], expected: filterError('--output takes raw, json, entry, pretty, not "xml"') },
  { name: 'first: --fields before --grep', args: ['-o', 'raw', '-f', 'msg', '-g', '('], expected: filterError('--fields needs -o json or -o pretty') },
  { name: 'first: --grep before --since', args: ['--since', 'x', '-g', '('], expected: filterError('--grep: Invalid regular expression: /(/u: Unterminated group') },
];

for (const { name, args, terminal, expected } of filterCases) {
  test(`logtype ${name}`, (t) => {
    t.deepEqual(outcome(FILTER_COMMAND, parseFilterArgs(args, terminal ?? PIPE, NOW)), expected as never);
  });
}

const REPORT_DEFAULTS = { ...NO_SELECTION, json: false, color: false, utc: false };
const summaryError = (message: string): string => `logtype summary: ${message} (see logtype summary --help)\n`;

const reportCases: { name: string; command: 'summary' | 'doctor'; args: string[]; terminal?: ReportTerminal; expected: unknown }[] = [
  { name: 'nothing', command: 'summary', args: [], expected: { ...REPORT_DEFAULTS, html: undefined, width: 76 } },
  { name: 'the strip fits the terminal', command: 'summary', args: [], terminal: TERMINAL, expected: { ...REPORT_DEFAULTS, color: true, html: undefined, width: 56 } },
  { name: 'the strip is at least 20 columns', command: 'summary', args: [], terminal: { ...PIPE, columns: 30 }, expected: { ...REPORT_DEFAULTS, html: undefined, width: 20 } },
  { name: 'the strip is at most 120 columns', command: 'summary', args: [], terminal: { ...PIPE, columns: 300 }, expected: { ...REPORT_DEFAULTS, html: undefined, width: 120 } },
  {
    name: 'its own options and the selection',
    command: 'summary',
    args: ['--json', '--html', 'pod.html', '--utc', '--color', 'never', '-t', 'mongodb', '--since', '1h', FILE],
    terminal: TERMINAL,
    expected: { ...REPORT_DEFAULTS, inputs: [FILE], types: ['mongodb'], query: { ...NO_SELECTION.query, since: new Date('2026-11-22T11:00:00.000Z') }, json: true, utc: true, html: 'pod.html', width: 56 },
  },
  { name: '--help', command: 'summary', args: ['--help'], expected: 'help' },
  { name: 'a filter flag it does not take', command: 'summary', args: ['-o', 'json'], expected: "logtype summary: Unknown option '-o' (see logtype summary --help)\n" },
  { name: 'a broken --grep', command: 'summary', args: ['-g', '('], expected: 'logtype summary: --grep: Invalid regular expression: /(/u: Unterminated group (see logtype summary --help)\n' },
  { name: 'nothing', command: 'doctor', args: [], expected: REPORT_DEFAULTS },
  { name: '--json --utc and a file', command: 'doctor', args: ['--json', '--utc', FILE], expected: { ...REPORT_DEFAULTS, inputs: [FILE], json: true, utc: true } },
  { name: '--help', command: 'doctor', args: ['-h'], expected: 'help' },
  { name: "summary's own flag", command: 'doctor', args: ['--html', 'x.html'], expected: "logtype doctor: Unknown option '--html' (see logtype doctor --help)\n" },
  { name: 'a file that is not there', command: 'doctor', args: ['/nonexistent'], expected: 'logtype doctor: cannot read /nonexistent: no such file or directory (see logtype doctor --help)\n' },
  { name: 'a directory', command: 'summary', args: [dir], expected: summaryError(`cannot read ${dir}: is a directory`) },
  { name: '--html where no directory is', command: 'summary', args: ['--html', '/nonexistent/x.html'], expected: summaryError('--html /nonexistent/x.html: no directory /nonexistent') },
  { name: '--html on a directory', command: 'summary', args: ['--html', dir], expected: summaryError(`--html ${dir}: is a directory`) },
  { name: '--html naming a log (the page\'s name forgotten): the log is not overwritten', command: 'summary', args: ['--html', LOG], expected: summaryError(`--html ${LOG}: is there and is not a page (a log?); name a new file for the page, such as pod.html`) },
  { name: '--html over a page written before', command: 'summary', args: ['--html', PAGE], expected: { ...REPORT_DEFAULTS, html: PAGE, width: 76 } },
  { name: '--html in a file that is no directory', command: 'summary', args: ['--html', `${FILE}/x.html`], expected: summaryError(`--html ${FILE}/x.html: ${FILE} is not a directory`) },
];

for (const { name, command, args, terminal, expected } of reportCases) {
  test(`logtype ${command} ${name}`, (t) => {
    const parsed = command === 'summary' ? parseSummaryArgs(args, terminal ?? PIPE, NOW) : parseDoctorArgs(args, terminal ?? PIPE, NOW);
    t.deepEqual(outcome(command === 'summary' ? SUMMARY_COMMAND : DOCTOR_COMMAND, parsed), expected as never);
  });
}

const LOG_DIR = '/var/log/mongodb-mms-automation';
const defaultFiles = (logDir: string) =>
  [
    ['automation-agent-verbose', false],
    ['automation-agent-stderr', false],
    ['automation-agent', false],
    ['monitoring-agent', false],
    ['backup-agent', false],
    ['mongodb', false],
    ['mongodb-audit', false],
    ['agent-launcher-script', true],
  ].map(([logType, passThroughEntries]) => ({
    logType,
    path: `${logDir}/${String(logType)}.log`,
    passThroughEntries,
    variable: `MDB_LOG_FILE_${String(logType).toUpperCase().replaceAll('-', '_')}`,
    origin: 'log-dir',
  }));

const SIDECAR_DEFAULTS = {
  files: defaultFiles(LOG_DIR),
  stdinType: undefined,
  maxLineBytes: 1024 * 1024,
  rotateWaitMs: 5000,
  pollMs: 2000,
  fromStart: false,
  once: false,
  statsIntervalMs: 60_000,
  heartbeatFile: undefined,
  stopTimeoutMs: 30_000,
  missingWarningMs: 180_000,
  stateFile: `${LOG_DIR}/.logtype-sidecar.state`,
};

const sidecarError = (message: string): string => `logtype-sidecar: ${message} (see logtype-sidecar --help)\n`;

const sidecarCases: { name: string; args: string[]; env?: NodeJS.ProcessEnv; expected: unknown }[] = [
  { name: 'nothing', args: [], expected: SIDECAR_DEFAULTS },
  { name: '--help', args: ['--help'], expected: 'help' },
  { name: 'MMS_LOG_DIR', args: [], env: { MMS_LOG_DIR: '/logs' }, expected: { ...SIDECAR_DEFAULTS, files: defaultFiles('/logs'), stateFile: '/logs/.logtype-sidecar.state' } },
  { name: '--once: from the start, no state file', args: ['--once'], expected: { ...SIDECAR_DEFAULTS, once: true, fromStart: true, stateFile: undefined } },
  { name: '--state-file "": none', args: ['--state-file', ''], expected: { ...SIDECAR_DEFAULTS, stateFile: undefined } },
  {
    name: 'sizes, durations and files',
    args: ['--max-line-bytes', '64KiB', '--rotate-wait', '500ms', '--poll-interval', '0', '--stats-interval', '2m', '--heartbeat-file', '/tmp/beat', '--stdin-type', 'automation-agent-stdout', '--from-start'],
    expected: { ...SIDECAR_DEFAULTS, maxLineBytes: 65536, rotateWaitMs: 500, pollMs: 10, statsIntervalMs: 120_000, heartbeatFile: '/tmp/beat', stdinType: 'automation-agent-stdout', fromStart: true },
  },
  { name: 'an unknown flag', args: ['--bogus'], expected: sidecarError("Unknown option '--bogus'") },
  { name: 'a misspelt flag: the nearest named', args: ['--log-dri', '/var/log'], expected: sidecarError("Unknown option '--log-dri'; did you mean '--log-dir'?") },
  { name: 'a positional argument', args: ['mongodb.log'], expected: sidecarError("Unexpected argument 'mongodb.log'") },
  { name: '--file without =', args: ['--file', 'mongodb'], expected: sidecarError('--file takes TYPE=PATH, not "mongodb"') },
  { name: 'a bad size', args: ['--max-line-bytes', 'lots'], expected: sidecarError('--max-line-bytes: "lots" is not a size (examples: 65536, 64KiB, 1MiB)') },
  { name: 'a line limit too small', args: ['--max-line-bytes', '10'], expected: sidecarError('--max-line-bytes must be at least 64') },
  // From a sidecar trial: 15,000 health lines in 2 s; and a log dir that is a file waited 3 minutes to say the files were missing.
  { name: 'a stats interval under a tenth of a second', args: ['--stats-interval', '0.001'], expected: sidecarError('--stats-interval must be 0 (only at shutdown) or at least 0.1 second') },
  { name: 'a log dir that is a file', args: ['--log-dir', FILE], expected: sidecarError(`--log-dir ${FILE} is not a directory: give the directory the log files are in`) },
  { name: 'MMS_LOG_DIR a file', args: [], env: { MMS_LOG_DIR: FILE }, expected: sidecarError(`MMS_LOG_DIR ${FILE} is not a directory: give the directory the log files are in`) },
  { name: 'a bad duration', args: ['--rotate-wait', 'soon'], expected: sidecarError('--rotate-wait: "soon" is not a duration (examples: 5, 0.5s, 200ms, 2m)') },
  { name: 'a negative line limit', args: ['--max-line-bytes', '-1'], expected: sidecarError('--max-line-bytes must be at least 64') },
  { name: 'a negative line limit, joined', args: ['--max-line-bytes=-1KiB'], expected: sidecarError('--max-line-bytes must be at least 64') },
  { name: 'a negative stats interval', args: ['--stats-interval', '-1'], expected: sidecarError('--stats-interval must be at least 0') },
  { name: 'a bad stats interval', args: ['--stats-interval', 'often'], expected: sidecarError('--stats-interval: "often" is not a duration (examples: 5, 0.5s, 200ms, 2m)') },
  { name: 'a stop timeout', args: ['--stop-timeout', '2m', '--missing-warning', '0'], expected: { ...SIDECAR_DEFAULTS, stopTimeoutMs: 120_000, missingWarningMs: 0 } },
  { name: 'a bad stop timeout', args: ['--stop-timeout', 'later'], expected: sidecarError('--stop-timeout: "later" is not a duration (examples: 5, 0.5s, 200ms, 2m)') },
  { name: 'two --file for one type', args: ['--file', 'mongodb=/a', '--file', 'mongodb=/b'], expected: sidecarError('--file: mongodb is given twice ("/a" and "/b"); one file per type') },
];

for (const { name, args, env, expected } of sidecarCases) {
  test(`logtype-sidecar ${name}`, (t) => {
    t.deepEqual(outcome(SIDECAR_COMMAND, parseSidecarArgs(args, env ?? {})), expected as never);
  });
}

test('a usage line is the first line of the message, and names --help', (t) => {
  t.is(usageLine('logtype', 'one\ntwo'), 'logtype: one (see logtype --help)\n');
});
