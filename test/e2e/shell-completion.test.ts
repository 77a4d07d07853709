/**
 * `logtype completion bash|zsh|fish`: each script run through its own shell, completing real
 * command lines (bash's completion function called as bash calls it, zsh's through a real
 * interactive zsh on a pseudo-terminal, fish's `complete -C`), and written from the tables:
 * every flag of every command is in each script.
 */
import test from 'ava';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { completedCommands } from '../../src/cli/completion-command.js';
import { BASH, FISH, ZSH, testWithTool } from '../_helpers/system-tool.js';
import { FILTER_BIN, cleanEnv, tempDir } from '../_helpers/sidecar-process.js';
import { runFilter } from '../_helpers/filter-process.js';

const script = (shell: string): string => {
  const result = runFilter(['completion', shell]);
  if (result.status !== 0) throw new Error(result.stderr);
  return result.stdout;
};

/** A directory to complete in: two files and a directory. */
function workDir(shell: string): string {
  const dir = tempDir(`completion-${shell}`);
  fs.writeFileSync(path.join(dir, 'pod.log'), '');
  fs.writeFileSync(path.join(dir, 'pod.html'), '');
  fs.mkdirSync(path.join(dir, 'logs'));
  return dir;
}

/** Command lines and what completes them (sorted), the same in every shell (a directory's slash aside: each shell adds it its own way). */
const CASES: { line: string; expected: string[] }[] = [
  { line: 'logtype --lev', expected: ['--level'] },
  { line: 'logtype -l ', expected: ['D1', 'D2', 'D3', 'D4', 'D5', 'debug', 'error', 'fatal', 'info', 'warn'] },
  { line: 'logtype -o p', expected: ['pretty'] },
  { line: 'logtype -t au', expected: ['audit', 'automation-agent', 'automation-agent-stderr', 'automation-agent-stdout', 'automation-agent-verbose'] },
  { line: 'logtype --max-c', expected: ['--max-count'] },
  { line: 'logtype su', expected: ['summary'] },
  { line: 'logtype po', expected: ['pod.html', 'pod.log'] },
  { line: 'logtype summary --ht', expected: ['--html'] },
  { line: 'logtype doctor --js', expected: ['--json'] },
  { line: 'logtype completion f', expected: ['fish'] },
  { line: 'logtype-sidecar --stats', expected: ['--stats-interval'] },
  { line: 'logtype-sidecar --log-dir lo', expected: ['logs'] },
];

test('each script names every flag of every command (written from the option tables)', (t) => {
  for (const shell of ['bash', 'zsh', 'fish']) {
    const text = script(shell);
    for (const command of completedCommands()) {
      for (const [name, spec] of Object.entries(command.options)) {
        t.true(text.includes(shell === 'fish' ? `-l ${name}` : `--${name}`), `${shell}: ${command.words.join(' ')} --${name}`);
        if (spec.short) t.true(text.includes(shell === 'fish' ? `-s ${spec.short}` : `-${spec.short}`), `${shell}: -${spec.short}`);
      }
    }
  }
});

test('logtype completion: one shell it knows, else a usage error', (t) => {
  const none = runFilter(['completion']);
  t.is(none.status, 2);
  t.is(none.stderr, 'logtype completion: takes one shell: bash, zsh, fish (see logtype completion --help)\n');
  const tcsh = runFilter(['completion', 'tcsh']);
  t.is(tcsh.status, 2);
  t.is(tcsh.stderr, 'logtype completion: knows bash, zsh, fish, not "tcsh" (see logtype completion --help)\n');
  t.regex(runFilter(['completion', '--help']).stdout, /^logtype completion bash\|zsh\|fish\n/);
});

testWithTool(BASH, 'bash: the script completes flags, values, commands and files', (t, bash) => {
  const dir = workDir('bash');
  fs.writeFileSync(path.join(dir, 'logtype.bash'), script('bash'));
  // As bash calls a completion function: the words, the index of the one completed.
  const driver = [
    'source ./logtype.bash',
    'complete -p logtype logtype-sidecar',
    'comp() { read -ra COMP_WORDS <<< "$1"; [[ $1 == *" " ]] && COMP_WORDS+=(""); COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 )); COMPREPLY=(); _logtype_complete; printf "%s\\n" "${COMPREPLY[@]}" | sort | paste -sd " "; }',
    ...CASES.map(({ line }) => `comp ${JSON.stringify(line)}`),
    // --flag=value: bash splits the word at =.
    'COMP_WORDS=(logtype --output = j); COMP_CWORD=3; _logtype_complete; echo "${COMPREPLY[@]}"',
    // A file name with a space is one match.
    'COMP_WORDS=(logtype my); COMP_CWORD=1; _logtype_complete; echo "${#COMPREPLY[@]}:${COMPREPLY[0]}"',
  ].join('\n');
  fs.writeFileSync(path.join(dir, 'my pod.log'), '');
  const result = spawnSync(bash, ['--norc', '--noprofile', '-c', driver], { cwd: dir, encoding: 'utf8', env: cleanEnv() });
  t.is(result.status, 0, result.stderr);
  t.is(result.stderr, '');
  const out = result.stdout.split('\n');
  t.is(out[0], 'complete -F _logtype_complete logtype');
  t.is(out[1], 'complete -F _logtype_complete logtype-sidecar');
  t.deepEqual(out.slice(2, 2 + CASES.length), CASES.map(({ expected }) => expected.join(' ')));
  t.is(out[2 + CASES.length], 'json');
  t.is(out[3 + CASES.length], '1:my pod.log');
});

