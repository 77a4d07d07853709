/**
 * A rotated log copied while it was being compressed ends early: summary and doctor report what
 * was read of it, name the file and the reason on stderr, and exit non-zero (summary 1, doctor 2);
 * their reports say themselves that they are incomplete, so one kept or pasted into a ticket
 * does not pass for the whole log.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import test from 'ava';
import { FILTER_BIN, REAL_DATA, cleanEnv, tempDir } from '../_helpers/sidecar-process.js';

test('a truncated gzip file: summary and doctor report what was read, warn naming the file, exit non-zero', (t) => {
  const dir = tempDir('logtype-truncated-gz-');
  try {
    const whole = fs.readFileSync(path.join(REAL_DATA, 'mongod-replica-rs1.log.gz'));
    const cut = path.join(dir, 'mongodb.log.1.gz');
    fs.writeFileSync(cut, whole.subarray(0, 300_000));
    // The lines a tolerant gunzip gets out of the cut file: the whole lines among them are what must be counted.
    const readable = zlib.gunzipSync(whole.subarray(0, 300_000), { finishFlush: zlib.constants.Z_SYNC_FLUSH }).toString('utf8');
    const wholeLines = readable.split('\n').length - 1;
    t.true(wholeLines > 1000);

    const summary = spawnSync(process.execPath, [FILTER_BIN, 'summary', '--json', '--as', 'mongodb', cut], { env: cleanEnv(), encoding: 'utf8' });
    t.is(summary.status, 1);
    t.is(summary.stderr, `logtype summary: read ${cut} up to where its gzip data ends early (the file was cut short); the summary covers what was read of it\n`);
    const json = JSON.parse(summary.stdout) as { lines: { entries: number }; incomplete?: unknown };
    const counted = json.lines.entries;
    // Every whole line, and at most the cut last one.
    t.true(counted === wholeLines || counted === wholeLines + 1, `${counted} entries against ${wholeLines} whole lines`);
    // The report says so itself: a page or JSON attached to a ticket does not pass for the whole log.
    t.deepEqual(json.incomplete, { unread: [`read ${cut} up to where its gzip data ends early (the file was cut short)`], interrupted: false });
    const page = path.join(dir, 'report.html');
    const text = spawnSync(process.execPath, [FILTER_BIN, 'summary', '--html', page, '--as', 'mongodb', cut], { env: cleanEnv(), encoding: 'utf8' });
    t.is(text.status, 1);
    t.regex(text.stdout, new RegExp(`^incomplete: read ${cut.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} up to where its gzip data ends early \\(the file was cut short\\); this summary covers what was read of it$`, 'm'));
    t.regex(fs.readFileSync(page, 'utf8'), /<p class="incomplete"><b>Incomplete:<\/b> read [^<]*mongodb\.log\.1\.gz up to where its gzip data ends early \(the file was cut short\);/);
    // Cut within its gzip header: nothing was read, and the report does not call the input empty.
    const header = path.join(dir, 'mongodb.log.3.gz');
    fs.writeFileSync(header, whole.subarray(0, 12));
    const nothing = spawnSync(process.execPath, [FILTER_BIN, 'summary', '--as', 'mongodb', header], { env: cleanEnv(), encoding: 'utf8' });
    t.is(nothing.status, 1);
    t.regex(nothing.stdout, /^ {2}none: nothing was read \(incomplete, above\)$/m);
    // Read whole, it says nothing of the kind.
    const wholeFile = path.join(dir, 'mongodb.log.2.gz');
    fs.writeFileSync(wholeFile, whole);
    const complete = spawnSync(process.execPath, [FILTER_BIN, 'summary', '--json', '--as', 'mongodb', wholeFile], { env: cleanEnv(), encoding: 'utf8' });
    t.is(complete.status, 0);
    t.false('incomplete' in (JSON.parse(complete.stdout) as object));

    const doctor = spawnSync(process.execPath, [FILTER_BIN, 'doctor', '--as', 'mongodb', cut], { env: cleanEnv(), encoding: 'utf8' });
    t.is(doctor.status, 2);
    t.is(doctor.stderr, `logtype doctor: read ${cut} up to where its gzip data ends early (the file was cut short); what was read of it was looked at\n`);
    t.regex(doctor.stdout, new RegExp(`in (${wholeLines.toLocaleString('en-US')}|${(wholeLines + 1).toLocaleString('en-US')}) lines`));
    // doctor's report says so itself too, text and --json; cut in its header, it does not call the input empty; read whole, it says nothing of the kind.
    const why = `read ${cut} up to where its gzip data ends early (the file was cut short)`;
    const doctorText = spawnSync(process.execPath, [FILTER_BIN, 'doctor', '--color', 'never', cut], { env: cleanEnv(), encoding: 'utf8' });
    t.is(doctorText.status, 2);
    t.true(doctorText.stdout.startsWith(`incomplete: ${why}; only what was read of it was looked at\nNo known problem found in `), doctorText.stdout);
    const doctorJson = spawnSync(process.execPath, [FILTER_BIN, 'doctor', '--json', cut], { env: cleanEnv(), encoding: 'utf8' });
    t.is(doctorJson.status, 2);
    t.deepEqual((JSON.parse(doctorJson.stdout) as { incomplete?: unknown }).incomplete, { unread: [why], interrupted: false });
    const doctorHeader = spawnSync(process.execPath, [FILTER_BIN, 'doctor', '--color', 'never', header], { env: cleanEnv(), encoding: 'utf8' });
    t.regex(doctorHeader.stdout, /^Nothing looked at: nothing was read \(incomplete, above\), 0 lines\./m);
    const doctorWhole = spawnSync(process.execPath, [FILTER_BIN, 'doctor', '--json', wholeFile], { env: cleanEnv(), encoding: 'utf8' });
    t.false('incomplete' in (JSON.parse(doctorWhole.stdout) as object));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('a gzip file with bytes after its last member (trailing garbage): every line before them is read, as gzip -dc reads them, and stderr says the file is damaged or cut short', (t) => {
  const dir = tempDir('gzip-garbage');
  const lines = Array.from({ length: 20000 }, (_, i) => JSON.stringify({ logType: 'mongodb', contents: `line ${i}` }));
  const file = path.join(dir, 'pod.log.gz');
  for (const garbage of ['x', 'junk', 'g'.repeat(200)]) {
    fs.writeFileSync(file, Buffer.concat([zlib.gzipSync(`${lines.join('\n')}\n`), Buffer.from(garbage)]));
    const run = spawnSync(process.execPath, [FILTER_BIN, '-o', 'raw', file], { env: cleanEnv(), encoding: 'utf8', maxBuffer: 1 << 26 });
    const out = run.stdout.split('\n').filter(Boolean);
    t.is(out.length, 20000, `${garbage.length} bytes of garbage`);
    t.is(out.at(-1), 'line 19999');
    // (One byte reads as a member cut short; more as a damaged one.)
    t.regex(run.stderr, /damaged|ends early/);
  }
});
