import test from 'ava';
import { deepJsonText, expandedJsonText, jsonText, MAX_EXPANDED_DEPTH } from '../../src/render/json-text.js';

/** Values of every kind JSON.stringify writes, and the ones it leaves out or writes as null. */
const VALUES: readonly unknown[] = [
  null,
  true,
  0,
  -0,
  1.5e300,
  Number.POSITIVE_INFINITY,
  Number.NaN,
  '',
  'a "quoted" \\ line\n\u0001\u2028é😀',
  [],
  {},
  [1, 'two', null, undefined, () => 3, [[]], { a: [] }],
  { b: 1, a: undefined, c: () => 1, d: [undefined], 2: 'numeric key first', e: { f: { g: {} } } },
  { date: new Date(Date.UTC(2026, 10, 27)), boxed: [new Number(4), new String('s'), new Boolean(false)] },
  { nested: { toJSON: (key: string) => `toJSON of ${key}` } },
];

test('the stack-based writer gives JSON.stringify text for every kind of value, compact and indented', (t) => {
  for (const value of VALUES) {
    for (const indent of [0, 2, 4]) t.is(deepJsonText(value, indent), JSON.stringify(value, null, indent), `${JSON.stringify(value)} indent ${indent}`);
  }
  t.is(deepJsonText(undefined), undefined);
  t.is(jsonText(() => 1), undefined);
});

test('a value nested past what JSON.stringify can recurse into is written, not thrown', (t) => {
  const depth = 200_000;
  const text = `${'['.repeat(depth)}${']'.repeat(depth)}`;
  const value: unknown = JSON.parse(text);
  t.throws(() => JSON.stringify(value), { instanceOf: RangeError });
  t.is(jsonText(value), text);
  const objects = `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
  t.is(jsonText(JSON.parse(objects)), objects);
});

test('--expand indents to MAX_EXPANDED_DEPTH levels and writes deeper ones on one line', (t) => {
  const shallow = { a: { b: [1, { c: 'd' }] } };
  t.is(expandedJsonText(shallow), JSON.stringify(shallow, null, 2));
  const depth = 50_000;
  const deep: unknown = JSON.parse(`${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`);
  const text = expandedJsonText(deep)!;
  // Each indented level is a line; below them, the rest is one line of its compact text.
  t.is(text.split('\n').length, 2 * MAX_EXPANDED_DEPTH + 1);
  t.true(text.length < 100 * depth, `${text.length} characters`);
  t.deepEqual(JSON.parse(text), deep);
});
