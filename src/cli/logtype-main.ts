/**
 * `logtype`, `logtype summary` and `logtype doctor`: arguments to options, options to the
 * library, and the ends every command shares (EPIPE is a quiet success, an error one line).
 */
import tty from 'node:tty';
import { runDoctor } from '../doctor/run-doctor.js';
import { runFilter } from '../filter/run-filter.js';
import { runSummary } from '../summary/run-summary.js';
import { filterHelp, parseFilterArgs } from './filter-command.js';
import { packageVersion } from './package-version.js';
import { terminalProgress } from './read-progress.js';
import { doctorHelp, parseDoctorArgs, parseSummaryArgs, summaryHelp } from './report-commands.js';

export async function logtypeMain(argv: readonly string[]): Promise<number> {
  const stdoutIsTTY = process.stdout.isTTY === true;
  const terminal = { stdoutIsTTY, env: process.env, columns: process.stdout.columns };
  // stdin is made only when read as a stream: making it turns a pipe non-blocking, and a
  // pipe is read faster with blocking reads (read/open-input.ts).
  const io = {
    get stdin() {
      return process.stdin;
    },
    stdout: process.stdout,
    stderr: process.stderr,
    stdoutIsTTY,
  };
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    // The reader went away (`| head`): a quiet, successful end.
    if (error.code === 'EPIPE') process.exit(0);
    process.stderr.write(`logtype: cannot write: ${error.message}\n`);
    process.exit(1);
  });
  const [first, ...rest] = argv;
  let run: () => Promise<number>;
  let inputs: readonly string[];
  if (first === 'summary') {
    const options = parseSummaryArgs(rest, terminal);
    if (options === 'help') return help(summaryHelp());
    if (options === 'version') return help(`${packageVersion()}\n`);
    inputs = options.inputs;
    run = () => runSummary(options, io, terminalProgress(options.inputs, process.stderr));
  } else if (first === 'doctor') {
    const options = parseDoctorArgs(rest, terminal);
    if (options === 'help') return help(doctorHelp());
    if (options === 'version') return help(`${packageVersion()}\n`);
    inputs = options.inputs;
    run = () => runDoctor(options, io);
  } else {
    const options = parseFilterArgs(argv, terminal);
    if (options === 'help') return help(filterHelp());
    if (options === 'version') return help(`${packageVersion()}\n`);
    inputs = options.inputs;
    run = () => runFilter(options, io);
  }
  if (inputs.length === 0 && tty.isatty(0)) {
    process.stderr.write('logtype: reading entries from the terminal; pipe `kubectl logs POD` into it (see logtype --help)\n');
  }
  try {
    return await run();
  } catch (error) {
    process.stderr.write(`logtype: ${(error as Error).message}\n`);
    // doctor's 1 means "problems found": a failure to read is not that.
    return first === 'doctor' ? 2 : 1;
  }
}

function help(text: string): number {
  process.stdout.write(text);
  return 0;
}
