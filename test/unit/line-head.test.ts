import test from 'ava';
import { parseLogTime } from '../../src/parse/log-record.js';
import { AgentHead, ServerHead, readAgentHead as fillAgentHead, readServerHead as fillServerHead } from '../../src/parse/line-head.js';
import { parseAgentLine, parseAgentLineInBytes } from '../../src/parse/parse-agent-line.js';
import { OTHER_TIMES, VALID_ISO_TIMES } from '../_helpers/iso-times.js';

/** Each head read into a head of its own, to compare them after. */
function readServerHead(bytes: Buffer, start: number, end: number, escaped: boolean): ServerHead | undefined {
  const head = new ServerHead();
  return fillServerHead(bytes, start, end, escaped, head) ? head : undefined;
}

function readAgentHead(bytes: Buffer, start: number, end: number): AgentHead | undefined {
  const head = new AgentHead();
  return fillAgentHead(bytes, start, end, head) ? head : undefined;
}

const lineAt = (time: string, msg = 'Connection accepted', id = '22943') =>
  `{"t":{"$date":"${time}"},"s":"I",  "c":"NETWORK",  "id":${id},   "ctx":"listener","msg":"${msg}","attr":{"connectionCount":3}}`;

/** The head of `line`, read as the server wrote it and from inside an entry's literal (between other bytes). */
function headsOf(line: string) {
  const plain = Buffer.from(line);
  const literal = JSON.stringify(line);
  const entry = Buffer.from(`{"logType":"mongodb","contents":${literal}}\n{"t":`);
  const start = entry.indexOf('"', '{"logType":"mongodb","contents":'.length - 1) + 1;
  return [readServerHead(plain, 0, plain.length, false), readServerHead(entry, start, start + Buffer.byteLength(literal) - 2, true)];
}

for (const time of VALID_ISO_TIMES) {
  test(`server head: the time ${time} is read by the kernel as Date.parse reads it`, (t) => {
    for (const head of headsOf(lineAt(time))) t.is(head?.time, Date.parse(time));
  });
}

for (const time of OTHER_TIMES) {
  test(`server head: the time ${time} is left to parseLogTime`, (t) => {
    for (const head of headsOf(lineAt(time))) t.is(head?.time, parseLogTime(time));
  });
}

test('server head: every field, and where the head ends', (t) => {
  // A tab in the padding is one in the line, and an escape (to decode first) in a literal.
  const line = '{"t":{"$date":"2026-11-22T10:00:00.123+00:00"},"s":"W",\t"c":"ACCESS",  "id":20436,"ctx":"conn/é","msg":"Zugriff ✗","attr":{}}';
  t.is(headsOf(line)[1], undefined);
  const spaced = line.replace('\t', ' ');
  for (const head of [headsOf(line)[0], ...headsOf(spaced)]) {
    t.like(head, { time: Date.parse('2026-11-22T10:00:00.123Z'), severity: 'W', component: 'ACCESS', id: 20436, message: 'Zugriff ✗' });
  }
  const [plain] = headsOf(line);
  t.is(Buffer.from(line).toString('utf8', plain!.contextStart, plain!.contextEnd), 'conn/é');
  t.is(Buffer.from(line).toString('utf8', plain!.end), ',"attr":{}}');
});

// Each must be parsed another way: the head is not there in the form the kernel reads.
const notHeads: [string, string][] = [
  ['fields in another order', '{"t":{"$date":"2026-11-22T10:00:00.123Z"},"c":"NETWORK","s":"I","id":1,"ctx":"a","msg":"b"}'],
  ['no message', '{"t":{"$date":"2026-11-22T10:00:00.123Z"},"s":"I","c":"NETWORK","id":1,"ctx":"a"}'],
  ['a time in another form', '{"t":{"$date":{"$numberLong":"1763805600000"}},"s":"I","c":"NETWORK","id":1,"ctx":"a","msg":"b"}'],
  ['an empty time', '{"t":{"$date":""},"s":"I","c":"NETWORK","id":1,"ctx":"a","msg":"b"}'],
  ['an escape in the message', '{"t":{"$date":"2026-11-22T10:00:00.123Z"},"s":"I","c":"NETWORK","id":1,"ctx":"a","msg":"say \\"hi\\""}'],
  ['an escape in the context', '{"t":{"$date":"2026-11-22T10:00:00.123Z"},"s":"I","c":"NETWORK","id":1,"ctx":"a\\\\b","msg":"b"}'],
  ['an id of ten digits', '{"t":{"$date":"2026-11-22T10:00:00.123Z"},"s":"I","c":"NETWORK","id":1234567890,"ctx":"a","msg":"b"}'],
  ['an id that is not a number', '{"t":{"$date":"2026-11-22T10:00:00.123Z"},"s":"I","c":"NETWORK","id":"1","ctx":"a","msg":"b"}'],
  ['a head longer than the kernel looks', `{"t":{"$date":"2026-11-22T10:00:00.123Z"},"s":"I","c":"NETWORK","id":1,"ctx":"a","msg":"${'x'.repeat(2000)}"}`],
  ['the line cut in the message', '{"t":{"$date":"2026-11-22T10:00:00.123Z"},"s":"I","c":"NETWORK","id":1,"ctx":"a","msg":"cut'],
  ['an audit event', '{"atype":"authenticate","ts":{"$date":"2026-11-22T10:00:00.000Z"},"result":18}'],
];
for (const [name, line] of notHeads) {
  test(`server head: not read from ${name}`, (t) => {
    t.deepEqual(headsOf(line), [undefined, undefined]);
  });
}

