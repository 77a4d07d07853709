import test from 'ava';
import { parseLinePrefix } from '../../src/read/line-prefix.js';
import { typeMatcher } from '../../src/select/type-matcher.js';
import { escapeTerminal, isTerminalSafe } from '../../src/render/escape-terminal.js';
import { colorEnabled } from '../../src/render/colors.js';
import { unescapeJsonBytes } from '../../src/kernels/unescape-json.js';
import { literalTerminalSafe, unescapeLiteralToString } from '../../src/kernels/json-kernels.js';
import { formatTime } from '../../src/render/format-time.js';

const prefixes: { name: string; head: string; expected: ReturnType<typeof parseLinePrefix> }[] = [
  { name: 'no prefix', head: '{"logType":"x"}', expected: { length: 0, text: '' } },
  {
    name: 'kubectl --timestamps',
    head: '2026-11-22T10:00:00.123456789Z {"logType"',
    expected: { length: 31, text: '2026-11-22T10:00:00.123456789Z ', time: '2026-11-22T10:00:00.123456789Z' },
  },
  {
    name: 'kubectl --prefix',
    head: '[pod/db-0/mongodb-agent] {"logType"',
    expected: { length: 25, text: '[pod/db-0/mongodb-agent] ', source: 'pod/db-0/mongodb-agent' },
  },
  {
    name: 'kubectl --prefix --timestamps',
    head: '[pod/db-0/c] 2026-11-22T10:00:00+01:00 {"l',
    expected: { length: 39, text: '[pod/db-0/c] 2026-11-22T10:00:00+01:00 ', source: 'pod/db-0/c', time: '2026-11-22T10:00:00+01:00' },
  },
  { name: 'stern', head: 'db-0 mongodb-agent {"logType"', expected: { length: 19, text: 'db-0 mongodb-agent ', source: 'db-0 mongodb-agent' } },
  {
    name: 'stern, coloured',
    head: '\u001b[32mdb-0\u001b[0m \u001b[36magent\u001b[0m {"logType"',
    expected: { length: 29, text: '\u001b[32mdb-0\u001b[0m \u001b[36magent\u001b[0m ', source: 'db-0 agent' },
  },
  {
    name: 'stern --timestamps',
    head: 'my-rs-0 db 2026-11-22T10:00:00.123456789Z {"logType"',
    expected: { length: 42, text: 'my-rs-0 db 2026-11-22T10:00:00.123456789Z ', source: 'my-rs-0 db', time: '2026-11-22T10:00:00.123456789Z' },
  },
  {
    name: 'stern --timestamps --timezone',
    head: 'my-rs-0 db 2026-11-22T19:00:00.000000000+09:00 {"logType"',
    expected: { length: 47, text: 'my-rs-0 db 2026-11-22T19:00:00.000000000+09:00 ', source: 'my-rs-0 db', time: '2026-11-22T19:00:00.000000000+09:00' },
  },
  {
    name: 'stern --timestamps=short: kept as text, no year to make a time of',
    head: 'my-rs-0 db 11-22 10:00:00 {"logType"',
    expected: { length: 26, text: 'my-rs-0 db 11-22 10:00:00 ', source: 'my-rs-0 db' },
  },
  {
    name: 'stern --all-namespaces, coloured, --timestamps',
    head: '\u001b[32mmongodb\u001b[0m \u001b[32mmy-rs-0\u001b[0m \u001b[36mdb\u001b[0m 2026-11-22T10:00:00Z {"logType"',
    expected: {
      length: 67,
      text: '\u001b[32mmongodb\u001b[0m \u001b[32mmy-rs-0\u001b[0m \u001b[36mdb\u001b[0m 2026-11-22T10:00:00Z ',
      source: 'mongodb my-rs-0 db',
      time: '2026-11-22T10:00:00Z',
    },
  },
  {
    name: "logcli's default output: the time and the labels, the pod label its source",
    head: '2026-11-27T10:15:37.3+00:00 {job="logtype", logType="mongodb", pod="my-replica-set-0"} {"logType"',
    expected: { length: 87, text: '2026-11-27T10:15:37.3+00:00 {job="logtype", logType="mongodb", pod="my-replica-set-0"} ', time: '2026-11-27T10:15:37.3+00:00', source: 'my-replica-set-0' },
  },
  {
    name: 'logcli without a pod label',
    head: '2026-11-27T10:15:37.3Z {job="logtype"} {"logType"',
    expected: { length: 39, text: '2026-11-27T10:15:37.3Z {job="logtype"} ', time: '2026-11-27T10:15:37.3Z' },
  },
  {
    name: 'logcli pads shorter label sets to the longest',
    head: '2026-11-27T10:15:37+00:00 {logType="mongodb"}                  {"logType"',
    expected: { length: 63, text: '2026-11-27T10:15:37+00:00 {logType="mongodb"}                  ', time: '2026-11-27T10:15:37+00:00' },
  },
  { name: 'logcli with one stream: no label of its own, {}', head: '2026-11-27T10:15:39Z {} {"logType"', expected: { length: 24, text: '2026-11-27T10:15:39Z {} ', time: '2026-11-27T10:15:39Z' } },
  { name: 'a time, then an object of its own: no labels', head: '2026-11-27T10:15:37.3Z {"logType"', expected: { length: 23, text: '2026-11-27T10:15:37.3Z ', time: '2026-11-27T10:15:37.3Z' } },
  { name: 'four words are no stern prefix', head: 'a b c d {"logType"', expected: undefined },
  { name: 'one word is none either', head: 'word {"logType"', expected: undefined },
  { name: 'plain text', head: 'Skipping creating symlinks because this is not Static Containers', expected: undefined },
  { name: 'a time, then text', head: '2026-11-22T10:00:00Z starting', expected: undefined },
  { name: 'empty', head: '', expected: undefined },
];
for (const { name, head, expected } of prefixes) {
  test(`prefix: ${name}`, (t) => {
    t.deepEqual(parseLinePrefix(head), expected);
  });
}

