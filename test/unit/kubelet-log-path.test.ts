import test from 'ava';
import { kubeletLogFile } from '../../src/summary/kubelet-log-path.js';

const UID = '0f6c1d2e-1111-4a2b-9c3d-5e6f7a8b9c0d';
const ID = 'a'.repeat(64);

const cases: [string, ReturnType<typeof kubeletLogFile>][] = [
  [`/var/log/pods/mongodb_my-db-0_${UID}/mongodb-agent/0.log`, { namespace: 'mongodb', pod: 'my-db-0', container: 'mongodb-agent', restart: 0 }],
  [`/var/log/pods/mongodb_my-db-0_${UID}/mongod/12.log`, { namespace: 'mongodb', pod: 'my-db-0', container: 'mongod', restart: 12 }],
  [`copied/mongodb_my-db-0_${UID}/mongod/0.log.20240318-145000`, { namespace: 'mongodb', pod: 'my-db-0', container: 'mongod', restart: 0 }],
  [`copied/mongodb_my-db-0_${UID}/mongod/0.log.20240318-145000.gz`, { namespace: 'mongodb', pod: 'my-db-0', container: 'mongod', restart: 0 }],
  [`/var/log/containers/my-db-0_mongodb_mongod-${ID}.log`, { namespace: 'mongodb', pod: 'my-db-0', container: 'mongod', restart: undefined }],
  // Not the kubelet's: a pod's logs copied out by name, a number without the pod's directory.
  ['my-db-0/mongodb.log', undefined],
  ['logs/0.log', undefined],
  ['copied/mongodb_my-db-1_uid/mongod/0.log', { namespace: 'mongodb', pod: 'my-db-1', container: 'mongod', restart: 0 }],
  [`/var/log/pods/not-a-pod-dir/mongod/0.log`, undefined],
  [`/var/log/pods/mongodb_my-db-0_${UID}/mongod/0.log.1`, undefined],
];
for (const [file, expected] of cases) {
  test(`kubeletLogFile(${file})`, (t) => {
    t.deepEqual(kubeletLogFile(file), expected);
  });
}
