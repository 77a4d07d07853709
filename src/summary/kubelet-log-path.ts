/**
 * A container's log file as the kubelet keeps it on a node: `/var/log/pods/NAMESPACE_POD_UID/
 * CONTAINER/RESTART.log` (rotated beside itself as `RESTART.log.20240318-145000`, gzipped after
 * the first), or its link in `/var/log/containers/POD_NAMESPACE_CONTAINER-ID.log`. The file's own
 * name (`0.log`) says nothing of the pod: the pod is in the path, and a container restarted
 * writes `1.log` beside `0.log`, both the same member's.
 */
import path from 'node:path';

export interface KubeletLogFile {
  readonly namespace: string;
  readonly pod: string;
  readonly container: string;
  /** The container's restart count (`1.log`); undefined for a /var/log/containers link. */
  readonly restart: number | undefined;
}

/** A name Kubernetes allows for a namespace or a pod (DNS labels and subdomains). */
const NAME = '[a-z0-9](?:[a-z0-9.-]*[a-z0-9])?';
/** `/var/log/pods`' directory of a pod: NAMESPACE_POD_UID (the uid a UUID; any word where logs were copied by hand). */
const POD_DIR = new RegExp(`^(${NAME})_(${NAME})_([0-9A-Za-z-]+)$`);
/** A container's log in it, current or rotated: RESTART.log, RESTART.log.DATE-TIME[.gz]. */
const RESTART_FILE = /^(\d+)\.log(?:\.\d{8}-\d{6}(?:\.gz)?)?$/;
/** `/var/log/containers`' link: POD_NAMESPACE_CONTAINER-ID.log, the id 64 hex digits. */
const CONTAINER_LINK = new RegExp(`^(${NAME})_(${NAME})_(.+)-([0-9a-f]{64})\\.log$`);

/** What the kubelet's path of a container's log says, or undefined when it is no such path. */
export function kubeletLogFile(file: string): KubeletLogFile | undefined {
  const parts = path.normalize(file).split(path.sep);
  const name = parts.at(-1) ?? '';
  const restart = RESTART_FILE.exec(name);
  if (restart && parts.length >= 3) {
    const pod = POD_DIR.exec(parts.at(-3)!);
    if (pod) return { namespace: pod[1]!, pod: pod[2]!, container: parts.at(-2)!, restart: Number(restart[1]) };
  }
  const link = CONTAINER_LINK.exec(name);
  if (link) return { namespace: link[2]!, pod: link[1]!, container: link[3]!, restart: undefined };
  return undefined;
}
