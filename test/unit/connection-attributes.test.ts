/**
 * The byte-level readers summary's connection lines take, each against its reference reading:
 * readConnectionAttributes against stringAfterKey, remoteHost and AttributeReader.number (on
 * every connection line of Hatchet's rs1 and rs2, as lines and inside an entry's literal, and
 * on lines in other shapes, which it must leave to them); remoteHostPlace against remoteHost;
 * readMetadataPlaces against stringPlaceAfterKey, remoteHost and AttributeReader.valuePlace (on
 * every client metadata line of rs1 and rs2, and on other shapes), and ClientConnections'
 * drivers against the documents JSON.parse reads; ServerRecord.contextNumber against
 * connectionNumber; ByteKeyed against a Map of strings; TextPlace.equals against string equality.
 */
import path from 'node:path';
import test from 'ava';
import { ConnectionAttributes, MetadataPlaces, readConnectionAttributes, readMetadataPlaces } from '../../src/parse/connection-attributes.js';
import { stringAfterKey, stringPlaceAfterKey } from '../../src/parse/key-string.js';
import { parseServerLineInBytes } from '../../src/parse/parse-server-line.js';
import { attrNumber, attrString, attrStringPlace, attrValuePlace, attrValueText } from '../../src/parse/record-attributes.js';
import { connectionNumber } from '../../src/parse/server-connection.js';
import { ServerRecord } from '../../src/parse/server-record.js';
import { TextPlace, placeEquals } from '../../src/parse/text-place.js';
import { ByteKeyed } from '../../src/summary/byte-keyed.js';
import { ConnectionLifetimes } from '../../src/summary/connection-lifetimes.js';
import { MAX_LONG_LIVED_CONNECTIONS } from '../../src/summary/summary-limits.js';
import { ClientConnections, remoteHost, remoteHostPlace } from '../../src/summary/client-connections.js';
import { literalOf } from '../_helpers/property.js';
import { readRecords } from '../_helpers/read-records.js';
import { REAL_DATA } from '../_helpers/sidecar-process.js';

/** A server line's bytes as summary reads them: alone, or escaped inside an entry's literal among other bytes. */
function lineIn(line: string, escaped: boolean): { bytes: Buffer; start: number; end: number } {
  const inside = escaped ? literalOf(Buffer.from(line)) : Buffer.from(line);
  const bytes = Buffer.concat([Buffer.from('{"logType":"mongodb","contents":"'), inside, Buffer.from('"}\n{"remote":"10.9.9.9:1","connectionId":7}}')]);
  return { bytes, start: 33, end: 33 + inside.length };
}

/** The lines of rs1 and rs2 whose message id is one of `ids`, each as a line and inside a literal. */
async function realLines(ids: readonly number[]): Promise<{ contents: string; escaped: boolean }[]> {
  const lines: { contents: string; escaped: boolean }[] = [];
  for (const file of ['mongod-replica-rs1.log.gz', 'mongod-replica-rs2.log.gz']) {
    const { records } = await readRecords(path.join(REAL_DATA, file), 'mongodb');
    for (const { record, contents } of records) {
      if (record?.id !== undefined && ids.includes(record.id)) for (const escaped of [false, true]) lines.push({ contents, escaped });
    }
  }
  return lines;
}

/** A one-pass reading and its reference on a line: `fast` undefined when the line is left to the reference. */
type Readings = (line: string, escaped: boolean) => { fast: unknown; reference: unknown };

/**
 * One test a case and a way of writing the line: `head` with the case's attributes, read as the
 * reference reads it when the case says the one-pass reader takes it, else left to the reference.
 */
function shapeTests(title: string, head: string, cases: readonly [string, string, boolean][], readings: Readings): void {
  for (const [name, attr, read] of cases) {
    for (const escaped of [false, true]) {
      test(`${title}${escaped ? ', in a literal' : ''}: ${name}`, (t) => {
        const { fast, reference } = readings(`${head},"attr":${attr}}`, escaped);
        if (read) t.deepEqual(fast, reference);
        else t.is(fast, undefined);
      });
    }
  }
}

