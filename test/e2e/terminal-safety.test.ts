/**
 * Log contents never reach a terminal as control sequences, through the real `logtype`: every
 * payload of the generated catalogue (each unsafe code point alone, the safe characters at the
 * classes' edges, escape sequences, lone surrogates, seeded mixtures; see
 * test/_helpers/terminal-code-points.ts) is put in every place of every kind of line (a
 * server line's message, attribute key and value, nested value, component, context, slow
 * operation namespace and plan, replica-set state; an audit event's user and address; an agent
 * line; an operator line; a line that does not parse; an unknown type; the type name itself;
 * a pasted line that is no entry), written the ways a line comes (JSON short escapes, `\u`
 * escapes in either case, raw characters, the entry's own escapes on top), and read by every
 * output that reaches a terminal: pretty (plain, coloured, `-e`, `-f`), raw, json and entry
 * on a terminal, `--summary`'s counts, `summary` and `doctor` as text and as JSON.
 *
 * Each unsafe payload stands alone in its line: one unsafe character elsewhere would send the
 * whole line down the escaping path and hide a character the quick safety check misses (a
 * JSON `\b` in a server line was such a gap).
 */
import test, { type ExecutionContext } from 'ava';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { FILTER_BIN, cleanEnv, tempDir } from '../_helpers/sidecar-process.js';
import { encodeEntry } from '../../src/encode/encode-entry.js';
import {
  ESCAPE_SEQUENCES,
  LONE_SURROGATES,
  UNSAFE_CODE_POINTS,
  jsonAllEscaped,
  jsonRawControls,
  terminalPayloads,
  terminalView,
  unsafeCodePoints,
} from '../_helpers/terminal-code-points.js';

interface InputLine {
  /** The line as written to the input file. */
  readonly line: string;
  /** What raw output writes for it (the contents of an entry, the line itself otherwise). */
  readonly contents: string;
  /** A text the line's pretty output must hold, as the contract shows it. */
  readonly pretty?: string;
  readonly place: string;
  /** What -o entry writes for it, when not the line itself: a log's line read bare, as the sidecar's entry of it. */
  readonly entry?: string;
}

const TIME = { $date: '2026-11-22T10:00:00.000Z' };

type Encode = (value: unknown) => string;
/** The ways the server's (or the audit's) JSON arrives inside an entry. */
const INNER: Readonly<Record<string, Encode>> = {
  'short escapes': (value) => JSON.stringify(value),
  '\\u escapes': (value) => jsonAllEscaped(value),
  '\\U ESCAPES': (value) => jsonAllEscaped(value, true),
  'raw controls': jsonRawControls,
};
/** The ways the entry itself is written: as the sidecar writes it, or with every non-ASCII character escaped. */
const OUTER: Readonly<Record<string, (logType: string, contents: string) => string>> = {
  sidecar: (logType, contents) => JSON.stringify({ logType, contents }),
  escaped: (logType, contents) => jsonAllEscaped({ logType, contents }),
};

/** A server line's object with `fields` in place of the defaults. */
const serverLine = (fields: Record<string, unknown>): Record<string, unknown> => ({
  t: TIME,
  s: 'I',
  c: 'NETWORK',
  id: 22943,
  ctx: 'conn1',
  msg: 'Connection accepted',
  attr: {},
  ...fields,
});

/** The places in a server line, and what pretty must show for the payload there. */
const SERVER_PLACES: readonly { name: string; fields: (p: string) => Record<string, unknown>; pretty?: (v: string) => string }[] = [
  { name: 'message', fields: (p) => ({ msg: p }), pretty: (v) => ` ${v}` },
  { name: 'attribute value', fields: (p) => ({ attr: { k: p } }), pretty: (v) => ` k=${v}` },
  { name: 'attribute key', fields: (p) => ({ attr: { [p]: 1 } }), pretty: (v) => ` ${v}=1` },
  { name: 'nested value', fields: (p) => ({ attr: { o: { v: p, w: [p] } } }) },
  { name: 'component', fields: (p) => ({ c: p }), pretty: (v) => ` ${v} [conn1]` },
  { name: 'context', fields: (p) => ({ ctx: p }), pretty: (v) => ` [${v}] ` },
  {
    name: 'slow operation',
    fields: (p) => ({ c: 'COMMAND', id: 51803, msg: 'Slow query', attr: { type: 'command', ns: p, command: { find: 'x' }, planSummary: p, durationMillis: 500 } }),
    pretty: (v) => ` 500ms ${v} ${v} Slow query`,
  },
  { name: 'replica-set state', fields: (p) => ({ c: 'REPL', id: 21358, msg: 'Replica set state transition', attr: { newState: p, oldState: 'SECONDARY' } }), pretty: (v) => ` newState=${v}` },
];

