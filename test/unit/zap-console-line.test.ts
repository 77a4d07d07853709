/** zap's console format, as the operator and the database pod's version-change hook write it. */
import test from 'ava';
import { isZapConsoleLine, parseZapConsoleLine, resourceOf } from '../../src/parse/zap-console-line.js';
import { isOperatorConsoleLine, isVersionHookLine, parseOperatorLine } from '../../src/parse/parse-operator-line.js';

interface Case {
  readonly name: string;
  readonly line: string;
  readonly expected: {
    readonly time: string | undefined;
    readonly level: string | undefined;
    readonly component: string | undefined;
    readonly context?: string | undefined;
    readonly message: string;
    readonly attrs: Record<string, unknown>;
    readonly resource?: string | undefined;
  };
}

const cases: Case[] = [
  {
    name: 'tabs, fields (a real line)',
    line: '2020-09-13T08:33:14.361Z\tINFO\toperator/mongodbreplicaset_controller.go:61\t-> ReplicaSet.Reconcile\t{"ReplicaSet": "data/devops"}',
    expected: { time: '2020-09-13T08:33:14.361Z', level: 'info', component: 'operator/mongodbreplicaset_controller.go:61', message: '-> ReplicaSet.Reconcile', attrs: { ReplicaSet: 'data/devops' }, resource: 'data/devops' },
  },
  {
    name: 'tabs, no fields, DEBUG (a real line)',
    line: '2020-09-08T14:24:56.496Z\tDEBUG\tscram/scram.go:122\tCredentials have not changed, using credentials stored in: secret/example-scram-mongodb-my-user-scram-credentials',
    expected: { time: '2020-09-08T14:24:56.496Z', level: 'debug', component: 'scram/scram.go:122', message: 'Credentials have not changed, using credentials stored in: secret/example-scram-mongodb-my-user-scram-credentials', attrs: {} },
  },
  {
    name: 'pasted: the tabs became runs of spaces (a real line)',
    line: '2020-10-27T09:41:43.463Z        INFO    mongodb/replica_set_controller.go:409   StatefulSet Readiness   {"ReplicaSet": "mongo/mongodb-replicaset", "isReady": true, "hasPerformedUpgrade": false, "areEqual": false}',
    expected: {
      time: '2020-10-27T09:41:43.463Z',
      level: 'info',
      component: 'mongodb/replica_set_controller.go:409',
      message: 'StatefulSet Readiness',
      attrs: { ReplicaSet: 'mongo/mongodb-replicaset', isReady: true, hasPerformedUpgrade: false, areEqual: false },
      resource: 'mongo/mongodb-replicaset',
    },
  },
  {
    name: 'pasted: a tab at a tab stop became one space',
    line: '2020-10-27T09:41:43.424Z        DEBUG   mongodb/replica_set_controller.go:46 Ensuring the service exists {"ReplicaSet": "a/b"}',
    expected: { time: '2020-10-27T09:41:43.424Z', level: 'debug', component: 'mongodb/replica_set_controller.go:46', message: 'Ensuring the service exists', attrs: { ReplicaSet: 'a/b' }, resource: 'a/b' },
  },
  {
    name: "a logger's name and no caller",
    line: '2021-03-01T10:00:00.000Z\tINFO\tcontroller-runtime.metrics\tmetrics server is starting to listen\t{"addr": ":8080"}',
    expected: { time: '2021-03-01T10:00:00.000Z', level: 'info', component: 'controller-runtime.metrics', message: 'metrics server is starting to listen', attrs: { addr: ':8080' } },
  },
  {
    name: "a logger's name and a caller",
    line: '2021-03-01T10:00:00.000+0100\tERROR\tcontroller\tcontroller/controller.go:218\tReconciler error\t{"controller": "mongodbcommunity", "request": "mongo/example", "error": "boom"}',
    expected: {
      time: '2021-03-01T09:00:00.000Z',
      level: 'error',
      component: 'controller/controller.go:218',
      context: 'controller',
      message: 'Reconciler error',
      attrs: { controller: 'mongodbcommunity', request: 'mongo/example', error: 'boom' },
      // controller-runtime's request names the resource it reconciled.
      resource: 'mongo/example',
    },
  },
  {
    name: 'pasted: a name, then a message of several words',
    line: '2021-03-01T10:00:00.000Z        INFO    setup   starting manager',
    expected: { time: '2021-03-01T10:00:00.000Z', level: 'info', component: 'setup', message: 'starting manager', attrs: {} },
  },
  {
    name: 'epoch seconds, lower-case level',
    line: '1.5798189394106023e+09\twarn\toperator/webhook.go:71\tFailed to configure admission webhooks\t{"MongoDB": "ns/db"}',
    expected: { time: '2020-01-23T22:35:39.410Z', level: 'warn', component: 'operator/webhook.go:71', message: 'Failed to configure admission webhooks', attrs: { MongoDB: 'ns/db' }, resource: 'ns/db' },
  },
  {
    name: 'a coloured level',
    line: '2021-03-01T10:00:00.000Z\t\u001b[31mERROR\u001b[0m\tx/y.go:1\tfailed',
    expected: { time: '2021-03-01T10:00:00.000Z', level: 'error', component: 'x/y.go:1', message: 'failed', attrs: {} },
  },
  {
    name: 'DPANIC is fatal',
    line: '2021-03-01T10:00:00.000Z\tDPANIC\tx/y.go:1\tpanicked',
    expected: { time: '2021-03-01T10:00:00.000Z', level: 'fatal', component: 'x/y.go:1', message: 'panicked', attrs: {} },
  },
  {
    name: 'braces in the message are no fields',
    line: '2021-03-01T10:00:00.000Z\tINFO\tx/y.go:1\tgot {"a" from b} and more\t{"MongoDBCommunity": "ns/c"}',
    expected: { time: '2021-03-01T10:00:00.000Z', level: 'info', component: 'x/y.go:1', message: 'got {"a" from b} and more', attrs: { MongoDBCommunity: 'ns/c' }, resource: 'ns/c' },
  },
  {
    name: 'a second console record glued on',
    line: '2020-09-13T08:33:14.361Z\tINFO\tx/y.go:61\tone\t{"ReplicaSet": "data/devops"}2020-09-13T08:33:14.362Z\tINFO\tx/y.go:62\ttwo\t{"ReplicaSet": "data/devops"}',
    expected: {
      time: '2020-09-13T08:33:14.361Z',
      level: 'info',
      component: 'x/y.go:61',
      message: 'one',
      attrs: { ReplicaSet: 'data/devops', glued: '2020-09-13T08:33:14.362Z\tINFO\tx/y.go:62\ttwo\t{"ReplicaSet": "data/devops"}' },
      resource: 'data/devops',
    },
  },
  {
    name: 'a JSON record glued on after the fields',
    line: '2020-09-13T08:33:14.361Z\tINFO\tx/y.go:61\tone\t{"ReplicaSet": "a/b"}{"level":"info","ts":1,"msg":"two"}',
    expected: { time: '2020-09-13T08:33:14.361Z', level: 'info', component: 'x/y.go:61', message: 'one', attrs: { ReplicaSet: 'a/b', glued: '{"level":"info","ts":1,"msg":"two"}' }, resource: 'a/b' },
  },
];

