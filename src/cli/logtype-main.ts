/**
 * `logtype`, `logtype summary` and `logtype doctor`: arguments to options, options to the
 * library, and the ends every command shares (bad usage one line and 2, an error one line),
 * as an exit status: bin/logtype.ts exits with it.
 */
import fs from 'node:fs';
import tty from 'node:tty';
import { runDoctor } from '../doctor/run-doctor.js';
import { runFilter } from '../filter/run-filter.js';
import { runSummary } from '../summary/run-summary.js';
import { escapeTerminal } from '../render/escape-terminal.js';
import { nearestName } from './did-you-mean.js';
import { FILTER_COMMAND, FILTER_OPTIONS, filterHelp, parseFilterArgs } from './filter-command.js';
import { COMMAND_USAGE, optionOfOtherCommands, type CommandTable } from './misplaced-argument.js';
import { packageVersion } from './package-version.js';
import { terminalProgress } from './read-progress.js';
import { DOCTOR_COMMAND, DOCTOR_OPTIONS, SUMMARY_COMMAND, SUMMARY_OPTIONS, doctorHelp, parseDoctorArgs, parseSummaryArgs, summaryHelp } from './report-commands.js';
import { USAGE_EXIT, usageLine, type CommandLine } from './usage-error.js';

export async function logtypeMain(argv: readonly string[]): Promise<number> {
  const stdoutIsTTY = process.stdout.isTTY === true;
  const terminal = { stdoutIsTTY, env: process.env, columns: process.stdout.columns };
  // stdin is made only when read as a stream: making it turns a pipe non-blocking, and a
  // pipe is read faster with blocking reads (read/open-input.ts).
  let stdinMade = false;
  // Ctrl-C in summary and doctor ends the reading, not the command: the report of what was read
  // is written, then the exit is 130 (as a shell's for SIGINT). A second Ctrl-C ends it at once.
  const interrupt = new AbortController();
  /**
   * `interruptible`: the command writes what was read at a Ctrl-C (summary, doctor, the filter's
   * --summary); the others are ended by it, and read a pipe with blocking reads.
   */
  const ioFor = (interruptible: boolean) => ({
    interrupted: interruptible ? interrupt.signal : undefined,
    // The process's own stdin: a file or pipe is read through its descriptor.
    stdinFd: 0,
    get stdin() {
      stdinMade = true;
      return process.stdin;
    },
    stdout: process.stdout,
    stderr: process.stderr,
    stdoutIsTTY,
  });
  const asked = helpAsked(argv);
  if (asked) return logtypeMain(asked);
  const [first, ...rest] = argv;
  let run: () => Promise<number>;
  let inputs: readonly string[];
  let command: string;
  let warnings: readonly string[] | undefined;
  /** The filter's --summary: its counts are written at a Ctrl-C too (`kubectl logs -f` ends no other way). */
  let countsAtEnd = false;
  if (first === 'summary') {
    const parsed = parseSummaryArgs(rest, terminal);
    if (!parsed.ok || parsed.value === 'help' || parsed.value === 'version') return ended(SUMMARY_COMMAND, parsed, summaryHelp);
    const options = parsed.value;
    ({ inputs, warnings } = options);
    command = SUMMARY_COMMAND;
    run = () => runSummary(options, ioFor(true), terminalProgress(options.inputs, process.stderr));
  } else if (first === 'doctor') {
    const parsed = parseDoctorArgs(rest, terminal);
    if (!parsed.ok || parsed.value === 'help' || parsed.value === 'version') return ended(DOCTOR_COMMAND, parsed, doctorHelp);
    const options = parsed.value;
    ({ inputs, warnings } = options);
    command = DOCTOR_COMMAND;
    run = () => runDoctor(options, ioFor(true));
  } else if (first === 'completion') {
    // Loaded only when asked for: it reads every command's table, the sidecar's too.
    const { COMPLETION_COMMAND, completionHelp, completionOf, parseCompletionArgs } = await import('./completion-command.js');
    const parsed = parseCompletionArgs(rest);
    if (!parsed.ok || parsed.value === 'help' || parsed.value === 'version') return ended(COMPLETION_COMMAND, parsed, completionHelp);
    process.stdout.write(completionOf(parsed.value));
    return 0;
  } else {
    const mistyped = mistypedCommand(first);
    if (mistyped) {
      process.stderr.write(usageLine(FILTER_COMMAND, `unknown command '${first}'; did you mean '${mistyped}'?`));
      return USAGE_EXIT;
    }
    const parsed = parseFilterArgs(argv, terminal);
    if (!parsed.ok || parsed.value === 'help' || parsed.value === 'version') return ended(FILTER_COMMAND, parsed, filterHelp);
    const options = parsed.value;
    ({ inputs, warnings } = options);
    command = FILTER_COMMAND;
    countsAtEnd = options.summary;
    run = () => runFilter(options, ioFor(options.summary));
  }
  for (const warning of warnings ?? []) process.stderr.write(`${command}: ${escapeTerminal(warning)}\n`);
  if (inputs.length === 0 && tty.isatty(0)) {
    process.stderr.write('logtype: reading entries from the terminal; pipe `kubectl logs POD` into it (see logtype --help)\n');
  }
  const reports = command === SUMMARY_COMMAND || command === DOCTOR_COMMAND || countsAtEnd;
  const onInterrupt = (): void => {
    interrupt.abort();
    const covered = command === FILTER_COMMAND ? 'the counts cover' : 'the report covers';
    process.stderr.write(`${command}: interrupted (Ctrl-C): ${covered} what was read until then; Ctrl-C again quits at once\n`);
  };
  if (reports) process.once('SIGINT', onInterrupt);
  try {
    const status = await run();
    // A Ctrl-C that came while a blocking read of a pipe waited (the pipe then ended, as the
    // terminal's SIGINT ended its writer too) is seen on the event loop's next turn.
    if (reports) await new Promise((resolve) => setImmediate(resolve));
    return interrupt.signal.aborted ? INTERRUPTED_EXIT : status;
  } catch (error) {
    process.stderr.write(`${command}: ${(error as Error).message}\n`);
    // doctor's 1 means "problems found": a failure to read is not that.
    return first === 'doctor' ? 2 : 1;
  } finally {
    // Done before the input ended (-q, --max-count): a stdin stream left open would keep the
    // process waiting for a writer that may never stop (kubectl logs -f).
    if (stdinMade) process.stdin.destroy();
    if (reports) process.removeListener('SIGINT', onInterrupt);
  }
}

