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

/** logtype's commands, each with the usage line a misplaced one is told to write. */
export const COMMAND_USAGE: Readonly<Record<string, string>> = {
  summary: 'logtype summary [options] [FILE ...]',
  doctor: 'logtype doctor [options] [FILE ...]',
  completion: 'logtype completion bash|zsh|fish',
};

/** The arguments after `--`: files, whatever their names. */
export function afterTerminator(argv: readonly string[]): ReadonlySet<string> {
  const at = argv.indexOf('--');
  return new Set(at === -1 ? [] : argv.slice(at + 1));
}

/**
 * A command name among the files (`logtype -t mongodb summary`, `logtype pod.log summary`)
 * that is no file: the usage error saying to write it first. A file that has the name is read,
 * and so is a name given after `--` (`literal`).
 */
export function commandAmongFiles(inputs: readonly string[], exists: (path: string) => boolean, literal: ReadonlySet<string> = new Set()): string | undefined {
  const misplaced = inputs.find((input) => Object.hasOwn(COMMAND_USAGE, input) && !literal.has(input) && !exists(input));
  if (misplaced === undefined) return undefined;
  return `'${misplaced}' is a command, not a file: write it first (${COMMAND_USAGE[misplaced]!})`;
}