function catalogue(payloads: readonly string[]): InputLine[] {
  const lines: InputLine[] = [];
  for (const payload of payloads) {
    const view = terminalView(payload);
    for (const place of SERVER_PLACES) {
      for (const [innerName, inner] of Object.entries(INNER)) {
        const contents = inner(serverLine(place.fields(payload)));
        for (const [outerName, outer] of Object.entries(OUTER)) {
          // A raw control makes the line invalid JSON: it is shown as well as it can be read, the
          // payload among it (beside a backslash, which stays escaped, it is shown only safe).
          const raw = innerName === 'raw controls';
          const pretty = place.pretty && (!raw ? place.pretty(view) : jsonRawControls(payload).includes('\\') ? undefined : view);
          lines.push({ line: outer('mongodb', contents), contents, pretty, place: `server ${place.name}, ${innerName}, ${outerName}` });
        }
      }
    }
    for (const [outerName, outer] of Object.entries(OUTER)) {
      const audit = JSON.stringify({
        atype: 'authenticate',
        ts: TIME,
        local: { ip: '10.0.0.1', port: 27017 },
        remote: { ip: payload, port: 50722 },
        users: [{ user: payload, db: 'admin' }],
        roles: [],
        param: { user: payload, db: 'admin', mechanism: 'SCRAM-SHA-256' },
        result: 18,
      });
      lines.push({ line: outer('mongodb-audit', audit), contents: audit, pretty: view, place: `audit user and address, ${outerName}` });
      const atype = JSON.stringify({ atype: payload, ts: TIME, users: [], roles: [], param: {}, result: 13 });
      lines.push({ line: outer('mongodb-audit', atype), contents: atype, pretty: view, place: `audit event type, ${outerName}` });
      const agent = `[2026-11-22T10:00:00.000+0000] [.error] [src/main/run.go:run:12] [10:00:00.000] ${payload}`;
      lines.push({ line: outer('automation-agent', agent), contents: agent, pretty: view, place: `agent message, ${outerName}` });
      const unparsed = `not json ${payload}`;
      lines.push({ line: outer('mongodb', unparsed), contents: unparsed, pretty: terminalView(unparsed), place: `server line that does not parse, ${outerName}` });
      lines.push({ line: outer('custom-type', payload), contents: payload, pretty: view, place: `unknown type, ${outerName}` });
      const typeName = `t${payload}`;
      lines.push({ line: outer(typeName, 'contents'), contents: 'contents', pretty: terminalView(typeName), place: `type name, ${outerName}` });
    }
    const operator = JSON.stringify({ level: 'error', ts: 1795341600.5, caller: 'operator/replicaset.go:42', msg: payload, ReplicaSet: 'ns/rs' });
    lines.push({ line: operator, contents: operator, pretty: view, place: 'operator line', entry: encodeEntry('operator', operator).trimEnd() });
    // A line feed ends a pasted line: such a payload is in the others' places only.
    const pasted = `pasted ${payload}`;
    if (!payload.includes('\n')) lines.push({ line: pasted, contents: pasted, pretty: terminalView(pasted), place: 'line that is no entry' });
  }
  return lines;
}

const PAYLOADS = terminalPayloads();
const CATALOGUE = catalogue(PAYLOADS);

/**
 * Dense strings: every unsafe code point in one, every escape sequence in one, seeded mixtures.
 * Summary and doctor show a bounded number of rows (doctor one example a problem), and escape
 * every string they show, so each of their places is given every code point at once.
 */
const ALL_UNSAFE = `u${[...UNSAFE_CODE_POINTS].map((c) => String.fromCodePoint(c)).join('')}v`;
const DENSE = [ALL_UNSAFE, `e${ESCAPE_SEQUENCES.join('')}f${LONE_SURROGATES.join('')}g`, ...terminalPayloads(99, 4).slice(-4)];

