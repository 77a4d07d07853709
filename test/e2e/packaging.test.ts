/**
 * The image, as far as it can be tested without a container runtime: the Dockerfile's stages
 * read as text, and its runtime layout made the way its stages make it (`npm pack`, then
 * `npm install --global --omit=dev --prefix`), with both commands then run from that prefix as
 * a non-root user (uid 2000, the database pod's, through setpriv when the tests run as root).
 */
import test from 'ava';
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { REPO, tempDir } from '../_helpers/sidecar-process.js';
import { findTool, mustHaveTools } from '../_helpers/system-tool.js';

const dockerfile = fs.readFileSync(path.join(REPO, 'Dockerfile'), 'utf8');
/** Instructions with their continuation lines joined, comments dropped. */
const instructions = dockerfile
  .replace(/\\\n/g, ' ')
  .split('\n')
  .map((line) => line.trim())
  .filter((line) => line && !line.startsWith('#'));
const stages = instructions.reduce<string[][]>((all, line) => {
  if (line.startsWith('FROM ')) all.push([]);
  all.at(-1)?.push(line);
  return all;
}, []);
const runtime = stages.at(-1)!;
const packageJson = JSON.parse(fs.readFileSync(path.join(REPO, 'package.json'), 'utf8')) as {
  version: string;
  license: string;
  bin: Record<string, string>;
  scripts: Record<string, string>;
};
/** The uid of the operator's database pods (and of its own database images). */
const POD_UID = 2000;
const PREFIX = '/opt/logtype';

function argDefault(name: string): string | undefined {
  return new RegExp(`^ARG ${name}=(\\S+)$`, 'm').exec(dockerfile)?.[1];
}

test('npm pack builds what it ships without source maps (tsconfig.build.json): no shipped file points at a map it leaves out', (t) => {
  // A new user's trial: 174 shipped files named a .js.map the package does not hold.
  t.is(packageJson.scripts.prepack, 'tsc -p tsconfig.build.json');
  const out = tempDir('build-no-maps');
  execFileSync(process.execPath, [path.join(REPO, 'node_modules/typescript/bin/tsc'), '-p', path.join(REPO, 'tsconfig.build.json'), '--outDir', out, '--tsBuildInfoFile', path.join(out, '.tsbuildinfo')], { cwd: REPO, stdio: 'ignore' });
  const js = fs.readdirSync(out, { recursive: true, encoding: 'utf8' }).filter((name) => name.endsWith('.js'));
  t.true(js.length > 50, `${js.length} files built`);
  t.deepEqual(js.filter((name) => fs.readFileSync(path.join(out, name), 'utf8').includes('sourceMappingURL')), []);
});

test('Dockerfile: every stage on Node 24 LTS on Debian 13 (trixie) slim', (t) => {
  t.is(argDefault('NODE_IMAGE'), 'node:24-trixie-slim');
  t.true(stages.length >= 3, `${stages.length} stages`);
  for (const stage of stages) t.regex(stage[0]!, /^FROM \$\{NODE_IMAGE\}( AS \w+)?$/);
});

test('Dockerfile: compiled and packed in one stage, installed with production dependencies only in another', (t) => {
  const [build, install] = stages;
  t.true(build!.some((line) => line.includes('npx tsc -p tsconfig.build.json') && line.includes('npm pack')));
  t.true(install!.some((line) => new RegExp(`npm install --global --omit=dev .*--prefix ${PREFIX} /pack/logtype-\\*\\.tgz`).test(line)));
});

