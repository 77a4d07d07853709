import test from 'ava';
import { parseIsoMillis } from '../../src/parse/iso-time.js';

const valid = [
  '2026-11-22T10:00:00.123Z',
  '2026-11-22T10:00:00.123+00:00',
  '2024-03-18T10:49:07.741-04:00',
  '2021-09-17T13:19:52.333+0000',
  '2022-11-14T20:23:00.611+08:00',
  '2026-12-31T23:59:59.999+05:30',
  '2024-02-29T00:00:00.000Z',
  '1999-01-01T00:00:00.000-1200',
];
for (const text of valid) {
  test(`iso time ${text} is what Date.parse says`, (t) => {
    t.is(parseIsoMillis(text), Date.parse(text));
  });
}

const other = [
  '2026-11-22T10:00:00Z',
  '2026-11-22T10:00:00.123456Z',
  '2026-11-22 10:00:00.123Z',
  '2026-02-30T10:00:00.000Z',
  '2026-13-01T10:00:00.000Z',
  '2026-11-22T24:00:00.000Z',
  '2026-11-22T10:60:00.000Z',
  '2026-11-22T10:00:00.12aZ',
  '2026-11-22T10:00:00.123+25:00',
  '2026-11-22T10:00:00.123*00:00',
  '2026/11/22 10:00:00.123',
  'not a time at all, no no',
];
for (const text of other) {
  test(`iso time ${text} is left to Date.parse`, (t) => {
    t.is(parseIsoMillis(text), undefined);
  });
}

test('iso time read in place, between offsets of a longer text', (t) => {
  for (const text of valid) {
    const line = `[${text}] [.info] more text`;
    t.is(parseIsoMillis(line, 1, 1 + text.length), Date.parse(text), line);
  }
  for (const text of other) t.is(parseIsoMillis(`x${text}y`, 1, 1 + text.length), undefined, text);
});
