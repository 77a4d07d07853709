import test from 'ava';
import { LateRecords, type DeliveredRecord } from '../../src/select/late-records.js';
import type { LinePrefix } from '../../src/read/line-prefix.js';

const pod = (source: string): LinePrefix => ({ source, text: `[pod/${source}/c] `, length: source.length + 9 }) as unknown as LinePrefix;
const record = (logType: string, source: string | undefined, selected = false): DeliveredRecord => ({ logType, format: undefined, prefix: source === undefined ? undefined : pod(source), texts: ['first'], selected, lastStamp: undefined });

test('late records: one a pod and type; a new record of it, or a plain line of the pod, lets it go', (t) => {
  const late = new LateRecords();
  t.true(late.empty);
  late.remember(record('automation-agent', 'db-0'));
  late.remember(record('automation-agent', 'db-1', true));
  late.remember(record('operator', undefined));
  t.false(late.of('automation-agent', pod('db-0'))!.selected);
  t.true(late.of('automation-agent', pod('db-1'))!.selected);
  t.truthy(late.of('operator', undefined));
  t.is(late.of('automation-agent', undefined), undefined, 'another source');
  late.forget('automation-agent', pod('db-0'));
  t.is(late.of('automation-agent', pod('db-0')), undefined);
  late.forgetSource('db-1');
  t.is(late.of('automation-agent', pod('db-1')), undefined);
  late.forgetSource('');
  t.true(late.empty);
});

test('late records: bounded, the oldest let go', (t) => {
  const late = new LateRecords();
  for (let i = 0; i < 100; i++) late.remember(record('automation-agent', `db-${i}`));
  t.is(late.of('automation-agent', pod('db-0')), undefined);
  t.truthy(late.of('automation-agent', pod('db-99')));
  let kept = 0;
  for (let i = 0; i < 100; i++) if (late.of('automation-agent', pod(`db-${i}`))) kept++;
  t.is(kept, 64);
});
