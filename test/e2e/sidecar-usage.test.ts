import test from 'ava';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { SIDECAR_BIN, cleanEnv, tempDir } from '../_helpers/sidecar-process.js';
import { FILE_LOG_TYPES } from '../../src/log-types.js';

const run = (args: string[], env = cleanEnv()) =>
  spawnSync(process.execPath, [SIDECAR_BIN, ...args], { env, encoding: 'utf8', timeout: 10_000 });

const usageErrors: { name: string; args: string[]; says: RegExp }[] = [
  { name: 'an unknown flag', args: ['--bogus'], says: /Unknown option '--bogus'/ },
  { name: 'a flag without its value', args: ['--file'], says: /Option '--file <value>' argument missing/ },
  { name: 'an unknown type in --file', args: ['--file', 'nosuch=/tmp/x'], says: /unknown log type "nosuch"/ },
  { name: '--file without =', args: ['--file', 'mongodb'], says: /--file takes TYPE=PATH/ },
  { name: 'an unknown --stdin-type', args: ['--stdin-type', 'x'], says: /--stdin-type: unknown log type "x"/ },
  { name: 'a bad size', args: ['--max-line-bytes', 'lots'], says: /--max-line-bytes: "lots" is not a size/ },
  { name: 'a bad duration', args: ['--rotate-wait', 'soon'], says: /--rotate-wait: "soon" is not a duration/ },
  { name: 'a positional argument', args: ['mongodb.log'], says: /Unexpected argument 'mongodb.log'/ },
  { name: 'two --file for one type', args: ['--file', 'mongodb=/a.log', '--file', 'mongodb=/b.log'], says: /--file: mongodb is given twice \("\/a.log" and "\/b.log"\); one file per type/ },
  { name: 'one file for two types (another type\'s default path, or the same file spelt with ..)', args: ['--log-dir', '/logs', '--file', 'mongodb-audit=/logs/x/../mongodb.log'], says: /\/logs\/mongodb.log is followed as mongodb \(--log-dir\) and as mongodb-audit \(--file mongodb-audit=\/logs\/x\/..\/mongodb.log\): its lines would be sent twice; give each type its own file/ },
  {
    name: '--file for the agent\'s stdout, a stream',
    args: ['--file', 'automation-agent-stdout=/x.log'],
    says: /automation-agent-stdout is a stream \(the agent's stdout\), not a file: pipe it in .*--stdin-type automation-agent-stdout.*0<>PIPE/,
  },
  { name: 'a bad --stop-timeout', args: ['--stop-timeout', 'later'], says: /--stop-timeout: "later" is not a duration/ },
];

for (const { name, args, says } of usageErrors) {
  test(`usage error, ${name}: one JSON line on stderr (event usage, level error), naming --help; exit 2`, (t) => {
    const result = run(args);
    t.is(result.status, 2);
    t.is(result.stdout, '');
    t.is(result.stderr.trim().split('\n').length, 1);
    const line = JSON.parse(result.stderr) as { level: number; logType: string; event: string; msg: string };
    t.like(line, { level: 50, logType: 'logtype-sidecar', event: 'usage' });
    t.regex(line.msg, says);
    t.regex(line.msg, /\(see logtype-sidecar --help\)$/);
  });
}

test('--help names every variable and default, with examples', (t) => {
  const result = run(['--help']);
  t.is(result.status, 0);
  for (const type of FILE_LOG_TYPES) t.true(result.stdout.includes(type.envVar), type.envVar);
  t.true(result.stdout.includes('MMS_LOG_DIR'));
  t.true(result.stdout.includes('/var/log/mongodb-mms-automation'));
  t.regex(result.stdout, /Examples:/);
  t.regex(result.stdout, /--stop-timeout SECONDS .*\[default: 30\]/);
  t.regex(result.stdout, /SIGHUP/);
  t.regex(result.stdout, /3 +--once, and a followed file \(or its directory\) was not there/);
});

test('MDB_LOG_FILE_* variables name the files; --file overrides them', (t) => {
  const dir = tempDir('env');
  // Every file there (--once exits 3 when one is missing), only three with lines.
  for (const type of FILE_LOG_TYPES) fs.writeFileSync(path.join(dir, type.defaultFile), '');
  fs.writeFileSync(path.join(dir, 'custom-audit.json'), 'from variable\n');
  fs.writeFileSync(path.join(dir, 'override.log'), 'from flag\n');
  fs.writeFileSync(path.join(dir, 'mongodb.log'), 'from log dir\n');
  const env = cleanEnv({ MMS_LOG_DIR: dir, MDB_LOG_FILE_MONGODB_AUDIT: path.join(dir, 'custom-audit.json') });
  const result = run(['--once', '--file', `automation-agent=${path.join(dir, 'override.log')}`], env);
  t.is(result.status, 0);
  t.deepEqual(result.stdout.trim().split('\n').sort(), [
    '{"logType":"automation-agent","contents":"from flag"}',
    '{"logType":"mongodb","contents":"from log dir"}',
    '{"logType":"mongodb-audit","contents":"from variable"}',
  ]);
});

test('on a terminal, the sidecar writes DEL, C1 controls and bidirectional overrides as \\u escapes (the same JSON); into a pipe, the bytes jq writes', (t) => {
  const dir = tempDir('sidecar-terminal');
  const line = 'plain \u009b31mC1CSI \u007fDEL \u202eRLO \u2066LRI \u001b[2J é';
  fs.writeFileSync(path.join(dir, 'mongodb.log'), `${line}\n`);
  const args = [process.execPath, SIDECAR_BIN, '--once', '--log-dir', dir, '--state-file', ''];
  const quoted = args.map((a) => `'${a.replaceAll("'", "'\\''")}'`).join(' ');
  const terminal = spawnSync('script', ['-qec', `${quoted} 2>/dev/null`, '/dev/null'], { env: cleanEnv(), encoding: 'utf8', timeout: 20_000 });
  const shown = terminal.stdout.replaceAll('\r\n', '\n');
  t.is(shown, '{"logType":"mongodb","contents":"plain \\u009b31mC1CSI \\u007fDEL \\u202eRLO \\u2066LRI \\u001b[2J é"}\n');
  t.is((JSON.parse(shown) as { contents: string }).contents, line);
  const piped = run(['--once', '--log-dir', dir, '--state-file', '']);
  t.is(piped.stdout, `${JSON.stringify({ logType: 'mongodb', contents: line }).replace('\u001b', '\\u001b')}\n`);
});

// From a field trial: the same file reached by a second path (a symlink to it, a linked
// directory, a hard link) under another type was followed twice: each line sent under both types.
for (const kind of ['a symlink', 'a symlinked directory', 'a hard link'] as const) {
  test(`one file for two types through ${kind}: a usage error naming both paths; exit 2`, (t) => {
    const dir = tempDir('same-file');
    fs.mkdirSync(path.join(dir, 'logs'));
    fs.mkdirSync(path.join(dir, 'other'));
    const log = path.join(dir, 'logs', 'mongodb.log');
    fs.writeFileSync(log, '');
    let other = path.join(dir, 'other', 'audit.log');
    if (kind === 'a symlink') fs.symlinkSync(log, other);
    else if (kind === 'a hard link') fs.linkSync(log, other);
    else {
      fs.symlinkSync(path.join(dir, 'logs'), path.join(dir, 'other', 'linked'));
      other = path.join(dir, 'other', 'linked', 'mongodb.log');
    }
    const result = run(['--log-dir', path.join(dir, 'logs'), '--file', `mongodb-audit=${other}`]);
    t.is(result.status, 2);
    t.is(result.stdout, '');
    const line = JSON.parse(result.stderr) as { event: string; msg: string };
    t.is(line.event, 'usage');
    t.true(line.msg.startsWith(`${log} (mongodb) and ${other} (mongodb-audit) are one file`), line.msg);
  });
}

// From the review: two paths linked to one special file (/dev/null) are no file followed twice:
// each is waited on for a readable file, as before.
test('two types whose paths are links to one special file (/dev/null): not refused', async (t) => {
  const dir = tempDir('same-special');
  for (const name of ['a.log', 'b.log']) fs.symlinkSync('/dev/null', path.join(dir, name));
  const result = spawnSync(process.execPath, [SIDECAR_BIN, '--log-dir', dir, '--file', `mongodb=${path.join(dir, 'a.log')}`, '--file', `mongodb-audit=${path.join(dir, 'b.log')}`, '--once'], { env: cleanEnv(), encoding: 'utf8', timeout: 10_000 });
  t.not(result.status, 2);
  t.false(result.stderr.includes('"event":"usage"'), result.stderr);
});
