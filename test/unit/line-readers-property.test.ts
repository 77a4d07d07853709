/**
 * The records read from a line's bytes by the kernels (head, attributes found by objectMembers)
 * against the same line read the other way: a server line by JSON.parse, an agent line by its
 * expression. Random lines, as a line writes them and inside an entry's contents literal.
 */
import test from 'ava';
import { parseAgentLine, parseAgentLineInBytes } from '../../src/parse/parse-agent-line.js';
import { parseLogTime } from '../../src/parse/log-record.js';
import { parseServerLineInBytes } from '../../src/parse/parse-server-line.js';
import { attrFirstKey, attrValue } from '../../src/parse/record-attributes.js';
import { differ, given, literalOf, property, showBytes, type Random } from '../_helpers/property.js';

/** The line inside an entry, as the filter reads it: the bytes and where the literal's inside is. */
function inEntry(line: Buffer, escaped: boolean): { bytes: Buffer; start: number; end: number } {
  if (!escaped) return { bytes: Buffer.concat([line, Buffer.from('\n{"t":')]), start: 0, end: line.length };
  const before = Buffer.from('{"logType":"mongodb","contents":"');
  const literal = literalOf(line);
  return { bytes: Buffer.concat([before, literal, Buffer.from('"}\n{"logType":"x"')]), start: before.length, end: before.length + literal.length };
}

const KEYS = ['durationMillis', 'ns', 'planSummary', 'type', 'command', 'remote', 'connectionCount', 'newState', 'oldState', 'reason', 'error', 'doc', 'tags', 'size'];

function randomAttrValue(random: Random, depth = 0): unknown {
  const roll = random();
  if (roll < 0.3) return random.pick([0, 12, -3, 1.25, 1e21, true, false, null]);
  if (roll < 0.7 || depth > 2) return random.pick(['app.orders', 'COLLSCAN', 'say "hi"', 'a\\b', 'tab\there', 'é ✗ 😀', '\u2028', '', '{"not":"an object"}', 'x'.repeat(random.between(0, 300))]);
  if (roll < 0.85) return Array.from({ length: random.between(0, 3) }, () => randomAttrValue(random, depth + 1));
  return Object.fromEntries(Array.from({ length: random.between(0, 3) }, () => [random.pick(KEYS), randomAttrValue(random, depth + 1)]));
}

function randomServerObject(random: Random): Record<string, unknown> {
  const object: Record<string, unknown> = {
    t: { $date: random.pick(['2026-11-22T10:00:00.123Z', '2026-11-22T10:00:59.999+00:00', '2026-02-29T10:00:00.000Z', '2024-02-29T23:59:59.999-0130']) },
    s: random.pick(['I', 'W', 'E', 'D2']),
    c: random.pick(['NETWORK', 'COMMAND', 'REPL']),
    id: random.between(0, 99999999),
    ctx: random.pick(['conn42', 'listener', 'conn/é']),
    msg: random.pick(['Slow query', 'Connection accepted', 'Zugriff ✗', 'x'.repeat(random.between(0, 50))]),
  };
  if (random.chance(0.85)) object['attr'] = Object.fromEntries(Array.from({ length: random.between(0, 8) }, () => [random.pick(KEYS), randomAttrValue(random)]));
  // The server writes truncated and size beside the attributes it cut; also: one without the
  // other, a truncated that is no object, tags after them.
  if (object['attr'] !== undefined && random.chance(0.15)) {
    object['truncated'] = random.chance(0.9) ? { command: { truncated: random.pick([1, 'é "x"', [2]]) } } : random.pick([5, 'x', [1], null]);
    if (random.chance(0.9)) object['size'] = random.pick([{ command: 100000 }, 7, 'big', null]);
  }
  if (random.chance(0.1)) object['tags'] = ['startupWarnings'];
  return object;
}

