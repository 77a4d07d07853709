/**
 * Records over several physical lines, read as `logtype` reads them (readEntries, EntrySelector):
 * lines from the same source continue a record, from another do not; a record is held across a
 * chunk's end (its bytes copied out before the next chunk reuses them); a log read as it is,
 * with kubectl's or stern's prefix.
 */
import test from 'ava';
import fs from 'node:fs';
import path from 'node:path';
import { KERNEL_INPUT_BYTES } from '../../src/kernels/json-kernels.js';
import { MAX_INTERLEAVED_LINES, removeAt } from '../../src/select/record-joiner.js';
import { readRecords } from '../_helpers/read-records.js';
import { REAL_DATA, REPO, tempDir } from '../_helpers/sidecar-process.js';

const dir = tempDir('joiner');
let files = 0;
function fileOf(text: string): string {
  const file = path.join(dir, `${++files}.log`);
  fs.writeFileSync(file, text);
  return file;
}

const view = async (text: string, as?: string) =>
  (await readRecords(fileOf(text), as)).records.map((r) => [r.logType, r.lines, r.record?.message ?? r.contents]);

test("an operator's console record and its stack trace, with kubectl's prefixes", async (t) => {
  const pod = (name: string, line: string) => `[pod/${name}/operator] 2026-11-22T10:00:00.000000001Z ${line}`;
  const text = [
    pod('op-1', '2021-03-09T15:47:16.290Z\tERROR\tcontroller/controller.go:218\tReconciler error\t{"ReplicaSet": "a/b"}'),
    pod('op-1', 'github.com/go-logr/zapr.(*zapLogger).Error'),
    pod('op-2', 'a line of another pod'),
    pod('op-1', '2021-03-09T15:47:17.000Z\tINFO\tc.go:1\tnext'),
  ].join('\n');
  t.deepEqual(await view(`${text}\n`), [
    ['operator', 2, 'Reconciler error\ngithub.com/go-logr/zapr.(*zapLogger).Error'],
    ['operator', 1, 'next'],
  ]);
  const { other } = await readRecords(fileOf(`${text}\n`));
  t.deepEqual(other, [pod('op-2', 'a line of another pod')]);
});

test("an operator's console record goes on with its panic report only: pasted output and the agent's stderr after it are lines of their own", async (t) => {
  const real = (file: string) => fs.readFileSync(file, 'utf8').split('\n').slice(0, -1);
  // The real console lines (the last four of the file), the panic report Go prints, then lines of no log.
  const operator = real(path.join(REAL_DATA, 'operator-issue-threads.log')).slice(-4);
  const panic = [
    'panic: runtime error: invalid memory address or nil pointer dereference [recovered]',
    '\tpanic: runtime error: invalid memory address or nil pointer dereference',
    '[signal SIGSEGV: segmentation violation code=0x1 addr=0x18 pc=0x1a2b3c4]',
    '',
    'goroutine 412 [running]:',
    'panic({0x1c2d3e0?, 0x2f4a5b0?})',
    '\t/usr/local/go/src/runtime/panic.go:884 +0x213',
    'created by sigs.k8s.io/controller-runtime/pkg/internal/controller.(*Controller[...]).Start.func2 in goroutine 97',
    '\t/go/pkg/mod/sigs.k8s.io/controller-runtime@v0.15.0/pkg/internal/controller/controller.go:223 +0x587',
  ];
  const pasted = real(path.join(REPO, 'test/fixtures/pasted/kubectl-output.log'));
  const diskFull = real(path.join(REAL_DATA, 'agent-stderr-disk-full.log'));
  const { records, other } = await readRecords(fileOf([...operator, ...panic, ...pasted, operator[3], ...diskFull].join('\n') + '\n'));
  t.deepEqual(
    records.map((r) => [r.logType, r.lines, r.time]),
    [
      ['operator', 1, Date.parse('2020-09-08T14:24:56.496Z')],
      ['operator', 1, Date.parse('2020-09-08T14:24:56.510Z')],
      ['operator', 1, Date.parse('2020-10-27T09:41:43.424Z')],
      ['operator', 1 + panic.length, Date.parse('2020-10-27T09:41:43.463Z')],
      ['operator', 1, Date.parse('2020-10-27T09:41:43.463Z')],
    ],
  );
  t.is(records[3]?.record?.message, ['StatefulSet Readiness', ...panic].join('\n'));
  t.deepEqual(other, [...pasted, ...diskFull]);
});

