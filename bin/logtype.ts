#!/usr/bin/env node
import { logtypeMain, outputFailure } from '../src/cli/logtype-main.js';

process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  // The reader went away (`| head`): a quiet, successful end.
  if (error.code === 'EPIPE') process.exit(0);
  const { prefix, status } = outputFailure(process.argv.slice(2));
  process.stderr.write(`${prefix}: cannot write: ${error.message}\n`);
  process.exit(status);
});
process.exitCode = await logtypeMain(process.argv.slice(2));
