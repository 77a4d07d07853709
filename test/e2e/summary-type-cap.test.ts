/**
 * 100,000 made-up logType values (a broken shipper, a fuzzer): summary's type table keeps
 * MAX_TYPES rows and one shared row that says how many more types it holds, in text, JSON and
 * the page, and its memory stays bounded (the table once had 100,004 rows and 212 MB of RSS).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { MAX_TYPES, OTHER_TYPES } from '../../src/summary/summary-limits.js';
import type { Summary } from '../../src/summary/summary.js';
import { FILTER_BIN, cleanEnv, tempDir } from '../_helpers/sidecar-process.js';

const TYPES = 100_000;

test('summary over 100,000 distinct types: MAX_TYPES rows and one "and N more types" row, in text, JSON and HTML', (t) => {
  const dir = tempDir('logtype-type-cap-');
  try {
    const input = path.join(dir, 'entries.jsonl');
    const lines: string[] = [];
    // The first type has the most entries, so it leads the table.
    for (let i = 0; i < 10; i++) lines.push(JSON.stringify({ logType: 'mongodb', contents: 'not a server line' }));
    for (let i = 0; i < TYPES; i++) lines.push(JSON.stringify({ logType: `made-up-${i}`, contents: `line ${i}` }));
    fs.writeFileSync(input, `${lines.join('\n')}\n`);
    const html = path.join(dir, 'report.html');

    const json = spawnSync(process.execPath, [FILTER_BIN, 'summary', '--json', input], { env: cleanEnv(), encoding: 'utf8', maxBuffer: 64 << 20 });
    t.is(json.status, 0, json.stderr);
    const summary = JSON.parse(json.stdout) as Summary;
    t.is(summary.types.length, MAX_TYPES + 1);
    t.is(summary.types[0]!.logType, 'mongodb');
    const other = summary.types.find((row) => row.logType === OTHER_TYPES)!;
    const known = MAX_TYPES - 1; // mongodb and the first 99 made-up types have rows of their own
    t.is(other.entries, TYPES - known);
    t.deepEqual(summary.otherTypes, { names: 10_000, atLeast: true });
    t.is(summary.lines.entries, TYPES + 10);

    const text = spawnSync(process.execPath, [FILTER_BIN, 'summary', '--html', html, input], { env: cleanEnv(), encoding: 'utf8', maxBuffer: 64 << 20 });
    t.is(text.status, 0, text.stderr);
    const typeRows = text.stdout.split('\n').filter((line) => /^ {2}(mongodb|made-up-\d+|and at least) /.test(line));
    t.is(typeRows.length, MAX_TYPES + 1);
    t.regex(text.stdout, /^ {2}and at least 10,000 more types +99,901 /m);
    t.regex(text.stdout, /^logtype summary: 100,010 entries read/m);
    const page = fs.readFileSync(html, 'utf8');
    t.true(page.includes('and at least 10,000 more types'));
    t.is(page.match(/made-up-\d+</g)?.length ?? 0, known, 'no row for a type past the cap');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('summary grammar: one entry, one line that was not an entry', (t) => {
  const run = spawnSync(process.execPath, [FILTER_BIN, 'summary'], {
    env: cleanEnv(),
    encoding: 'utf8',
    input: `${JSON.stringify({ logType: 'mongodb', contents: 'x' })}\nnot an entry\n`,
  });
  t.is(run.status, 0, run.stderr);
  t.regex(run.stdout, /^logtype summary: 1 entry read, 1 selected, 1 line that was not an entry$/m);
});

test('summary of an empty input says so once, with no "from - to -"', (t) => {
  const dir = tempDir('logtype-empty-');
  try {
    const html = path.join(dir, 'report.html');
    const run = spawnSync(process.execPath, [FILTER_BIN, 'summary', '--html', html], { env: cleanEnv(), encoding: 'utf8', input: '' });
    t.is(run.status, 0, run.stderr);
    t.regex(run.stdout, /^logtype summary: 0 entries read, 0 selected, 0 lines that were not entries$/m);
    const page = fs.readFileSync(html, 'utf8');
    t.false(page.includes('from - to -'));
    t.is(page.match(/No timed lines\./g)?.length, 1);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
