import test from 'ava';
import { parseDurationMs, parseSize } from '../../src/config/parse-size.js';
import { resolveSources } from '../../src/config/sidecar-config.js';

const sizes: [string, number | undefined][] = [
  ['65536', 65536],
  ['64KiB', 65536],
  ['64k', 65536],
  ['1MiB', 1048576],
  ['1M', 1048576],
  ['1MB', 1000000],
  ['1.5MiB', 1572864],
  ['2 GiB', 2147483648],
  ['lots', undefined],
  ['-1', undefined],
  ['1XB', undefined],
];
for (const [text, expected] of sizes) {
  test(`size ${JSON.stringify(text)}`, (t) => {
    const parsed = parseSize(text);
    t.deepEqual(parsed.ok ? parsed.value : undefined, expected);
  });
}

const durations: [string, number | undefined][] = [
  ['5', 5000],
  ['0.5', 500],
  ['200ms', 200],
  ['2s', 2000],
  ['2m', 120000],
  ['1h', 3600000],
  ['1d', 86400000],
  ['24d', 2073600000],
  // Past what a timer can wait (2^31 - 1 ms): it would fire at once, again and again.
  ['25d', undefined],
  ['30d', undefined],
  ['2147483647ms', 2147483647],
  ['2147483648ms', undefined],
  ['soon', undefined],
];
for (const [text, expected] of durations) {
  test(`duration ${JSON.stringify(text)}`, (t) => {
    const parsed = parseDurationMs(text);
    t.deepEqual(parsed.ok ? parsed.value : undefined, expected);
  });
}

const pathOf = (env: NodeJS.ProcessEnv, flags: Parameters<typeof resolveSources>[1], type: string): string | undefined => {
  const resolved = resolveSources(env, flags);
  return resolved.ok ? resolved.value.files.find((f) => f.logType === type)?.path : resolved.error;
};

const precedence: { name: string; env: NodeJS.ProcessEnv; flags: Parameters<typeof resolveSources>[1]; expected: string }[] = [
  { name: 'default dir', env: {}, flags: {}, expected: '/var/log/mongodb-mms-automation/mongodb.log' },
  { name: 'MMS_LOG_DIR', env: { MMS_LOG_DIR: '/logs' }, flags: {}, expected: '/logs/mongodb.log' },
  { name: '--log-dir over MMS_LOG_DIR', env: { MMS_LOG_DIR: '/logs' }, flags: { logDir: '/flag' }, expected: '/flag/mongodb.log' },
  { name: 'the variable over --log-dir', env: { MDB_LOG_FILE_MONGODB: '/v/m.log' }, flags: { logDir: '/flag' }, expected: '/v/m.log' },
  { name: 'an empty variable is unset', env: { MDB_LOG_FILE_MONGODB: '' }, flags: { logDir: '/flag' }, expected: '/flag/mongodb.log' },
  // From a platform trial: a value pasted with a space before the path named a relative path.
  { name: 'spaces around a variable\'s value are taken off', env: { MDB_LOG_FILE_MONGODB: ' /v/m.log ' }, flags: { logDir: '/flag' }, expected: '/v/m.log' },
  { name: 'a variable of spaces alone is unset', env: { MDB_LOG_FILE_MONGODB: '  ' }, flags: { logDir: '/flag' }, expected: '/flag/mongodb.log' },
  { name: '--file over the variable', env: { MDB_LOG_FILE_MONGODB: '/v/m.log' }, flags: { files: ['mongodb=/f.log'] }, expected: '/f.log' },
  { name: 'a path with = in it', env: {}, flags: { files: ['mongodb=/a=b.log'] }, expected: '/a=b.log' },
];
for (const c of precedence) {
  test(`file path: ${c.name}`, (t) => {
    t.is(pathOf(c.env, c.flags, 'mongodb'), c.expected);
  });
}

test('every type gets a source; only the launcher file passes entries through', (t) => {
  const resolved = resolveSources({}, {});
  if (!resolved.ok) return t.fail(resolved.error);
  t.is(resolved.value.files.length, 8);
  t.deepEqual(resolved.value.files.filter((f) => f.passThroughEntries).map((f) => f.logType), ['agent-launcher-script']);
});

test('errors are values', (t) => {
  t.deepEqual(resolveSources({}, { files: ['bogus=/x'] }).ok, false);
  t.deepEqual(resolveSources({}, { files: ['=x'] }).ok, false);
  t.deepEqual(resolveSources({}, { stdinType: 'nope' }).ok, false);
  t.deepEqual(resolveSources({}, { stdinType: 'automation-agent-stdout' }).ok, true);
});
