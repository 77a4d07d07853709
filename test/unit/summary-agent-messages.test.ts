/**
 * The agents' and the operator's error and warning messages in the summary: grouped by shape,
 * every number masked, and each group with its first message as written, which a group of one
 * shows whole. On the agent lines quoted from public issue threads (test/fixtures/real/SOURCES.md):
 * the masked shape of `Error checking out client (0x0) for connParam=opslog-backup-0…:27017`
 * no longer says which host.
 */
import fs from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { firstLineOf } from '../../src/parse/continued-record.js';
import { palette } from '../../src/render/colors.js';
import { renderSummaryHtml } from '../../src/summary/render-summary-html.js';
import { notListedWords, renderSummaryText } from '../../src/summary/render-summary-text.js';
import { escapeHtml } from '../../src/summary/time-charts.js';
import { SummaryCollector } from '../../src/summary/summary-collector.js';
import { readRecords } from '../_helpers/read-records.js';
import { REAL_DATA, tempDir } from '../_helpers/sidecar-process.js';
import { withCause } from '../../src/summary/problem-messages.js';

test('agent-issue-threads.log: each error or warning group keeps its first message as written, and a group of one shows it whole', async (t) => {
  const { records } = await readRecords(path.join(REAL_DATA, 'agent-issue-threads.log'), 'automation-agent');
  const collector = new SummaryCollector();
  for (const r of records) collector.add(r.logType, r.record, undefined, { contents: r.contents });
  const summary = collector.summary({ entries: records.length, selected: records.length, notEntries: 0 });
  const problems = records.filter((r) => r.record?.level === 'error' || r.record?.level === 'warn');
  const groups = summary.problems.flatMap((p) => p.messages);
  t.is(groups.reduce((n, g) => n + g.count, 0), problems.length);
  // As written, with the error a record carries in a field of its own (a server line's attr.error).
  const written = problems.map((r) => withCause(firstLineOf(r.record!), r.record!));
  for (const group of groups) t.true(written.includes(group.example), group.example);
  // A message whose numbers the shape masks: what it was is the example's to say.
  const masked = groups.filter((g) => g.count === 1 && g.message !== g.example);
  t.true(masked.length > 0, 'a message with numbers');
  const text = renderSummaryText(summary, { palette: palette(false), utc: true, width: 60 });
  for (const group of masked) {
    t.true(text.includes(`  1  ${group.level.padEnd(5)}  ${group.example}\n`), group.example);
    t.false(text.includes(`  1  ${group.level.padEnd(5)}  ${group.message}\n`), group.message);
  }
});

/**
 * A group of several messages shows its first as written beside its shape, in the text (under
 * it, cut as the slowest operations' lines are) and on the page: the shape alone no longer said
 * which host. agent-issue-threads.log read once, and as two pods' logs (each pod's agent wrote
 * the same lines, the same error twice).
 */
for (const copies of [1, 2]) {
  test(`agent-issue-threads.log read ${copies === 1 ? 'once' : 'as two pods\' logs'}: a group of several messages shows its first as written beside its shape, in the text and on the page`, async (t) => {
    const { records } = await readRecords(path.join(REAL_DATA, 'agent-issue-threads.log'), 'automation-agent');
    const collector = new SummaryCollector();
    for (let copy = 0; copy < copies; copy++) for (const r of records) collector.add(r.logType, r.record, undefined, { contents: r.contents });
    const summary = collector.summary({ entries: records.length * copies, selected: records.length * copies, notEntries: 0 });
    const groups = summary.problems.flatMap((p) => p.messages);
    t.true(groups.every((g) => g.count === copies));
    const text = renderSummaryText(summary, { palette: palette(false), utc: true, width: 60 });
    const page = renderSummaryHtml(summary);
    const masked = groups.filter((g) => g.message !== g.example);
    t.true(masked.length > 0, 'a message with numbers');
    for (const g of groups) {
      const shown = copies > 1 && g.message !== g.example;
      const head = `  ${String(copies).padStart(7)}  ${g.level.padEnd(5)}  ${copies === 1 ? g.example : g.message}\n`;
      t.true(text.includes(head), head);
      // Under the shape, its first message as written (the issue thread's line is under 400 characters: whole).
      t.is(text.includes(`${head}${' '.repeat(18)}first: ${g.example}\n`), shown, g.example);
      t.is(page.includes(`${escapeHtml(g.message)}<br><span class="example">first: ${escapeHtml(g.example)}</span>`), shown, g.example);
    }
    t.is(text.includes('first: '), copies > 1);
  });
}