function denseInput(): InputLine[] {
  const lines: InputLine[] = [];
  for (const dense of DENSE) {
    const server = (fields: Record<string, unknown>): InputLine => {
      const contents = JSON.stringify(serverLine(fields));
      return { line: JSON.stringify({ logType: 'mongodb', contents }), contents, place: 'dense server' };
    };
    lines.push(
      server({ msg: dense }),
      server({ s: dense, c: dense }),
      server({ c: 'COMMAND', id: 51803, msg: 'Slow query', attr: { type: dense, ns: dense, command: { [dense]: 'x' }, planSummary: dense, queryHash: dense, durationMillis: 900 } }),
      server({ c: 'REPL', id: 21358, msg: 'Replica set state transition', attr: { newState: dense, oldState: dense } }),
      server({ c: 'REPL', id: 21215, msg: 'Member is in new state', attr: { hostAndPort: dense, newState: dense } }),
      server({ c: 'ELECTION', id: 21438, msg: `Starting an election ${dense}`, attr: {} }),
      server({ c: 'CONTROL', id: 20698, msg: `***** SERVER RESTARTED ***** ${dense}` }),
    );
    const audit = JSON.stringify({ atype: 'authenticate', ts: TIME, remote: { ip: dense, port: 1 }, users: [{ user: dense, db: dense }], roles: [], param: { user: dense, db: dense }, result: 18 });
    const failed = JSON.stringify({ atype: dense, ts: TIME, users: [{ user: dense, db: 'admin' }], roles: [], param: {}, result: 13 });
    const agent = `[2026-11-22T10:00:00.000+0000] [.error] [src/main/run.go:run:12] [10:00:00.000] ${dense}`;
    const disk = `write /var/log/x.log: no space left on device ${dense}`;
    const apiKey = `[2026-11-22T10:00:01.000+0000] [.error] [src/main.go:f:1] [10:00:01.000] 401 Unauthorized: invalid api key ${dense}`;
    lines.push(
      { line: JSON.stringify({ logType: 'mongodb-audit', contents: audit }), contents: audit, place: 'dense audit' },
      { line: JSON.stringify({ logType: 'mongodb-audit', contents: failed }), contents: failed, place: 'dense audit failure' },
      { line: JSON.stringify({ logType: 'automation-agent', contents: agent }), contents: agent, place: 'dense agent' },
      { line: JSON.stringify({ logType: `automation-agent-stderr${dense}`, contents: disk }), contents: disk, place: 'dense type with a problem' },
      { line: JSON.stringify({ logType: 'automation-agent', contents: apiKey }), contents: apiKey, place: 'dense agent problem' },
      { line: JSON.stringify({ logType: dense, contents: `warn ${dense}` }), contents: `warn ${dense}`, place: 'dense type' },
      { line: JSON.stringify({ level: 'error', ts: 1795341600.5, caller: dense, msg: `automatic recovery ${dense}`, ReplicaSet: dense }), contents: '', place: 'dense operator' },
      { line: `Error from server: admission webhook "${dense}" denied the request: ${dense}`, contents: '', place: 'dense pasted problem' },
      { line: `${dense} Warning FailedScheduling 0/3 nodes are available: 3 Insufficient memory`, contents: '', place: 'dense event' },
    );
  }
  return lines;
}

function writeInput(name: string, lines: readonly InputLine[]): string {
  const file = path.join(tempDir(`terminal-${name}`), 'in.jsonl');
  fs.writeFileSync(file, `${lines.map((l) => l.line).join('\n')}\n`);
  return file;
}

/** Output decoded as a terminal decodes it: an invalid byte sequence fails the test. */
function decoded(bytes: Buffer): string {
  return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
}

/** The command with a pipe as stdout. */
function runPiped(args: readonly string[]): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [FILTER_BIN, ...args], { env: cleanEnv({ NO_COLOR: undefined, FORCE_COLOR: undefined }), maxBuffer: 1 << 28 });
  return { status: result.status, stdout: decoded(result.stdout), stderr: decoded(result.stderr) };
}

/**
 * The command with a real terminal as stdout (`script` makes one). stderr goes to a file, read
 * apart: the terminal's line discipline writes each `\n` as `\r\n`, undone here.
 */
function runOnTerminal(args: readonly string[]): { status: number | null; stdout: string; stderr: string } {
  const dir = tempDir('terminal-run');
  const quoted = [process.execPath, FILTER_BIN, ...args].map((a) => `'${a.replaceAll("'", "'\\''")}'`).join(' ');
  const result = spawnSync('script', ['-qec', `${quoted} 2>'${dir}/stderr'`, '/dev/null'], {
    env: cleanEnv({ NO_COLOR: undefined, FORCE_COLOR: undefined, TERM: 'xterm-256color' }),
    maxBuffer: 1 << 28,
  });
  const stdout = decoded(result.stdout);
  return { status: result.status, stdout: stdout.replaceAll('\r\n', '\n'), stderr: decoded(fs.readFileSync(`${dir}/stderr`)) };
}

