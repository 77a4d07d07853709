/**
 * The fix an `unreadable` warning names, by who the sidecar is and what the file or directory
 * says (a field trial found "run the sidecar as the file's owner" said to a sidecar that owned a
 * file of mode 0000).
 */
import test from 'ava';
import { POD_USER_FIX, unreadableFix, type Denied } from '../../src/sidecar/unreadable-fix.js';

const as = (uid: number, gid: number, groups: number[] = []): Pick<Denied, 'uid' | 'gid' | 'groups' | 'path'> => ({ path: '/logs/mongodb.log', uid, gid, groups });

const rows: [string, Denied, RegExp][] = [
  ['another user: run as the owner (the pod user)', { ...as(1000, 1000), file: { uid: 2000, gid: 2000, mode: 0o600 } }, /belongs to uid 2000 \(gid 2000\) with mode 0600\. To fix, run the sidecar as the file's owner, uid 2000: in the operator's pod, do not set runAsUser/],
  ['the sidecar owns it, mode 0000: chmod u+r, not "run as the owner"', { ...as(2000, 2000), file: { uid: 2000, gid: 2000, mode: 0o000 } }, /the sidecar's own, but its owner may not read it\. To fix, chmod u\+r \/logs\/mongodb\.log/],
  // From a platform trial: the lasting fix first; a chmod lasts until the next rotation makes the file again.
  ['its group is the sidecar\'s, mode 0600: run as the owner (lasting), or chmod g+r', { ...as(1000, 2000), file: { uid: 2000, gid: 2000, mode: 0o600 } }, /its group is the sidecar's, but may not read it\. To fix, run the sidecar as the file's owner.*\(lasting\), or chmod g\+r \/logs\/mongodb\.log \(until the next rotation makes the file again\)$/],
  ['its group is one of the sidecar\'s groups (fsGroup), mode 0600', { ...as(1000, 1000, [2000]), file: { uid: 2000, gid: 2000, mode: 0o600 } }, /\(lasting\), or chmod g\+r/],
  ['a directory on the way the sidecar owns, mode 0600: chmod u+x it', { ...as(2000, 2000), directory: { path: '/logs', uid: 2000, gid: 2000, mode: 0o600 } }, /the directory \/logs \(uid 2000, gid 2000, mode 0600\) cannot be searched by uid 2000 \(gid 2000\)\. To fix, chmod u\+x \/logs$/],
  ['a directory of the sidecar\'s group, mode 0700: chmod g+x it', { ...as(1000, 2000), directory: { path: '/logs', uid: 2000, gid: 2000, mode: 0o700 } }, /To fix, run the sidecar as the directory's owner, uid 2000.*\(lasting\), or chmod g\+x \/logs \(until the directory is made again\)$/],
  ['another user\'s directory: run as the owner', { ...as(1000, 1000), directory: { path: '/logs', uid: 2000, gid: 2000, mode: 0o700 } }, /cannot be searched by uid 1000 \(gid 1000\)\. To fix, run the sidecar as the directory's owner, uid 2000: in the operator's pod, do not set runAsUser/],
  // From a platform trial: a file root made (by hand, a job) while the sidecar runs as the pod's user: "run as the owner" went round in a circle.
  ['a file root made, the sidecar the pod\'s user: chown it, not "run as the owner"', { ...as(2000, 2000), file: { uid: 0, gid: 0, mode: 0o600 } }, /belongs to uid 0 \(gid 0\) with mode 0600\. To fix, chown it to uid 2000, the sidecar's \(chown 2000 \/logs\/mongodb\.log\), and find what made it as root/],
  ['a directory root made: chown it', { ...as(2000, 2000), directory: { path: '/logs', uid: 0, gid: 0, mode: 0o700 } }, /To fix, chown it to uid 2000, the sidecar's \(chown 2000 \/logs\)/],
  ['no stat at all: search every directory on the way', { ...as(1000, 1000) }, /its directory cannot be searched by uid 1000 \(gid 1000\)\. To fix, let the sidecar's user search every directory on the way/],
];
for (const [name, denied, says] of rows) {
  test(`unreadable fix: ${name}`, (t) => {
    t.regex(unreadableFix(denied), says);
  });
}

test('unreadable fix: the pod user fix names the pod\'s uid and fsGroup', (t) => {
  t.regex(POD_USER_FIX, /do not set runAsUser; the pod's user is uid 2000 with fsGroup 2000/);
});
