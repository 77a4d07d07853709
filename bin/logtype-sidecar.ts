#!/usr/bin/env node
import { packageVersion } from '../src/cli/package-version.js';
import { parseSidecarArgs, sidecarHelp } from '../src/cli/sidecar-command.js';
import { createDiagnostics } from '../src/diag/logger.js';
import { SIDECAR_LOG_TYPE } from '../src/log-types.js';
import { Sidecar } from '../src/sidecar/run-sidecar.js';

const options = parseSidecarArgs(process.argv.slice(2), process.env);
if (options === 'help' || options === 'version') {
  process.stdout.write(options === 'help' ? sidecarHelp() : `${packageVersion()}\n`);
  process.exit(0);
}
const sidecar = new Sidecar(options, { stdout: process.stdout, stdin: process.stdin, log: createDiagnostics(SIDECAR_LOG_TYPE) });
for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, () => void sidecar.stop());
process.exit(await sidecar.run());
