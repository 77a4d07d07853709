import test from 'ava';
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { FILTER_BIN, REPO, SIDECAR_BIN, cleanEnv } from '../_helpers/sidecar-process.js';

const { version, license, files } = JSON.parse(fs.readFileSync(path.join(REPO, 'package.json'), 'utf8')) as {
  version: string;
  license: string;
  files: string[];
};

const commands: [string, string, string[]][] = [
  ['logtype-sidecar', SIDECAR_BIN, ['--version']],
  ['logtype', FILTER_BIN, ['--version']],
  ['logtype summary', FILTER_BIN, ['summary', '--version']],
  ['logtype doctor', FILTER_BIN, ['doctor', '--version']],
];

for (const [name, bin, args] of commands) {
  test(`${name} --version prints the package's version and exits 0`, (t) => {
    const result = spawnSync(process.execPath, [bin, ...args], { env: cleanEnv(), encoding: 'utf8', timeout: 10_000 });
    t.is(result.status, 0, result.stderr);
    t.is(result.stdout, `${version}\n`);
    t.is(result.stderr, '');
  });
}

test('--version is listed in every --help', (t) => {
  for (const [name, bin, args] of commands) {
    const help = spawnSync(process.execPath, [bin, ...args.slice(0, -1), '--help'], { env: cleanEnv(), encoding: 'utf8' }).stdout;
    t.regex(help, /--version +Print logtype's version and exit/, name);
  }
});

test('the licence the package names is the file it ships', (t) => {
  t.is(license, 'Apache-2.0');
  const text = fs.readFileSync(path.join(REPO, 'LICENSE'), 'utf8');
  t.regex(text, /^\s*Apache License\n +Version 2\.0, January 2004\n/);
  t.regex(text, /END OF TERMS AND CONDITIONS/);
  t.true(files.includes('LICENSE'));
  const packed = JSON.parse(
    execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: REPO, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }),
  ) as { files: { path: string }[] }[];
  t.true(packed[0]!.files.some((f) => f.path === 'LICENSE'));
});