function assertSafe(t: ExecutionContext, what: string, text: string): void {
  const unsafe = unsafeCodePoints(text);
  t.deepEqual(unsafe.slice(0, 5), [], `${what}: ${unsafe.length} unsafe code points written`);
}

const catalogueFile = writeInput('catalogue', CATALOGUE);
const denseFile = writeInput('dense', [...denseInput(), ...CATALOGUE]);

test('the catalogue covers every unsafe code point alone in every place', (t) => {
  for (const code of UNSAFE_CODE_POINTS) t.true(PAYLOADS.includes(`b${String.fromCodePoint(code)}a`));
  t.true(CATALOGUE.length > 10_000, String(CATALOGUE.length));
});

test('pretty: one line a line, every payload shown as the contract says, nothing unsafe (catalogue)', (t) => {
  const result = runPiped(['-o', 'pretty', '--color', 'never', '--utc', catalogueFile]);
  t.is(result.status, 0, result.stderr);
  assertSafe(t, 'stdout', result.stdout);
  assertSafe(t, 'stderr', result.stderr);
  const shown = result.stdout.split('\n').slice(0, -1);
  t.is(shown.length, CATALOGUE.length);
  const wrong = CATALOGUE.flatMap((input, i) =>
    input.pretty === undefined || shown[i]?.includes(input.pretty) ? [] : [`${input.place} ${JSON.stringify(input.line)}: ${JSON.stringify(shown[i])} lacks ${JSON.stringify(input.pretty)}`],
  );
  t.deepEqual(wrong.slice(0, 5), [], `${wrong.length} lines shown otherwise`);
});