const matchers: { include: string[]; exclude: string[]; yes: string[]; no: string[] }[] = [
  { include: [], exclude: [], yes: ['mongodb', 'anything'], no: [] },
  { include: ['mongodb'], exclude: [], yes: ['mongodb'], no: ['mongodb-audit', 'automation-agent'] },
  { include: ['mongodb,mongodb-audit'], exclude: [], yes: ['mongodb', 'mongodb-audit'], no: ['backup-agent'] },
  { include: ['automation-agent*'], exclude: [], yes: ['automation-agent', 'automation-agent-verbose'], no: ['monitoring-agent'] },
  { include: ['*-agent'], exclude: ['backup*'], yes: ['monitoring-agent', 'automation-agent'], no: ['backup-agent', 'mongodb'] },
  { include: [], exclude: ['automation-agent-verbose', 'logtype-sidecar'], yes: ['mongodb'], no: ['automation-agent-verbose', 'logtype-sidecar'] },
  { include: ['mongo.b'], exclude: [], yes: [], no: ['mongodb', 'mongo.b'.replace('.', 'x')] },
  // The short names pretty prints are names too.
  { include: ['audit'], exclude: [], yes: ['mongodb-audit'], no: ['mongodb', 'audit-x'] },
  { include: ['agent,sidecar'], exclude: [], yes: ['automation-agent', 'logtype-sidecar'], no: ['automation-agent-verbose', 'monitoring-agent'] },
  { include: ['agent*'], exclude: ['agent-verbose'], yes: ['automation-agent', 'automation-agent-stderr', 'automation-agent-stdout', 'agent-launcher-script'], no: ['automation-agent-verbose', 'mongodb'] },
  { include: [], exclude: ['launcher'], yes: ['mongodb'], no: ['agent-launcher-script'] },
];
for (const { include, exclude, yes, no } of matchers) {
  test(`types: -t ${include.join(' ')} -x ${exclude.join(' ')}`, (t) => {
    const selected = typeMatcher(include, exclude);
    for (const type of yes) t.true(selected(type), type);
    for (const type of no) t.false(selected(type), type);
  });
}