test("kubectl's --prefix alone before pasted console lines (tabs as spaces): the line's own time is no kubectl time", async (t) => {
  const pod = (line: string) => `[pod/op-1/operator] ${line}`;
  const text = [
    pod('2021-03-09T15:47:16.290Z    ERROR    c.go:218    failed'),
    pod('    /go/pkg/mod/x.go:128'),
    pod('2021-03-09T15:47:17.000Z    INFO    c.go:1    next'),
  ].join('\n');
  t.deepEqual(await view(`${text}\n`), [
    ['operator', 2, 'failed\n    /go/pkg/mod/x.go:128'],
    ['operator', 1, 'next'],
  ]);
});

test("stern's prefix: the same pod and container continue a record", async (t) => {
  const text = [
    'op-1 operator 2021-03-09T15:47:16.290Z\tERROR\tc.go:218\tfailed',
    'op-1 operator \t/go/pkg/mod/x.go:128',
    'op-2 operator not this one',
  ].join('\n');
  t.deepEqual(await view(`${text}\n`), [['operator', 2, 'failed\n\t/go/pkg/mod/x.go:128']]);
});

// From a review: with `stern --timestamps` each line has its own time in the prefix, so the
// continuation's prefix is never the head's text; its pod and container are the same.
test("stern's prefix with --timestamps: the same pod and container continue a record, whatever each line's time", async (t) => {
  const agent = fs.readFileSync(path.join(REAL_DATA, 'agent-issue-threads.log'), 'utf8').split('\n').slice(10, 12);
  const text = [
    `db-0 mongodb-agent 2026-11-22T09:58:00.000000001Z ${agent[0]}`,
    `db-0 mongodb-agent 2026-11-22T09:58:00.000000002Z ${agent[1]}`,
    `db-1 mongodb-agent 2026-11-22T09:58:00.000000003Z not this one`,
  ].join('\n');
  const records = await view(`${text}\n`);
  t.is(records.length, 1);
  t.like(records[0], { 0: 'automation-agent-stdout', 1: 2 });
  // --timestamps=short: two words of time, taken off the continuation too.
  const short = [`db-0 mongodb-agent 11-22 09:58:00 ${agent[0]}`, `db-0 mongodb-agent 11-22 09:58:01 ${agent[1]}`].join('\n');
  const joined = (await readRecords(fileOf(`${short}\n`))).records;
  t.is(joined.length, 1);
  t.true(joined[0]!.contents.endsWith(`\n${agent[1]}`), joined[0]!.contents);
});

