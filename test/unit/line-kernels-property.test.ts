/**
 * serverHead, agentHead, keepText and objectMembers held to their references
 * (reference-kernels.ts) on random lines: well-formed ones (which must be read, and read as
 * JSON.parse reads them) and broken ones, as a line writes them and inside an entry's contents
 * literal, in ordinary buffers and in the module's input region. This file's process keeps
 * texts only through the reference's model, so the kept indexes are checked too.
 */
import test from 'ava';
import {
  KERNEL_INPUT_BYTES,
  MAX_HEAD_BYTES,
  MAX_OBJECT_MEMBERS,
  findAgentHead,
  findServerHead,
  headAnswer,
  headMillis,
  keepHeadText,
  leaseKernelInput,
  objectMembersAt,
} from '../../src/kernels/json-kernels.js';
import { HEAD_SLOT, KEPT_TEXTS } from '../../src/kernels/kernel-layout.js';
import {
  ReferenceKeptTexts,
  referenceAgentHead,
  referenceIsoMillis,
  referenceObjectMembers,
  referenceServerHead,
  type AgentHeadReading,
  type ServerHeadReading,
  type TextPlace,
} from '../../src/kernels/reference-kernels.js';
import { parseIsoMillis } from '../../src/parse/iso-time.js';
import { jsonMembers } from '../../src/parse/json-members.js';
import { differ, given, literalOf, property, randomBytes, showBytes, type Random, type Verdict } from '../_helpers/property.js';

const input = leaseKernelInput()!;
const kept = new ReferenceKeptTexts();

interface Placed {
  readonly source: Buffer;
  readonly start: number;
  readonly end: number;
  readonly where: string;
}

/** The bytes in a buffer of their own or in the module's input region, other bytes after them. */
function placeSource(random: Random, bytes: Buffer): Placed {
  const after = randomBytes(random, random.between(0, 40));
  if (random.chance(0.5)) {
    const before = random.between(0, 31);
    return { source: Buffer.concat([randomBytes(random, before), bytes, after]), start: before, end: before + bytes.length, where: `a buffer at ${before}` };
  }
  const start = random.chance(0.1) ? KERNEL_INPUT_BYTES - bytes.length : random.between(0, 2048);
  bytes.copy(input, start);
  after.copy(input, start + bytes.length, 0, Math.min(after.length, KERNEL_INPUT_BYTES - start - bytes.length));
  return { source: input, start, end: start + bytes.length, where: `the input region at ${start}` };
}

const digits = (random: Random, count: number): string => Array.from({ length: count }, () => String(random.below(10))).join('');
const two = (n: number): string => String(n).padStart(2, '0');

/** The last time made, so that most times share its minute (the kernel reads those by their seconds). */
let lastTime = '2026-11-22T10:00:00.000Z';

/** A time as the server or an agent writes it, or nearly: days out of their month, zones of every form, broken ones. */
function randomTime(random: Random): string {
  const roll = random();
  if (roll < 0.4) {
    lastTime = lastTime.slice(0, 17) + two(random.between(0, 61)) + '.' + digits(random, 3) + lastTime.slice(23);
    return lastTime;
  }
  if (roll < 0.5) return random.pick(['', '2019/09/10 04:07:50.537', '2026-11-22 10:00:00', '2026-11-22T10:00:00Z', '2026-11-22T10:00:00.12Z', 'yesterday', '2026-11-22T10:00:00.000+00:00:00']);
  const year = random.pick(['0000', '0001', '0099', '1900', '1970', '2000', '2024', '2026', '2100', '9999', digits(random, 4)]);
  const month = random.chance(0.9) ? two(random.between(1, 12)) : random.pick(['00', '13', '99', '1a']);
  const day = random.chance(0.9) ? two(random.between(1, random.pick([28, 29, 30, 31]))) : random.pick(['00', '32', '3x']);
  const hour = random.chance(0.95) ? two(random.between(0, 23)) : random.pick(['24', '99']);
  const minute = random.chance(0.95) ? two(random.between(0, 59)) : '60';
  const second = random.chance(0.95) ? two(random.between(0, 59)) : random.pick(['60', '6x']);
  const zone = random.pick(['Z', 'Z', '+00:00', '+0000', '-05:30', '+1400', '-0930', '+23:59', '+24:00', '+0060', 'z', '+05', '']);
  let time = `${year}-${month}-${day}T${hour}:${minute}:${second}.${digits(random, 3)}${zone}`;
  if (random.chance(0.05)) {
    const at = random.below(time.length);
    time = time.slice(0, at) + random.pick([' ', 'x', '/', '\u00e9', '']) + time.slice(at + 1);
  }
  lastTime = time.length >= 24 ? time : lastTime;
  return time;
}

