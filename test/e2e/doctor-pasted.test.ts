/**
 * Doctor over an operator's console log with other output after it in one input (pasted
 * kubectl output, the agent's stderr): a console record goes on only with its stack trace, so
 * each problem is found in the line that shows it, with that line's time and type (none, for
 * pasted lines), and its example is that line, not the operator record before it.
 */
import test from 'ava';
import fs from 'node:fs';
import path from 'node:path';
import { runFilter } from '../_helpers/filter-process.js';
import { REAL_DATA, REPO, tempDir } from '../_helpers/sidecar-process.js';

const read = (file: string) => fs.readFileSync(file, 'utf8');
/** The real operator lines: JSON, then console records (the last at 2020-10-27T09:41:43.463Z). */
const OPERATOR = read(path.join(REAL_DATA, 'operator-issue-threads.log'));
const DISK_FULL = read(path.join(REAL_DATA, 'agent-stderr-disk-full.log'));
const KUBECTL = read(path.join(REPO, 'test/fixtures/pasted/kubectl-output.log'));
const kubectlLine = (start: string) => KUBECTL.split('\n').find((line) => line.trimStart().startsWith(start))!;

interface Finding {
  readonly id: string;
  readonly count: number;
  readonly first?: string;
  readonly example: string;
  readonly exampleType: string | null;
}

function doctor(args: readonly string[], input = ''): { linesRead: number; problems: Finding[] } {
  const result = runFilter(['doctor', '--json', ...args], input);
  if (result.status !== 1) throw new Error(`doctor exited ${result.status}: ${result.stderr}`);
  return JSON.parse(result.stdout) as { linesRead: number; problems: Finding[] };
}

const found = (problems: readonly Finding[]) => problems.map(({ id, count, first, example, exampleType }) => ({ id, count, first, example, exampleType }));

test("kubectl output pasted after the operator's console lines: its problems are its own lines', not the operator's", (t) => {
  const expected = [
    { id: 'pod-pending-resources', count: 1, first: undefined, example: kubectlLine('Warning  FailedScheduling'), exampleType: null },
    { id: 'admission-denied', count: 1, first: undefined, example: kubectlLine('Error from server'), exampleType: null },
  ];
  // Piped in as one stream, and as one file (the field's `logtype doctor doc.log`).
  const input = OPERATOR + KUBECTL;
  const piped = doctor([], input);
  t.is(piped.linesRead, 8 + 7);
  t.deepEqual(found(piped.problems), expected);
  const file = path.join(tempDir('doctor-pasted'), 'doc.log');
  fs.writeFileSync(file, input);
  t.deepEqual(found(doctor(['--utc', file]).problems), expected);
  // The text report names no operator and no operator time for them.
  const text = runFilter(['doctor', '--utc', file]).stdout;
  t.notRegex(text, /in operator|2020-10-27/, text);
  t.regex(text, /Seen: +1 time, time unknown, in lines that are not entries \(shows in: events/);
});

test("the agent's stderr after the operator's console lines (cat operator.log agent-stderr.log | logtype doctor): disk full, not in the operator's log", (t) => {
  const { problems } = doctor([], OPERATOR + DISK_FULL);
  t.deepEqual(found(problems), [{ id: 'agent-disk-full', count: 1, first: undefined, example: DISK_FULL.trimEnd(), exampleType: null }]);
});

test('a console record still goes on with its stack trace before the pasted lines', (t) => {
  const record = '2021-03-09T15:47:16.290Z\tERROR\tcontroller/controller.go:218\tReconciler error\t{"ReplicaSet": "other/db", "error": "pvc not found to schedule the pod"}';
  const trace = ['github.com/go-logr/zapr.(*zapLogger).Error', '\t/go/pkg/mod/github.com/go-logr/zapr@v0.4.0/zapr.go:132'];
  const { problems } = doctor([], [record, ...trace].join('\n') + '\n' + KUBECTL);
  t.deepEqual(
    found(problems).map(({ id, first, example, exampleType }) => ({ id, first, example, exampleType })),
    [
      { id: 'pvc-not-found', first: '2021-03-09T15:47:16.290Z', example: [record, ...trace].join('\n'), exampleType: 'operator' },
      { id: 'pod-pending-resources', first: undefined, example: kubectlLine('Warning  FailedScheduling'), exampleType: null },
      { id: 'admission-denied', first: undefined, example: kubectlLine('Error from server'), exampleType: null },
    ],
  );
});

test("kubectl output pasted after an agent's own lines (kubectl logs of its container, then kubectl describe): its problems are its own lines', not the agent's", (t) => {
  const agent = read(path.join(REAL_DATA, 'agent-community-operator.log'));
  const { problems } = doctor([], agent + KUBECTL);
  t.deepEqual(found(problems), [
    { id: 'pod-pending-resources', count: 1, first: undefined, example: kubectlLine('Warning  FailedScheduling'), exampleType: null },
    { id: 'admission-denied', count: 1, first: undefined, example: kubectlLine('Error from server'), exampleType: null },
  ]);
});
