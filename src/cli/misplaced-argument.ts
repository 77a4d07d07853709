/**
 * What a usage error says when the word typed is right but in the wrong place: an option of
 * another of logtype's commands (`logtype --json`, `logtype summary -o json`), or a command
 * written after options or files (`logtype -t mongodb summary`). Pure: the tables and the
 * file test are given.
 */
import type { OptionTable } from './options.js';

/** A command's name as typed (`logtype summary`) and its option table. */
export interface CommandTable {
  readonly command: string;
  readonly options: OptionTable;
}

/**
 * parseArgs' "Unknown option '--json'" (or '-o') in `command`, said again with the commands
 * that have that option, when others do; undefined when none does (or the message is another).
 * `filterCommand`: the command without a subcommand (`logtype`), whose options come alone.
 */
export function optionOfOtherCommands(message: string, command: string, others: readonly CommandTable[], filterCommand: string): string | undefined {
  const match = /^Unknown option '(--([^'=]+)|-([^-']))'/.exec(message);
  if (!match) return undefined;
  const [, typed, long, short] = match;
  const owners = others.filter(({ options }) =>
    long !== undefined ? Object.hasOwn(options, long) : Object.values(options).some((spec) => spec.short === short),
  );
  if (owners.length === 0) return undefined;
  const names = owners.map((owner) => owner.command);
  if (names.length === 1 && names[0] === filterCommand) return `Unknown option '${typed}': it is an option of ${filterCommand} itself, not of ${command}`;
  const list = names.length === 1 ? names[0]! : `${names.slice(0, -1).join(', ')} and ${names.at(-1)!}`;
  return `Unknown option '${typed}': it is an option of ${list} (${names[0]!} ${typed} ...)`;
}

/**
 * A command name among the files (`logtype -t mongodb summary`, `logtype pod.log summary`)
 * that is no file: the usage error saying to write it first. A file that has the name is read.
 */
export function commandAmongFiles(inputs: readonly string[], commands: readonly string[], exists: (path: string) => boolean): string | undefined {
  const misplaced = inputs.find((input) => commands.includes(input) && !exists(input));
  if (misplaced === undefined) return undefined;
  return `'${misplaced}' is a command, not a file: write it first (logtype ${misplaced} [options] [FILE ...])`;
}