test('Dockerfile: the runtime stage has no package manager, both commands on PATH, the licence and OCI labels', (t) => {
  const removal = runtime.find((line) => line.startsWith('RUN rm '));
  t.truthy(removal);
  for (const tool of ['/usr/local/lib/node_modules/npm', '/usr/local/lib/node_modules/corepack', '/usr/local/bin/npm', '/usr/local/bin/npx', '/usr/local/bin/corepack', '/usr/local/bin/yarn']) {
    t.true(removal!.includes(tool), tool);
  }
  t.false(runtime.some((line) => /^RUN .*\b(npm|npx|corepack|yarn) /.test(line.replace(removal!, ''))), 'no package manager runs after it is removed');
  t.true(runtime.includes(`COPY --from=install ${PREFIX} ${PREFIX}`));
  t.regex(runtime.find((line) => line.startsWith('ENV '))!, new RegExp(`PATH=${PREFIX}/bin:\\$PATH`));
  t.true(runtime.includes('COPY --chmod=0755 sidecar/logtype-pod.sh /usr/local/bin/logtype-pod'));
  t.true(runtime.some((line) => /^COPY LICENSE \S+/.test(line)));
  const labels = runtime.find((line) => line.startsWith('LABEL '))!;
  t.regex(labels, /org\.opencontainers\.image\.title="logtype"/);
  t.regex(labels, new RegExp(`org\\.opencontainers\\.image\\.licenses="${packageJson.license}"`));
  t.regex(labels, /org\.opencontainers\.image\.version="\$\{VERSION\}"/);
  t.is(argDefault('VERSION'), packageJson.version, 'the image version is the package version');
  t.deepEqual(JSON.parse(runtime.at(-1)!.replace(/^ENTRYPOINT /, '')), ['logtype-sidecar']);
});

test('Dockerfile: one malloc arena for every process of the image (a 100 MB line peaks about 3 MB lower)', (t) => {
  const env = runtime.find((line) => line.startsWith('ENV '))!;
  t.regex(env, /\bMALLOC_ARENA_MAX=1\b/);
});

test('Dockerfile: runs as the database pod\'s uid, numeric, so it matches the pod and runAsNonRoot can check it', (t) => {
  const users = runtime.filter((line) => line.startsWith('USER '));
  t.deepEqual(users, [`USER ${POD_UID}:${POD_UID}`]);
});

test('.dockerignore lets in what the Dockerfile copies from the context, and no tests, benches, samples or builds', (t) => {
  const ignore = fs.readFileSync(path.join(REPO, '.dockerignore'), 'utf8');
  t.regex(ignore, /^\*$/m);
  const allowed = ignore.split('\n').filter((l) => l.startsWith('!')).map((l) => l.slice(1).replace(/\/$/, ''));
  const copied = instructions
    .filter((line) => line.startsWith('COPY ') && !line.includes('--from='))
    .flatMap((line) => line.replace(/^COPY (--\S+ )*/, '').split(/\s+/).slice(0, -1));
  for (const source of copied) t.true(allowed.includes(source.replace(/\/$/, '')), `${source} is copied but ignored`);
  for (const kept of ['test', 'bench', 'samples', 'node_modules', 'dist']) t.false(allowed.includes(kept), kept);
  for (const source of copied) t.true(fs.existsSync(path.join(REPO, source)), `${source} is not in the repository`);
});

test('CI tests on the Node major the image runs on', (t) => {
  const ciMajor = /node@(\d+)/.exec(packageJson.scripts['test:node24'] ?? '')?.[1];
  t.truthy(ciMajor);
  t.is(ciMajor, /^node:(\d+)-/.exec(argDefault('NODE_IMAGE') ?? '')?.[1]);
  t.regex(fs.readFileSync(path.join(REPO, '.ci/run'), 'utf8'), /npm run test:node24/);
});

/** Runs a command as uid 2000 when the tests run as root (setpriv), else as the current non-root user. */
function asNonRoot(command: string, args: readonly string[], options: { env: NodeJS.ProcessEnv; input?: string }): ReturnType<typeof spawnSync> {
  if (process.getuid?.() !== 0) return spawnSync(command, args, { ...options, encoding: 'utf8' });
  const setpriv = findTool({ command: 'setpriv', debianPackage: 'util-linux' })!;
  return spawnSync(setpriv, [`--reuid=${POD_UID}`, `--regid=${POD_UID}`, '--clear-groups', '--', command, ...args], { ...options, encoding: 'utf8' });
}

