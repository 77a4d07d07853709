/**
 * How both commands end on bad usage: one clear line on stderr, a pointer to --help, exit 2.
 */
export function failUsage(command: string, message: string): never {
  process.stderr.write(`${command}: ${message.split('\n')[0]} (see ${command} --help)\n`);
  process.exit(2);
}
