import test from 'ava';
import { beyondMessage } from '../../src/summary/server-problems.js';

// From a review of the report: a warning's group showed its message alone, never why (its
// `error` attribute), in the text, the page and the JSON.
test('beyondMessage: a 4.4+ line\'s attributes as name: JSON; a text line as written where its template masked it; nothing where there is nothing more', (t) => {
  const rows: [attrs: Record<string, unknown> | undefined, message: string, template: string | undefined, expected: string | undefined][] = [
    [{ error: 'InvalidSyncSource: sync source localhost:27018 is no longer valid' }, 'Oplog fetcher stopped querying remote oplog with error', undefined, 'error: "InvalidSyncSource: sync source localhost:27018 is no longer valid"'],
    [{ error: { code: 6, codeName: 'HostUnreachable' }, line: 65 }, 'Failed to check socket connectivity', undefined, 'error: {"code":6,"codeName":"HostUnreachable"}, line: 65'],
    // An integer past a double's digits is read as a BigInt: written as its digits, never a throw.
    [{ opId: 12345678901234567890n }, 'Slow query', undefined, 'opId: 12345678901234567890'],
    [{}, 'Access control is not enabled', undefined, undefined],
    [undefined, 'Access control is not enabled', undefined, undefined],
    [undefined, 'exception in initAndListen: 98 Unable to lock file: /data/db/mongod.lock', 'exception in initAndListen: # Unable to lock file: /data/db/mongod.lock', 'exception in initAndListen: 98 Unable to lock file: /data/db/mongod.lock'],
    [undefined, 'ERROR: dbexit: really exiting now', 'ERROR: dbexit: really exiting now', undefined],
  ];
  for (const [attrs, message, template, expected] of rows) t.is(beyondMessage({ attrs }, message, template), expected, message);
});

// From a review: an attribute of megabytes (a command's documents) was written whole, then cut.
test('beyondMessage: cut at its bound, `…` where cut, without writing a huge attribute whole', (t) => {
  const documents = Array.from({ length: 200_000 }, (_, i) => ({ _id: i, name: `document ${i}` }));
  const text = beyondMessage({ attrs: { error: 'E11000 duplicate key', command: { insert: 'orders', documents } } }, 'Write failed', undefined, 120)!;
  t.is(text.length, 120);
  t.true(text.startsWith('error: "E11000 duplicate key", command: {"insert":"orders","documents":[{"_id":0,"name":"document 0"}'), text);
  t.true(text.endsWith('…'));
  // Under the bound: as JSON.stringify writes each value.
  t.is(beyondMessage({ attrs: { a: [1, { b: 'c' }] } }, 'm', undefined, 120), 'a: [1,{"b":"c"}]');
});
