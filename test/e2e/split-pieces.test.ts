/**
 * The sidecar cuts a line longer than --max-line-bytes into pieces ("partial":true on all but
 * the last); the filter, summary and doctor join them again. Pieces of one line share their
 * type and where they came from (a pod's container, under kubectl --prefix or stern), and
 * others may come between them: pieces are joined by type and source, never across either,
 * and pieces whose last never came are written at the end of the input, not dropped.
 */
import test from 'ava';
import { entryLine, runFilter } from '../_helpers/filter-process.js';

const lines = (text: string): string[] => text.split('\n').slice(0, -1);
const input = (...entries: string[]): string => `${entries.join('\n')}\n`;
const prefixed = (source: string, entry: string): string => `[${source}] ${entry}`;

test('pieces of two types interleaved, without -t: each type joined apart, in the order each line ends', (t) => {
  const stream = input(
    entryLine('mongodb', '{"msg":"A1', true),
    entryLine('mongodb-audit', '{"atype":"B1', true),
    entryLine('mongodb', 'A2', true),
    entryLine('custom-type', 'whole'),
    entryLine('mongodb-audit', 'B2"}'),
    entryLine('mongodb', 'A3"}'),
  );
  t.deepEqual(lines(runFilter(['-o', 'raw'], stream).stdout), ['whole', '{"atype":"B1B2"}', '{"msg":"A1A2A3"}']);
  t.deepEqual(lines(runFilter(['-o', 'entry'], stream).stdout), [
    entryLine('custom-type', 'whole'),
    entryLine('mongodb-audit', '{"atype":"B1B2"}'),
    entryLine('mongodb', '{"msg":"A1A2A3"}'),
  ]);
  // Selecting one type after the join gives the same line as selecting it alone.
  t.deepEqual(lines(runFilter(['-t', 'mongodb-audit'], stream).stdout), ['{"atype":"B1B2"}']);
  t.deepEqual(lines(runFilter(['-x', 'mongodb-audit,custom-type'], stream).stdout), ['{"msg":"A1A2A3"}']);
});

test('pieces of one type from two pods interleaved (kubectl --prefix): each pod\'s line joined apart', (t) => {
  const stream = input(
    prefixed('pod/db-0/mongodb-agent', entryLine('mongodb', 'zero-1 ', true)),
    prefixed('pod/db-1/mongodb-agent', entryLine('mongodb', 'one-1 ', true)),
    prefixed('pod/db-0/mongodb-agent', entryLine('mongodb', 'zero-2 ', true)),
    prefixed('pod/db-1/mongodb-agent', entryLine('mongodb', 'one-2')),
    prefixed('pod/db-0/mongodb-agent', entryLine('mongodb', 'zero-3')),
  );
  t.deepEqual(lines(runFilter(['-o', 'raw'], stream).stdout), ['one-1 one-2', 'zero-1 zero-2 zero-3']);
  t.deepEqual(lines(runFilter(['-o', 'entry', '--keep-prefix'], stream).stdout), [
    prefixed('pod/db-1/mongodb-agent', entryLine('mongodb', 'one-1 one-2')),
    prefixed('pod/db-0/mongodb-agent', entryLine('mongodb', 'zero-1 zero-2 zero-3')),
  ]);
  t.deepEqual(lines(runFilter(['-o', 'pretty', '--color', 'never'], stream).stdout), [
    'pod/db-1/mongodb-agent mongodb       one-1 one-2',
    'pod/db-0/mongodb-agent mongodb       zero-1 zero-2 zero-3',
  ]);
});

test('the same pod, two containers; and stern\'s prefix: joined by container', (t) => {
  const stream = input(
    prefixed('pod/db-0/a', entryLine('mongodb', 'a1 ', true)),
    prefixed('pod/db-0/b', entryLine('mongodb', 'b1 ', true)),
    `db-0 c ${entryLine('mongodb', 'c1 ', true)}`,
    prefixed('pod/db-0/a', entryLine('mongodb', 'a2')),
    `db-0 c ${entryLine('mongodb', 'c2')}`,
    prefixed('pod/db-0/b', entryLine('mongodb', 'b2')),
  );
  t.deepEqual(lines(runFilter(['-o', 'raw'], stream).stdout), ['a1 a2', 'c1 c2', 'b1 b2']);
});