const canRunAsNonRoot = process.getuid?.() !== 0 || findTool({ command: 'setpriv', debianPackage: 'util-linux' }) !== undefined;
const layoutTest = canRunAsNonRoot || mustHaveTools() ? test : test.skip;

layoutTest('the runtime layout from npm pack and a global --omit=dev install; both commands run from it as a non-root user', (t) => {
  t.true(canRunAsNonRoot, 'running as root without setpriv: apt-get install util-linux');
  const dir = tempDir('image');
  fs.chmodSync(dir, 0o755);
  const packed = JSON.parse(
    execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', dir], { cwd: REPO, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }),
  ) as { filename: string; files: { path: string }[] }[];
  const files = packed[0]!.files.map((f) => f.path);
  for (const shipped of ['LICENSE', 'README.md', 'package.json', 'dist/src/index.js', ...Object.values(packageJson.bin)]) t.true(files.includes(shipped), shipped);
  t.false(files.some((f) => /^(test|bench|samples|dist\/test|dist\/bench|src)\//.test(f) || f.endsWith('.map')), files.join(' '));
  // The README's links lead somewhere in the package too (docs, the deployment's manifests), not only in a clone.
  const readme = fs.readFileSync(path.join(REPO, 'README.md'), 'utf8');
  for (const [, target] of readme.matchAll(/\]\(([^)#:]+)(?:#[^)]*)?\)/g)) t.true(files.includes(target!), `README links to ${target}, which the package does not ship`);

  // The install stage: the same command, into a prefix standing for /opt/logtype.
  const prefix = path.join(dir, 'opt-logtype');
  execFileSync('npm', ['install', '--global', '--omit=dev', '--no-audit', '--no-fund', '--prefer-offline', '--prefix', prefix, path.join(dir, packed[0]!.filename)], {
    stdio: 'ignore',
  });
  const installed = path.join(prefix, 'lib/node_modules/logtype');
  for (const [command, target] of Object.entries(packageJson.bin)) {
    const link = path.join(prefix, 'bin', command);
    t.is(fs.realpathSync(link), path.join(installed, target), `${command} on PATH`);
  }
  t.true(fs.existsSync(path.join(installed, 'LICENSE')));
  t.false(fs.existsSync(path.join(installed, 'node_modules')), 'no dependencies installed: none are production ones');

  // The runtime: PATH as the image sets it, no npm on it, as the pod's uid.
  // The image's node is /usr/local/bin/node, which every user may run. The test's node may
  // live where uid 2000 cannot reach it (CI's Node 24 comes from npx, under /root): the
  // runtime gets its own link to it, or a copy across file systems.
  const runtimeNode = path.join(dir, 'node-bin', 'node');
  fs.mkdirSync(path.dirname(runtimeNode), { mode: 0o755 });
  try {
    fs.linkSync(process.execPath, runtimeNode);
  } catch {
    fs.copyFileSync(process.execPath, runtimeNode);
    fs.chmodSync(runtimeNode, 0o755);
  }
  const env = { PATH: `${path.join(prefix, 'bin')}${path.delimiter}${path.dirname(runtimeNode)}`, NODE_ENV: 'production' };
  const sidecar = asNonRoot('logtype-sidecar', ['--once', '--log-dir', path.join(REPO, 'samples')], { env });
  t.is(sidecar.status, 0, String(sidecar.stderr));
  const lines = String(sidecar.stdout).trim().split('\n');
  t.true(lines.length > 100);
  t.true(lines.every((line) => typeof (JSON.parse(line) as { logType: unknown }).logType === 'string'));
  const filter = asNonRoot('logtype', ['-t', 'mongodb-audit', '--summary'], { env, input: String(sidecar.stdout) });
  t.is(filter.status, 0, String(filter.stderr));
  t.regex(String(filter.stderr), /mongodb-audit +\d+/);
  const whoami = asNonRoot(runtimeNode, ['-e', 'process.stdout.write(String(process.getuid()))'], { env });
  t.not(String(whoami.stdout), '0');
});
