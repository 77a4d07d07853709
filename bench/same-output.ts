/**
 * Whether two commands write the same bytes: both run on a sample of the bench's input, their
 * outputs compared whole. A row that says "same work" has this check printed beside it.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface OutputCheck {
  readonly same: boolean;
  /** What the check found, for the table. */
  readonly text: string;
  readonly oursBytes: number;
  readonly anchorBytes: number;
  /** The anchor's longest line and ours for the same entry (when both write a line an entry), in bytes. */
  readonly longest?: { readonly anchorBytes: number; readonly oursBytes: number };
}

/** Stdout of `bash -c script`, kept in a file (outputs can be larger than a string). */
function outputOf(script: string, file: string): Buffer {
  const result = spawnSync('bash', ['-c', `${script} > "${file}"`], { stdio: ['ignore', 'ignore', 'pipe'] });
  if (result.status !== 0) throw new Error(`bench: the output check's command failed (exit ${result.status}): ${script}\n${result.stderr.toString().slice(0, 2000)}`);
  const output = fs.readFileSync(file);
  fs.rmSync(file, { force: true });
  return output;
}

const count = (n: number): string => n.toLocaleString('en-US');

/**
 * Runs both scripts (`input` is the sample's path) and compares their outputs. Lines that differ
 * in what jq 1.6 cannot write are counted apart: it keeps 17 significant digits of a number, so
 * an integer above 2^53 comes out rounded; and it keeps one of a key written twice, so a value
 * holding such keys is shorter, which shows as the length in a cut value's marker.
 */
export function checkSameOutput(ours: (input: string) => string, anchor: (input: string) => string, sample: string, sampleEntries: number): OutputCheck {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'logtype-bench-check-'));
  try {
    const mine = outputOf(ours(sample), path.join(dir, 'ours'));
    const theirs = outputOf(anchor(sample), path.join(dir, 'anchor'));
    const sizes = { oursBytes: mine.length, anchorBytes: theirs.length };
    const where = `the first ${count(sampleEntries)} entries`;
    if (mine.equals(theirs)) return { same: true, text: `same bytes on ${where}`, ...sizes };
    const a = mine.toString('utf8').split('\n');
    const b = theirs.toString('utf8').split('\n');
    let longest: OutputCheck['longest'];
    if (a.length === b.length) {
      let at = 0;
      for (let i = 1; i < b.length; i++) if (b[i]!.length > b[at]!.length) at = i;
      longest = { anchorBytes: Buffer.byteLength(b[at]!), oursBytes: Buffer.byteLength(a[at]!) };
    }
    const rounded = (line: string) => line.replace(/\d{16,}/g, 'N');
    const uncut = (line: string) => line.replace(/…\(\d+ chars\)/g, '…(N chars)');
    let differ = 0;
    let bigIntegers = 0;
    let cutLength = 0;
    let first = -1;
    for (let i = 0; i < Math.max(a.length, b.length); i++) {
      if (a[i] === b[i]) continue;
      differ++;
      const x = rounded(a[i] ?? '');
      const y = rounded(b[i] ?? '');
      if (a[i] !== undefined && b[i] !== undefined && x === y) bigIntegers++;
      else if (a[i] !== undefined && b[i] !== undefined && uncut(x) === uncut(y)) cutLength++;
      else if (first < 0) first = i + 1;
    }
    const lines = Math.max(a.length, b.length) - 1;
    const rest = differ - bigIntegers - cutLength;
    const parts = [`NOT the same bytes on ${where}: ${count(differ)} of ${count(lines)} lines differ`];
    if (bigIntegers > 0) parts.push(`${count(bigIntegers)} only in integers above 2^53, which jq 1.6 rounds`);
    if (cutLength > 0) parts.push(`${count(cutLength)} only in the length a cut value's marker gives (a value with a key written twice: jq keeps one)`);
    if (rest > 0) parts.push(`${count(rest)} otherwise (the first: line ${first})`);
    return { same: false, text: parts.join('; '), ...sizes, ...(longest ? { longest } : {}) };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
