/**
 * Shell completion for bash, zsh and fish, written from the same option tables as `--help`
 * (`logtype completion SHELL`): every flag of every command, the values a flag takes (its
 * choices, the log types, files or directories), the commands after `logtype`, and files for
 * FILE. One script completes both `logtype` and `logtype-sidecar`.
 */
import { knownTypeNames } from '../select/type-matcher.js';
import type { CommandHelp, HelpRenderer, OptionSpec, OptionTable } from './options.js';

/** A command as completion sees it. */
export interface CompletedCommand {
  /** The words that run it: `logtype`, `logtype summary`, `logtype-sidecar`. */
  readonly words: readonly [string] | readonly [string, string];
  /** One line that says what it is, for the shells that show it. */
  readonly about: string;
  readonly options: OptionTable;
  /** What its arguments are: files, these words, or none. */
  readonly operands: 'files' | readonly string[] | 'none';
}

export const SHELLS = ['bash', 'zsh', 'fish'] as const;
export type Shell = (typeof SHELLS)[number];

/** What a flag's value is completed with. */
type ValueKind = { readonly kind: 'words'; readonly words: readonly string[] } | { readonly kind: 'file' | 'dir' | 'free' };

/** The table behind a command's help (its renderer is asked for it). */
export function optionTableOf(helpOf: (render: HelpRenderer) => string): OptionTable {
  let table: OptionTable = {};
  helpOf((options: OptionTable, _help: CommandHelp) => {
    table = options;
    return '';
  });
  return table;
}

function valueOf(spec: OptionSpec): ValueKind | undefined {
  if (spec.type === 'boolean') return undefined;
  if (spec.choices) return { kind: 'words', words: spec.choices };
  const complete = spec.complete ?? (spec.value === 'DIR' ? 'dir' : spec.value === 'FILE' || spec.value === 'PATH' ? 'file' : undefined);
  if (complete === 'type') return { kind: 'words', words: knownTypeNames() };
  return { kind: complete ?? 'free' };
}

/** The flags of one option: `-t`, `--type`. */
function flagsOf(name: string, spec: OptionSpec): string[] {
  return spec.short ? [`-${spec.short}`, `--${name}`] : [`--${name}`];
}

/** A description for one line: without its default, which the shells have no room for. */
function shortDescription(spec: OptionSpec): string {
  return spec.describe.replace(/ \[default:[^\]]*\]$/, '');
}

export function completionScript(shell: Shell, commands: readonly CompletedCommand[]): string {
  switch (shell) {
    case 'bash':
      return bashScript(commands);
    case 'zsh':
      return zshScript(commands);
    case 'fish':
      return fishScript(commands);
  }
}

/** Words for a shell's single quotes. */
const singleQuoted = (text: string): string => `'${text.replaceAll("'", "'\\''")}'`;

/** The commands under one program (`logtype summary`...) and the program's own. */
function byProgram(commands: readonly CompletedCommand[]): Map<string, { own: CompletedCommand | undefined; subcommands: CompletedCommand[] }> {
  const programs = new Map<string, { own: CompletedCommand | undefined; subcommands: CompletedCommand[] }>();
  for (const command of commands) {
    const program = programs.get(command.words[0]) ?? { own: undefined, subcommands: [] };
    if (command.words.length === 1) program.own = command;
    else program.subcommands.push(command);
    programs.set(command.words[0], program);
  }
  return programs;
}

const functionName = (command: CompletedCommand): string => `_logtype_command_${command.words.join('_').replace(/[^A-Za-z0-9_]/g, '_')}`;