test('server lines: a record read from the bytes says what JSON.parse of the line says', (t) => {
  let read = 0;
  property(t, 2500, (random) => {
    const object = randomServerObject(random);
    const line = Buffer.from(JSON.stringify(object));
    const escaped = random.chance(0.5);
    const { bytes, start, end } = inEntry(line, escaped);
    const input = given(`${escaped ? 'the literal of ' : ''}${showBytes(line)}`);
    const record = parseServerLineInBytes(bytes, start, end, escaped, { contents: line.toString('utf8') });
    if (!record) return undefined;
    read++;
    const head = { time: record.time, severity: record.severity, component: record.component, id: record.id, context: record.context, message: record.message };
    const expected = { time: parseLogTime((object['t'] as { $date: string }).$date), severity: object['s'], component: object['c'], id: object['id'], context: object['ctx'], message: object['msg'] };
    // As the server's documents say: a cut line's attributes, and `truncated` and `size` beside them.
    const truncated = object['truncated'];
    const cut = typeof truncated === 'object' && truncated !== null && !Array.isArray(truncated);
    const attrs = cut ? { ...(object['attr'] as object), truncated, ...(object['size'] === undefined ? {} : { size: object['size'] }) } : (object['attr'] as Record<string, unknown> | undefined);
    const verdict = differ(head, expected, `the head of ${input}`);
    if (verdict) return verdict;
    for (const key of [...KEYS, 'truncated', 'absent']) {
      const value = attrs?.[key];
      const firstKey = typeof value === 'object' && value !== null && !Array.isArray(value) ? Object.keys(value)[0] : undefined;
      // Not compared: an array's "first key" on a line with cut attributes, which attrFirstKey
      // reads from the parsed object ('0') where the readers of the text say none (not the
      // kernels' doing; reported).
      const arrayOnCutLine = Array.isArray(value) && cut;
      const wrong =
        differ(attrValue(record, key), value, `attribute ${key} of ${input}`) ??
        (arrayOnCutLine ? undefined : differ(attrFirstKey(record, key), firstKey, `the first key of attribute ${key} of ${input}`));
      if (wrong) return wrong;
    }
    return undefined;
  });
  t.true(read > 2000, `only ${read} of 2500 lines were read from their bytes`);
});

test('agent lines: a record read from the bytes says what the expression says', (t) => {
  let read = 0;
  property(t, 3000, (random) => {
    const time = random.pick(['2026-11-22T10:00:00.123+0000', '2019/09/10 04:07:50.537', '2026-11-22T10:00:00.123Z', 'not a time']);
    const gap = random.chance(0.85) ? ' ' : random.pick(['', '\t', '  ']);
    const after = random.chance(0.8) ? random.pick([' ', '']) : random.pick(['\t', '  ', '\f', 'é']);
    const rest = random.pick(['<rs0-1> [10:00:00.123] All 3 Mongo processes are in goal state', '<p>   x', 'Starting', '', '[10:00:00] done', 'é ✗ "quoted" \\ back']);
    const text = `[${time}]${gap}[${random.pick(['.info', '.warn', 'header.info', ''])}]${gap}[${random.pick(['main.go:42', '::0', 'src/agent.go:run:7', 'é'])}]${after}${rest}`;
    const line = Buffer.from(text);
    const escaped = random.chance(0.5);
    const { bytes, start, end } = inEntry(line, escaped);
    const input = given(`${escaped ? 'the literal of ' : ''}${showBytes(line)}`);
    const record = parseAgentLineInBytes(bytes, start, end, { contents: text });
    if (!record) return undefined;
    read++;
    const expected = parseAgentLine(text);
    const fields = (r: typeof record | undefined) => r && { time: r.time, severity: r.severity, level: r.level, component: r.component, context: r.context, message: r.message };
    return differ(fields(record), fields(expected), `the record of ${input}`);
  });
  t.true(read > 800, `only ${read} of 3000 lines were read from their bytes`);
});
