/**
 * `logtype completion SHELL`: the completion script for bash, zsh or fish, from the option
 * tables of every command (cli/shell-completion.ts).
 */
import { FILTER_COMMAND, filterHelp } from './filter-command.js';
import { helpText, parseByTable, VERSION_OPTION, type HelpRenderer, type OptionTable } from './options.js';
import { doctorHelp, summaryHelp } from './report-commands.js';
import { completionScript, optionTableOf, SHELLS, type CompletedCommand, type Shell } from './shell-completion.js';
import { SIDECAR_COMMAND, sidecarHelp } from './sidecar-command.js';
import { usageError, type CommandLine } from './usage-error.js';

export const COMPLETION_COMMAND = 'logtype completion';

const OPTIONS: OptionTable = {
  help: { type: 'boolean', short: 'h', describe: 'Show this help' },
  version: VERSION_OPTION,
};

export function completionHelp(render: HelpRenderer = helpText): string {
  return render(OPTIONS, {
    usage: `${COMPLETION_COMMAND} ${SHELLS.join('|')}`,
    about: [
      'Writes the shell completion script for logtype and logtype-sidecar: their flags, the values a',
      'flag takes (output modes, levels, log types, files), the commands after logtype, and files.',
    ],
    examples: [
      ['source <(logtype completion bash)', 'bash: in ~/.bashrc'],
      ['source <(logtype completion zsh)', 'zsh: in ~/.zshrc, after compinit'],
      ['logtype completion fish > ~/.config/fish/completions/logtype.fish', 'fish: once (and the same for logtype-sidecar.fish)'],
    ],
    epilogue: [],
    exitStatus: [
      [0, 'The script was written'],
      [2, 'Bad usage: no shell, or one it does not know'],
    ],
  });
}

/** Every command completion knows, with its table. */
export function completedCommands(): CompletedCommand[] {
  return [
    { words: [FILTER_COMMAND], about: 'Select and show the entries', options: optionTableOf(filterHelp), operands: 'files' },
    { words: [FILTER_COMMAND, 'summary'], about: 'What happened', options: optionTableOf(summaryHelp), operands: 'files' },
    { words: [FILTER_COMMAND, 'doctor'], about: 'Known problems and their fixes', options: optionTableOf(doctorHelp), operands: 'files' },
    { words: [FILTER_COMMAND, 'completion'], about: 'Shell completion script', options: OPTIONS, operands: SHELLS },
    { words: [SIDECAR_COMMAND], about: 'Follow the log files', options: optionTableOf(sidecarHelp), operands: 'none' },
  ];
}

/** The shell asked for, `'help'`, `'version'`, or a usage error. */
export function parseCompletionArgs(argv: readonly string[]): CommandLine<Shell> {
  const parsed = parseByTable(argv, OPTIONS, true);
  if (!parsed.ok) return parsed;
  const { values, positionals } = parsed.value;
  if (values['help']) return { ok: true, value: 'help' };
  if (values['version']) return { ok: true, value: 'version' };
  if (positionals.length !== 1) return usageError(`takes one shell: ${SHELLS.join(', ')}`);
  const shell = positionals[0]!;
  return (SHELLS as readonly string[]).includes(shell) ? { ok: true, value: shell as Shell } : usageError(`knows ${SHELLS.join(', ')}, not "${shell}"`);
}

export function completionOf(shell: Shell): string {
  return completionScript(shell, completedCommands());
}
