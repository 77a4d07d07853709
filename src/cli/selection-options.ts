/**
 * The options that choose lines, the same for `logtype`, `logtype summary` and
 * `logtype doctor`: inputs, types, grep, and the record query.
 */
import fs from 'node:fs';
import { LEVELS, type Level } from '../parse/log-record.js';
import type { Selection } from '../select/entry-selector.js';
import { parseTimeBound, type RecordQuery } from '../select/record-query.js';
import type { InputSelection } from '../read/read-entries.js';
import { failUsage } from './fail.js';
import { allValues, lastValue, type OptionTable, type ParsedArgs } from './options.js';

/** `--slow` without a value means operations of 100 ms and more, as the server's slowms. */
export const DEFAULT_SLOW_MS = 100;

export const SELECTION_OPTIONS: OptionTable = {
  type: { type: 'string', short: 't', multiple: true, value: 'TYPE', describe: 'Only these types (repeatable, comma lists, globs: automation-agent*)' },
  exclude: { type: 'string', short: 'x', multiple: true, value: 'TYPE', describe: 'Not these types (repeatable, comma lists, globs)' },
  grep: { type: 'string', short: 'g', value: 'REGEX', describe: 'Only entries whose contents match this regular expression' },
  'ignore-case': { type: 'boolean', short: 'i', describe: 'Make --grep and --message case-insensitive' },
  'invert-grep': { type: 'boolean', short: 'v', describe: 'Only entries whose contents do not match --grep' },
  message: { type: 'string', short: 'm', value: 'REGEX', describe: 'Only lines whose parsed message matches (-i for case); a line that does not parse: its text' },
  level: { type: 'string', short: 'l', value: 'LEVEL', choices: LEVELS, describe: 'This level and worse; every log\'s levels map onto these' },
  since: { type: 'string', value: 'TIME', describe: 'Lines at or after TIME: RFC 3339, or a span back from now (15m, 2h, 1d)' },
  until: { type: 'string', value: 'TIME', describe: 'Lines at or before TIME (same forms)' },
  component: { type: 'string', short: 'c', multiple: true, value: 'NAME', describe: 'Server lines of these components (REPL, NETWORK, COMMAND; lists)' },
  id: { type: 'string', multiple: true, value: 'ID', describe: 'Server lines with these message ids (51803 is a slow operation; lists)' },
  ctx: { type: 'string', multiple: true, value: 'CTX', describe: 'Server lines of these threads (conn42, "conn*")' },
  ns: { type: 'string', multiple: true, value: 'NS', describe: 'Server lines on these namespaces (app.orders, "app.*")' },
  slow: { type: 'string', value: '[MS]', describe: `Slow operations: at least MS milliseconds [default: ${DEFAULT_SLOW_MS}]` },
  plan: { type: 'string', value: 'PLAN', describe: 'Operations whose plan starts so (COLLSCAN, IXSCAN)' },
  atype: { type: 'string', multiple: true, value: 'ATYPE', describe: 'Audit events of these types (authenticate, dropCollection; lists)' },
  user: { type: 'string', multiple: true, value: 'USER', describe: 'Audit events by these users (alice, alice@admin)' },
  failed: { type: 'boolean', describe: 'Audit events that failed (a non-zero result)' },
  resource: { type: 'string', multiple: true, value: 'NAME', describe: "Operator lines about this resource (my-replica-set, mongodb/my-replica-set)" },
  as: { type: 'string', value: 'TYPE', describe: 'Read raw log lines (a copied server log) as entries of this type' },
};

/** `--slow` may stand without its value: the default is put in before the arguments are parsed. */
export function withSlowDefault(argv: readonly string[]): string[] {
  return argv.map((arg, index) => (arg === '--slow' && !/^\d+(\.\d+)?$/.test(argv[index + 1] ?? '') ? `--slow=${DEFAULT_SLOW_MS}` : arg));
}

/** Files given must be readable, now: one clear line rather than a failure halfway through. */
export function checkInputs(command: string, inputs: readonly string[]): void {
  for (const input of inputs) {
    if (input === '-') continue;
    try {
      fs.accessSync(input, fs.constants.R_OK);
      if (fs.statSync(input).isDirectory()) failUsage(command, `${input} is a directory`);
    } catch (error) {
      failUsage(command, `cannot read ${input}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
    }
  }
}

function numbers(command: string, name: string, values: readonly string[]): number[] | undefined {
  if (values.length === 0) return undefined;
  return values
    .flatMap((value) => value.split(','))
    .filter((value) => value.trim() !== '')
    .map((value) => {
      const number = Number(value);
      if (!Number.isInteger(number)) failUsage(command, `--${name} takes whole numbers, not "${value}"`);
      return number;
    });
}

export function parseSelection(command: string, parsed: ParsedArgs, now: Date): Selection & InputSelection {
  const { values, positionals } = parsed;
  checkInputs(command, positionals);
  const text = (name: string): string | undefined => lastValue(values, name);
  const list = (name: string): string[] | undefined => {
    const all = allValues(values, name);
    return all.length > 0 ? all : undefined;
  };
  const regExp = (name: string): RegExp | undefined => {
    const source = text(name);
    if (source === undefined) return undefined;
    try {
      return new RegExp(source, values['ignore-case'] ? 'iu' : 'u');
    } catch (error) {
      return failUsage(command, `--${name}: ${(error as Error).message}`);
    }
  };
  const grep = regExp('grep');
  if (values['invert-grep'] && !grep) failUsage(command, '--invert-grep needs --grep');
  const time = (name: string): Date | undefined => {
    const value = text(name);
    if (value === undefined) return undefined;
    return parseTimeBound(value, now) ?? failUsage(command, `--${name} takes an RFC 3339 time or a span such as 15m, 2h, 1d, not "${value}"`);
  };
  const slow = text('slow');
  const slowMillis = slow === undefined ? undefined : Number(slow);
  if (slowMillis !== undefined && !(slowMillis >= 0)) failUsage(command, `--slow takes milliseconds, not "${slow}"`);
  const query: RecordQuery = {
    level: text('level') as Level | undefined,
    message: regExp('message'),
    since: time('since'),
    until: time('until'),
    components: list('component'),
    ids: numbers(command, 'id', allValues(values, 'id')),
    contexts: list('ctx'),
    namespaces: list('ns'),
    slowMillis,
    plan: text('plan'),
    atypes: list('atype'),
    users: list('user'),
    failed: values['failed'] === true ? true : undefined,
    resources: list('resource'),
  };
  return {
    inputs: positionals,
    as: text('as'),
    types: allValues(values, 'type'),
    exclude: allValues(values, 'exclude'),
    grep,
    invertGrep: values['invert-grep'] === true,
    query,
  };
}