/** What readConnectionAttributes read of the line (undefined: left to the reference), and what the reference reads. */
function bothReadings(line: string, escaped: boolean) {
  const { bytes, start, end } = lineIn(line, escaped);
  const record = parseServerLineInBytes(bytes, start, end, escaped, { contents: line })!;
  const into = new ConnectionAttributes();
  const read = record.attributes!.inBytes!((b, headEnd, lineEnd, e) => readConnectionAttributes(b, headEnd, lineEnd, e, into));
  const remote = attrString(record, 'remote');
  const reference = { remote, host: remote === undefined ? undefined : remoteHost(remote), connectionId: attrNumber(record, 'connectionId'), connectionCount: attrNumber(record, 'connectionCount') };
  const fast = read
    ? { remote: into.bytes.toString('utf8', into.remoteStart, into.remoteEnd), host: into.bytes.toString('utf8', into.remoteStart, into.hostEnd), connectionId: into.connectionId, connectionCount: into.connectionCount }
    : undefined;
  return { fast, reference };
}

test("every connection line of rs1 and rs2 is read in one pass, as the attributes one by one read it", async (t) => {
  const lines = await realLines([22943, 22944]);
  for (const { contents, escaped } of lines) {
    const { fast, reference } = bothReadings(contents, escaped);
    t.deepEqual(fast, reference, contents);
  }
  t.true(lines.length >= 400, `${lines.length} lines`);
});

const head = '{"t":{"$date":"2026-11-22T03:00:00.005+00:00"},"s":"I",  "c":"NETWORK",  "id":22943,   "ctx":"listener","msg":"Connection accepted"';

/** Attributes, and whether the one-pass reader reads them (else it leaves them to the reference). */
const shapes: [string, string, boolean][] = [
  ['4.4+', '{"remote":"10.42.0.4:33418","uuid":{"uuid":{"$uuid":"f0c2b3a4-1d2e-4f50-8a9b-0c1d2e3f4a5b"}},"connectionId":60287,"connectionCount":51}', true],
  ['without uuid', '{"remote":"127.0.0.1:5","connectionId":1,"connectionCount":0}', true],
  ['a remote without a port', '{"remote":"anonymous unix socket","connectionId":1,"connectionCount":2}', true],
  ['a port that is no number', '{"remote":"host:27017x","connectionId":1,"connectionCount":2}', true],
  ['two colons', '{"remote":"fe80::1:27017","connectionId":1,"connectionCount":2}', true],
  ['a colon first', '{"remote":":27017","connectionId":1,"connectionCount":2}', true],
  ['a colon last', '{"remote":"host:","connectionId":1,"connectionCount":2}', true],
  ['an empty remote', '{"remote":"","connectionId":1,"connectionCount":2}', true],
  ['leading zeros', '{"remote":"h:1","connectionId":007,"connectionCount":00}', true],
  ['15 digits', '{"remote":"h:1","connectionId":123456789012345,"connectionCount":2}', true],
  ['16 digits', '{"remote":"h:1","connectionId":1234567890123456,"connectionCount":2}', false],
  ['a bracketed IPv6 remote', '{"remote":"[::1]:27017","connectionId":3,"connectionCount":2}', false],
  ['UTF-8 in the remote', '{"remote":"hôte:1","connectionId":3,"connectionCount":2}', false],
  ['an escape in the remote', '{"remote":"a\\"b:1","connectionId":3,"connectionCount":2}', false],
  ['another order', '{"connectionId":3,"remote":"10.0.0.1:5","connectionCount":2}', false],
  ['the count before the id', '{"remote":"10.0.0.1:5","connectionCount":2,"connectionId":3}', false],
  ['a fraction', '{"remote":"10.0.0.1:5","connectionId":3,"connectionCount":2.5}', false],
  ['no count', '{"remote":"10.0.0.1:5","connectionId":3}', false],
  ['no remote', '{"connectionId":3,"connectionCount":2}', false],
];

shapeTests("a connection line's attributes in one pass", head, shapes, bothReadings);