test("an agent's record across a chunk's end: held, its bytes copied, joined", async (t) => {
  const entry = (contents: string) => JSON.stringify({ logType: 'automation-agent', contents });
  const head = entry('[2020-12-04T16:39:07.259-00] [.error] [cm/config/config.go:ReadClusterConfig:416] [16:39:07.259] Error validating syntax of cluster config : clusterConfig failed to validate:');
  const continuation = entry('&{builds 0xc00013cdc0} : Invalid type. Expected: array, given: null');
  // A long entry, then the head as the first chunk's last line: the continuation starts the
  // next chunk, which is as long, so it overwrites the buffer the first was read into.
  const fillText = (length: number) => entry(`[2020-12-04T16:39:07.000-00] [.info] [a.go:1] ${'x'.repeat(length)}`);
  const fill = fillText(KERNEL_INPUT_BYTES - (head.length + 1) - fillText(0).length - 1);
  const first = `${fill}\n${head}\n`;
  t.is(Buffer.byteLength(first), KERNEL_INPUT_BYTES);
  const input = `${first}${continuation}\n${entry('[2020-12-04T16:39:08.000-00] [.info] [a.go:1] next')}\n${fill}\n`;
  const records = (await readRecords(fileOf(input))).records;
  t.deepEqual(records.map((r) => [r.lines, r.record?.level, r.record?.message.slice(0, 40)]), [
    [1, 'info', 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx'],
    [2, 'error', 'Error validating syntax of cluster confi'],
    [1, 'info', 'next'],
    [1, 'info', 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx'],
  ]);
  t.is(records[1]?.record?.message, 'Error validating syntax of cluster config : clusterConfig failed to validate:\n&{builds 0xc00013cdc0} : Invalid type. Expected: array, given: null');
  t.is(records[1]?.record?.time, Date.parse('2020-12-04T16:39:07.259Z'));
  t.is(records[1]?.record?.component, 'cm/config/config.go:ReadClusterConfig:416');
  t.true(records[1]!.contents.startsWith('[2020-12-04T16:39:07.259-00] [.error]'));
});

test('a record held for at most so many lines; then the rest stand on their own', async (t) => {
  const text = ['[2026-11-22T10:00:00.000+0000] [.error] [a.go:1] dump:', ...Array.from({ length: 1200 }, (_, i) => `line ${i}`)].join('\n');
  const records = (await readRecords(fileOf(`${text}\n`), 'automation-agent')).records;
  t.is(records[0]?.lines, 1000);
  t.is(records.length, 1 + 201);
});

/**
 * `kubectl logs -l app=db --prefix --timestamps` of three database pods whose agents failed at
 * once: each pod's record over two lines (agent-issue-threads.log, lines 11-12, the same
 * failure in each pod) came with another pod's lines between its first line and the rest.
 */
test('records of several pods interleaved by kubectl: each pod continues its own record', async (t) => {
  const real = fs.readFileSync(path.join(REAL_DATA, 'agent-issue-threads.log'), 'utf8').split('\n');
  const [head, rest] = [real[10]!, real[11]!];
  const line = (pod: string, contents: string, ns: number) =>
    `[pod/${pod}/mongodb-enterprise-database] 2020-12-04T16:39:07.${String(ns).padStart(9, '0')}Z ${JSON.stringify({ logType: 'automation-agent-verbose', contents })}`;
  const text = [line('db-0', head, 1), line('db-1', head, 2), line('db-2', head, 3), line('db-1', rest, 4), line('db-0', rest, 5), line('db-2', rest, 6), line('db-0', real[12]!, 7)].join('\n');
  const { records, other } = await readRecords(fileOf(`${text}\n`));
  t.deepEqual(other, []);
  const failed = [2, 'error', 'Error validating syntax of cluster config : clusterConfig failed to validate:\n&{builds 0xc00013cdc0} : Invalid type. Expected: array, given: null'];
  // db-0's record leaves when db-0's next line comes; then, at the end, what is held, in the order it began.
  t.deepEqual(
    records.map((r) => [r.lines, r.record?.level, r.record?.message]),
    [failed, failed, failed, [1, 'info', records[3]?.record?.message]],
  );
  t.deepEqual(records.map((r) => r.contents), [`${head}\n${rest}`, `${head}\n${rest}`, `${head}\n${rest}`, real[12]]);
});

test("a pod's record held while other pods' lines wait behind it is taken as it is after so many of them, in its place; its late line then stands alone", async (t) => {
  const line = (pod: string, contents: string) => `[pod/${pod}/agent] ${JSON.stringify({ logType: 'automation-agent', contents })}`;
  const count = MAX_INTERLEAVED_LINES + 16;
  const busy = Array.from({ length: count }, (_, i) => line('db-1', `[2026-11-22T10:00:01.000+0000] [.info] [b.go:1] busy ${i}`));
  const text = [line('db-0', '[2026-11-22T10:00:00.000+0000] [.error] [a.go:1] failed:'), ...busy, line('db-0', 'too late'), line('db-1', 'the last busy line goes on')].join('\n');
  const records = (await readRecords(fileOf(`${text}\n`))).records;
  // Everything leaves in the order it came: the held record first, its late line alone.
  t.deepEqual(records[0]?.record?.message, 'failed:');
  t.is(records.length, count + 2);
  t.deepEqual(records.slice(-2).map((r) => [r.lines, r.contents]), [
    [2, `[2026-11-22T10:00:01.000+0000] [.info] [b.go:1] busy ${count - 1}\nthe last busy line goes on`],
    [1, 'too late'],
  ]);
});

test('removeAt takes out what splice(at, 1) takes, and leaves the rest in order', (t) => {
  for (let length = 1; length <= 6; length++) {
    for (let at = 0; at < length; at++) {
      const array = Array.from({ length }, (_, i) => `r${i}`);
      const reference = [...array];
      reference.splice(at, 1);
      removeAt(array, at);
      t.deepEqual(array, reference);
    }
  }
});
