#!/usr/bin/env node
// Stop signals are caught before anything else is loaded: a SIGTERM a moment after the start
// is a clean stop (exit 0), not the default death (143). SIGUSR1 would start Node's inspector
// (a debug port and a line that is not JSON on stderr): a listener of our own keeps it inert.
const stops: NodeJS.Signals[] = [];
let onStop = (signal: NodeJS.Signals): void => void stops.push(signal);
for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) process.on(signal, () => onStop(signal));
process.on('SIGUSR1', () => undefined);

const { parseSidecarArgs, sidecarHelp } = await import('../src/cli/sidecar-command.js');
const { createDiagnostics } = await import('../src/diag/logger.js');
const { SIDECAR_LOG_TYPE } = await import('../src/log-types.js');
const { Sidecar } = await import('../src/sidecar/run-sidecar.js');

const options = parseSidecarArgs(process.argv.slice(2), process.env);
if (options === 'help') {
  process.stdout.write(sidecarHelp());
  process.exit(0);
}
const sidecar = new Sidecar(options, { stdout: process.stdout, stdin: process.stdin, log: createDiagnostics(SIDECAR_LOG_TYPE) });
const running = sidecar.run();
onStop = () => sidecar.stop();
if (stops.length > 0) sidecar.stop();
process.exit(await running);