const view = (record: ReturnType<typeof parseZapConsoleLine>) =>
  record && {
    time: record.time === undefined ? undefined : new Date(record.time).toISOString(),
    level: record.level,
    component: record.component,
    ...(record.context === undefined ? {} : { context: record.context }),
    message: record.message,
    attrs: record.attrs,
    ...(record.resource === undefined ? {} : { resource: record.resource }),
  };

for (const { name, line, expected } of cases) {
  test(`zap console: ${name}`, (t) => {
    t.true(isZapConsoleLine(line));
    t.deepEqual(view(parseZapConsoleLine(line)), expected);
    t.deepEqual(view(parseOperatorLine(line)), expected);
  });
}

test('zap console: the object is the one zap JSON would write, so fields mean the same in both shapes', (t) => {
  const record = parseZapConsoleLine('2020-09-13T08:33:14.361Z\tINFO\toperator/c.go:61\t-> ReplicaSet.Reconcile\t{"ReplicaSet": "data/devops"}');
  t.deepEqual(record?.object, { level: 'info', ts: '2020-09-13T08:33:14.361Z', caller: 'operator/c.go:61', msg: '-> ReplicaSet.Reconcile', ReplicaSet: 'data/devops' });
});

test('zap console: lines of other logs are not it', (t) => {
  for (const line of [
    '2026-11-22 09:58:00 Starting agent launcher',
    '[2021-09-17T13:19:52.333+0000] [.info] [a.go:1] m',
    '2020-03-12T00:00:02.257+0000 I  NETWORK  [listener] connection accepted from 10.118.67.176:50202 #6677825 (6306 connections now open)',
    '{"level":"info","ts":1,"msg":"m"}',
    '2026-11-22T09:58:00.000418830Z Skipping creating symlinks because this is not Static Containers Architecture',
    'INFO something',
    '',
  ]) {
    t.false(isZapConsoleLine(line), line);
    t.is(parseZapConsoleLine(line), undefined, line);
  }
});

