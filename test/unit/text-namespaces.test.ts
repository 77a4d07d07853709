import test from 'ava';
import { textNamespacesOf } from '../../src/parse/text-namespaces.js';

// Messages as servers 3.6-4.2 write them (the first two from test/fixtures/real/mongod-4.0-text-slow-transactions.log).
const cases: [string, string[]][] = [
  ['createCollection: local.startup_log with generated UUID: f86f0d06-9678-40fc-8adf-12c7016dd2fa', ['local.startup_log']],
  ['build index on: config.system.sessions properties: { v: 2, key: { lastUse: 1 }, name: "lsidTTLIndex" }', ['config.system.sessions']],
  ['createCollection: app.orders with provided UUID: 10f1b638-5d03-4bb2-b694-ce617e3efd52', ['app.orders']],
  ['index build: starting on app.orders properties: { v: 2, key: { a: 1 } } using method: Hybrid', ['app.orders']],
  ['index build: done building index a_1 on ns app.orders', ['app.orders']],
  ['CMD: drop app.orders', ['app.orders']],
  ['CMD: dropIndexes app.orders: "a_1"', ['app.orders']],
  ['dropCollection: app.orders (1b0e4c4c-1111-2222-3333-444455556666) - renaming to drop-pending collection', ['app.orders']],
  ['Finishing collection drop for app.orders (1b0e4c4c-1111-2222-3333-444455556666).', ['app.orders']],
  ['renameCollection: renaming collection 1b0e4c4c-1111 from app.tmp to app.orders', ['app.tmp', 'app.orders']],
  ['validating collection app.orders (UUID: 1b0e4c4c-1111)', ['app.orders']],
  // No namespace: nothing, not a word taken for one.
  ['Connection accepted from 127.0.0.1:51000 #2 (1 connection now open)', []],
  ['createCollection', []],
];

for (const [message, expected] of cases) {
  test(`textNamespacesOf: ${message.slice(0, 60)}`, (t) => {
    t.deepEqual(textNamespacesOf(message), expected);
  });
}
