/**
 * `kubectl logs --prefix -l app=… --all-containers` of a replica set, or one file per pod: a
 * problem is the pod's that shows it. doctor names the pods (or inputs) and every log a problem
 * showed in, in the text and in --json alike, from the real lines (test/fixtures/real/).
 */
import fs from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { entryLine, runFilter } from '../_helpers/filter-process.js';
import { REAL_DATA, tempDir } from '../_helpers/sidecar-process.js';

const real = (name: string): string[] => fs.readFileSync(path.join(REAL_DATA, name), 'utf8').split('\n').filter((line) => line.length > 0);
const prefixed = (pod: string, lines: readonly string[]): string[] => lines.map((line) => `[pod/${pod}/mongodb-enterprise-database] ${line}`);

interface Report {
  readonly problems: readonly { readonly id: string; readonly count: number; readonly types: string[]; readonly sources: string[]; readonly inOtherLines: boolean }[];
}

// The agent's full log disk on my-rs-2 only: as the launcher's entry, and as the agent's bare stderr line.
const diskFull = real('agent-stderr-disk-full.log')[0]!;
const podsStream = [
  ...prefixed('my-rs-0', real('kubectl-logs-enterprise-agent.log')),
  ...prefixed('my-rs-2', [entryLine('automation-agent-stderr', diskFull), diskFull]),
  ...prefixed('my-rs-1', real('kubectl-logs-enterprise-agent.log')),
].join('\n');

test('doctor names the pod a problem showed in, and every log, from kubectl --prefix of several pods', (t) => {
  const text = runFilter(['doctor', '--color', 'never'], podsStream);
  t.is(text.status, 1);
  t.regex(text.stdout, /^ {2}Seen: {5}2 times, time unknown, in automation-agent-stderr; lines that are not entries \(shows in: automation-agent-stderr\)$/m);
  t.regex(text.stdout, /^ {2}Source: {3}pod\/my-rs-2\/mongodb-enterprise-database$/m);
  t.notRegex(text.stdout, /my-rs-[01]/);
  const json = JSON.parse(runFilter(['doctor', '--json'], podsStream).stdout) as Report;
  t.deepEqual(
    json.problems.map(({ id, count, types, sources, inOtherLines }) => ({ id, count, types, sources, inOtherLines })),
    [{ id: 'agent-disk-full', count: 2, types: ['automation-agent-stderr'], sources: ['pod/my-rs-2/mongodb-enterprise-database'], inOtherLines: true }],
  );
});

test('doctor names the input a problem showed in, when it reads one file per pod', (t) => {
  const dir = tempDir('logtype-doctor-sources-');
  try {
    const files = ['my-rs-0.log', 'my-rs-1.log'].map((name) => path.join(dir, name));
    fs.copyFileSync(path.join(REAL_DATA, 'kubectl-logs-enterprise-agent.log'), files[0]!);
    fs.copyFileSync(path.join(REAL_DATA, 'agent-issue-threads.log'), files[1]!);
    const json = JSON.parse(runFilter(['doctor', '--json', ...files]).stdout) as Report;
    t.deepEqual(json.problems.map(({ id, sources }) => ({ id, sources })), [{ id: 'agent-disk-full', sources: [files[1]!] }]);
    // One input names no source: the report says nothing it does not know.
    const one = JSON.parse(runFilter(['doctor', '--json', files[1]!]).stdout) as Report;
    t.deepEqual(one.problems.map(({ sources }) => sources), [[]]);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

// From the field trial: stern --timestamps in front of a line that is not an entry (the agent's
// bare stderr) left its time unknown and its pod unnamed. stern's two words alone could be any
// line's own, so only a prefix with its time is taken.
test("doctor reads stern --timestamps' time and pod in front of a line that is not an entry", (t) => {
  const input = [`my-rs-2 mongodb-agent 2026-11-22T09:58:00.123456789+09:00 ${diskFull}`, `my-rs-2 mongodb-agent ${diskFull}`].join('\n') + '\n';
  const json = JSON.parse(runFilter(['doctor', '--json'], input).stdout) as { problems: { id: string; count: number; first: string; last: string; sources: string[] }[] };
  t.like(json.problems[0], { id: 'agent-disk-full', count: 2, first: '2026-11-22T00:58:00.123Z', last: '2026-11-22T00:58:00.123Z' });
  t.deepEqual(json.problems[0]!.sources, ['my-rs-2 mongodb-agent']);
});