test('a line without attributes is left to the reference', (t) => {
  t.is(bothReadings(`${head}}`, false).fast, undefined);
  t.is(bothReadings(`${head}}`, true).fast, undefined);
});

const remotes = ['10.118.67.176:50202', 'host:1', '[::1]:27017', '[::1]', '[::1]:', '[::1]:x', '[fe80::1%eth0]:5', '[', '[]:1', '::1', 'fe80::1:27017', ':27017', 'host:', 'host:27017x', 'host:2701 7', 'host:-1', 'a:b:1', '', 'anonymous unix socket', '/tmp/mongodb-27017.sock', 'hôte:٣', 'hôte:1'];

test('remoteHostPlace cuts the bytes where remoteHost cuts the text', (t) => {
  const place = new TextPlace();
  for (const remote of remotes) {
    const bytes = Buffer.from(`xx${remote}yy`);
    remoteHostPlace(bytes, 2, bytes.length - 2, place);
    t.is(place.text(), remoteHost(remote), remote);
  }
});

test('stringPlaceAfterKey stands where stringAfterKey reads', (t) => {
  for (const remote of remotes) {
    for (const escaped of [false, true]) {
      const line = `${head},"attr":${JSON.stringify({ remote, connectionId: 1 })}}`;
      const { bytes, start, end } = lineIn(line, escaped);
      const from = start + (escaped ? literalOf(Buffer.from(head)).length : head.length);
      const place = new TextPlace();
      const text = stringAfterKey(bytes, from, end, escaped, 'remote');
      t.is(stringPlaceAfterKey(bytes, from, end, escaped, 'remote', place) ? place.text() : undefined, text, remote);
    }
  }
});

test("a thread's connection number from the context's bytes is connectionNumber's", (t) => {
  const contexts = ['conn1', 'conn123', 'conn007', 'conn', 'listener', 'con', 'c', 'conn12a', 'connx', 'conn123456789012345', 'conn1234567890123456', 'ReplCoord-0', 'conn-1', 'Conn1', 'thread«1»'];
  for (const ctx of contexts) {
    const line = `{"t":{"$date":"2026-11-22T03:00:00.005+00:00"},"s":"I",  "c":"NETWORK",  "id":51800,   "ctx":${JSON.stringify(ctx)},"msg":"client metadata"}`;
    for (const escaped of [false, true]) {
      const { bytes, start, end } = lineIn(line, escaped);
      const record = parseServerLineInBytes(bytes, start, end, escaped, { contents: line });
      if (!(record instanceof ServerRecord)) continue;
      const fromBytes = record.contextNumber();
      t.is(fromBytes === null ? connectionNumber(record.context) : fromBytes, connectionNumber(ctx), ctx);
    }
  }
});

test('ByteKeyed finds each text by its bytes, made once, and makes anew past its limit', (t) => {
  const made: string[] = [];
  const keyed = new ByteKeyed<{ text: string }>(3, (text) => {
    made.push(text);
    return { text };
  });
  const bytes = Buffer.from('10.0.0.1|10.0.0.2|10.0.0.1|hôte|10.0.0.2|x|x|10.0.0.3|10.0.0.3');
  const values = [];
  let at = 0;
  for (const text of bytes.toString().split('|')) {
    const length = Buffer.byteLength(text);
    values.push(keyed.get(bytes, at, at + length));
    at += length + 1;
  }
  t.deepEqual(values.map((v) => v.text), bytes.toString().split('|'));
  // The first three texts kept; `x` and 10.0.0.3 made each time they come.
  t.deepEqual(made, ['10.0.0.1', '10.0.0.2', 'hôte', 'x', 'x', '10.0.0.3', '10.0.0.3']);
  t.is(values[0], values[2]);
  t.is(values[1], values[4]);
});

test('ByteKeyed under many texts of one length: each found again as a Map of strings finds it', (t) => {
  const keyed = new ByteKeyed<string>(5000, (text) => text);
  const texts = Array.from({ length: 4000 }, (_, i) => `10.${(i >> 8) & 255}.${i & 255}.1`);
  for (const round of [0, 1]) {
    for (const text of texts) {
      const bytes = Buffer.from(`[${text}]`);
      t.is(keyed.get(bytes, 1, bytes.length - 1), text, `${round} ${text}`);
    }
  }
});