/** A field's text: one of a few that repeat (kept texts), or any, sometimes with what must be escaped. */
function randomText(random: Random, pool: readonly string[]): string {
  const roll = random();
  if (roll < 0.6) return random.pick(pool);
  if (roll < 0.9) return randomBytes(random, random.between(0, 40), { quotes: false, controls: false, invalid: false, escapes: 'none', specials: 0.05 }).toString('utf8');
  return random.pick(['say "hi"', 'a\\b', 'tab\there', 'line\nbreak', 'bell\u0007', 'x'.repeat(random.between(200, 1100)), '']);
}

const SEVERITIES = ['I', 'W', 'E', 'F', 'D1', 'D5'];
const COMPONENTS = ['NETWORK', 'ACCESS', 'COMMAND', 'REPL', 'STORAGE', 'CONTROL', '-'];
const CONTEXTS = ['listener', 'conn42', 'initandlisten', 'conn/é', 'ReplCoord-0'];
const MESSAGES = ['Connection accepted', 'Connection ended', 'Slow query', 'Received first command on ingress connection since session start or auth handshake', 'Zugriff ✗'];

/** Blanks the server may write after a separator, or one that may not stand there. */
const padding = (random: Random): string => (random.chance(0.6) ? '' : random.pick([' ', '  ', '\t', ' \t ', '   ']));

interface MadeLine {
  readonly line: Buffer;
  /** True when it was made whole and its head clean: the kernel must read it (as a line; a literal holds a tab as an escape). */
  readonly clean: boolean;
  /** The head, for a clean line. */
  readonly head?: Buffer;
}

/** Cut short, or a byte changed: one more way for a line to be broken. */
function mutate(random: Random, line: Buffer): Buffer {
  if (random.chance(0.5)) return line.subarray(0, random.below(line.length + 1));
  const copy = Buffer.from(line);
  copy[random.below(copy.length)] = random.pick([0x22, 0x5c, 0x80, 0x20, 0x7b, 0x2c, 0x5d, 0x09, 0x30]);
  return copy;
}

