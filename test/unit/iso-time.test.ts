import test from 'ava';
import { parseIsoMillis } from '../../src/parse/iso-time.js';
import { OTHER_TIMES as other, VALID_ISO_TIMES as valid } from '../_helpers/iso-times.js';

for (const text of valid) {
  test(`iso time ${text} is what Date.parse says`, (t) => {
    t.is(parseIsoMillis(text), Date.parse(text));
  });
}

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