// From an incident trial: 26 distinct agent errors, ten rows shown, and nothing said of the rest.
test('every error message is listed; warnings past ten groups are counted in one line, in the text, the JSON and the page', async (t) => {
  const words = (i: number): string => `${String.fromCharCode(97 + (i % 26))}${String.fromCharCode(97 + Math.floor(i / 26))}`;
  const line = (level: string, message: string): string =>
    JSON.stringify({ logType: 'automation-agent', contents: `[2020/06/03 01:53:26.135] [.${level}] [cm/director/director.go:planAndExecute:564] <top> [01:53:26.135] ${message}` });
  const lines = [
    ...Array.from({ length: 26 }, (_, i) => line('error', `Failed to plan step ${words(i)}`)),
    ...Array.from({ length: 15 }, (_, i) => line('warn', `Slow response from ${words(i)}`)),
    line('warn', 'Slow response from aa'),
  ];
  const dir = tempDir('logtype-agent-messages-');
  const file = path.join(dir, 'agent.log');
  fs.writeFileSync(file, `${lines.join('\n')}\n`);
  try {
    const { records } = await readRecords(file);
    const collector = new SummaryCollector();
    for (const r of records) collector.add(r.logType, r.record, undefined, { contents: r.contents });
    const summary = collector.summary({ entries: records.length, selected: records.length, notEntries: 0 });
    const [problems] = summary.problems;
    t.is(problems!.messages.filter((m) => m.level === 'error').length, 26, 'every error');
    t.is(problems!.messages.length, 26);
    t.deepEqual(problems!.notListed, { messages: 15, lines: 16, ungrouped: 0 });
    const text = renderSummaryText(summary, { palette: palette(false), utc: true, width: 60 });
    t.true(text.includes('  … 15 more warning messages (16 lines)\n'), text);
    t.true(renderSummaryHtml(summary).includes('<p>… 15 more warning messages (16 lines)</p>'));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test("the words for what a log's problems list leaves out: warnings' groups, lines past the messages kept, or both", (t) => {
  const n = (value: number): string => value.toLocaleString('en-US');
  t.is(notListedWords({ messages: 15, lines: 16, ungrouped: 0 }, n), '… 15 more warning messages (16 lines)');
  t.is(notListedWords({ messages: 1, lines: 1, ungrouped: 0 }, n), '… 1 more warning message (1 line)');
  t.is(notListedWords({ messages: 0, lines: 300, ungrouped: 300 }, n), '… 300 lines past the messages kept (300 lines)');
  t.is(notListedWords({ messages: 2, lines: 2302, ungrouped: 2300 }, n), '… 2 more warning messages and 2,300 lines past the messages kept (2,302 lines)');
});

// From an incident trial: with several pods, an agent's record is held until its pod's next line,
// so records reach the summary out of time order, and a group's "first" was whichever came first.
test('a message group\'s example is its earliest message by time, whatever order the records came in', (t) => {
  const collector = new SummaryCollector();
  const record = (host: string, seconds: number) => ({ level: 'error' as const, message: `Error dialing host ${host}:27017`, time: Date.UTC(2026, 10, 22, 10, 0, seconds) });
  // The first a record without a time (NaN: a time that did not parse): any with one is earlier.
  collector.add('automation-agent', { ...record('a-9', 0), time: Number.NaN });
  for (const [host, seconds] of [['a-1', 5], ['a-0', 1], ['a-2', 9]] as const) collector.add('automation-agent', record(host, seconds));
  const [messages] = collector.summary({ entries: 4, selected: 4, notEntries: 0 }).problems;
  t.is(messages?.messages[0]?.example, 'Error dialing host a-0:27017');
});