/**
 * Writing stdout failed (not a reader gone: a full disk, `> /dev/full`): the line's prefix names
 * the command, and the status is its exit table's for a failure, apart from its answers (doctor's
 * 1 means "problems found": a failure there is 2, as an input that fails midway).
 */
export function outputFailure(argv: readonly string[]): { readonly prefix: string; readonly status: number } {
  const [first] = argv;
  if (first === 'doctor') return { prefix: DOCTOR_COMMAND, status: 2 };
  if (first === 'summary') return { prefix: SUMMARY_COMMAND, status: 1 };
  return { prefix: FILTER_COMMAND, status: 1 };
}

/** The exit status after a Ctrl-C, as a shell gives a command that SIGINT ended (128 + 2). */
export const INTERRUPTED_EXIT = 130;

/** The commands after `logtype`. */
const COMMANDS = Object.keys(COMMAND_USAGE);

/**
 * The command a first argument was surely meant to be (`sumary`): near one, not a flag, and no
 * file of that name (a file named `sumary` is read as a file).
 */
export function mistypedCommand(first: string | undefined, exists: (path: string) => boolean = fs.existsSync): string | undefined {
  if (first === undefined || first.startsWith('-') || COMMANDS.includes(first)) return undefined;
  const nearest = nearestName(first, COMMANDS);
  return nearest && !exists(first) ? nearest : undefined;
}

/**
 * `logtype help`, `logtype help summary`, `logtype summary help` (git's and kubectl's habit) as
 * the --help they mean, when no file of that name is there to read: the arguments that ask so.
 */
export function helpAsked(argv: readonly string[], exists: (path: string) => boolean = fs.existsSync): string[] | undefined {
  if (argv.length === 0 || argv.length > 2 || exists('help')) return undefined;
  const [first, second] = argv;
  if (first === 'help' && second === undefined) return ['--help'];
  if (first === 'help' && COMMANDS.includes(second!)) return [second!, '--help'];
  if (second === 'help' && COMMANDS.includes(first!)) return [first!, '--help'];
  return undefined;
}

/** The commands whose options an unknown option may be (see optionOfOtherCommands). */
const OPTION_TABLES: readonly CommandTable[] = [
  { command: FILTER_COMMAND, options: FILTER_OPTIONS },
  { command: SUMMARY_COMMAND, options: SUMMARY_OPTIONS },
  { command: DOCTOR_COMMAND, options: DOCTOR_OPTIONS },
];

/** A command line that ends before any input is read: its help, its version, or its usage error. */
function ended(command: string, parsed: CommandLine<unknown>, help: () => string): number {
  if (!parsed.ok) {
    const others = OPTION_TABLES.filter((table) => table.command !== command);
    process.stderr.write(usageLine(command, optionOfOtherCommands(parsed.error, command, others, FILTER_COMMAND) ?? parsed.error));
    return USAGE_EXIT;
  }
  process.stdout.write(parsed.value === 'version' ? `${packageVersion()}\n` : help());
  return 0;
}