const escapes: [string, string][] = [
  ['plain text', 'plain text'],
  ['tab\tstays', 'tab\tstays'],
  ['\u001b[2J\u001b[H clear screen', '\\e[2J\\e[H clear screen'],
  ['\u001b]0;owned\u0007 title', '\\e]0;owned\\x07 title'],
  ['carriage\rreturn', 'carriage\\rreturn'],
  ['new\nline', 'new\\nline'],
  ['nul\u0000', 'nul\\x00'],
  ['del\u007f', 'del\\x7f'],
  ['c1 csi\u009b31m', 'c1 csi\\x9b31m'],
  ['bidi \u202eevil', 'bidi \\u{202e}evil'],
  ['unicode ok: é € 😀', 'unicode ok: é € 😀'],
];
for (const [input, expected] of escapes) {
  test(`terminal escape: ${JSON.stringify(input)}`, (t) => {
    t.is(escapeTerminal(input), expected);
  });
}

const colors: { mode: 'auto' | 'always' | 'never'; env: NodeJS.ProcessEnv; tty: boolean; expected: boolean }[] = [
  { mode: 'auto', env: {}, tty: true, expected: true },
  { mode: 'auto', env: {}, tty: false, expected: false },
  { mode: 'auto', env: { NO_COLOR: '1' }, tty: true, expected: false },
  { mode: 'auto', env: { NO_COLOR: '' }, tty: true, expected: true },
  { mode: 'auto', env: { FORCE_COLOR: '1' }, tty: false, expected: true },
  { mode: 'auto', env: { FORCE_COLOR: '0' }, tty: true, expected: false },
  { mode: 'auto', env: { TERM: 'dumb' }, tty: true, expected: false },
  { mode: 'always', env: { NO_COLOR: '1' }, tty: false, expected: true },
  { mode: 'never', env: { FORCE_COLOR: '1' }, tty: true, expected: false },
];
for (const { mode, env, tty, expected } of colors) {
  test(`colour: --color ${mode} ${JSON.stringify(env)} tty=${String(tty)}`, (t) => {
    t.is(colorEnabled(mode, env, tty), expected);
  });
}

test('unescapeJsonBytes gives what JSON.parse gives, for random strings', (t) => {
  const alphabet = ['a', '"', '\\', '/', '\n', '\t', '\u0001', 'é', '€', '😀', '\u2028', '\ud800', '\udfff', ' '];
  const target = Buffer.alloc(4096);
  for (let round = 0; round < 500; round++) {
    let text = '';
    for (let i = 0; i < 40; i++) text += alphabet[Math.floor(Math.random() * alphabet.length)];
    const literal = Buffer.from(JSON.stringify(text));
    const end = unescapeJsonBytes(literal, 1, literal.length - 1, target, 0);
    t.deepEqual(target.subarray(0, end), Buffer.from(text), JSON.stringify(text));
  }
});

test('unescapeJsonBytes: an escape at every place of the kernel\'s 16-byte windows, in literals of every length up to 70', (t) => {
  const target = Buffer.alloc(256);
  for (let length = 1; length <= 70; length++) {
    for (let place = 0; place < length; place++) {
      for (const special of ['"', '\\', '/', '\n', '\u0001', 'é', '\u2028']) {
        const text = `${'a'.repeat(place)}${special}${'b'.repeat(length - place - 1)}`;
        const literal = Buffer.from(JSON.stringify(text));
        const end = unescapeJsonBytes(literal, 1, literal.length - 1, target, 3);
        if (!target.subarray(3, end).equals(Buffer.from(text))) return t.fail(`${JSON.stringify(special)} at ${place} of ${length}`);
      }
    }
  }
  t.pass();
});

