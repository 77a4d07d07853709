/**
 * Command-line options as one table per command, which drives both `node:util` parseArgs and
 * the help text. (yargs did this too, at a start-up cost per run that docs/design.md measures
 * against the filter's whole pass.)
 */
import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { nearestName } from './did-you-mean.js';
import type { ColorMode } from '../render/colors.js';
import type { Parsed } from '../config/parse-size.js';
import { usageError } from './usage-error.js';

export interface OptionSpec {
  readonly type: 'string' | 'boolean';
  readonly short?: string;
  /** Short flags other tools give this meaning (`head -n`): named when typed, as a misspelt flag's nearest is. */
  readonly habits?: readonly string[];
  readonly multiple?: boolean;
  readonly default?: string;
  /** The value's name in the help (`DIR`, `TYPE=PATH`). */
  readonly value?: string;
  readonly choices?: readonly string[];
  /**
   * Reads a value as a person may type it (another case, an alias: `W` for `warn`) into one of
   * `choices`; undefined when it is none of them.
   */
  readonly choiceOf?: (value: string) => string | undefined;
  /**
   * The least value. A number below it, a negative one whatever its unit, is refused as
   * "--NAME must be at least MIN" (units are the command's to read; it checks them again).
   */
  readonly min?: number;
  /**
   * The value when the flag stands alone (`--slow` for `--slow 100`): the next argument is the
   * flag's value when it names no file and starts like a number, or is a bare word (no dash, no
   * dot, no slash, no wildcard: `--slow fast`, a value mistyped, refused by the command naming the flag);
   * else (a file, a path, a flag) it is left as it is.
   */
  readonly bare?: string;
  /** What shell completion offers for the value (beyond `choices`, which it offers itself). */
  readonly complete?: 'file' | 'dir' | 'type';
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

/** Colour, the filter's, summary's and doctor's alike: `--color WHEN`, and `--no-color` for `never`. */
export const COLOR_OPTIONS: OptionTable = {
  color: { type: 'string', value: 'WHEN', choices: ['auto', 'always', 'never'], default: 'auto', describe: 'Colour (NO_COLOR and FORCE_COLOR are honoured)' },
  'no-color': { type: 'boolean', describe: 'No colour: --color never' },
};

/** The colour asked for: `never` with --no-color, else --color's WHEN (one of COLOR_OPTIONS' choices). */
export const colorWhen = (values: ParsedArgs['values'], color: unknown): ColorMode => (values['no-color'] === true ? 'never' : (color as ColorMode));

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
    ...help.exitStatus.map(([status, when]) => `  ${String(status).padEnd(Math.max(...help.exitStatus.map(([s]) => String(s).length)))}  ${when}`),
    '',
  ].join('\n');
}

export interface ParsedArgs {
  readonly values: Readonly<Record<string, string | boolean | (string | boolean)[] | undefined>>;
  readonly positionals: readonly string[];
}

/** A negative number, whatever its unit: the value of a flag, not a flag (`-1`, `-0.5s`). */
const NEGATIVE_NUMBER = /^-\.?\d/;
/** What may be a number (with a unit): `100`, `100ms`, `2s`, `-5`, `.5s`. */
const NUMBER_LIKE = /^-?\.?\d/;
/** No dash first, no dot, no slash, no glob's wildcard: not a flag, and written as no file name or pattern is. */
const BARE_WORD = /^[^-./*?[][^./*?[]*$/;
const PLAIN_NUMBER = /^-?\d+(\.\d+)?$/;

/**
 * The arguments as parseArgs should read them: a flag's value that starts with a dash but is a
 * number (`--stats-interval -1`) joined to its flag (parseArgs refuses it as ambiguous, and the
 * person meant a number: they are told the least it takes), and a flag that may stand alone
 * given its value or its `bare` default. Nothing after `--` is touched.
 */
export function joinFlagValues(argv: readonly string[], options: OptionTable, exists: (path: string) => boolean): string[] {
  const byShort = new Map(Object.entries(options).flatMap(([name, spec]) => (spec.short ? [[spec.short, name] as const] : [])));
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') {
      out.push(...argv.slice(i));
      break;
    }
    const name = arg.startsWith('--') ? arg.slice(2) : arg.length === 2 && arg[0] === '-' ? byShort.get(arg[1]!) : undefined;
    const spec = name === undefined ? undefined : options[name];
    if (name === undefined || spec?.type !== 'string') {
      out.push(arg);
      continue;
    }
    const next = argv[i + 1];
    if (spec.bare !== undefined) {
      const isValue = next !== undefined && (NUMBER_LIKE.test(next) || BARE_WORD.test(next)) && !exists(next);
      out.push(`--${name}=${isValue ? next : spec.bare}`);
      if (isValue) i++;
    } else if (next !== undefined && NEGATIVE_NUMBER.test(next)) {
      out.push(`--${name}=${next}`);
      i++;
    } else out.push(arg);
  }
  return out;
}

