/**
 * `logtype summary` and `logtype doctor` arguments: the same selection as the filter, then
 * what each writes.
 */
import fs from 'node:fs';
import path from 'node:path';
import { KNOWN_PROBLEMS } from '../doctor/known-problems.js';
import type { DoctorOptions } from '../doctor/run-doctor.js';
import { colorEnabled } from '../render/colors.js';
import { STDOUT_PAGE, type SummaryOptions } from '../summary/run-summary.js';
import { COLOR_OPTIONS, colorWhen, helpText, lastValue, parseByTable, VERSION_OPTION, type HelpRenderer, type OptionTable, type ParsedArgs } from './options.js';
import { fileHead } from '../read/file-head.js';
import { afterTerminator, commandAmongFiles } from './misplaced-argument.js';
import { checkInputs, parseSelection, SELECTION_OPTIONS } from './selection-options.js';
import { usageError, type CommandLine } from './usage-error.js';
import type { Parsed } from '../config/parse-size.js';

export const SUMMARY_COMMAND = 'logtype summary';
export const DOCTOR_COMMAND = 'logtype doctor';

const REPORT_OPTIONS: OptionTable = {
  json: { type: 'boolean', describe: 'One JSON document instead of text' },
  ...COLOR_OPTIONS,
  utc: { type: 'boolean', describe: 'Times in UTC instead of local time' },
  help: { type: 'boolean', short: 'h', describe: 'Show this help' },
  version: VERSION_OPTION,
};

export const SUMMARY_OPTIONS: OptionTable = {
  ...SELECTION_OPTIONS,
  html: { type: 'string', value: 'FILE', complete: 'file', describe: 'Also write a self-contained page with the tables and plots (- : the page to stdout, instead of the text)' },
  ...REPORT_OPTIONS,
};

export const DOCTOR_OPTIONS: OptionTable = { ...SELECTION_OPTIONS, ...REPORT_OPTIONS };

export function summaryHelp(render: HelpRenderer = helpText): string {
  return render(SUMMARY_OPTIONS, {
    usage: `${SUMMARY_COMMAND} [options] [FILE ...]`,
    about: [
      'What happened in a pod\'s logs: per type entries, times, rates and errors; the server\'s',
      'severities, components, frequent messages, connections, restarts, replica-set changes and',
      'slow operations by shape; audit events and failed logins; the agents\' and operator\'s errors;',
      'a per-minute activity strip. Takes the same input and selection options as logtype.',
    ],
    examples: [
      ['kubectl logs POD | logtype summary', 'The whole pod'],
      ['kubectl logs POD | logtype summary --since 1h -t mongodb', 'The server, over the last hour'],
      ['kubectl logs POD | logtype summary --html pod.html', 'The same, and a page with plots to attach to a ticket'],
      ['kubectl logs --prefix --tail=-1 -l app=my-db-svc --all-containers | logtype summary --html rs.html', 'A replica set: one lane per member on one time axis, who was primary when (--tail=-1: all of each pod\'s lines)'],
      ['logtype summary my-db-0/mongodb.log my-db-1/mongodb.log my-db-2/mongodb.log', 'The same from one file per member, each named by its directory (my-db-0/mongodb)'],
      ['logtype summary --as mongodb mongodb.log.2026-11-20T10-23-09.gz --json | jq .server.slowOperations[0]', 'The costliest query shape of a rotated server log'],
    ],
    epilogue: ['On a terminal, progress is shown on stderr while large files are read.'],
    exitStatus: [
      [0, 'Done, or the reader of stdout went away (| head)'],
      [1, 'Reading the input failed midway, or writing stdout or the --html page did'],
      [2, 'Bad usage (an --html FILE where none can be written too), or a FILE that cannot be read: before any input is read; or every -t named a type logtype does not know and no entry had it (after the summary)'],
      [130, 'Interrupted (Ctrl-C on kubectl logs -f POD | logtype summary): the summary of what was read is written first'],
    ],
  });
}

export function doctorHelp(render: HelpRenderer = helpText): string {
  return render(DOCTOR_OPTIONS, {
    usage: `${DOCTOR_COMMAND} [options] [FILE ...]`,
    about: [
      'Looks for the known problems of these pods and their operator, and prints for each one found',
      'what it means, how to fix it, and the evidence (count, first and last time, an example line).',
      'Reads pod logs (kubectl logs POD), the operator\'s log (kubectl logs deployment/OPERATOR), and',
      'pasted kubectl apply, helm or event output alike.',
    ],
    examples: [
      ['kubectl logs POD | logtype doctor', 'A database pod'],
      ['kubectl logs deployment/mongodb-kubernetes-operator | logtype doctor', 'The operator (the Enterprise operator\'s: deployment/mongodb-enterprise-operator)'],
      ['{ kubectl logs POD; kubectl get events; } | logtype doctor --json', 'Pod and events, for a script'],
    ],
    epilogue: ['Known problems:', ...KNOWN_PROBLEMS.map((p) => `  ${p.id.padEnd(28)} ${p.title}`)],
    exitStatus: [
      [0, 'No known problem found (or only informational ones, marked i: nothing to fix), or nothing looked at: an empty input, or a selection (--since, -t, …) that left out every line (the report says so)'],
      [1, 'Some were found that want fixing (each is printed)'],
      [2, 'Bad usage, or a FILE that cannot be read (before any input is read), input that fails midway, or writing stdout failed; or every -t named a type logtype does not know and no entry had it (after the report)'],
      [130, 'Interrupted (Ctrl-C): the problems found in what was read are written first'],
    ],
  });
}