function bashScript(commands: readonly CompletedCommand[]): string {
  const lines = [
    '# bash completion for logtype and logtype-sidecar (written by `logtype completion bash`).',
    '# Load it in ~/.bashrc with: source <(logtype completion bash)',
    '',
    '# One match a line (a file name may hold spaces); bash 3.2 (macOS) has no mapfile.',
    '_logtype_words() { local IFS=$\'\\n\'; COMPREPLY=($(IFS=$\' \\t\\n\'; compgen -W "$1" -- "$cur")); }',
    '_logtype_files() { compopt -o filenames 2>/dev/null; local IFS=$\'\\n\'; COMPREPLY=($(compgen -f -- "$cur")); }',
    '_logtype_dirs() { compopt -o filenames 2>/dev/null; local IFS=$\'\\n\'; COMPREPLY=($(compgen -d -- "$cur")); }',
    '',
  ];
  for (const command of commands) {
    const entries = Object.entries(command.options);
    // Flags whose values complete alike share one case.
    const byAction = new Map<string, string[]>();
    for (const [name, spec] of entries) {
      const value = valueOf(spec);
      if (!value || spec.bare !== undefined) continue;
      const action =
        value.kind === 'words' ? `_logtype_words ${singleQuoted(value.words.join(' '))}` : value.kind === 'file' ? '_logtype_files' : value.kind === 'dir' ? '_logtype_dirs' : 'COMPREPLY=()';
      byAction.set(action, [...(byAction.get(action) ?? []), ...flagsOf(name, spec)]);
    }
    const valueCases = [...byAction].map(([action, flags]) => `    ${flags.join('|')}) ${action}; return ;;`);
    const flags = entries.flatMap(([name, spec]) => flagsOf(name, spec)).join(' ');
    const subcommands = byProgram(commands).get(command.words[0])!.subcommands;
    const operands =
      command.operands === 'files'
        ? ['  _logtype_files']
        : command.operands === 'none'
          ? ['  COMPREPLY=()']
          : [`  _logtype_words ${singleQuoted(command.operands.join(' '))}`];
    if (command.words.length === 1 && subcommands.length > 0) {
      operands.push(`  if (( COMP_CWORD == 1 )); then local IFS=$'\\n'; COMPREPLY+=($(IFS=$' \\t\\n'; compgen -W ${singleQuoted(subcommands.map((s) => s.words[1]).join(' '))} -- "$cur")); fi`);
    }
    lines.push(
      `${functionName(command)}() {`,
      '  case "$prev" in',
      ...valueCases,
      '  esac',
      `  if [[ $cur == -* ]]; then _logtype_words ${singleQuoted(flags)}; return; fi`,
      ...operands,
      '}',
      '',
    );
  }
  lines.push(
    '_logtype_complete() {',
    '  local cur="${COMP_WORDS[COMP_CWORD]}" prev="${COMP_WORDS[COMP_CWORD-1]}"',
    '  # --flag=value: bash splits at the =',
    '  if [[ $cur == = ]]; then cur=""; elif [[ $prev == = ]]; then prev="${COMP_WORDS[COMP_CWORD-2]}"; fi',
    '  local program="${COMP_WORDS[0]##*/}"',
    '  case "$program ${COMP_WORDS[1]}" in',
  );
  for (const command of commands.filter((c) => c.words.length === 2)) {
    lines.push(`    ${singleQuoted(command.words.join(' '))}) if (( COMP_CWORD > 1 )); then ${functionName(command)}; return; fi ;;`);
  }
  lines.push('  esac', '  case "$program" in');
  for (const command of commands.filter((c) => c.words.length === 1)) lines.push(`    ${command.words[0]}) ${functionName(command)} ;;`);
  lines.push('  esac', '}', '', `complete -F _logtype_complete ${[...byProgram(commands).keys()].join(' ')}`, '');
  return lines.join('\n');
}

/** Text for a zsh _arguments spec inside single quotes: its brackets and colons escaped. */
const zshText = (text: string): string => text.replace(/[\\[\]:]/g, '\\$&').replaceAll("'", "'\\''");

