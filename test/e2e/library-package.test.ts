/**
 * The library as a user's own TypeScript project meets it: imported as `logtype` through the
 * package's `exports` (its root only), typed by the .d.ts files it ships, under strict NodeNext.
 * docs/library.md's examples are compiled there as written; every type the declarations name
 * can be imported from the root. The whole commands read the stream they are given as stdin,
 * and stop reading one that never ends when told to.
 */
import test from 'ava';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import zlib from 'node:zlib';
import { collectSummary, runDoctor, runFilter, runSummary, type ReportIO } from '../../src/index.js';
import { unexportedDeclarations } from '../_helpers/declared-types.js';
import { DIST, REAL_DATA, REPO, cleanEnv, tempDir } from '../_helpers/sidecar-process.js';

const ROOT_TYPES = path.join(DIST, 'src/index.d.ts');

/** The ```ts blocks of a markdown file. */
function typeScriptBlocks(markdown: string): string[] {
  return [...markdown.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((match) => match[1]!);
}

/** A user's project: `logtype` installed (linked to this repository, as `npm install` of a clone does), Node's types, strict ESM. */
function userProject(name: string, files: Readonly<Record<string, string>>): string {
  const dir = tempDir(name);
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'user-project', private: true, type: 'module' }));
  fs.writeFileSync(
    path.join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'es2022',
        module: 'nodenext',
        moduleResolution: 'nodenext',
        strict: true,
        noUncheckedIndexedAccess: true,
        exactOptionalPropertyTypes: true,
        // The package's own .d.ts files are checked too, as a user's build would.
        skipLibCheck: false,
        noEmit: true,
        types: ['node'],
      },
      include: ['*.ts'],
    }),
  );
  fs.mkdirSync(path.join(dir, 'node_modules/@types'), { recursive: true });
  fs.symlinkSync(REPO, path.join(dir, 'node_modules/logtype'));
  fs.symlinkSync(path.join(REPO, 'node_modules/@types/node'), path.join(dir, 'node_modules/@types/node'));
  for (const [file, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, file), text);
  return dir;
}

function typeCheck(dir: string): { status: number | null; output: string } {
  const tsc = spawnSync(process.execPath, [path.join(REPO, 'node_modules/typescript/bin/tsc'), '-p', dir], { encoding: 'utf8' });
  return { status: tsc.status, output: `${tsc.stdout}${tsc.stderr}` };
}

test("docs/library.md: every example compiles as written in a user's strict NodeNext project, importing 'logtype'", (t) => {
  const blocks = typeScriptBlocks(fs.readFileSync(path.join(REPO, 'docs/library.md'), 'utf8'));
  t.true(blocks.length >= 3, `${blocks.length} blocks`);
  const dir = userProject('library-docs', Object.fromEntries(blocks.map((block, i) => [`example-${i + 1}.ts`, block])));
  const { status, output } = typeCheck(dir);
  t.is(status, 0, output);
});

test("every type the package's declarations name is exported from its root", (t) => {
  const missing = unexportedDeclarations(ROOT_TYPES);
  t.deepEqual(
    missing.map((d) => `${d.name} (${d.file}, named by ${d.mentionedBy})`),
    [],
  );
});

/** The first lines of a real member's log (raw server lines, read with `as: 'mongodb'`). */
function serverLines(count: number): string {
  const all = zlib.gunzipSync(fs.readFileSync(path.join(REAL_DATA, 'mongod-replica-rs1.log.gz'))).toString('utf8').split('\n');
  return `${all.slice(0, count).join('\n')}\n`;
}

function collected(): { stream: Writable; text: () => string } {
  let text = '';
  return {
    stream: new Writable({
      write(chunk, _encoding, done) {
        text += String(chunk);
        done();
      },
    }),
    text: () => text,
  };
}

