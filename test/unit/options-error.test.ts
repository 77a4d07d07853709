/**
 * From a library trial: options the commands would refuse were taken by the library's
 * functions (a contradiction resolved 0 with nothing written, a string grep threw a TypeError
 * from deep in the reading, an invalid Date filtered nothing). They reject with an OptionsError
 * before reading; an unwritable page rejects with its system code.
 */
import { PassThrough, Writable } from 'node:stream';
import test from 'ava';
import { OptionsError, collectSummary, runDoctor, runFilter, runSummary, type FilterOptions, type Level } from '../../src/index.js';

const quietSink = (): Writable => new Writable({ write: (_chunk, _encoding, done) => done() });
const io = () => ({ stdin: new PassThrough().end(), stdout: quietSink(), stderr: quietSink(), stdoutIsTTY: false });
const base: FilterOptions = {
  inputs: ['-'], types: [], exclude: [], invertGrep: false, query: {},
  output: 'raw', expand: false, keepPrefix: false, keepOther: false, strict: false, quiet: false, summary: false, color: false, utc: true,
};

test('the library\'s commands reject options the command line would refuse with an OptionsError (code ELOGTYPE_OPTIONS) naming what is wrong', async (t) => {
  const rows: [what: string, options: Partial<FilterOptions>, says: RegExp][] = [
    ['one log\'s filter with -t leaving it out', { types: ['automation-agent'], query: { slowMillis: 100 } }, /--slow keeps only mongodb lines/],
    ['grep as a string', { grep: 'error' as unknown as RegExp }, /grep must be a RegExp/],
    ['an invalid Date', { query: { since: new Date('x') } }, /query\.since must be a valid Date/],
    ['since after until', { query: { since: new Date('2026-11-23T00:00:00Z'), until: new Date('2026-11-22T00:00:00Z') } }, /since is after query\.until/],
    ['a level that is none', { query: { level: 'crit' as Level } }, /query\.level must be one of fatal, error/],
    ['an output mode that is none', { output: 'yaml' as FilterOptions['output'] }, /output must be one of raw, json, entry, pretty/],
    ['a field path with an empty part', { fields: [['', 'msg']] }, /fields: a path with an empty part names no field/],
  ];
  for (const [what, options, says] of rows) {
    const error = await t.throwsAsync(runFilter({ ...base, ...options }, io()), { instanceOf: OptionsError, message: says }, what);
    t.is((error as OptionsError | undefined)?.code, 'ELOGTYPE_OPTIONS', what);
  }
  const report = { ...base, json: true, width: 80 };
  await t.throwsAsync(collectSummary({ ...report, grep: 'x' as unknown as RegExp }, io()), { instanceOf: OptionsError });
  await t.throwsAsync(runDoctor({ ...report, query: { since: new Date(Number.NaN) } }, io()), { instanceOf: OptionsError });
  // Sound options read as before.
  t.is(await runFilter(base, io()), 0);
});

test('runSummary\'s page it cannot write: rejects with the system\'s code (ENOENT), the error it met as the cause', async (t) => {
  const error = await t.throwsAsync(runSummary({ ...base, json: false, width: 80, html: '/nonexistent/dir/x.html' }, io()));
  t.is((error as NodeJS.ErrnoException | undefined)?.code, 'ENOENT');
  t.truthy(error?.cause);
});