function zshScript(commands: readonly CompletedCommand[]): string {
  const programs = byProgram(commands);
  const lines = [
    `#compdef ${[...programs.keys()].join(' ')}`,
    '# zsh completion for logtype and logtype-sidecar (written by `logtype completion zsh`).',
    '# Load it in ~/.zshrc, after compinit, with: source <(logtype completion zsh)',
    '# or save it as _logtype in a directory on $fpath.',
    '',
  ];
  for (const command of commands) {
    const specs = Object.entries(command.options).flatMap(([name, spec]) => {
      const value = valueOf(spec);
      const repeat = spec.multiple ? '*' : '';
      const message = zshText((spec.value ?? name).replace(/^\[(.*)\]$/, '$1'));
      const description = `[${zshText(shortDescription(spec))}]`;
      const action = !value
        ? ''
        : value.kind === 'words'
          ? `:${message}:(${value.words.map(zshText).join(' ')})`
          : value.kind === 'file'
            ? `:${message}:_files`
            : value.kind === 'dir'
              ? `:${message}:_files -/`
              : `:${message}: `;
      // A value that may be left out (--slow): optional, and then in the same word (--slow=500).
      const argument = spec.bare !== undefined ? `:${action}` : action;
      const long = !value ? `--${name}` : spec.bare !== undefined ? `--${name}=-` : `--${name}=`;
      return [
        ...(spec.short ? [`'${repeat}-${spec.short}${description}${argument}'`] : []),
        `'${repeat}${long}${description}${argument}'`,
      ];
    });
    const subcommands = programs.get(command.words[0])!.subcommands;
    const operands =
      command.operands === 'files'
        ? command.words.length === 1 && subcommands.length > 0
          ? `'*:FILE:${functionName(command)}_operands'`
          : "'*:FILE:_files'"
        : command.operands === 'none'
          ? undefined
          : `'1:${zshText(command.about)}:(${command.operands.join(' ')})'`;
    if (command.words.length === 1 && subcommands.length > 0) {
      lines.push(
        `${functionName(command)}_operands() {`,
        '  if (( CURRENT == 2 )); then',
        `    _alternative ${singleQuoted(`commands:command:((${subcommands.map((s) => `${s.words[1]}\\:${zshText(s.about).replaceAll(' ', '\\ ')}`).join(' ')}))`)} 'files:FILE:_files'`,
        '  else',
        '    _files',
        '  fi',
        '}',
        '',
      );
    }
    lines.push(`${functionName(command)}() {`, '  _arguments -s -S \\', ...[...specs, ...(operands ? [operands] : [])].map((spec, i, all) => `    ${spec}${i < all.length - 1 ? ' \\' : ''}`), '}', '');
  }
  lines.push('_logtype() {', '  case "$service" in');
  for (const [program, { own, subcommands }] of programs) {
    lines.push(`    ${program})`);
    if (subcommands.length > 0) {
      lines.push('      if (( CURRENT > 2 )); then', '        case "$words[2]" in');
      for (const sub of subcommands) {
        lines.push(`          ${sub.words[1]}) shift words; (( CURRENT-- )); ${functionName(sub)}; return ;;`);
      }
      lines.push('        esac', '      fi');
    }
    if (own) lines.push(`      ${functionName(own)}`);
    lines.push('      ;;');
  }
  lines.push('  esac', '}', '', 'if [[ $zsh_eval_context[-1] == loadautofunc ]]; then', '  _logtype "$@"', 'else', `  compdef _logtype ${[...programs.keys()].join(' ')}`, 'fi', '');
  return lines.join('\n');
}

/** Text for fish's single quotes. */
const fishQuoted = (text: string): string => `'${text.replace(/[\\']/g, '\\$&')}'`;

function fishScript(commands: readonly CompletedCommand[]): string {
  const programs = byProgram(commands);
  const lines = [
    '# fish completion for logtype and logtype-sidecar (written by `logtype completion fish`).',
    '# Save it as ~/.config/fish/completions/logtype.fish and as logtype-sidecar.fish, or: logtype completion fish | source',
    '',
    '# True when the word after the program (where a command goes) is one of these.',
    'function __logtype_command',
    '    set -l words (commandline -opc)',
    '    set -q words[2]; and contains -- $words[2] $argv',
    'end',
    '',
  ];
  // The commands after the program, as its first argument (where a FILE may go too).
  for (const [program, { subcommands }] of programs) {
    for (const sub of subcommands) {
      lines.push(`complete -c ${program} -n 'test (count (commandline -opc)) -eq 1' -a ${sub.words[1]} -d ${fishQuoted(sub.about)}`);
    }
    if (subcommands.length > 0) lines.push('');
  }
  // Each command's flags when its words are on the line (the program's own: when no command is).
  for (const command of commands) {
    const subcommands = programs.get(command.words[0])!.subcommands;
    const condition =
      command.words.length === 2
        ? ` -n ${fishQuoted(`__logtype_command ${command.words[1]}`)}`
        : subcommands.length > 0
          ? ` -n ${fishQuoted(`not __logtype_command ${subcommands.map((s) => s.words[1]).join(' ')}`)}`
          : '';
    const head = `complete -c ${command.words[0]}${condition}`;
    for (const [name, spec] of Object.entries(command.options)) {
      const value = valueOf(spec);
      const flags = `${spec.short ? ` -s ${spec.short}` : ''} -l ${name}`;
      const takes = !value || spec.bare !== undefined ? '' : value.kind === 'file' ? ' -r -F' : ' -x';
      // Its values on a line of their own (the flag's description is not theirs), before the flag's.
      if (value?.kind === 'words' && spec.bare === undefined) lines.push(`${head}${flags} -x -a ${fishQuoted(value.words.join(' '))}`);
      if (value?.kind === 'dir' && spec.bare === undefined) lines.push(`${head}${flags} -x -a '(__fish_complete_directories (commandline -ct))'`);
      lines.push(`${head}${flags}${takes} -d ${fishQuoted(shortDescription(spec))}`);
    }
    if (command.operands === 'none') lines.push(`${head} -f`);
    else if (command.operands !== 'files') lines.push(`${head} -f -a ${fishQuoted(command.operands.join(' '))}`);
    lines.push('');
  }
  return lines.join('\n');
}