testWithTool(FISH, 'fish: the script completes flags, values, commands and files', (t, fish) => {
  const dir = workDir('fish');
  fs.writeFileSync(path.join(dir, 'logtype.fish'), script('fish'));
  for (const { line, expected } of CASES) {
    const result = spawnSync(fish, ['--no-config', '-c', `source ./logtype.fish; complete -C ${JSON.stringify(line)}`], { cwd: dir, encoding: 'utf8', env: cleanEnv() });
    t.is(result.status, 0, result.stderr);
    t.is(result.stderr, '', line);
    // Each completion, its description after a tab (fish shows it beside).
    t.deepEqual(result.stdout.split('\n').filter(Boolean).map((completion) => completion.split('\t')[0]!.replace(/\/$/, '')).sort(), expected, line);
  }
});

/**
 * A real interactive zsh on a pseudo-terminal (zsh/zpty) with compinit and the script loaded:
 * each line typed and TAB pressed, every match zsh's completion adds written to OUT.N; then the
 * line killed and a command run that writes OUT.N.done, which zsh runs only once the completion
 * is over (input is read in order): no fixed sleep. The first line waits for the shell to be
 * ready (typed ahead of its line editor, it is lost).
 */
const ZSH_DRIVER = `
zmodload zsh/zpty || exit 3
script=$1 out=$2; shift 2
zpty z zsh -f -i
zpty -w z "autoload -Uz compinit && compinit -u -D"
zpty -w z "source \${(q)script}"
zpty -w z "compadd() { if (( \\$@[(I)-[OAD]] )); then builtin compadd \\"\\$@\\"; return; fi; local -a __hits; builtin compadd -O __hits \\"\\$@\\"; print -rl -- \\$__hits >> \\$__out; builtin compadd \\"\\$@\\"; }"
zpty -w z "print -r ready > \${(q)out}.ready"
for i in {1..400}; do [[ -s $out.ready ]] && break; sleep 0.05; done
[[ -s $out.ready ]] || { print -r -- "zsh never became ready" >&2; exit 5 }
integer n=0
for line in "$@"; do
  (( n++ ))
  : > $out.$n
  zpty -w z "__out=\${(q)out}.$n"
  zpty -w -n z "$line"$'\\t'
  zpty -w z $'\\C-u'"print -r done > \${(q)out}.$n.done"
  for i in {1..400}; do [[ -s $out.$n.done ]] && break; sleep 0.05; done
  [[ -s $out.$n.done ]] || { print -r -- "no answer to: $line" >&2; exit 4 }
done
zpty -d z
`;

testWithTool(ZSH, 'zsh: the script completes flags, values, commands and files (typed into a real zsh)', (t, zsh) => {
  const dir = workDir('zsh');
  fs.writeFileSync(path.join(dir, '_logtype'), script('zsh'));
  fs.writeFileSync(path.join(dir, 'driver.zsh'), ZSH_DRIVER);
  const syntax = spawnSync(zsh, ['-n', '_logtype'], { cwd: dir, encoding: 'utf8' });
  t.is(syntax.status, 0, syntax.stderr);
  const out = path.join(dir, 'out');
  // Commands on PATH by these names, as installed: zsh completes only commands it can find.
  const result = spawnSync(zsh, ['-f', 'driver.zsh', path.join(dir, '_logtype'), out, ...CASES.map(({ line }) => line)], {
    cwd: dir,
    encoding: 'utf8',
    env: cleanEnv({ PATH: `${binDir()}:${process.env['PATH'] ?? ''}` }),
    timeout: 60_000,
  });
  t.is(result.status, 0, result.stderr);
  CASES.forEach(({ line, expected }, i) => {
    const matches = [...new Set(fs.readFileSync(`${out}.${i + 1}`, 'utf8').split('\n').filter(Boolean))].sort();
    t.deepEqual(matches, expected, line);
  });
});

/** A directory with `logtype` and `logtype-sidecar` on it, for shells that complete only known commands. */
function binDir(): string {
  const dir = tempDir('completion-bin');
  for (const name of ['logtype', 'logtype-sidecar']) {
    const file = path.join(dir, name);
    fs.writeFileSync(file, `#!/bin/sh\nexec "${process.execPath}" "${FILTER_BIN}" "$@"\n`);
    fs.chmodSync(file, 0o755);
  }
  return dir;
}