test("the version-change hook's lines are its own, the operator's the operator's", (t) => {
  const hook = '2021-03-09T15:47:16.288Z\tINFO\tversionhook/main.go:39\tWaiting for agent health status...';
  const operator = '2021-03-09T15:47:16.288Z\tINFO\tcontrollers/replica_set_controller.go:130\tReconciling MongoDB';
  t.true(isVersionHookLine(hook));
  t.false(isOperatorConsoleLine(hook));
  t.true(isOperatorConsoleLine(operator));
  t.false(isVersionHookLine(operator));
});

test('operator JSON: a second record glued on is kept, the first read', (t) => {
  const record = parseOperatorLine('{"level":"error","ts":1579818939.41,"caller":"a.go:1","msg":"one","ReplicaSet":"a/b"}{"level":"info","ts":1579818939.42,"caller":"a.go:2","msg":"two"}');
  t.is(record?.level, 'error');
  t.is(record?.message, 'one');
  t.is(record?.resource, 'a/b');
  t.is(record?.attrs?.['glued'], '{"level":"info","ts":1579818939.42,"caller":"a.go:2","msg":"two"}');
  t.is(parseOperatorLine('{"level":"info","ts":1,"msg":"cut short'), undefined);
});

// From an incident trial: --resource found nothing for the keys the Enterprise operator writes
// for Ops Manager, its application database and projects (enterprise operator issues #99, #25),
// nor for controller-runtime's own "Reconciler error" lines.
const RESOURCES: [what: string, fields: Record<string, unknown>, resource: string | undefined][] = [
  ['a replica set', { ReplicaSet: 'mongodb/my-rs' }, 'mongodb/my-rs'],
  ['Ops Manager', { OpsManager: 'mongodb/ops-manager' }, 'mongodb/ops-manager'],
  ["Ops Manager's application database", { 'ReplicaSet (AppDB)': 'mongodb/ops-manager-db' }, 'mongodb/ops-manager-db'],
  ["a project's config map", { Project: 'core/cache-config' }, 'core/cache-config'],
  ["controller-runtime's request (0.5)", { controller: 'mongodb-replicaset-controller', request: 'data/devops' }, 'data/devops'],
  ["controller-runtime's name and namespace", { 'reconciler group': 'mongodbcommunity.mongodb.com', 'reconciler kind': 'MongoDBCommunity', name: 'example-mongodb', namespace: 'mongodb' }, 'mongodb/example-mongodb'],
  ["controller-runtime 0.15's kind key holding them", { controller: 'mongodbcommunity', MongoDBCommunity: { name: 'example-mongodb', namespace: 'mongodb' }, reconcileID: 'abc' }, 'mongodb/example-mongodb'],
  ['a name and a namespace of something else (no controller-runtime line)', { name: 'backup-1', namespace: 'mongodb' }, undefined],
];

for (const [what, fields, resource] of RESOURCES) {
  test(`operator resource: ${what}`, (t) => {
    t.is(resourceOf(fields), resource);
  });
}
