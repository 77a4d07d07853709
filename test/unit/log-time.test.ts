/** Times as the logs write them, read strictly: a time that names no real moment is none. */
import test from 'ava';
import { extendedJsonDate, parseLogTime } from '../../src/parse/log-time.js';
import { parseServerLine } from '../../src/parse/parse-server-line.js';
import { parseAgentLine } from '../../src/parse/parse-agent-line.js';
import { formatTime } from '../../src/render/format-time.js';

const read: [unknown, string][] = [
  ['2026-11-22T10:00:00.123Z', '2026-11-22T10:00:00.123Z'],
  ['2021-09-17T13:19:52.333+0000', '2021-09-17T13:19:52.333Z'],
  ['2024-03-18T10:49:11.455-04:00', '2024-03-18T14:49:11.455Z'],
  ['2024-03-18T10:49:11.455-0400', '2024-03-18T14:49:11.455Z'],
  ['2022-11-14T20:23:00.611+08:00', '2022-11-14T12:23:00.611Z'],
  // Agent 10.x: an offset of hours alone.
  ['2020-12-04T16:39:07.258-00', '2020-12-04T16:39:07.258Z'],
  ['2020-12-04T16:39:07.258+05', '2020-12-04T11:39:07.258Z'],
  ['2019/09/10 04:07:50.537', '2019-09-10T04:07:50.537Z'],
  ['2026-11-22 09:58:00', '2026-11-22T09:58:00.000Z'],
  ['2026-11-22T09:58:00.000418830Z', '2026-11-22T09:58:00.000Z'],
  ['2026-11-22T10:00:00Z', '2026-11-22T10:00:00.000Z'],
  ['2026-11-22', '2026-11-22T00:00:00.000Z'],
  ['2024-02-29T00:00:00.000Z', '2024-02-29T00:00:00.000Z'],
  ['0001-01-01T00:00:00.000Z', '0001-01-01T00:00:00.000Z'],
  ['0050-03-01T00:00:00.000+01:00', '0050-02-28T23:00:00.000Z'],
  // zap: a float of epoch seconds, as a number or (console) as its text.
  [1579818939.41063, '2020-01-23T22:35:39.410Z'],
  ['1.5798189394106023e+09', '2020-01-23T22:35:39.410Z'],
  [1763805600000, '2025-11-22T10:00:00.000Z'],
];

for (const [value, iso] of read) {
  test(`time ${JSON.stringify(value)} is ${iso}`, (t) => {
    const millis = parseLogTime(value);
    t.is(millis === undefined ? undefined : new Date(millis).toISOString(), iso);
  });
}

const none: unknown[] = [
  '2026-02-30T10:00:00.000Z',
  '2026-02-30',
  '2026-02-29T10:00:00Z',
  '2100-02-29T10:00:00.000+00:00',
  '2026-04-31T10:00:00.000Z',
  '2026-13-01T10:00:00.000Z',
  '2026-11-00T10:00:00.000Z',
  '2026-11-22T24:00:00.000Z',
  '2026-11-22T10:60:00.000Z',
  '2026-11-22T10:00:60.000Z',
  '2026-11-22T10:00:00.000+25:00',
  '2026-11-22T10:00:00.000+05:61',
  '2026/11-22 10:00:00',
  'March 7 2026',
  'not a time',
  '',
  1e20,
  Number.NaN,
  null,
];

for (const value of none) {
  test(`${typeof value === 'number' ? String(value) : JSON.stringify(value)} is no time`, (t) => {
    t.is(parseLogTime(value), undefined);
  });
}

test("$date as $numberLong, and the server's sentinels of no date", (t) => {
  t.is(extendedJsonDate({ $numberLong: '1710773351455' }), 1710773351455);
  t.is(extendedJsonDate({ $numberLong: '9223372036854775807' }), undefined);
  t.is(extendedJsonDate({ $numberLong: '-9223372036854775808' }), undefined);
  t.is(extendedJsonDate({ $numberLong: 'x' }), undefined);
  t.is(extendedJsonDate(1710773351455), 1710773351455);
  t.is(extendedJsonDate('2024-03-18T10:49:11.455-04:00'), Date.parse('2024-03-18T14:49:11.455Z'));
  const line = (date: string) => `{"t":{"$date":${date}},"s":"I","c":"NETWORK","id":22943,"ctx":"listener","msg":"Connection accepted"}`;
  t.is(parseServerLine(line('{"$numberLong":"1710773351455"}'))?.time, 1710773351455);
  const sentinel = parseServerLine(line('{"$numberLong":"9223372036854775807"}'));
  t.is(sentinel?.message, 'Connection accepted');
  t.is(sentinel?.time, undefined);
});

test('a server line on a day that does not exist has no time; it is still read', (t) => {
  const record = parseServerLine('{"t":{"$date":"2026-02-30T10:00:00.000+00:00"},"s":"W","c":"REPL","id":1,"ctx":"c","msg":"m"}');
  t.is(record?.level, 'warn');
  t.is(record?.time, undefined);
  const text = parseServerLine('2026-02-30T10:00:00.000+0000 I  NETWORK  [listener] connection accepted from 10.0.0.1:5 #1 (1 connection now open)');
  t.is(text?.component, 'NETWORK');
  t.is(text?.time, undefined);
});

test("an agent line on a day that does not exist is the agent's, without a time", (t) => {
  const record = parseAgentLine('[2026-02-30T10:00:00.000+0000] [.warn] [a.go:1] [10:00:00.000] m');
  t.is(record?.level, 'warn');
  t.is(record?.message, 'm');
  t.is(record?.time, undefined);
});

test('a year below 1000 prints with four digits', (t) => {
  t.is(formatTime(Date.parse('0001-01-01T00:00:00.000Z'), true), '0001-01-01 00:00:00.000Z');
  t.is(formatTime(parseLogTime('0999-12-31T23:59:59.999Z')!, true), '0999-12-31 23:59:59.999Z');
  t.is(formatTime(Date.parse('2026-11-22T10:00:00.123Z'), true), '2026-11-22 10:00:00.123Z');
});