export interface ReportTerminal {
  readonly stdoutIsTTY: boolean;
  readonly columns: number | undefined;
  readonly env: NodeJS.ProcessEnv;
}

/** What summary and doctor share: the selection and the report's form. */
interface ReportArgs {
  readonly help: boolean;
  readonly values: ParsedArgs['values'];
  readonly common: DoctorOptions;
}

/** The selection is read (and may be a usage error) before --help is looked at. */
function parseReport(argv: readonly string[], options: OptionTable, terminal: ReportTerminal, now: Date): Parsed<ReportArgs> {
  const parsed = parseByTable(argv, options, true);
  if (!parsed.ok) return parsed;
  const { values } = parsed.value;
  const misplaced = commandAmongFiles(parsed.value.positionals, (name) => fs.existsSync(name), afterTerminator(argv));
  if (misplaced !== undefined) return usageError(misplaced);
  // A report covers all its input: a FILE that cannot be read is bad usage, before any is read.
  const inputs = checkInputs(parsed.value.positionals);
  if (!inputs.ok) return inputs;
  const selection = parseSelection(parsed.value, now);
  if (!selection.ok) return selection;
  const common: DoctorOptions = {
    ...selection.value,
    json: values['json'] === true,
    color: colorEnabled(colorWhen(values, lastValue(values, 'color', options)), terminal.env, terminal.stdoutIsTTY),
    utc: values['utc'] === true,
  };
  return { ok: true, value: { help: values['help'] === true, values, common } };
}

export function parseSummaryArgs(argv: readonly string[], terminal: ReportTerminal, now = new Date()): CommandLine<SummaryOptions> {
  const parsed = parseReport(argv, SUMMARY_OPTIONS, terminal, now);
  if (!parsed.ok) return parsed;
  const { help, values, common } = parsed.value;
  if (help) return { ok: true, value: 'help' };
  if (values['version']) return { ok: true, value: 'version' };
  const html = lastValue(values, 'html');
  if (html === STDOUT_PAGE && values['json']) return usageError('--html - and --json both write to stdout: give --html a file (--html pod.html)');
  const writable = html === undefined || html === STDOUT_PAGE ? undefined : cannotWrite(html);
  if (writable) return usageError(`--html ${html}: ${writable}`);
  // The strip fits the terminal: the label and peak figure take about 24 columns.
  return { ok: true, value: { ...common, html, width: Math.max(20, Math.min(120, (terminal.columns ?? 100) - 24)) } };
}

export function parseDoctorArgs(argv: readonly string[], terminal: ReportTerminal, now = new Date()): CommandLine<DoctorOptions> {
  const parsed = parseReport(argv, DOCTOR_OPTIONS, terminal, now);
  if (!parsed.ok) return parsed;
  const { help, values, common } = parsed.value;
  return { ok: true, value: help ? 'help' : values['version'] ? 'version' : common };
}

/**
 * Why a page could not be written at `file`, or undefined when it can be: asked before any
 * input is read, so a slow stream is not read for nothing and the text report is not lost.
 */
export function cannotWrite(file: string): string | undefined {
  const directory = path.dirname(path.resolve(file));
  try {
    if (!fs.statSync(directory).isDirectory()) return `${directory} is not a directory`;
  } catch {
    return `no directory ${directory}`;
  }
  try {
    const stat = fs.statSync(file);
    if (stat.isDirectory()) return 'is a directory';
    // `--html mongodb.log` (the page's name forgotten) would overwrite the log to be read: only
    // a page written before (or an empty file) is overwritten.
    if (stat.isFile() && stat.size > 0 && !isPage(file)) return 'is there and is not a page (a log?); name a new file for the page, such as pod.html';
    fs.accessSync(file, fs.constants.W_OK);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') return 'cannot be written (permission denied)';
    try {
      fs.accessSync(directory, fs.constants.W_OK);
    } catch {
      return `cannot write in ${directory} (permission denied)`;
    }
  }
  return undefined;
}

/** Whether a file begins as the pages summary writes do (`<!doctype html>`). */
function isPage(file: string): boolean {
  const doctype = '<!doctype html>';
  try {
    return fileHead(file, doctype.length).toString('latin1').toLowerCase() === doctype;
  } catch {
    // Unreadable (a log of mode 0200, say): not known to be a page, so not overwritten.
    return false;
  }
}
