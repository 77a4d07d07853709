/**
 * doctor's report says what it did not look at, in the text and in --json: an empty input (a
 * `kubectl logs` that failed, its error on the terminal and nothing in the pipe) is not "no known
 * problem found". An input cut short (a rotated gzip copied while it was written) is named in the
 * report itself: report-truncated-gzip.test.ts, beside summary's.
 */
import fs from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { runFilter } from '../_helpers/filter-process.js';
import { REAL_DATA } from '../_helpers/sidecar-process.js';

test('doctor on an empty input says nothing was looked at, not that no problem was found', (t) => {
  const text = runFilter(['doctor', '--color', 'never'], '');
  t.is(text.status, 0);
  t.notRegex(text.stdout, /No known problem found/);
  t.is(text.stdout, 'Nothing looked at: the input was empty, 0 lines. Check the command that feeds doctor (kubectl logs POD, its -c CONTAINER, --since).\n');
  const json = JSON.parse(runFilter(['doctor', '--json'], '').stdout) as object;
  t.deepEqual(json, { linesRead: 0, linesLookedAt: 0, problems: [] });
});

// From the field trial: a Docker json-file record around a line no format recognises (an
// agent's stderr) was looked at as its JSON: the example showed `{"log":…\n"…}` and its time
// was unknown. It is looked at as the container wrote it.
test("doctor on Docker json-file records of an agent's stderr: the line as written, its time from its head", (t) => {
  const diskFull = fs.readFileSync(path.join(REAL_DATA, 'agent-stderr-disk-full.log'), 'utf8').split('\n')[0]!;
  const stamped = `2026-11-22T09:58:00.123Z ${diskFull}`;
  const input = `${JSON.stringify({ log: `${stamped}\n`, stream: 'stderr', time: '2026-11-22T09:58:01.000000001Z' })}\n`;
  const json = JSON.parse(runFilter(['doctor', '--json'], input).stdout) as { problems: { id: string; example: string; first: string }[] };
  t.like(json.problems[0], { id: 'agent-disk-full', example: stamped, first: '2026-11-22T09:58:00.123Z' });
});
