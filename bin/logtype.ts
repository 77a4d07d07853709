#!/usr/bin/env node
import { filterHelp, parseFilterArgs } from '../src/cli/filter-command.js';
import { runFilter } from '../src/filter/run-filter.js';

const stdoutIsTTY = process.stdout.isTTY === true;
const options = parseFilterArgs(process.argv.slice(2), { stdoutIsTTY, env: process.env });
if (options === 'help') {
  process.stdout.write(filterHelp());
  process.exit(0);
}
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  // The reader went away (`| head`): a quiet, successful end.
  if (error.code === 'EPIPE') process.exit(0);
  process.stderr.write(`logtype: cannot write: ${error.message}\n`);
  process.exit(1);
});
if (options.inputs.length === 0 && process.stdin.isTTY) {
  process.stderr.write('logtype: reading entries from the terminal; pipe `kubectl logs POD` into it (see logtype --help)\n');
}
try {
  process.exitCode = await runFilter(options, { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr, stdoutIsTTY });
} catch (error) {
  process.stderr.write(`logtype: ${(error as Error).message}\n`);
  process.exitCode = 1;
}
