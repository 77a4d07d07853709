import test from 'ava';
import { jsonMembers } from '../../src/parse/json-members.js';

const cases: { name: string; text: string; expected: [string, string, boolean][] | undefined }[] = [
  { name: 'empty', text: '{}', expected: [] },
  {
    name: 'every kind of value',
    text: '{"s":"str","n":-1.5e3,"t":true,"f":false,"z":null,"o":{"a":[1,{"b":"}"}]},"a":[],"e":"q\\"uote\\\\"}',
    expected: [
      ['s', 'str', true],
      ['n', '-1.5e3', false],
      ['t', 'true', false],
      ['f', 'false', false],
      ['z', 'null', false],
      ['o', '{"a":[1,{"b":"}"}]}', false],
      ['a', '[]', false],
      ['e', 'q\\"uote\\\\', true],
    ],
  },
  { name: 'spaces around', text: '{ "a" : 1 , "b":"x" }', expected: [['a', '1', false], ['b', 'x', true]] },
  { name: 'an escaped key', text: '{"k\\u00e9y":1}', expected: [['kéy', '1', false]] },
  { name: 'brackets inside strings do not count', text: '{"a":"[{","b":{"c":"]}"}}', expected: [['a', '[{', true], ['b', '{"c":"]}"}', false]] },
  { name: 'cut short in a string', text: '{"a":"abc', expected: undefined },
  { name: 'cut short in an object', text: '{"a":{"b":1', expected: undefined },
  { name: 'no colon', text: '{"a" 1}', expected: undefined },
  { name: 'not an object', text: '[1,2]', expected: undefined },
];

for (const { name, text, expected } of cases) {
  test(`json members: ${name}`, (t) => {
    const read = jsonMembers(text, 0);
    t.deepEqual(read?.members.map((m) => [m.key, m.text, m.isString]), expected);
    if (read) t.is(read.end, text.lastIndexOf('}') + 1);
  });
}

test('json members: the values are what JSON.stringify gives for compact server JSON', (t) => {
  const object = { remote: '10.0.0.1:5', uuid: { uuid: { $uuid: 'f0c2' } }, count: 12, list: ['a', { b: null }], text: 'tab\there "q"' };
  const { members } = jsonMembers(`{"attr":${JSON.stringify(object)}}`, 8)!;
  for (const { key, text, isString } of members) {
    const value = (object as Record<string, unknown>)[key];
    t.is(isString ? (JSON.parse(`"${text}"`) as string) : text, typeof value === 'string' ? value : JSON.stringify(value), key);
  }
});
