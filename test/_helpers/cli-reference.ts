/**
 * docs/cli.md, the reference of every command, rendered from the same option tables and help
 * that `--help` prints (src/cli/): `npm run docs` writes it, and a test fails when the file and
 * the tables disagree, so the reference cannot drift from the commands.
 */
import fs from 'node:fs';
import path from 'node:path';
import { completionHelp } from '../../src/cli/completion-command.js';
import { filterHelp } from '../../src/cli/filter-command.js';
import type { CommandHelp, HelpRenderer, OptionSpec, OptionTable } from '../../src/cli/options.js';
import { doctorHelp, summaryHelp } from '../../src/cli/report-commands.js';
import { SELECTION_OPTIONS } from '../../src/cli/selection-options.js';
import { sidecarHelp } from '../../src/cli/sidecar-command.js';
import { REPO } from './sidecar-process.js';

export const CLI_REFERENCE = 'docs/cli.md';

/**
 * Text for a markdown paragraph or table cell: nothing in it is read as markup but its
 * `code`, as the help writes it (an underscore inside a word, MMS_LOG_DIR, is no markup).
 */
function inline(text: string): string {
  return text.replace(/[\\*|<>]|(?<!\w)_|_(?!\w)/g, (c) => `\\${c}`);
}

function code(text: string): string {
  const ticks = text.includes('`') ? '``' : '`';
  return `${ticks}${ticks.length > 1 ? ' ' : ''}${text}${ticks.length > 1 ? ' ' : ''}${ticks}`;
}

/** The help's lines as markdown: plain lines joined into paragraphs, indented runs kept as a block. */
function blocks(lines: readonly string[]): string[] {
  const out: string[] = [];
  let paragraph: string[] = [];
  let verbatim: string[] = [];
  const flush = () => {
    if (paragraph.length > 0) out.push(inline(paragraph.join(' ')), '');
    if (verbatim.length > 0) out.push('```', ...verbatim, '```', '');
    paragraph = [];
    verbatim = [];
  };
  for (const line of lines) {
    if (line.trim() === '') flush();
    else if (line.startsWith('  ')) {
      if (paragraph.length > 0) flush();
      verbatim.push(line.slice(2));
    } else {
      if (verbatim.length > 0) flush();
      paragraph.push(line);
    }
  }
  flush();
  return out;
}

function flag(name: string, spec: OptionSpec): string {
  const long = `--${name}${spec.value ? ` ${spec.value}` : ''}`;
  return spec.short ? `${code(`-${spec.short}`)}, ${code(long)}` : code(long);
}

function optionRow(name: string, spec: OptionSpec): string {
  const notes = [
    spec.choices ? `one of ${spec.choices.map(code).join(', ')}` : undefined,
    spec.default !== undefined ? `default ${code(spec.default)}` : undefined,
    spec.multiple ? 'repeatable' : undefined,
  ].filter((note) => note !== undefined);
  return `| ${flag(name, spec)} | ${inline(spec.describe)} | ${notes.join('; ')} |`;
}

function optionTable(entries: readonly (readonly [string, OptionSpec])[]): string[] {
  return ['| option | what it does | values |', '|---|---|---|', ...entries.map(([name, spec]) => optionRow(name, spec)), ''];
}

/** One command's section. The selection options, shared by three commands, are listed once. */
function commandSection(name: string, options: OptionTable, help: CommandHelp, selectionListed: boolean): string[] {
  const entries = Object.entries(options);
  const shared = entries.filter(([option, spec]) => SELECTION_OPTIONS[option] === spec);
  const own = entries.filter(([option, spec]) => SELECTION_OPTIONS[option] !== spec);
  return [
    `## ${code(name)}`,
    '',
    '```',
    help.usage,
    '```',
    '',
    ...blocks(help.about),
    ...(shared.length === 0
      ? ['### Options', '', ...optionTable(own)]
      : selectionListed
        ? [
            '### Options',
            '',
            `The [selection options](#selection-options) of ${code('logtype')} (all ${shared.length} of them), and:`,
            '',
            ...optionTable(own),
          ]
        : [
            '### Selection options',
            '',
            `Shared by ${code('logtype')}, ${code('logtype summary')} and ${code('logtype doctor')}; they all combine.`,
            '',
            ...optionTable(shared),
            '### Options',
            '',
            ...optionTable(own),
          ]),
    '### Examples',
    '',
    '```sh',
    ...help.examples.flatMap(([command, what]) => [`# ${what}`, command]),
    '```',
    '',
    ...(help.epilogue.length > 0 ? ['### Notes', '', ...blocks(help.epilogue)] : []),
    '### Exit status',
    '',
    '| status | when |',
    '|---|---|',
    ...help.exitStatus.map(([status, when]) => `| ${status} | ${inline(when)} |`),
    '',
  ];
}

/** Captures what a command's help function renders, instead of rendering it for a terminal. */
function captured(helpOf: (render: HelpRenderer) => string): { options: OptionTable; help: CommandHelp } {
  let parts: { options: OptionTable; help: CommandHelp } | undefined;
  helpOf((options, help) => {
    parts = { options, help };
    return '';
  });
  return parts!;
}

/** The commands, in the order the reference lists them, with what their help is made of. */
export function cliCommands() {
  return [
    ['logtype-sidecar', captured(sidecarHelp)],
    ['logtype', captured(filterHelp)],
    ['logtype summary', captured(summaryHelp)],
    ['logtype doctor', captured(doctorHelp)],
    ['logtype completion', captured(completionHelp)],
  ] as const;
}

export function cliReference(): string {
  const commands = cliCommands();
  let selectionListed = false;
  const sections = commands.flatMap(([name, { options, help }]) => {
    const section = commandSection(name, options, help, selectionListed);
    selectionListed ||= Object.values(options).some((spec) => Object.values(SELECTION_OPTIONS).includes(spec));
    return section;
  });
  return [
    '# Command reference',
    '',
    '<!-- Written by `npm run docs` from the option tables and help in src/cli/; do not edit by hand.',
    '     test/unit/cli-reference.test.ts fails when this file and the tables disagree. -->',
    '',
    `Every option of every command, as ${code('--help')} prints it. Every command also takes ${code('-h')}/${code('--help')} and ${code('--version')}.`,
    'A wrong flag or value is one line on stderr naming the fix, and exit status 2.',
    `Shell completion for bash, zsh and fish is written from the same tables: see [${code('logtype completion')}](#logtype-completion).`,
    '',
    ...commands.map(([name]) => `- [${code(name)}](#${name.replace(' ', '-')})`),
    '',
    ...sections,
  ].join('\n');
}

/** `npm run docs`: writes docs/cli.md. */
export function writeCliReference(): void {
  fs.mkdirSync(path.join(REPO, 'docs'), { recursive: true });
  fs.writeFileSync(path.join(REPO, CLI_REFERENCE), cliReference());
  process.stdout.write(`${CLI_REFERENCE} written from the option tables in src/cli/\n`);
}

if (process.argv[1] === import.meta.filename) writeCliReference();
