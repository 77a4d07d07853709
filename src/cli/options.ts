/**
 * Command-line options as one table per command, which drives both `node:util` parseArgs and
 * the help text. (yargs did this too, at 0.13 CPU-s and 16 MB of start-up per run, measured:
 * more than a sixth of the filter's whole pass over a million entries.)
 */
import { parseArgs } from 'node:util';
import type { Parsed } from '../config/parse-size.js';
import { usageError } from './usage-error.js';

export interface OptionSpec {
  readonly type: 'string' | 'boolean';
  readonly short?: string;
  readonly multiple?: boolean;
  readonly default?: string;
  /** The value's name in the help (`DIR`, `TYPE=PATH`). */
  readonly value?: string;
  readonly choices?: readonly string[];
  readonly describe: string;
}

export type OptionTable = Readonly<Record<string, OptionSpec>>;

export interface CommandHelp {
  readonly usage: string;
  readonly about: readonly string[];
  readonly examples: readonly (readonly [string, string])[];
  readonly epilogue: readonly string[];
  /** Each exit status the command ends with, and when. */
  readonly exitStatus: readonly (readonly [number, string])[];
}

/**
 * Turns a command's option table and help into text: `helpText` for `--help`, another
 * renderer for the reference in docs/cli.md (`npm run docs`), so both say the same.
 */
export type HelpRenderer = (options: OptionTable, help: CommandHelp) => string;

/** `--version` of every command: the package's version (cli/package-version.ts). */
export const VERSION_OPTION: OptionSpec = { type: 'boolean', describe: "Print logtype's version and exit" };

export function helpText(options: OptionTable, help: CommandHelp): string {
  const lines = Object.entries(options).map(([name, spec]) => {
    const flag = `${spec.short ? `-${spec.short}, ` : '    '}--${name}${spec.value ? ` ${spec.value}` : ''}`;
    const choices = spec.choices ? ` (${spec.choices.join('|')})` : '';
    const fallback = spec.default !== undefined ? ` [default: ${spec.default}]` : '';
    return `  ${flag.padEnd(30)} ${spec.describe}${choices}${fallback}`;
  });
  return [
    help.usage,
    '',
    ...help.about,
    '',
    'Options:',
    ...lines,
    '',
    'Examples:',
    ...help.examples.map(([command, what]) => `  ${command}\n      ${what}`),
    '',
    ...help.epilogue,
    '',
    'Exit status:',
    ...help.exitStatus.map(([status, when]) => `  ${status}  ${when}`),
    '',
  ].join('\n');
}

export interface ParsedArgs {
  readonly values: Readonly<Record<string, string | boolean | (string | boolean)[] | undefined>>;
  readonly positionals: readonly string[];
}

/** Parses `argv` by the table; a wrong flag or value is a usage error. */
export function parseByTable(argv: readonly string[], options: OptionTable, allowPositionals: boolean): Parsed<ParsedArgs> {
  let parsed: ParsedArgs;
  try {
    parsed = parseArgs({
      args: [...argv],
      options: Object.fromEntries(
        Object.entries(options).map(([name, spec]) => [
          name,
          { type: spec.type, ...(spec.short ? { short: spec.short } : {}), ...(spec.multiple ? { multiple: true } : {}) },
        ]),
      ),
      strict: true,
      allowPositionals,
    });
  } catch (error) {
    // parseArgs explains at length; its first sentence is the line a person needs.
    return usageError((error as Error).message.split('. ')[0]!.replace(/\.$/, ''));
  }
  for (const [name, spec] of Object.entries(options)) {
    const value = lastValue(parsed.values, name);
    if (spec.choices && value !== undefined && !spec.choices.includes(value)) {
      return usageError(`--${name} takes ${spec.choices.join(', ')}, not "${value}"`);
    }
  }
  return { ok: true, value: parsed };
}

/** A string option's last value (a repeated flag counts once), else its default. */
export function lastValue(values: ParsedArgs['values'], name: string, options?: OptionTable): string | undefined {
  const value = values[name];
  const last = Array.isArray(value) ? value.at(-1) : value;
  return typeof last === 'string' ? last : options?.[name]?.default;
}

/** A repeatable string option's values. */
export function allValues(values: ParsedArgs['values'], name: string): string[] {
  const value = values[name];
  return (Array.isArray(value) ? value : value === undefined ? [] : [value]).filter((v): v is string => typeof v === 'string');
}