test('kubectl --timestamps between pieces: the time differs, the source is the same, so they join', (t) => {
  const stream = input(
    `[pod/db-0/m] 2026-11-22T10:00:00.000000001Z ${entryLine('mongodb', 'p1 ', true)}`,
    `[pod/db-0/m] 2026-11-22T10:00:00.000000002Z ${entryLine('mongodb', 'p2')}`,
  );
  t.deepEqual(lines(runFilter(['-o', 'raw'], stream).stdout), ['p1 p2']);
});

test('pieces whose last never came are written at the end of the input, each line whole so far', (t) => {
  const one = input(entryLine('mongodb', 'first ', true), entryLine('mongodb', 'second', true));
  t.deepEqual(lines(runFilter(['-o', 'raw'], one).stdout), ['first second']);
  t.deepEqual(lines(runFilter(['-o', 'entry'], one).stdout), [entryLine('mongodb', 'first second')]);
  const several = input(
    entryLine('mongodb', 'm1 ', true),
    prefixed('pod/db-1/c', entryLine('mongodb', 'p1 ', true)),
    entryLine('mongodb-audit', 'a1 ', true),
    entryLine('mongodb', 'whole'),
    entryLine('mongodb', 'm2', true),
    entryLine('mongodb-audit', 'a2', true),
  );
  // 'whole' is of the type with pieces pending: it is their last piece.
  t.deepEqual(lines(runFilter(['-o', 'raw'], several).stdout).sort(), ['a1 a2', 'm1 whole', 'm2', 'p1 '].sort());
  // The last line without its newline too.
  t.deepEqual(lines(runFilter(['-o', 'raw'], entryLine('mongodb', 'no newline', true)).stdout), ['no newline']);
});

test('summary and doctor join the same way: a problem in pieces is found, also in pieces left at the end', (t) => {
  const split = input(
    entryLine('automation-agent-stderr', 'Logging error occurred: write /var/log/x.log: no space ', true),
    entryLine('mongodb', 'between'),
    entryLine('automation-agent-stderr', 'left on device'),
    entryLine('automation-agent-stderr', 'again: no space left ', true),
    entryLine('mongodb-audit', '{"atype":"logout"', true),
    entryLine('automation-agent-stderr', 'on device', true),
  );
  const doctor = runFilter(['doctor', '--json'], split);
  t.is(doctor.status, 1, doctor.stderr);
  const report = JSON.parse(doctor.stdout) as { problems: { id: string; count: number; example: string }[] };
  t.deepEqual(
    report.problems.map(({ id, count, example }) => ({ id, count, example })),
    [{ id: 'agent-disk-full', count: 2, example: 'Logging error occurred: write /var/log/x.log: no space left on device' }],
  );
  const summary = JSON.parse(runFilter(['summary', '--json'], split).stdout) as { types: { logType: string; entries: number }[]; lines: { selected: number } };
  t.is(summary.lines.selected, 4, 'one mongodb line, two joined stderr lines, one audit line left in pieces');
});

test('summary says what the joined pieces were as read: "2 entries read, 1 selected" is no entry left out', (t) => {
  const input = `${entryLine('mongodb', 'aaa', true)}\n${entryLine('mongodb', 'bbb')}\n${entryLine('mongodb', 'ccc')}\n`;
  const text = runFilter(['summary', '--color', 'never'], input);
  t.regex(text.stdout, /^logtype summary: 3 entries read, 2 selected \(3 as read: pieces of split lines joined\), 0 lines that were not entries\n/);
  const json = JSON.parse(runFilter(['summary', '--json'], input).stdout) as { lines: Record<string, number> };
  t.deepEqual(json.lines, { entries: 3, selected: 2, notEntries: 0, selectedAsRead: 3 });
  // Without pieces, nothing more is said.
  t.regex(runFilter(['summary', '--color', 'never'], `${entryLine('mongodb', 'ccc')}\n`).stdout, /^logtype summary: 1 entry read, 1 selected, 0 lines/);
  t.regex(runFilter(['summary', '--html', '-'], input).stdout, /2 selected \(3 as read: pieces of split lines joined\)/);
});