test("runFilter, runSummary and runDoctor read the io.stdin they are given, not the process's own stdin (a file, a pipe)", (t) => {
  const dir = tempDir('library-stdin');
  // The process's stdin: a file of 300 other lines. The caller's stream: the log's first 40.
  const processStdin = path.join(dir, 'process-stdin.log');
  fs.writeFileSync(processStdin, serverLines(300));
  const script = `
    import { Readable, Writable } from 'node:stream';
    import { runFilter, runSummary, runDoctor } from ${JSON.stringify(path.join(DIST, 'src/index.js'))};
    const mine = () => Readable.from([Buffer.from(${JSON.stringify(serverLines(40))})]);
    let out = '';
    const stdout = new Writable({ write(chunk, _e, done) { out += chunk; done(); } });
    const selection = { inputs: ['-'], as: 'mongodb', types: [], exclude: [], invertGrep: false, query: {} };
    await runFilter({ ...selection, output: 'raw', expand: false, keepPrefix: false, keepOther: false, strict: false, quiet: false, summary: false, color: false, utc: true },
      { stdin: mine(), stdout, stderr: process.stderr, stdoutIsTTY: false });
    const filtered = out.split('\\n').length - 1;
    out = '';
    await runSummary({ ...selection, json: true, color: false, utc: true, width: 80 }, { stdin: mine(), stdout, stderr: process.stderr });
    const summarised = JSON.parse(out).lines.entries;
    out = '';
    await runDoctor({ ...selection, json: true, color: false, utc: true }, { stdin: mine(), stdout, stderr: process.stderr });
    console.log(JSON.stringify({ filtered, summarised, doctored: JSON.parse(out).linesRead }));
  `;
  const asFile = spawnSync(process.execPath, ['--input-type=module', '-e', script], { env: cleanEnv(), encoding: 'utf8', stdio: [fs.openSync(processStdin, 'r'), 'pipe', 'pipe'] });
  t.is(asFile.status, 0, asFile.stderr);
  t.deepEqual(JSON.parse(asFile.stdout), { filtered: 40, summarised: 40, doctored: 40 }, 'process stdin a file');
  const asPipe = spawnSync(process.execPath, ['--input-type=module', '-e', script], { env: cleanEnv(), encoding: 'utf8', input: fs.readFileSync(processStdin) });
  t.is(asPipe.status, 0, asPipe.stderr);
  t.deepEqual(JSON.parse(asPipe.stdout), { filtered: 40, summarised: 40, doctored: 40 }, 'process stdin a pipe');
});

/** Resolves with what `run` resolved with, or rejects when it has not within `ms`: a reading that never ends fails the test, not the run. */
async function within<T>(ms: number, run: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`still reading after ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([run, late]);
  } finally {
    clearTimeout(timer);
  }
}

test('aborting io.interrupted ends the reading of a stdin stream that never ends: the report covers what was read', async (t) => {
  const lines = serverLines(120);
  const selection = { inputs: ['-'], as: 'mongodb', types: [], exclude: [], invertGrep: false, query: {} } as const;
  /** A pipe whose writer wrote the lines and stays: aborted once they were read. */
  const quietPipe = (bytes: Buffer): { io: ReportIO & { stdoutIsTTY: false }; out: () => string; err: () => string } => {
    const stdin = new PassThrough();
    stdin.write(bytes);
    const interrupt = new AbortController();
    setTimeout(() => interrupt.abort(), 300);
    const out = collected();
    const err = collected();
    return { io: { stdin, stdout: out.stream, stderr: err.stream, interrupted: interrupt.signal, stdoutIsTTY: false }, out: out.text, err: err.text };
  };

  const filter = quietPipe(Buffer.from(lines));
  const filterStatus = await within(5000, runFilter({ ...selection, output: 'raw', expand: false, keepPrefix: false, keepOther: false, strict: false, quiet: false, summary: false, color: false, utc: true }, filter.io));
  t.is(filterStatus, 0, filter.err());
  t.is(filter.out(), lines);

  const summary = quietPipe(Buffer.from(lines));
  t.is(await within(5000, runSummary({ ...selection, json: true, color: false, utc: true, width: 80 }, summary.io)), 0, summary.err());
  const json = JSON.parse(summary.out()) as { lines: { entries: number }; incomplete?: unknown };
  t.is(json.lines.entries, 120);
  t.deepEqual(json.incomplete, { unread: [], interrupted: true });

  const doctor = quietPipe(Buffer.from(lines));
  await within(5000, runDoctor({ ...selection, json: true, color: false, utc: true }, doctor.io));
  t.is((JSON.parse(doctor.out()) as { linesRead: number }).linesRead, 120);

  // gzip bytes on the pipe, the compressed stream not ended: cut short by the abort, not an input error.
  const gzip = zlib.createGzip();
  const compressed: Buffer[] = [];
  gzip.on('data', (chunk: Buffer) => compressed.push(chunk));
  gzip.write(lines);
  await new Promise<void>((resolve) => gzip.flush(resolve));
  const zipped = quietPipe(Buffer.concat(compressed));
  const report = await within(5000, collectSummary({ ...selection, json: true, color: false, utc: true, width: 80 }, zipped.io));
  t.is(report.lines.entries, 120);
  t.deepEqual(report.incomplete, { unread: [], interrupted: true });
  t.is(zipped.err(), '');
});