test('pretty with colour: only our own SGR sequences, and the same text as without colour', (t) => {
  const coloured = runPiped(['-o', 'pretty', '--color', 'always', '--utc', catalogueFile]);
  const plain = runPiped(['-o', 'pretty', '--color', 'never', '--utc', catalogueFile]);
  t.is(coloured.status, 0, coloured.stderr);
  // The palette's codes: bold, dim, colours, inverse, the red badge, and their resets.
  const ours = /\u001b\[(?:1|2|7|22|27|3[1-6]|39|90|97;41|39;49)m/g;
  const stripped = coloured.stdout.replace(ours, '');
  assertSafe(t, 'coloured stdout without our SGR', stripped);
  t.true(stripped === plain.stdout, 'the colours are all that differs');
});

for (const [name, args] of [
  ['pretty -e (attributes in full, indented)', ['-o', 'pretty', '-e']],
  ['pretty -f (fields)', ['-o', 'pretty', '-f', 'msg,c,ctx,attr.k,attr.o,attr.ns,atype,users,param.user,contents,logType']],
  ['--summary (counts per type on stderr)', ['-o', 'raw', '--summary']],
] as const) {
  test(`${name}: nothing unsafe, on stdout or stderr`, (t) => {
    const result = runPiped([...args, '--color', 'never', catalogueFile]);
    t.is(result.status, 0, result.stderr);
    // Raw output into a pipe is the data itself: only what reaches a terminal is checked.
    if (!name.startsWith('--summary')) assertSafe(t, 'stdout', result.stdout);
    assertSafe(t, 'stderr', result.stderr);
    t.true(result.stdout.length > 100_000);
    if (name.startsWith('pretty -e')) t.true(result.stdout.includes('\\e[2J'));
    // The counts name the types (the first ones, when there are many): escaped.
    if (name.startsWith('--summary')) t.true(result.stderr.includes('tb\\x00a'), result.stderr);
  });
}

test('raw on a terminal: each entry\'s contents and each other line, escaped as the contract says', (t) => {
  const result = runOnTerminal(['-o', 'raw', '--keep-other', catalogueFile]);
  t.is(result.status, 0, result.stderr);
  assertSafe(t, 'stdout', result.stdout);
  const shown = result.stdout.split('\n').slice(0, -1);
  const expected = CATALOGUE.map((input) => terminalView(input.contents));
  const wrong = expected.flatMap((line, i) => (shown[i] === line ? [] : [`${CATALOGUE[i]!.place}: ${JSON.stringify(shown[i])} for ${JSON.stringify(line)}`]));
  t.is(shown.length, expected.length);
  t.deepEqual(wrong.slice(0, 5), [], `${wrong.length} lines written otherwise`);
});

/**
 * JSON output on a terminal is the same JSON as into a pipe: what a terminal acts on is written
 * as `\u` escapes (escapeTerminal's `\x9b` would be no JSON); a line that is no JSON (another
 * line, kept) is escaped as raw output escapes it.
 */
function assertSameJsonOnTerminal(t: ExecutionContext, args: readonly string[], input: readonly InputLine[], file: string): void {
  const terminal = runOnTerminal([...args, file]);
  const piped = runPiped([...args, file]);
  t.is(terminal.status, 0, terminal.stderr);
  assertSafe(t, 'stdout', terminal.stdout);
  const shown = terminal.stdout.split('\n').slice(0, -1);
  const expected = piped.stdout.split('\n').slice(0, -1);
  if (args.includes('--keep-other')) t.is(shown.length, input.length);
  t.is(shown.length, expected.length);
  const parsed = (line: string): unknown => {
    try {
      return JSON.parse(line) as unknown;
    } catch {
      return undefined;
    }
  };
  const wrong = expected.flatMap((line, i) => {
    const value = parsed(line);
    const ok = value === undefined ? shown[i] === terminalView(line) : JSON.stringify(parsed(shown[i]!)) === JSON.stringify(value);
    return ok ? [] : [`line ${i + 1}: ${JSON.stringify(shown[i])} for ${JSON.stringify(line)}`];
  });
  t.deepEqual(wrong.slice(0, 5), [], `${wrong.length} lines written otherwise`);
}

test('entry on a terminal: each line the same JSON as into a pipe, nothing unsafe', (t) => {
  assertSameJsonOnTerminal(t, ['-o', 'entry', '--keep-other'], CATALOGUE, catalogueFile);
});

test('json on a terminal: one line each, nothing unsafe; the same JSON as into a pipe', (t) => {
  const result = runOnTerminal(['-o', 'json', '--keep-other', catalogueFile]);
  t.is(result.status, 0, result.stderr);
  assertSafe(t, 'stdout', result.stdout);
  t.is(result.stdout.split('\n').length - 1, CATALOGUE.length);
  // A server line whose JSON holds raw control characters is no JSON: -o json writes it as it
  // is (a line feed in it then splits it into a pipe), so the two are compared on the others.
  const valid = CATALOGUE.filter((input) => !input.place.includes('raw controls'));
  const validFile = writeInput('catalogue-valid-json', valid);
  assertSameJsonOnTerminal(t, ['-o', 'json', '--keep-other'], valid, validFile);
  assertSameJsonOnTerminal(t, ['-o', 'json', '-f', 'msg,attr,contents,logType,users'], valid, validFile);
});

test('summary on a terminal, as text: nothing unsafe, the dense strings shown escaped', (t) => {
  const result = runOnTerminal(['summary', '--color', 'never', '--utc', denseFile]);
  t.is(result.status, 0, result.stderr);
  assertSafe(t, 'stdout', result.stdout);
  assertSafe(t, 'stderr', result.stderr);
  t.true(result.stdout.includes(terminalView(ALL_UNSAFE)), 'every unsafe code point shown as its escape');
  t.true(result.stdout.includes('\\e[2J'));
});

test('doctor on a terminal, as text: nothing unsafe in the examples nor in the types they came from', (t) => {
  const result = runOnTerminal(['doctor', '--color', 'never', '--utc', denseFile]);
  t.is(result.status, 1, result.stderr);
  assertSafe(t, 'stdout', result.stdout);
  assertSafe(t, 'stderr', result.stderr);
  // The Seen line names every log the problem showed in, this one among them.
  const seen = result.stdout.split('\n').filter((line) => line.startsWith('  Seen:'));
  t.true(seen.some((line) => line.includes(terminalView(`automation-agent-stderr${ALL_UNSAFE}`)) && line.includes(' (shows in')), 'the type of the example, escaped');
  t.true(result.stdout.includes(terminalView(`write /var/log/x.log: no space left on device ${ALL_UNSAFE}`)));
});

for (const command of ['summary', 'doctor'] as const) {
  test(`${command} --json on a terminal: nothing unsafe, and the same document as JSON.parse reads it`, (t) => {
    const onTerminal = runOnTerminal([command, '--json', denseFile]);
    assertSafe(t, 'stdout', onTerminal.stdout);
    const piped = runPiped([command, '--json', denseFile]);
    t.deepEqual(JSON.parse(onTerminal.stdout), JSON.parse(piped.stdout));
  });
}