test('server head: a raw quote inside a literal is no closing quote', (t) => {
  const bytes = Buffer.from('{\\"t\\":{\\"$date\\":\\"2026-11-22T10:00:00.123Z\\"},\\"s\\":\\"I\\",\\"c\\":\\"N\\",\\"id\\":1,\\"ctx\\":\\"a"b\\",\\"msg\\":\\"m\\"');
  t.is(readServerHead(bytes, 0, bytes.length, true), undefined);
});

test('server head: messages beyond the kept texts are read right, and kept ones again', (t) => {
  // More than the kernel keeps (2048 texts): the rest are decoded each time.
  for (let round = 0; round < 2; round++) {
    for (let i = 0; i < 3000; i++) {
      const message = `message number ${i}`;
      for (const head of headsOf(lineAt('2026-11-22T10:00:00.123Z', message, String(i)))) {
        if (head?.message !== message || head.id !== i) t.fail(`${message}: ${head?.message}`);
      }
    }
  }
  t.pass();
});

test('server head: messages alike but for their middle (one hash) are told apart', (t) => {
  const messages = Array.from({ length: 300 }, (_, i) => `Connection ${String(i).padStart(4, '0')} to the replica set member`);
  for (let round = 0; round < 2; round++) {
    for (const message of messages) {
      for (const head of headsOf(lineAt('2026-11-22T10:00:00.123Z', message))) {
        if (head?.message !== message) t.fail(`${message}: ${head?.message}`);
      }
    }
  }
  t.pass();
});

test('server head: times of one minute read one after another, in other zones, and broken', (t) => {
  // The kernel reads a time of the last one's minute and zone by its seconds alone.
  const times = [
    '2026-11-22T10:00:00.000Z',
    '2026-11-22T10:00:59.999Z',
    '2026-11-22T10:00:05.123+01:00',
    '2026-11-22T10:00:05.123+0100',
    '2026-11-22T10:00:06.000+0130',
    '2026-11-22T10:00:60.000Z',
    '2026-11-22T10:00:00.000Z',
    '2026-11-22T10:00:0a.000Z',
    '2026-11-22T10:00:07.00xZ',
    '2026-11-22T10:01:00.000Z',
    '2026-11-23T10:01:00.000Z',
  ];
  for (const time of times) {
    for (const head of headsOf(lineAt(time))) t.is(head?.time, parseLogTime(time), time);
  }
});

test('agent head: every field, and where the rest starts', (t) => {
  const line = '[2026-11-22T10:00:00.123+0000] [.info] [src/director/director.go:computePlan:1083] <rs0-1> [10:00:00.123] All 3 Mongo processes are in goal state';
  const bytes = Buffer.from(line);
  t.like(readAgentHead(bytes, 0, bytes.length), { time: Date.parse('2026-11-22T10:00:00.123Z'), level: '.info', source: 'src/director/director.go:computePlan:1083' });
  t.is(line.slice(readAgentHead(bytes, 0, bytes.length)!.end), '<rs0-1> [10:00:00.123] All 3 Mongo processes are in goal state');
});

// Each is read by the expression instead. The first three made the kernel load a byte at -1
// (found by the property tests): the filter stopped with "memory access out of bounds".
const notAgentHeads: [string, string][] = [
  ['a time and no level', '[2026-11-22T10:00:00.000+0000] hello world'],
  ['no space between the first fields', '[2026-11-22T10:00:00.000+0000][.info] [main.go:1] hi'],
  ['a level and no source', '[2026-11-22T10:00:00.000+0000] [.info] hi'],
  ['a backslash in the level', '[2026-11-22T10:00:00.000+0000] [.in\\fo] [main.go:1] hi'],
  ['an empty time', '[] [.info] [main.go:1] hi'],
  // The expression's \s takes any blank after the source; the kernel only a space.
  ['a tab after the source', '[2026-11-22T10:00:00.000+0000] [.info] [main.go:1]\thello'],
  ['a form feed after the source', '[2026-11-22T10:00:00.000+0000] [.info] [main.go:1]\fhello'],
  ['a carriage return after the source', '[2026-11-22T10:00:00.000+0000] [.info] [main.go:1]\rhello'],
];
for (const [name, line] of notAgentHeads) {
  test(`agent head: not read from ${name}, and the line read as the expression reads it`, (t) => {
    const bytes = Buffer.from(line);
    t.is(readAgentHead(bytes, 0, bytes.length), undefined);
    t.is(parseAgentLineInBytes(bytes, 0, bytes.length, { contents: line }), undefined);
  });
}

test('agent head: a line with a tab after its fields has the same message read either way', (t) => {
  const line = '[2026-11-22T10:00:00.000+0000] [.info] [main.go:1]\thello';
  t.is(parseAgentLine(line)?.message, 'hello');
});
