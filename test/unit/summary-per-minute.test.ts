/**
 * From an incident trial: 7 agent lines over 126 ms showed "per min 7", 200 server lines over
 * 18 s "per min 200": a rate over a minute at the least, which the report did not say.
 */
import test from 'ava';
import { perMinuteNote } from '../../src/summary/render-summary-text.js';
import { perMinuteShown } from '../../src/summary/type-stats.js';

const type = (first: string, last: string, perMinute = 1) => ({ logType: 'mongodb', entries: 1, first, last, perMinute, errors: 0, warnings: 0, unparsed: 0 });

test('per min: a span under a minute is taken as a minute, and the report says so', (t) => {
  t.is(perMinuteShown(7, 126 / 60_000), 7);
  t.is(perMinuteShown(200, 18 / 60), 200);
  t.is(perMinuteShown(600, 10), 60);
  t.regex(perMinuteNote({ types: [type('2021-09-17T13:19:52.333Z', '2021-09-17T13:19:52.459Z')] }) ?? '', /a minute at the least/);
  t.regex(perMinuteNote({ types: [type('2024-03-18T14:49:06Z', '2024-03-18T14:55:44Z'), type('2024-03-18T14:49:06Z', '2024-03-18T14:49:24Z')] }) ?? '', /its count/);
  // Every type over a minute or more: nothing to say.
  t.is(perMinuteNote({ types: [type('2024-03-18T14:49:06Z', '2024-03-18T14:55:44Z')] }), undefined);
  t.is(perMinuteNote({ types: [] }), undefined);
});