test('ByteKeyed finds a text again wherever its bytes lie: any length, any offset, another buffer; a text one byte apart is another', (t) => {
  const made: string[] = [];
  const keyed = new ByteKeyed<string>(5000, (text) => {
    made.push(text);
    return text;
  });
  // Lengths around the four-byte steps the bytes are read in, and a client document's.
  const texts = Array.from({ length: 71 }, (_, length) => Array.from({ length }, (_, i) => String.fromCharCode(0x61 + ((i * 7 + length) % 26))).join(''));
  const at = (text: string, offset: number): [Buffer, number, number] => {
    const bytes = Buffer.concat([Buffer.alloc(offset, 0x7c), Buffer.from(text), Buffer.alloc(5, 0x7c)]);
    return [bytes, offset, offset + text.length];
  };
  for (const text of texts) for (let offset = 0; offset < 8; offset++) t.is(keyed.get(...at(text, offset)), text, `${text.length} at ${offset}`);
  t.deepEqual(made, texts, 'each text made once, found again at every other offset');
  // The same text with one byte changed, at each place: a text of its own.
  const long = texts[70]!;
  for (let i = 0; i < long.length; i++) {
    const other = `${long.slice(0, i)}#${long.slice(i + 1)}`;
    t.is(keyed.get(...at(other, i % 8)), other, `byte ${i}`);
  }
  t.is(made.length, texts.length + long.length);
});

// From a review: the empty text's hash (no byte mixed in) was not the int32 the table stores,
// so an empty remote (`"remote":""`) took a new entry on every line, until the limit left no
// room for real hosts.
test('ByteKeyed finds the empty text again: it takes one entry, not one a lookup', (t) => {
  let made = 0;
  const keyed = new ByteKeyed<number>(3, () => ++made);
  const bytes = Buffer.from('10.0.0.1');
  for (let i = 0; i < 10; i++) t.is(keyed.get(bytes, 0, 0), 1);
  t.is(keyed.get(bytes, 0, bytes.length), 2);
  t.is(keyed.get(bytes, 0, bytes.length), 2);
  t.is(made, 2);
});

test('TextPlace.equals is string equality, beyond ASCII too', (t) => {
  const pairs: [string, string][] = [['10.0.0.1:5', '10.0.0.1:5'], ['10.0.0.1:5', '10.0.0.1:6'], ['10.0.0.1:5', '10.0.0.1:55'], ['10.0.0.1:55', '10.0.0.1:5'], ['', ''], ['', 'a'], ['hôte:1', 'hôte:1'], ['hôte:1', 'hote:1'], ['hote:1', 'hôte:1']];
  for (const [bytesText, text] of pairs) {
    const bytes = Buffer.from(`<${bytesText}>`);
    t.is(placeEquals(bytes, 1, bytes.length - 1, text), bytesText === text, `${bytesText} ${text}`);
  }
});

test('connections whose numbers share their low bits are each followed to their end, past the 255 the filter counts', (t) => {
  const lifetimes = new ConnectionLifetimes();
  const count = 300;
  // Numbers 65536 apart share their low 16 bits; each opened, then each ended a second later than the one before.
  for (let i = 0; i < count; i++) lifetimes.opened(i * 65536 + 7, `10.0.0.${i % 250}:${1000 + i}`, 1_000_000);
  const place = new TextPlace();
  for (let i = 0; i < count; i++) {
    const remote = Buffer.from(`10.0.0.${i % 250}:${1000 + i}`);
    place.set(remote, 0, remote.length);
    // Every other one ended with its remote where it stands in a line.
    lifetimes.ended(i * 65536 + 7, i % 2 ? place : remote.toString(), 1_000_000 + 1000 * (i + 1));
  }
  const { longLivedConnections } = lifetimes.summary(5_000_000);
  t.is(longLivedConnections.length, MAX_LONG_LIVED_CONNECTIONS);
  t.true(longLivedConnections.every((c) => c.end === 'closed'));
  t.deepEqual(
    longLivedConnections.map((c) => c.connectionId),
    Array.from({ length: MAX_LONG_LIVED_CONNECTIONS }, (_, i) => (count - 1 - i) * 65536 + 7),
  );
  // None of them still open: a new connection of the same number is followed again.
  lifetimes.opened(7, '10.0.0.0:1000', 6_000_000);
  t.is(lifetimes.summary(7_000_000).longLivedConnections.filter((c) => c.end === 'still open').length, 1);
});

