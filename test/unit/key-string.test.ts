/**
 * stringAfterKey: a string attribute found by its needle, as a line writes it and inside an
 * entry's literal, is what JSON.parse of the line says; what it can't read so is undefined.
 */
import test from 'ava';
import { stringAfterKey } from '../../src/parse/key-string.js';
import { literalOf } from '../_helpers/property.js';

const head = '{"t":{"$date":"2026-11-22T03:00:00.005+00:00"},"s":"I",  "c":"NETWORK",  "id":22943,   "ctx":"listener","msg":"Connection accepted"';

/** The attributes after the head, and what stringAfterKey reads of `remote` (undefined: left to the full reading). */
const cases: [string, string, string | undefined][] = [
  ['a remote', '{"remote":"10.42.7.220:45863","uuid":{"uuid":{"$uuid":"f0c2"}},"connectionId":88464,"connectionCount":119}', '10.42.7.220:45863'],
  ['an IPv6 remote', '{"remote":"[::1]:27017","connectionId":3}', '[::1]:27017'],
  ['an empty one', '{"remote":"","connectionId":3}', ''],
  ['UTF-8', '{"remote":"hôte ✗:1"}', 'hôte ✗:1'],
  ['the last attribute', '{"connectionId":3,"remote":"10.0.0.1:5"}', '10.0.0.1:5'],
  ['an escaped quote', '{"remote":"a\\"b:1"}', undefined],
  ['an escaped backslash', '{"remote":"a\\\\b:1"}', undefined],
  ['a \\u escape', '{"remote":"\\u00e9:1"}', undefined],
  ['no string', '{"remote":5}', undefined],
  ['none', '{"connectionId":3}', undefined],
  ['no attributes', '', undefined],
];

for (const [name, attr, expected] of cases) {
  for (const escaped of [false, true]) {
    test(`string after its key${escaped ? ', in a literal' : ''}: ${name}`, (t) => {
      const text = `${head}${attr === '' ? '' : `,"attr":${attr}`}}`;
      const line = Buffer.from(text);
      const inside = escaped ? literalOf(line) : line;
      // Bytes around the line, as in an input chunk: the read stays within [start, end).
      const bytes = Buffer.concat([Buffer.from('{"contents":"'), inside, Buffer.from('"}\n{"remote":"10.9.9.9:1"}')]);
      const start = 13;
      const end = start + inside.length;
      // From the head's end, as a record reads it.
      const headEnd = start + (escaped ? literalOf(Buffer.from(head)).length : head.length);
      const read = stringAfterKey(bytes, headEnd, end, escaped, 'remote');
      t.is(read, expected);
      if (read !== undefined) t.is(read, (JSON.parse(text) as { attr: { remote: string } }).attr.remote);
    });
  }
}
