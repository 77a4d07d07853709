#!/usr/bin/env node
// Stop signals are caught before anything else is loaded: a SIGTERM a moment after the start
// is a clean stop (exit 0), not the default death (143). SIGUSR1 would start Node's inspector
// (a debug port and a line that is not JSON on stderr): a listener of our own keeps it inert.
const stops: NodeJS.Signals[] = [];
let onStop = (signal: NodeJS.Signals): void => void stops.push(signal);
for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) process.on(signal, () => onStop(signal));
process.on('SIGUSR1', () => undefined);
// SIGUSR2's default is to die, saving nothing: a stray one (a tool that signals every process
// of the pod) must not end the sidecar.
process.on('SIGUSR2', () => undefined);

const { packageVersion } = await import('../src/cli/package-version.js');
const { SIDECAR_COMMAND, parseSidecarArgs, sidecarHelp } = await import('../src/cli/sidecar-command.js');
const { USAGE_EXIT, usageMessage } = await import('../src/cli/usage-error.js');
const { createDiagnostics, sameStream } = await import('../src/diag/logger.js');
const { SIDECAR_LOG_TYPE } = await import('../src/log-types.js');
const { Sidecar } = await import('../src/sidecar/run-sidecar.js');
const { sameFileError } = await import('../src/config/same-file.js');
const { isNullDevice } = await import('../src/sidecar/null-output.js');

const args = parseSidecarArgs(process.argv.slice(2), process.env);
// Two types' paths that are one file on disk (a link) are refused as the same path spelt twice is.
const twice = args.ok && typeof args.value === 'object' ? sameFileError(args.value.files) : undefined;
const parsed: typeof args = twice === undefined ? args : { ok: false, error: twice };
if (!parsed.ok) {
  // Its stderr is the pod's log: the usage error is a JSON line, as every other diagnostic.
  createDiagnostics(SIDECAR_LOG_TYPE).error({ event: 'usage' }, usageMessage(SIDECAR_COMMAND, parsed.error));
  process.exit(USAGE_EXIT);
}
if (parsed.value === 'help' || parsed.value === 'version') {
  process.stdout.write(parsed.value === 'help' ? sidecarHelp() : `${packageVersion()}\n`);
  process.exit(0);
}
// stderr the same pipe as stdout (2>&1, a container with a terminal): diagnostics go between entries.
const diagnosticRoute = sameStream(1, 2) ? {} : undefined;
const log = createDiagnostics(SIDECAR_LOG_TYPE, 2, diagnosticRoute);
const sidecar = new Sidecar(parsed.value, { stdout: process.stdout, stdin: process.stdin, stdinFd: 0, log, version: packageVersion(), diagnosticRoute, stdoutIsTTY: process.stdout.isTTY === true, stdoutIsNull: isNullDevice(1) });
const running = sidecar.run();
onStop = (signal) => sidecar.stop(signal);
if (stops.length > 0) sidecar.stop(stops[0]);
process.exit(await running);