test("a client metadata line's document stands where valueText reads it, on every metadata line of rs1 and rs2", async (t) => {
  const lines = await realLines([51800]);
  for (const { contents, escaped } of lines) {
    const { bytes, start, end } = lineIn(contents, escaped);
    const line = parseServerLineInBytes(bytes, start, end, escaped, { contents })!;
    const place = new TextPlace();
    const text = attrValueText(line, 'doc');
    t.true(text !== undefined);
    t.is(attrValuePlace(line, 'doc', place) ? place.bytes.toString('latin1', place.start, place.end) : undefined, text);
  }
  t.true(lines.length >= 100, `${lines.length} lines`);
});

/** What readMetadataPlaces read of a metadata line (undefined: left to the reference), and what the reference reads. */
function bothMetadataReadings(line: string, escaped: boolean) {
  const { bytes, start, end } = lineIn(line, escaped);
  const record = parseServerLineInBytes(bytes, start, end, escaped, { contents: line })!;
  const into = new MetadataPlaces();
  const read = record.attributes!.inBytes!((b, headEnd, lineEnd, e) => readMetadataPlaces(b, headEnd, lineEnd, e, into));
  const remote = new TextPlace();
  const doc = new TextPlace();
  const reference = {
    remote: attrStringPlace(record, 'remote', remote) ? remote.text() : undefined,
    host: attrString(record, 'remote') === undefined ? undefined : remoteHost(attrString(record, 'remote')!),
    doc: attrValuePlace(record, 'doc', doc) ? [doc.start, doc.end] : undefined,
  };
  const fast = read
    ? { remote: into.bytes.toString('utf8', into.remoteStart, into.remoteEnd), host: into.bytes.toString('utf8', into.remoteStart, into.hostEnd), doc: [into.docStart, into.docEnd] }
    : undefined;
  return { fast, reference };
}

test("every client metadata line of rs1 and rs2 is read in one pass: its remote, host and document where the reference reads them", async (t) => {
  const lines = await realLines([51800]);
  for (const { contents, escaped } of lines) {
    const { fast, reference } = bothMetadataReadings(contents, escaped);
    t.deepEqual(fast, reference, contents);
  }
  t.true(lines.length >= 100, `${lines.length} lines`);
});

const metadataHead = '{"t":{"$date":"2026-11-22T03:00:00.041+00:00"},"s":"I",  "c":"NETWORK",  "id":51800,   "ctx":"conn45","msg":"client metadata"';
const DOC = '{"application":{"name":"mongosh 2.3.1"},"driver":{"name":"nodejs","version":"6.9.0"},"os":{"type":"Linux"}}';

