/**
 * From an incident trial: `logtype --since 30m` on a pod quiet for an hour left the terminal
 * empty, exit 0, as an empty input or a broken pipe would. On a terminal, entries read and none
 * selected is said on stderr; a pipe or a file gets an empty result, as grep gives.
 */
import { Readable, Writable } from 'node:stream';
import test from 'ava';
import { noneSelectedNotice, runFilter, type FilterOptions } from '../../src/filter/run-filter.js';
import { entryLine } from '../_helpers/filter-process.js';

const NOTICE = (read: string) => `logtype: ${read} (the options that select: -t, -l, --since, --until, -c, -g, …)\n`;

test('the notice: on a terminal, entries read, none selected and nothing written; never for a pipe, -q, --summary, an empty input, a selection or other lines shown', (t) => {
  const plain = { quiet: false, summary: false, output: 'raw', keepOther: false } as const;
  const rows: readonly (readonly [string, Parameters<typeof noneSelectedNotice>, string | undefined])[] = [
    ['146 read, none selected, terminal', [plain, { entries: 146, selected: 0, other: 0 }, true], NOTICE('none of the 146 entries read was selected')],
    ['one read', [plain, { entries: 1, selected: 0, other: 0 }, true], NOTICE('the one entry read was not selected')],
    ['a pipe', [plain, { entries: 146, selected: 0, other: 0 }, false], undefined],
    ['-q says it by its status', [{ ...plain, quiet: true }, { entries: 146, selected: 0, other: 0 }, true], undefined],
    ['--summary counts it', [{ ...plain, summary: true }, { entries: 146, selected: 0, other: 0 }, true], undefined],
    ['nothing read', [plain, { entries: 0, selected: 0, other: 0 }, true], undefined],
    ['some selected', [plain, { entries: 146, selected: 3, other: 0 }, true], undefined],
    ['other lines, raw: none written, said', [plain, { entries: 1, selected: 0, other: 2 }, true], NOTICE('the one entry read was not selected')],
    ['other lines shown by pretty: the screen is not empty', [{ ...plain, output: 'pretty' }, { entries: 1, selected: 0, other: 2 }, true], undefined],
    ['other lines written by --keep-other', [{ ...plain, keepOther: true }, { entries: 1, selected: 0, other: 2 }, true], undefined],
    // From a CLI trial: --since 15m on last week's file said only "none"; where the entries lie in time is said.
    [
      'the times of the entries the time bounds looked at',
      [{ ...plain, utc: true }, { entries: 2, selected: 0, other: 0, timesRead: { first: Date.parse('2026-11-22T09:57:50.112Z'), last: Date.parse('2026-11-22T09:59:02.300Z') } }, true],
      'logtype: none of the 2 entries read was selected (the options that select: -t, -l, --since, --until, -c, -g, …); the entries the time bounds looked at run from 2026-11-22 09:57:50.112Z to 2026-11-22 09:59:02.300Z\n',
    ],
  ];
  for (const [what, args, notice] of rows) t.is(noneSelectedNotice(...args), notice, what);
});

test('runFilter to a terminal, --since after every line: nothing on stdout, the notice on stderr, exit 0', async (t) => {
  const input = ['2026-11-22T09:58:00.000+00:00', '2026-11-22T09:59:00.000+00:00'].map((time) => entryLine('mongodb', `{"t":{"$date":"${time}"},"s":"I","c":"REPL","id":1,"ctx":"x","msg":"m"}`)).join('\n');
  const sink = () => {
    let text = '';
    return { stream: new Writable({ write: (chunk, _encoding, done) => void ((text += String(chunk)), done()) }), text: () => text };
  };
  const out = sink();
  const err = sink();
  const options: FilterOptions = {
    inputs: ['-'], types: [], exclude: [], invertGrep: false, query: { since: new Date('2026-11-23T00:00:00Z') },
    output: 'raw', expand: false, keepPrefix: false, keepOther: false, strict: false, quiet: false, summary: false, color: false, utc: true,
  };
  const status = await runFilter(options, { stdin: Readable.from([Buffer.from(`${input}\n`)]), stdout: out.stream, stderr: err.stream, stdoutIsTTY: true });
  t.is(status, 0);
  t.is(out.text(), '');
  t.is(err.text(), `${NOTICE('none of the 2 entries read was selected').trimEnd()}; the entries the time bounds looked at run from 2026-11-22 09:58:00.000Z to 2026-11-22 09:59:00.000Z\n`);
});
