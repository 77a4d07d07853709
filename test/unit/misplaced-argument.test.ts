import test from 'ava';
import { FILTER_COMMAND, FILTER_OPTIONS } from '../../src/cli/filter-command.js';
import { afterTerminator, commandAmongFiles, optionOfOtherCommands } from '../../src/cli/misplaced-argument.js';
import { DOCTOR_COMMAND, DOCTOR_OPTIONS, SUMMARY_COMMAND, SUMMARY_OPTIONS } from '../../src/cli/report-commands.js';

const TABLES = [
  { command: FILTER_COMMAND, options: FILTER_OPTIONS },
  { command: SUMMARY_COMMAND, options: SUMMARY_OPTIONS },
  { command: DOCTOR_COMMAND, options: DOCTOR_OPTIONS },
];
const othersThan = (command: string) => TABLES.filter((table) => table.command !== command);

const OPTION_CASES: [command: string, message: string, expected: string | undefined][] = [
  [FILTER_COMMAND, "Unknown option '--json'", "Unknown option '--json': it is an option of logtype summary and logtype doctor (logtype summary --json ...)"],
  [FILTER_COMMAND, "Unknown option '--html'", "Unknown option '--html': it is an option of logtype summary (logtype summary --html ...)"],
  [DOCTOR_COMMAND, "Unknown option '--html'", "Unknown option '--html': it is an option of logtype summary (logtype summary --html ...)"],
  [SUMMARY_COMMAND, "Unknown option '-o'", "Unknown option '-o': it is an option of logtype itself, not of logtype summary"],
  [SUMMARY_COMMAND, "Unknown option '--keep-other'", "Unknown option '--keep-other': it is an option of logtype itself, not of logtype summary"],
  // No command has it: the message stays parseArgs' own (with its "did you mean", added elsewhere).
  [FILTER_COMMAND, "Unknown option '--frobnicate'", undefined],
  [SUMMARY_COMMAND, "Unknown option '-Z'", undefined],
  // Another kind of usage error is left alone.
  [FILTER_COMMAND, '--max-count takes a whole number, not "x"', undefined],
];

for (const [command, message, expected] of OPTION_CASES) {
  test(`an option of another command: ${command}, ${message}`, (t) => {
    t.is(optionOfOtherCommands(message, command, othersThan(command), FILTER_COMMAND), expected);
  });
}

const FILE_CASES: [inputs: string[], files: string[], literal: string[], expected: string | undefined][] = [
  [['summary'], [], [], "'summary' is a command, not a file: write it first (logtype summary [options] [FILE ...])"],
  [['pod.log', 'doctor'], ['pod.log'], [], "'doctor' is a command, not a file: write it first (logtype doctor [options] [FILE ...])"],
  [['pod.log', 'completion'], ['pod.log'], [], "'completion' is a command, not a file: write it first (logtype completion bash|zsh|fish)"],
  // A file of that name is a file: read, as cat would; so is a name after `--`.
  [['summary'], ['summary'], [], undefined],
  [['summary'], [], ['summary'], undefined],
  [['pod.log', 'summary.log'], ['pod.log'], [], undefined],
  [[], [], [], undefined],
];

for (const [inputs, files, literal, expected] of FILE_CASES) {
  test(`a command among the files: ${JSON.stringify(inputs)} with files ${JSON.stringify(files)}${literal.length > 0 ? ' after --' : ''}`, (t) => {
    t.is(commandAmongFiles(inputs, (name) => files.includes(name), new Set(literal)), expected);
  });
}

test('the arguments after --: files whatever their names', (t) => {
  t.deepEqual([...afterTerminator(['-t', 'mongodb', '--', 'summary', '-x'])], ['summary', '-x']);
  t.deepEqual([...afterTerminator(['summary'])], []);
});