/**
 * Parses `argv` by the table; a wrong flag or value is a usage error. Values are given as the
 * table's choices (`-l W` is `warn`). `exists` tells a file from a value (see `bare`).
 */
export function parseByTable(
  argv: readonly string[],
  options: OptionTable,
  allowPositionals: boolean,
  exists: (path: string) => boolean = fs.existsSync,
): Parsed<ParsedArgs> {
  let parsed: ParsedArgs;
  try {
    parsed = parseArgs({
      args: joinFlagValues(argv, options, exists),
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
    // parseArgs explains at length; its first sentence is the line a person needs, and for a
    // value that starts with a dash, how to give it.
    const first = (error as Error).message.split('\n')[0]!.split('. ')[0]!.replace(/\.$/, '');
    const named = /argument is ambiguous/.test(first) ? /'(?:-(\w)|--([\w-]+))'/.exec(first) : undefined;
    const short = named?.[1];
    const long = named?.[2] ?? (short === undefined ? undefined : Object.keys(options).find((name) => options[name]!.short === short));
    if (long) return usageError(`${first}: to give a value that starts with a dash, write --${long}=VALUE`);
    // A misspelt flag (`--tpye`): the nearest the table has, as git suggests a command.
    const unknown = /^Unknown option '--([^'=]+)'/.exec(first)?.[1];
    const nearest = unknown === undefined ? undefined : nearestName(unknown, Object.keys(options));
    // Another tool's short flag (`-n 10` for the first ten): the option that does it here.
    const habit = /^Unknown option '-(\w)'/.exec(first)?.[1];
    const meant = habit === undefined ? undefined : Object.keys(options).find((name) => options[name]!.habits?.includes(habit));
    if (meant) return usageError(`${first}; did you mean '--${meant}'?`);
    return usageError(nearest ? `${first}; did you mean '--${nearest}'?` : first);
  }
  const values: Record<string, string | boolean | (string | boolean)[] | undefined> = { ...parsed.values };
  for (const [name, spec] of Object.entries(options)) {
    const given = values[name];
    if (given === undefined || spec.type !== 'string') continue;
    const all = Array.isArray(given) ? given : [given];
    const read: (string | boolean)[] = [];
    for (const value of all) {
      if (typeof value !== 'string') continue;
      if (spec.min !== undefined && (NEGATIVE_NUMBER.test(value) || (PLAIN_NUMBER.test(value) && Number(value) < spec.min))) {
        return usageError(`--${name} must be at least ${spec.min}`);
      }
      const choice = spec.choices ? (spec.choices.includes(value) ? value : spec.choiceOf?.(value)) : value;
      if (choice === undefined || (spec.choices && !spec.choices.includes(choice))) {
        return usageError(`--${name} takes ${spec.choices!.join(', ')}, not "${value}"`);
      }
      read.push(choice);
    }
    values[name] = Array.isArray(given) ? read : read[0];
  }
  return { ok: true, value: { values, positionals: parsed.positionals } };
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
