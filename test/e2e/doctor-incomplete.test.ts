/**
 * doctor's report says what it did not look at, in the text and in --json: an empty input (a
 * `kubectl logs` that failed, its error on the terminal and nothing in the pipe) is not "no known
 * problem found"; an input cut short (a rotated gzip copied while it was written) is named in the
 * report itself, not only on stderr, so a report kept or pasted into a ticket does not pass for
 * the whole log.
 */
import fs from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { runFilter } from '../_helpers/filter-process.js';
import { REAL_DATA, tempDir } from '../_helpers/sidecar-process.js';

test('doctor on an empty input says nothing was looked at, not that no problem was found', (t) => {
  const text = runFilter(['doctor', '--color', 'never'], '');
  t.is(text.status, 0);
  t.notRegex(text.stdout, /No known problem found/);
  t.is(text.stdout, 'Nothing looked at: the input was empty, 0 lines. Check the command that feeds doctor (kubectl logs POD, its -c CONTAINER, --since).\n');
  const json = JSON.parse(runFilter(['doctor', '--json'], '').stdout) as object;
  t.deepEqual(json, { linesRead: 0, problems: [] });
});

test('doctor on a gzip file cut short says so in its report, text and --json; read whole, it does not', (t) => {
  const dir = tempDir('logtype-doctor-incomplete-');
  try {
    const whole = fs.readFileSync(path.join(REAL_DATA, 'mongod-replica-rs2.log.gz'));
    const cut = path.join(dir, 'mongodb.log.1.gz');
    fs.writeFileSync(cut, whole.subarray(0, 60_000));
    const why = `cannot read ${cut}: its gzip data ends early (the file was cut short)`;
    const text = runFilter(['doctor', '--color', 'never', cut]);
    t.is(text.status, 2);
    t.true(text.stdout.startsWith(`incomplete: ${why}; only what was read of it was looked at\nNo known problem found in `), text.stdout);
    const json = runFilter(['doctor', '--json', cut]);
    t.is(json.status, 2);
    t.deepEqual((JSON.parse(json.stdout) as { incomplete?: unknown }).incomplete, { unread: [why], interrupted: false });
    // Cut in its header: nothing read, and the report does not call the input empty.
    const header = path.join(dir, 'mongodb.log.2.gz');
    fs.writeFileSync(header, whole.subarray(0, 12));
    t.regex(runFilter(['doctor', '--color', 'never', header]).stdout, /^Nothing looked at: nothing was read \(incomplete, above\), 0 lines\./m);
    const complete = path.join(dir, 'mongodb.log.3.gz');
    fs.writeFileSync(complete, whole);
    t.false('incomplete' in (JSON.parse(runFilter(['doctor', '--json', complete]).stdout) as object));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
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
