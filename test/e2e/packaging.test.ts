import test from 'ava';
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { REPO, cleanEnv, tempDir } from '../_helpers/sidecar-process.js';

const dockerfile = fs.readFileSync(path.join(REPO, 'Dockerfile'), 'utf8');
const instructions = dockerfile
  .split('\n')
  .filter((line) => line.trim() && !line.trim().startsWith('#'))
  .map((line) => line.trim());
const stages = instructions.reduce<string[][]>((all, line) => {
  if (line.startsWith('FROM ')) all.push([]);
  all.at(-1)?.push(line);
  return all;
}, []);
const ENTRYPOINT = ['node', '/app/dist/bin/logtype-sidecar.js'];

test('Dockerfile: build, production dependencies and runtime stages on a supported Node', (t) => {
  t.true(stages.length >= 3, `${stages.length} stages`);
  for (const stage of stages) t.regex(stage[0]!, /^FROM node:24-/);
  t.true(stages[0]!.some((line) => /npx tsc -p tsconfig.build.json/.test(line)));
  // npm ci makes no node_modules when there is no production dependency: the copy needs one.
  t.true(stages[1]!.some((line) => /npm ci --omit=dev .*&& mkdir -p node_modules/.test(line)));
});

test('Dockerfile: the runtime stage has no dev dependencies, runs as non-root, and starts the sidecar', (t) => {
  const runtime = stages.at(-1)!;
  t.true(runtime.includes('COPY --from=production-deps /deps/node_modules ./node_modules'));
  t.false(runtime.some((line) => /--from=build \S*node_modules/.test(line)), 'dev dependencies copied from the build stage');
  t.false(runtime.some((line) => /npm (ci|install)(?!.*--omit=dev)/.test(line)));
  const user = runtime.find((line) => line.startsWith('USER '));
  t.truthy(user);
  t.notRegex(user!, /USER (0|root)\b/);
  t.is(runtime.at(-1), `ENTRYPOINT ${JSON.stringify(ENTRYPOINT).replaceAll(',', ', ')}`);
});

test('CI tests on the Node major the image runs on', (t) => {
  const scripts = (JSON.parse(fs.readFileSync(path.join(REPO, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
  const ciMajor = /node@(\d+)/.exec(scripts['test:node24'] ?? '')?.[1];
  const imageMajor = /^FROM node:(\d+)-/m.exec(dockerfile)?.[1];
  t.truthy(ciMajor);
  t.is(ciMajor, imageMajor);
  t.regex(fs.readFileSync(path.join(REPO, '.ci/run'), 'utf8'), /npm run test:node24/);
});

test('.dockerignore keeps tests, benches and samples out of the build', (t) => {
  const ignore = fs.readFileSync(path.join(REPO, '.dockerignore'), 'utf8');
  t.regex(ignore, /^\*$/m);
  for (const kept of ['test/', 'bench/', 'samples/', 'node_modules']) t.false(ignore.includes(`!${kept}`), kept);
});

test('the image command runs from a clean npm pack install', (t) => {
  const dir = tempDir('pack');
  const packed = JSON.parse(
    execFileSync('npm', ['pack', '--json', '--pack-destination', dir], { cwd: REPO, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }),
  ) as { filename: string; files: { path: string }[] }[];
  const files = packed[0]!.files.map((f) => f.path);
  t.true(files.includes('dist/bin/logtype-sidecar.js') && files.includes('dist/src/index.js'));
  t.false(files.some((f) => /^(test|bench|samples|dist\/test|dist\/bench|src)\//.test(f)), files.join(' '));
  const app = path.join(dir, 'app');
  fs.mkdirSync(app);
  execFileSync('npm', ['install', '--omit=dev', '--no-audit', '--no-fund', '--prefer-offline', path.join(dir, packed[0]!.filename)], {
    cwd: app,
    stdio: 'ignore',
  });
  // The image runs ENTRYPOINT from /app; here /app is this install.
  const bin = path.join(app, 'node_modules/logtype', ENTRYPOINT[1]!.replace('/app/', ''));
  const run = spawnSync(process.execPath, [bin, '--once', '--log-dir', path.join(REPO, 'samples')], { env: cleanEnv(), encoding: 'utf8' });
  t.is(run.status, 0, run.stderr);
  const lines = run.stdout.trim().split('\n');
  t.true(lines.length > 100);
  t.true(lines.every((line) => typeof (JSON.parse(line) as { logType: unknown }).logType === 'string'));
  const filter = spawnSync(process.execPath, [path.join(app, 'node_modules/logtype/dist/bin/logtype.js'), '-t', 'mongodb-audit', '--summary'], {
    input: run.stdout,
    encoding: 'utf8',
  });
  t.is(filter.status, 0);
  t.regex(filter.stderr, /mongodb-audit +\d+/);
});

const manifests = fs.readdirSync(path.join(REPO, 'sidecar')).filter((f) => f.endsWith('.yaml'));

for (const file of manifests) {
  test(`sidecar/${file} parses as YAML`, (t) => {
    t.notThrows(() => parse(fs.readFileSync(path.join(REPO, 'sidecar', file), 'utf8')));
  });
}

test('the pod template runs the sidecar beside the database on the log volume, bounded and probed', (t) => {
  const resource = parse(fs.readFileSync(path.join(REPO, 'sidecar/mongodb-with-logtype.yaml'), 'utf8')) as {
    spec: { additionalMongodConfig: { auditLog: Record<string, string> }; podSpec: { podTemplate: { spec: { containers: Record<string, unknown>[] } } } };
  };
  const container = resource.spec.podSpec.podTemplate.spec.containers.find((c) => c['name'] === 'logtype') as {
    volumeMounts: { mountPath: string }[];
    resources: { limits: { memory: string } };
    livenessProbe: unknown;
    args: string[];
    securityContext: { readOnlyRootFilesystem: boolean; runAsNonRoot: boolean };
  };
  t.truthy(container);
  t.true(container.volumeMounts.some((m) => m.mountPath === '/var/log/mongodb-mms-automation'));
  t.truthy(container.resources.limits.memory);
  t.truthy(container.livenessProbe);
  t.true(container.args.some((a) => a.startsWith('--heartbeat-file=')));
  t.true(container.securityContext.readOnlyRootFilesystem && container.securityContext.runAsNonRoot);
  t.deepEqual(resource.spec.additionalMongodConfig.auditLog, {
    destination: 'file',
    format: 'JSON',
    path: '/var/log/mongodb-mms-automation/mongodb-audit.log',
  });
});

test('the launcher change is valid bash', (t) => {
  const check = spawnSync('bash', ['-n', path.join(REPO, 'sidecar/agent-launcher-logtype.sh')], { encoding: 'utf8' });
  t.is(check.status, 0, check.stderr);
});
