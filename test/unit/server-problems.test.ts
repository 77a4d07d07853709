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
