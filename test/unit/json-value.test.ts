import test from 'ava';
import { countOf, integerValue, parseJson, repairedJson } from '../../src/parse/json-value.js';
import { expandedJsonText, jsonText } from '../../src/render/json-text.js';

test('integers a double would change are read as BigInts, and written back as their digits', (t) => {
  const rows: readonly [text: string, written: string][] = [
    ['{"cursorid":2187658113137273877}', '{"cursorid":2187658113137273877}'],
    ['{"a":[-9223372036854775808,9223372036854775807]}', '{"a":[-9223372036854775808,9223372036854775807]}'],
    ['{"a":{"b":{"getMore":8417129787852778541}},"n":1}', '{"a":{"b":{"getMore":8417129787852778541}},"n":1}'],
    // 2^53 + 1, the first integer a double cannot hold.
    ['[9007199254740993]', '[9007199254740993]'],
    ['[100000000000000000000000]', '[100000000000000000000000]'],
  ];
  for (const [text, written] of rows) {
    t.is(jsonText(parseJson(text)), written, text);
    t.not(JSON.stringify(JSON.parse(text)), written, `${text}: JSON.parse alone would change it`);
  }
  t.is(typeof (parseJson('{"n":2187658113137273877}') as { n: unknown }).n, 'bigint');
  t.is(expandedJsonText(parseJson('{"a":{"cursorid":2187658113137273877}}')), '{\n  "a": {\n    "cursorid": 2187658113137273877\n  }\n}');
});

test('everything else reads as JSON.parse reads it: strings of digits, fractions, exponents, safe integers, and what it refuses', (t) => {
  const same = [
    '{"id":"2187658113137273877","hash":"12345678901234567890abc"}',
    '{"escaped":"\\"2187658113137273877\\" in a string","after":1}',
    '{"safe":9007199254740991,"neg":-9007199254740991,"two53":9007199254740992}',
    '{"f":0.1234567890123456789,"e":12345678901234567e3,"E":1E400,"m":-1.5e-7}',
    '[]',
    '"12345678901234567890"',
  ];
  for (const text of same) t.deepEqual(parseJson(text), JSON.parse(text, (_k, v: unknown) => v), text);
  // A long integer inside a member named __proto__: still the line's own member, as JSON.parse makes it.
  const proto = parseJson('{"__proto__":{"x":12345678901234567891},"k":1}') as Record<string, unknown>;
  t.true(Object.hasOwn(proto, '__proto__'));
  t.is(jsonText(proto), '{"__proto__":{"x":12345678901234567891},"k":1}');
  for (const broken of ['{"a":01234567890123456789}', '{"a":12345678901234567890', '{"a":12345678901234567890x}', '[-]']) {
    t.throws(() => parseJson(broken), { instanceOf: SyntaxError }, broken);
  }
});

test('a value nested past the reviver\'s stack is read as JSON.parse reads it', (t) => {
  const deep = `${'['.repeat(20_000)}12345678901234567890${']'.repeat(20_000)}`;
  t.notThrows(() => parseJson(deep));
});

test('integerValue: a BigInt only where a double would change the digits', (t) => {
  t.is(integerValue('42'), 42);
  t.is(integerValue('-0'), -0);
  t.is(integerValue('9007199254740991'), 9007199254740991);
  t.is(integerValue('7314488630307709873'), 7314488630307709873n);
});

test('countOf: a count from a number or an integer read as a BigInt (its nearest double); anything else is none', (t) => {
  t.is(countOf(42), 42);
  t.is(countOf(9007199254740993n), 9007199254740992);
  t.is(countOf(Number.NaN), undefined);
  t.is(countOf(Number.POSITIVE_INFINITY), undefined);
  t.is(countOf('42'), undefined);
  t.is(countOf(undefined), undefined);
});

test('repairedJson: the server\'s bare non-finite doubles as extended JSON, raw controls in strings escaped; words in strings, null and numbers untouched; nothing to repair is undefined', (t) => {
  const table: [string, string | undefined][] = [
    ['{"attr":{"ratio":nan,"max":inf,"min":-inf,"n":-nan}}', '{"attr":{"ratio":{"$numberDouble":"NaN"},"max":{"$numberDouble":"Infinity"},"min":{"$numberDouble":"-Infinity"},"n":{"$numberDouble":"NaN"}}}'],
    ['{"a":NaN,"b":Infinity,"c":-Infinity,"d":[1,nan]}', '{"a":{"$numberDouble":"NaN"},"b":{"$numberDouble":"Infinity"},"c":{"$numberDouble":"-Infinity"},"d":[1,{"$numberDouble":"NaN"}]}'],
    ['{"msg":"a\u0001b\u001b[31m","x":1}', '{"msg":"a\\u0001b\\u001b[31m","x":1}'],
    // In strings (escaped quotes too) and as other values: nothing.
    ['{"msg":"nan inf \\" nan","x":null,"y":-1,"z":"info"}', undefined],
    ['{"x":nano}', undefined],
    ['{"x":1', undefined],
  ];
  for (const [text, repaired] of table) {
    t.is(repairedJson(text), repaired, text);
    if (repaired !== undefined) t.notThrows(() => JSON.parse(repaired), text);
  }
});