function randomServerLine(random: Random): MadeLine {
  const time = randomTime(random);
  const fields = [randomText(random, SEVERITIES), randomText(random, COMPONENTS), randomText(random, CONTEXTS), randomText(random, MESSAGES)];
  const id = random.chance(0.9) ? String(random.between(0, 10 ** random.between(1, 9) - 1)) : random.pick(['', '1234567890', '007', '"1"', '-1', '1.5']);
  const [s, c, ctx, msg] = fields.map((f) => JSON.stringify(f));
  const misplaced = random.chance(0.05);
  const odd = misplaced ? random.pick([' ', '\t']) : '';
  const head = `{${misplaced ? odd : ''}"t":{"$date":${JSON.stringify(time)}},${padding(random)}"s":${s},${padding(random)}"c":${c},${padding(random)}"id":${id},${padding(random)}"ctx":${ctx},${padding(random)}"msg":${msg}`;
  const rest = random.pick([',"attr":{"connectionCount":3}}', '}', ',"attr":{"durationMillis":120,"ns":"app.orders"},"tags":["x"]}', ',"truncated":{"a":1},"size":{"a":2}}']);
  const whole = Buffer.from(head + rest);
  const clean = !misplaced && /^\d{1,9}$/.test(id) && time.length > 0 && [time, ...fields].every((f) => !/["\\\u0000-\u001f]/.test(f));
  return random.chance(0.15) ? { line: mutate(random, whole), clean: false } : { line: whole, clean, head: Buffer.from(head) };
}

/** The kernel's answer in the reference's shape. */
function kernelServerHead(shift: number): ServerHeadReading {
  const answer = headAnswer;
  const text = (slot: number): TextPlace => ({ start: answer[slot]! + shift, end: answer[slot + 1]! + shift, kept: answer[slot + 2]! });
  return {
    time: { start: answer[HEAD_SLOT.time]! + shift, end: answer[HEAD_SLOT.time + 1]! + shift },
    severity: text(HEAD_SLOT.severity),
    component: text(HEAD_SLOT.component),
    id: answer[HEAD_SLOT.id]!,
    context: { start: answer[HEAD_SLOT.context]! + shift, end: answer[HEAD_SLOT.context + 1]! + shift },
    message: text(HEAD_SLOT.message),
    end: answer[HEAD_SLOT.end]! + shift,
    millis: headMillis[0]!,
  };
}

function kernelAgentHead(shift: number): AgentHeadReading {
  const answer = headAnswer;
  const text = (slot: number): TextPlace => ({ start: answer[slot]! + shift, end: answer[slot + 1]! + shift, kept: answer[slot + 2]! });
  return {
    time: { start: answer[HEAD_SLOT.time]! + shift, end: answer[HEAD_SLOT.time + 1]! + shift },
    level: text(HEAD_SLOT.severity),
    source: text(HEAD_SLOT.component),
    end: answer[HEAD_SLOT.end]! + shift,
    millis: headMillis[0]!,
  };
}

/** Keeps some of the texts the kernel read (by its places in memory), and the reference's model the same. */
function keepSome(random: Random, source: Buffer, shift: number, texts: readonly TextPlace[]): Verdict {
  for (const { start, end } of texts) {
    if (!random.chance(0.3)) continue;
    const index = keepHeadText(start - shift, end - shift);
    const expected = kept.keep(source.subarray(start, end));
    if (index !== expected) return differ(index, expected, `keepText of ${showBytes(source.subarray(start, end))}`);
  }
  return undefined;
}

const utf8 = (bytes: Buffer, span: { start: number; end: number }): string => bytes.toString('utf8', span.start, span.end);

test.serial('serverHead: findServerHead is referenceServerHead, kept texts and times too; clean heads are read, as JSON.parse reads them', (t) => {
  let read = 0;
  property(t, 4000, (random) => {
    const { line, clean: cleanLine, head } = randomServerLine(random);
    const escaped = random.chance(0.5);
    // Read within MAX_HEAD_BYTES, in the form given; a literal holds a tab as an escape, no blank.
    const clean = cleanLine && head !== undefined && !(escaped && head.includes('\t')) && (escaped ? literalOf(head).length : head.length) <= MAX_HEAD_BYTES;
    const { source, start, end, where } = placeSource(random, escaped ? literalOf(line) : line);
    const input = given(`${escaped ? 'the literal of ' : ''}${showBytes(line)} in ${where}`);
    const expected = referenceServerHead(source, start, end, escaped, kept);
    const shift = findServerHead(source, start, end, escaped);
    const actual = shift === undefined ? undefined : kernelServerHead(shift);
    const verdict = differ(actual, expected, `serverHead of ${input}`);
    if (verdict || !expected || shift === undefined) return verdict ?? (clean ? `the clean head of ${input} is not read` : undefined);
    read++;
    let object: { t: { $date: string }; s: string; c: string; id: number; ctx: string; msg: string };
    try {
      object = JSON.parse(line.toString('utf8')) as typeof object;
    } catch {
      // Read by its head, though not JSON as a whole (cut after the head, an id of 007): nothing to compare.
      return keepSome(random, source, shift, [expected.severity, expected.component, expected.message]);
    }
    const asParsed = { time: object.t.$date, severity: object.s, component: object.c, id: object.id, context: object.ctx, message: object.msg };
    const fromBytes = { time: utf8(source, expected.time), severity: utf8(source, expected.severity), component: utf8(source, expected.component), id: expected.id, context: utf8(source, expected.context), message: utf8(source, expected.message) };
    return (
      differ(fromBytes, asParsed, `the head of ${input}, against JSON.parse`) ??
      differ(Number.isNaN(expected.millis) ? undefined : expected.millis, parseIsoMillis(object.t.$date), `the time of ${input}, against parseIsoMillis`) ??
      keepSome(random, source, shift, [expected.severity, expected.component, expected.message])
    );
  });
  t.log(`${read} of 4000 heads read`);
  t.true(read > 600, `only ${read} of 4000 heads were read: the generator makes too few good ones`);
});

test.serial('keepText: texts are kept until the table is full, by their bytes and by their number, as the reference keeps them', (t) => {
  const refused = { byBytes: 0, byNumber: 0 };
  property(t, 1, (random) => {
    const keep = (text: Buffer): Verdict => {
      text.copy(input, 0);
      const before = { count: kept.count, bytes: kept.bytes };
      const expected = kept.keep(text);
      const index = keepHeadText(input.byteOffset, input.byteOffset + text.length);
      if (expected < 0 && text.length <= KEPT_TEXTS.longest) refused[before.count < KEPT_TEXTS.most ? 'byBytes' : 'byNumber']++;
      return index === expected ? undefined : differ(index, expected, `keepText of ${showBytes(text)}, ${before.count} texts of ${before.bytes} bytes kept`);
    };
    // Up to 200 texts short of the most, all but 250 bytes of the room: then a long text finds
    // no room, while the empty text and those of one byte not kept yet fill the table's number
    // (and texts longer than the longest are never kept).
    const texts = KEPT_TEXTS.most - 200 - kept.count;
    const bytes = KEPT_TEXTS.bytes - 250 - kept.bytes;
    for (let i = 0; i < texts; i++) {
      const length = Math.floor(bytes / texts) + (i < bytes % texts ? 1 : 0);
      const text = Buffer.concat([Buffer.from(`#${i}#`), randomBytes(random, length)]).subarray(0, length);
      const verdict = keep(random.chance(0.01) ? randomBytes(random, KEPT_TEXTS.longest + 1) : text) ?? keep(text);
      if (verdict) return verdict;
    }
    const singles = [Buffer.alloc(0), ...Array.from({ length: 256 }, (_, byte) => Buffer.from([byte]))];
    for (const text of [randomBytes(random, KEPT_TEXTS.longest), ...singles, ...Array.from({ length: 50 }, () => randomBytes(random, 2))]) {
      const verdict = keep(text);
      if (verdict) return verdict;
    }
    return undefined;
  });
  t.true(refused.byBytes > 0 && refused.byNumber > 0, `refused for want of bytes ${refused.byBytes} times, of number ${refused.byNumber} times`);
  t.is(kept.count, KEPT_TEXTS.most);
});

const LEVELS = ['.info', '.warn', '.error', 'header.info', '.debug', ''];
const SOURCES = ['src/director/director.go:computePlan:1083', '::0', 'main.go:42', 'src/agent.go:run:7'];

function randomAgentLine(random: Random): MadeLine {
  const time = random.chance(0.7) ? randomTime(random) : random.pick(['2019/09/10 04:07:50.537', '', 'x]y']);
  const level = random.chance(0.7) ? random.pick(LEVELS) : randomText(random, LEVELS);
  const from = random.chance(0.7) ? random.pick(SOURCES) : randomText(random, SOURCES);
  const gap = () => (random.chance(0.93) ? ' ' : random.pick(['', '  ', '\t']));
  const after = random.chance(0.8) ? random.pick([' ', '']) : random.pick(['\t', '  ', '\\', '\u00e9', '\n', '\r', '\u000b', '\f', '\u00a0']);
  const rest = random.pick(['<rs0-1> [10:00:00.123] All 3 Mongo processes are in goal state', 'Starting', '', '[10:00:00] done', 'é ✗ "quoted"']);
  const whole = Buffer.from(`[${time}]${gap()}[${level}]${gap()}[${from}]${after}${rest}`);
  return random.chance(0.15) ? { line: mutate(random, whole), clean: false } : { line: whole, clean: false };
}

test.serial('agentHead: findAgentHead is referenceAgentHead, kept texts and times too', (t) => {
  let read = 0;
  property(t, 4000, (random) => {
    const { line } = randomAgentLine(random);
    const escaped = random.chance(0.5);
    const { source, start, end, where } = placeSource(random, escaped ? literalOf(line) : line);
    const input = given(`${escaped ? 'the literal of ' : ''}${showBytes(line)} in ${where}`);
    const expected = referenceAgentHead(source, start, end, kept);
    const shift = findAgentHead(source, start, end);
    const verdict = differ(shift === undefined ? undefined : kernelAgentHead(shift), expected, `agentHead of ${input}`);
    if (verdict || !expected || shift === undefined) return verdict;
    read++;
    return keepSome(random, source, shift, [expected.level, expected.source]);
  });
  t.log(`${read} of 4000 agent heads read`);
  t.true(read > 600, `only ${read} of 4000 agent heads were read`);
});

test('times: the reference reads a time as parseIsoMillis does', (t) => {
  property(t, 10000, (random) => {
    const time = randomTime(random);
    const expected = parseIsoMillis(time) ?? Number.NaN;
    return differ(referenceIsoMillis(Buffer.from(time, 'latin1')), expected, `the time ${JSON.stringify(time)}`);
  });
});

/** A JSON value of every kind, nested, its strings holding what must be escaped. */
function randomValue(random: Random, depth: number): unknown {
  const roll = random();
  if (roll < 0.3) return random.pick([0, -1, 3, 1.5e-7, 12345678901234, -0.25, true, false, null]);
  if (roll < 0.65 || depth > 2) {
    const kinds = ['"', '\\', '\\"', '\\\\"', '}', ']', '{', '[', ',', ':', '\n', '\t', 'é', '😀', '\ud800', '\u0001', ' '];
    let text = '';
    for (let i = random.between(0, 30); i > 0; i--) text += random.chance(0.2) ? random.pick(kinds) : String.fromCharCode(random.between(0x20, 0x7e));
    return text;
  }
  if (roll < 0.8) return Array.from({ length: random.between(0, 4) }, () => randomValue(random, depth + 1));
  return Object.fromEntries(Array.from({ length: random.between(0, 4) }, (_, i) => [`k${i}${random.pick(['', '"', 'é', ' '])}`, randomValue(random, depth + 1)]));
}

interface MadeObject {
  readonly text: string;
  readonly members: readonly (readonly [string, unknown])[];
  /** Made whole, keys without escapes, at most MAX_OBJECT_MEMBERS members. */
  readonly clean: boolean;
  /** Blanks only where jsonMembers reads them too (spaces around `:` and `,`). */
  readonly spacesOnly: boolean;
}

function randomObject(random: Random): MadeObject {
  const count = random.chance(0.05) ? random.between(60, 70) : random.between(0, 8);
  const keyOf = (i: number) => (random.chance(0.05) ? random.pick([`a"${i}`, `b\\${i}`, `c\n${i}`]) : random.pick(['ns', 'durationMillis', 'command', 'remote', `key${i}`, `é${i}`, `${i}`]) + i);
  const members = Array.from({ length: count }, (_, i) => [keyOf(i), randomValue(random, 0)] as const);
  const blanks = random.pick([[''], ['', ' '], ['', ' ', '\t', '  ']]);
  const blank = () => random.pick(blanks);
  const text = `{${blank()}${members.map(([key, value]) => `${JSON.stringify(key)}${blank()}:${blank()}${JSON.stringify(value)}`).join(`${blank()},${blank()}`)}${blank()}}`;
  const clean = members.every(([key]) => !/["\\\u0000-\u001f]/.test(key)) && count <= MAX_OBJECT_MEMBERS;
  return { text, members, clean, spacesOnly: !blanks.includes('\t') };
}

test('objectMembers: objectMembersAt is referenceObjectMembers; whole objects are read, each value as JSON.parse reads it', (t) => {
  let read = 0;
  property(t, 4000, (random) => {
    const made = randomObject(random);
    const mutated = random.chance(0.2);
    const object = mutated ? mutate(random, Buffer.from(made.text)) : Buffer.from(made.text);
    const escaped = random.chance(0.5);
    // Inside a line, as attr is: the line goes on after the object.
    const prefix = Buffer.from('{"t":{"$date":"2026-11-22T10:00:00.000Z"},"msg":"m","attr":');
    const line = Buffer.concat([prefix, object, Buffer.from(random.pick(['}', ',"tags":["a"]}', ',"truncated":{"x":{"y":1}}}', '']))]);
    const bytes = escaped ? literalOf(line) : line;
    const objectStart = escaped ? literalOf(prefix).length : prefix.length;
    const { source, start, end, where } = placeSource(random, bytes);
    const max = random.chance(0.9) ? MAX_OBJECT_MEMBERS : random.between(1, MAX_OBJECT_MEMBERS + 1);
    const input = given(`${escaped ? 'the literal of ' : ''}${showBytes(object)} in ${where}, at most ${max}`);
    const expected = referenceObjectMembers(source, start + objectStart, end, escaped, max);
    const actual = objectMembersAt(source, start + objectStart, end, escaped, max);
    const verdict = differ(actual && [...actual], expected, `objectMembers of ${input}`);
    // A tab is an escape in a literal: not a blank the kernel skips there.
    if (verdict || mutated || !made.clean || max !== MAX_OBJECT_MEMBERS || (escaped && made.text.includes('\t'))) return verdict;
    if (!expected) return `the whole object ${input} is not read`;
    read++;
    const members: [string, unknown][] = [];
    for (let i = 0; i < expected.length; i += 4) {
      const key = JSON.parse(`"${source.toString('utf8', expected[i], expected[i + 1])}"`) as string;
      const text = source.toString('utf8', expected[i + 2], expected[i + 3]);
      members.push([key, JSON.parse(escaped ? (JSON.parse(`"${text}"`) as string) : text) as unknown]);
    }
    const against = differ(members, made.members.map(([key, value]) => [key, JSON.parse(JSON.stringify(value)) as unknown]), `the members of ${input}, against JSON.parse`);
    if (against || escaped || !made.spacesOnly) return against;
    // And as jsonMembers reads them from the text.
    const scanned = jsonMembers(line.toString('utf8'), prefix.length)?.members.map((m) => [m.key, m.isString ? `"${m.text}"` : m.text]);
    return differ(
      members.map(([key], i) => [key, source.toString('utf8', expected[i * 4 + 2], expected[i * 4 + 3])]),
      scanned,
      `the members of ${input}, against jsonMembers`,
    );
  });
  t.log(`${read} of 4000 objects read whole`);
  t.true(read > 600, `only ${read} of 4000 objects were read whole`);
});
