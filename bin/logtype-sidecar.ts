#!/usr/bin/env node
import { packageVersion } from '../src/cli/package-version.js';
import { SIDECAR_COMMAND, parseSidecarArgs, sidecarHelp } from '../src/cli/sidecar-command.js';
import { USAGE_EXIT, usageLine } from '../src/cli/usage-error.js';
import { createDiagnostics } from '../src/diag/logger.js';
import { SIDECAR_LOG_TYPE } from '../src/log-types.js';
import { Sidecar } from '../src/sidecar/run-sidecar.js';

const parsed = parseSidecarArgs(process.argv.slice(2), process.env);
if (!parsed.ok) {
  process.stderr.write(usageLine(SIDECAR_COMMAND, parsed.error));
  process.exit(USAGE_EXIT);
}
if (parsed.value === 'help' || parsed.value === 'version') {
  process.stdout.write(parsed.value === 'help' ? sidecarHelp() : `${packageVersion()}\n`);
  process.exit(0);
}
const sidecar = new Sidecar(parsed.value, { stdout: process.stdout, stdin: process.stdin, log: createDiagnostics(SIDECAR_LOG_TYPE) });
for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, () => void sidecar.stop());
process.exit(await sidecar.run());
