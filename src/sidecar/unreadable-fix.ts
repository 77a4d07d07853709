/**
 * What to change when a followed file cannot be read (EACCES), from who the sidecar runs as and
 * what the file (or the directory on the way that cannot be searched) says: the fix for a
 * sidecar that owns a file it may not read differs from the fix for a sidecar run as the wrong
 * user. Pure: a table test holds every case.
 */

/** The pod's user, which the operator's pods run as (the deployment docs): who can read the logs. */
export const POD_USER_FIX = "run the sidecar as the file's owner: in the pod, do not set runAsUser; the pod's user is uid 2000 with fsGroup 2000";

/**
 * The lasting fix where another user owns what the sidecar cannot read: run as that owner (the
 * pod's user, in the operator's pod); unless the owner is root, which no log writer of the pod
 * runs as: then the file was made by hand or by a job run as root, and is given to the sidecar's
 * user (saying "run as the owner" to a sidecar that already runs as the pod's user went round in
 * a circle).
 */
function ownerFix(what: 'file' | 'directory', owner: number, sidecarUid: number | undefined, path: string): string {
  if (owner === 0) {
    const user = sidecarUid === undefined ? "the pod's user" : `uid ${sidecarUid}, the sidecar's`;
    return `chown it to ${user} (chown ${sidecarUid ?? 2000} ${path}), and find what made it as root (a kubectl exec or a job run as root): the pod's own writers run as the pod's user`;
  }
  return `run the sidecar as the ${what}'s owner, uid ${owner}: in the operator's pod, do not set runAsUser (its pods run as uid 2000 with fsGroup 2000, on OpenShift as the uid it assigns)`;
}

export interface Denied {
  readonly path: string;
  readonly uid: number | undefined;
  readonly gid: number | undefined;
  /** The sidecar's supplementary groups. */
  readonly groups: readonly number[];
  /** The file's owner and mode, when its stat could be made. */
  readonly file?: { readonly uid: number; readonly gid: number; readonly mode: number } | undefined;
  /** Else the first directory on its way that cannot be searched, when found. */
  readonly directory?: { readonly path: string; readonly uid: number; readonly gid: number; readonly mode: number } | undefined;
}

/** Mode bits as `ls -l` people write them in octal: "0600". */
export function octalMode(mode: number): string {
  return (mode & 0o7777).toString(8).padStart(4, '0');
}

/** What is wrong and what to change, as one sentence each: `<what>. To fix, <fix>`. */
export function unreadableFix(denied: Denied): string {
  const who = `uid ${denied.uid} (gid ${denied.gid})`;
  const { file, directory } = denied;
  const inGroup = (gid: number): boolean => gid === denied.gid || denied.groups.includes(gid);
  if (!file) {
    if (!directory) return `its directory cannot be searched by ${who}. To fix, let the sidecar's user search every directory on the way, or ${POD_USER_FIX}`;
    const owned = `the directory ${directory.path} (uid ${directory.uid}, gid ${directory.gid}, mode ${octalMode(directory.mode)}) cannot be searched by ${who}`;
    if (directory.uid === denied.uid) return `${owned}. To fix, chmod u+x ${directory.path}`;
    const lasting = ownerFix('directory', directory.uid, denied.uid, directory.path);
    if (inGroup(directory.gid)) return `${owned}. To fix, ${lasting} (lasting), or chmod g+x ${directory.path} (until the directory is made again)`;
    return `${owned}. To fix, ${lasting}`;
  }
  const owned = `the file belongs to uid ${file.uid} (gid ${file.gid}) with mode ${octalMode(file.mode)}`;
  if (file.uid === denied.uid) return `${owned}: the sidecar's own, but its owner may not read it. To fix, chmod u+r ${denied.path} (and see why the logger made it so: its umask)`;
  // The lasting fix first: the server and logrotate make the file again at each rotation, with
  // the mode they make it with (0600), so a chmod lasts until the next one.
  const lasting = ownerFix('file', file.uid, denied.uid, denied.path);
  if (inGroup(file.gid) && (file.mode & 0o040) === 0) return `${owned}: its group is the sidecar's, but may not read it. To fix, ${lasting} (lasting), or chmod g+r ${denied.path} (until the next rotation makes the file again)`;
  return `${owned}. To fix, ${lasting}`;
}