test('unescapeJsonBytes: literals longer than the kernel takes are decoded too', (t) => {
  const text = '"quoted" \\ '.repeat(30_000);
  const literal = Buffer.from(JSON.stringify(text));
  const target = Buffer.alloc(literal.length);
  const end = unescapeJsonBytes(literal, 1, literal.length - 1, target, 0);
  t.true(target.subarray(0, end).equals(Buffer.from(text)));
});

const invalidLiterals = ['\\', '\\x', '\\u12', '\\uzzzz', 'abcdefghijklmnopqrstu\\', 'abcdefghijklmnopqrstu\\q', '\\é'];
for (const literal of invalidLiterals) {
  test(`unescapeJsonBytes refuses ${JSON.stringify(literal)}`, (t) => {
    const bytes = Buffer.from(literal);
    t.is(unescapeJsonBytes(bytes, 0, bytes.length, Buffer.alloc(64), 0), -1);
  });
}

test('the kernel\'s terminal check: "safe" only for text isTerminalSafe passes, at every place of the 16-byte windows', (t) => {
  // Unsafe for a terminal, or text whose own escapes decode to a control.
  const unsafe = ['\u001b', '\n', '\r', '\b', '\f', '\u007f', '\u0085', '\u202e', '\\n', '\\u001b', '\\r', '\\b', '\\f'];
  // Safe, and so flagged by the kernel (a tab and non-ASCII text are left to a closer look).
  const safe = ['"', '\\', '/', '\\t', '\\x', '{"a":"b"}'];
  let checked = 0;
  for (let length = 1; length <= 40; length++) {
    for (let place = 0; place < length; place++) {
      for (const special of [...unsafe, ...safe]) {
        const text = `${'a'.repeat(place)}${special}${'c'.repeat(Math.max(0, length - place - 1))}`;
        const literal = Buffer.from(JSON.stringify(text));
        const decoded = unescapeLiteralToString(literal, 1, literal.length - 1);
        const terminalSafe = literalTerminalSafe(literal, 1, literal.length - 1);
        checked++;
        if (decoded !== undefined && decoded !== text) return t.fail(`decoded ${JSON.stringify(text)} wrong`);
        if (terminalSafe && !isTerminalSafe(text)) return t.fail(`${JSON.stringify(text)} called safe`);
        if (safe.includes(special) && !terminalSafe) return t.fail(`${JSON.stringify(text)} called unsafe`);
      }
    }
  }
  t.true(checked > 10_000);
});

test('escaped surrogate pairs and lone surrogates decode as JSON.parse does', (t) => {
  for (const literal of ['\\ud83d\\ude00', '\\ud83d', '\\ude00x', '\\u00e9']) {
    const bytes = Buffer.from(literal);
    const target = Buffer.alloc(64);
    const end = unescapeJsonBytes(bytes, 0, bytes.length, target, 0);
    t.deepEqual(target.subarray(0, end), Buffer.from(JSON.parse(`"${literal}"`) as string), literal);
  }
});

test('times: UTC marked Z, local without', (t) => {
  t.is(formatTime(Date.parse('2026-11-22T10:00:00.123Z'), true), '2026-11-22 10:00:00.123Z');
  t.regex(formatTime(Date.parse('2026-11-22T10:00:00.123Z'), false), /^2026-11-2\d \d\d:\d\d:00\.123$/);
  t.is(formatTime(Date.parse('nonsense'), true), '');
});

const safety: [string, boolean][] = [
  ['{"msg":"plain","attr":{"a":"b\\"c"}}', true],
  ['tab\tis fine', true],
  ['{"msg":"evil \\u001b[2J"}', false],
  ['{"msg":"line\\nbreak"}', false],
  ['raw \u001b', false],
  ['a \\\\ backslash', true],
];
for (const [text, safe] of safety) {
  test(`terminal-safe after JSON decoding: ${JSON.stringify(text)} is ${String(safe)}`, (t) => {
    t.is(isTerminalSafe(text), safe);
  });
}