/** Metadata attributes, and whether readMetadataPlaces reads them (else it leaves them to the reference). */
const metadataShapes: [string, string, boolean][] = [
  ['7.0', `{"remote":"10.42.0.225:48371","client":"conn45","negotiatedCompressors":[],"doc":${DOC}}`, true],
  ['4.4, no compressors', `{"remote":"127.0.0.1:5","client":"conn1","doc":${DOC}}`, true],
  ['compressors', `{"remote":"127.0.0.1:5","client":"conn1","negotiatedCompressors":["snappy","zstd"],"doc":${DOC}}`, true],
  ['one compressor', `{"remote":"127.0.0.1:5","client":"conn1","negotiatedCompressors":["zlib"],"doc":${DOC}}`, true],
  ['an empty document', `{"remote":"127.0.0.1:5","client":"conn1","doc":{}}`, true],
  ['a remote without a port', `{"remote":"anonymous unix socket","client":"conn1","doc":${DOC}}`, true],
  ['a number before the document', `{"remote":"127.0.0.1:5","client":"conn1","n":1,"doc":${DOC}}`, false],
  ['an escape in the client', `{"remote":"127.0.0.1:5","client":"co\\"nn1","doc":${DOC}}`, false],
  ['UTF-8 in the client', `{"remote":"127.0.0.1:5","client":"cönn1","doc":${DOC}}`, false],
  ['a document that is no object', `{"remote":"127.0.0.1:5","client":"conn1","doc":"x"}`, false],
  ['no document', `{"remote":"127.0.0.1:5","client":"conn1"}`, false],
  ['a bracketed IPv6 remote', `{"remote":"[::1]:5","client":"conn1","doc":${DOC}}`, false],
  ['the remote not first', `{"client":"conn1","remote":"127.0.0.1:5","doc":${DOC}}`, false],
];

shapeTests("a client metadata line's places in one pass", metadataHead, metadataShapes, bothMetadataReadings);

/**
 * Metadata lines whose places are read in one pass but whose "document" is not one (more
 * members after it, cut attributes, a document met only in the other kind of line): each is
 * counted as its parsed document says.
 */
test("client metadata lines are counted as their documents say, whichever way they are read", (t) => {
  const attrs = [
    `{"remote":"10.0.0.1:5","client":"conn1","doc":${DOC}}`,
    `{"remote":"10.0.0.2:5","client":"conn2","doc":${DOC}}`,
    // The same document, then another member: the bytes after "doc": are not the document.
    `{"remote":"10.0.0.3:5","client":"conn3","doc":${DOC},"doc2":{"driver":{"name":"other"}}}`,
    // A document beside which the server cut something.
    `{"remote":"10.0.0.4:5","client":"conn4","doc":${DOC}},"truncated":{"doc":{"os":{"type":"string"}}},"size":{"doc":900}`,
    `{"remote":"10.0.0.5:5","client":"conn5","doc":{"driver":{"name":"pymongo","version":"4.3.3"}}}`,
    `{"remote":"10.0.0.6:5","client":"conn6","doc":{"driver":{"name":"pymongo","version":"4.3.3"}}}`,
    `{"remote":"10.0.0.7:5","client":"conn7","doc":{}}`,
    `{"remote":"10.0.0.8:5","client":"conn8","doc":{}}`,
  ];
  const lines = [false, true].flatMap((escaped) => attrs.map((attr) => ({ line: `${metadataHead},"attr":${attr}}`, escaped })));
  const clients = new ClientConnections();
  const expected = new Map<string, { connections: number; ips: Set<string> }>();
  for (const { line, escaped } of [...lines, ...lines.reverse()]) {
    const { bytes, start, end } = lineIn(line, escaped);
    clients.add(parseServerLineInBytes(bytes, start, end, escaped, { contents: line })!);
    clients.lineDone();
    const parsed = JSON.parse(line) as { attr: { remote: string; doc: { driver?: { name?: string; version?: string }; application?: { name?: string } } } };
    const { doc, remote } = parsed.attr;
    const key = `${doc.driver?.name ?? '(not said)'} ${doc.driver?.version ?? '-'} ${doc.application?.name ?? '-'}`;
    const row = expected.get(key) ?? { connections: 0, ips: new Set<string>() };
    row.connections++;
    row.ips.add(remoteHost(remote));
    expected.set(key, row);
  }
  const drivers = clients.summary().drivers.map((d) => ({ key: `${d.driver} ${d.version} ${d.appName}`, connections: d.connections, ips: d.ips }));
  const byKey = (a: { key: string }, b: { key: string }): number => (a.key < b.key ? -1 : 1);
  t.deepEqual(drivers.sort(byKey), [...expected].map(([key, { connections, ips }]) => ({ key, connections, ips: [...ips].sort() })).sort(byKey));
});
