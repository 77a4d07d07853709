#!/usr/bin/env node
import { logtypeMain } from '../src/cli/logtype-main.js';

process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  // The reader went away (`| head`): a quiet, successful end.
  if (error.code === 'EPIPE') process.exit(0);
  process.stderr.write(`logtype: cannot write: ${error.message}\n`);
  process.exit(1);
});
process.exitCode = await logtypeMain(process.argv.slice(2));
