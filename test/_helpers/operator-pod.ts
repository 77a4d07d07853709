/**
 * The database pod the MongoDB operator builds from a MongoDB resource, as far as logtype's
 * examples touch it: the pod template before the user's podTemplate is merged in, the merge
 * itself, and the MDB_LOG_FILE_* values. Our statement of the operator's code at the commit
 * test/fixtures/operator/SOURCES.md names (non-static architecture, the default); each part
 * says which file it follows.
 */
import type { IContainer as V1Container } from 'kubernetes-models/v1/Container';
import type { IPodTemplateSpec as V1PodTemplateSpec } from 'kubernetes-models/v1/PodTemplateSpec';
import type { IVolume as V1Volume } from 'kubernetes-models/v1/Volume';
import type { IVolumeMount as V1VolumeMount } from 'kubernetes-models/v1/VolumeMount';

export const LOG_DIR = '/var/log/mongodb-mms-automation';
export const DATABASE_CONTAINER = 'mongodb-enterprise-database';
export const INIT_DATABASE_CONTAINER = 'mongodb-kubernetes-init-database';
export const SCRIPTS_VOLUME = 'database-scripts';

export type Component = 'replica-set' | 'shard' | 'config-server' | 'mongos';

export interface ResourceSpec {
  readonly persistent?: boolean;
  readonly podSpec?: { readonly persistence?: { readonly multiple?: unknown; readonly single?: unknown } };
  readonly agent?: { readonly startupOptions?: Readonly<Record<string, string>> };
  readonly additionalMongodConfig?: { readonly auditLog?: Readonly<Record<string, string>> };
}

/** The volume mounts of the database container for data, journal and logs (pvc.go, GetNonPersistentMongoDBVolumeMounts). */
export function storageMounts(multiple: boolean): V1VolumeMount[] {
  if (multiple) {
    return [
      { name: 'data', mountPath: '/data' },
      { name: 'journal', mountPath: '/journal' },
      { name: 'logs', mountPath: LOG_DIR },
    ];
  }
  return [
    { name: 'data', mountPath: '/data', subPath: 'data' },
    { name: 'data', mountPath: '/journal', subPath: 'journal' },
    { name: 'data', mountPath: LOG_DIR, subPath: 'logs' },
  ];
}

/**
 * The pod template and claim names the operator makes for one component, before the user's
 * podTemplate (database_construction.go: buildNonStaticArchitecturePodTemplateSpec,
 * buildDatabaseStatefulSetConfigurationFunction; mongos is never persistent).
 */
export function operatorPod(name: string, component: Component, spec: ResourceSpec): { template: V1PodTemplateSpec; claims: string[] } {
  const persistent = component !== 'mongos' && spec.persistent !== false;
  const multiple = persistent && spec.podSpec?.persistence?.multiple !== undefined;
  const serviceName = component === 'shard' ? `${name}-sh` : component === 'config-server' ? `${name}-cs` : `${name}-svc`;
  const stsName = { 'replica-set': name, shard: `${name}-0`, 'config-server': `${name}-config`, mongos: `${name}-mongos` }[component];
  const volumes: V1Volume[] = [{ name: SCRIPTS_VOLUME, emptyDir: {} }, { name: 'agent-api-key', secret: { secretName: 'project-id-group-secret' } }];
  if (!persistent) volumes.push({ name: 'data', emptyDir: {} });
  const database: V1Container = {
    name: DATABASE_CONTAINER,
    image: 'quay.io/mongodb/mongodb-enterprise-database',
    command: ['/opt/scripts/agent-launcher.sh'],
    env: logFileEnv(spec).map(([n, value]) => ({ name: n, value })),
    volumeMounts: [{ name: SCRIPTS_VOLUME, mountPath: '/opt/scripts', readOnly: true }, ...storageMounts(multiple)],
    securityContext: { readOnlyRootFilesystem: true, allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } },
  };
  const init: V1Container = {
    name: INIT_DATABASE_CONTAINER,
    image: 'quay.io/mongodb/mongodb-kubernetes-init-database',
    volumeMounts: [{ name: SCRIPTS_VOLUME, mountPath: '/opt/scripts' }],
    securityContext: { readOnlyRootFilesystem: true, allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } },
  };
  return {
    template: {
      metadata: { labels: { app: serviceName, controller: 'mongodb-enterprise-operator', 'pod-anti-affinity': stsName } },
      spec: {
        terminationGracePeriodSeconds: 600,
        securityContext: { runAsUser: 2000, runAsNonRoot: true, fsGroup: 2000, seccompProfile: { type: 'RuntimeDefault' } },
        containers: [database],
        initContainers: [init],
        volumes,
      },
    },
    claims: !persistent ? [] : multiple ? ['data', 'journal', 'logs'] : ['data'],
  };
}

/** The MDB_LOG_FILE_* variables the operator sets on the database container (logConfigurationToEnvVars), in its order. */
export function logFileEnv(spec: ResourceSpec): [string, string][] {
  const agentLog = spec.agent?.startupOptions?.['logFile'] || `${LOG_DIR}/automation-agent.log`;
  const slash = agentLog.lastIndexOf('/');
  const dir = agentLog.slice(0, slash + 1);
  const base = agentLog.slice(slash + 1);
  const dot = base.lastIndexOf('.');
  const ext = dot > 0 ? base.slice(dot) : '';
  const stem = base.slice(0, base.length - ext.length);
  const audit = spec.additionalMongodConfig?.auditLog;
  const auditLog = audit?.['destination'] === 'file' && audit['path'] ? audit['path'] : `${LOG_DIR}/mongodb-audit.log`;
  return [
    ['MDB_LOG_FILE_AUTOMATION_AGENT_VERBOSE', `${dir}${stem}-verbose${ext}`],
    ['MDB_LOG_FILE_AUTOMATION_AGENT', agentLog],
    ['MDB_LOG_FILE_MONGODB_AUDIT', auditLog],
    ['MDB_LOG_FILE_MONGODB', `${LOG_DIR}/mongodb.log`],
    ['MDB_LOG_FILE_MONITORING_AGENT', `${LOG_DIR}/monitoring-agent.log`],
    ['MDB_LOG_FILE_BACKUP_AGENT', `${LOG_DIR}/backup-agent.log`],
  ];
}

/** Merges the user's podTemplate into the operator's as merge.PodTemplateSpecs does (merge_podtemplate_spec.go, merge.go). */
export function mergePodTemplate(original: V1PodTemplateSpec, override: V1PodTemplateSpec): V1PodTemplateSpec {
  const spec = original.spec!;
  const extra: Partial<NonNullable<V1PodTemplateSpec['spec']>> = override.spec ?? {};
  return {
    metadata: {
      ...original.metadata,
      annotations: mergeMaps(original.metadata?.annotations, override.metadata?.annotations),
      labels: mergeMaps(original.metadata?.labels, override.metadata?.labels),
    },
    spec: {
      ...spec,
      volumes: byName(spec.volumes ?? [], extra.volumes ?? [], (a, b) => ({ ...a, ...b })),
      containers: byName(spec.containers, extra.containers ?? [], mergeContainer),
      initContainers: byName(spec.initContainers ?? [], extra.initContainers ?? [], mergeContainer),
      // A template's securityContext replaces the operator's whole (uid, fsGroup and all).
      securityContext: extra.securityContext ?? spec.securityContext,
      terminationGracePeriodSeconds: extra.terminationGracePeriodSeconds ?? spec.terminationGracePeriodSeconds,
    },
  };
}

function mergeMaps(a?: Record<string, string>, b?: Record<string, string>): Record<string, string> | undefined {
  return a === undefined && b === undefined ? undefined : { ...a, ...b };
}

/** Items merged by name, then sorted by name (merge.Containers, merge.Volumes). */
function byName<T extends { name: string }>(original: readonly T[], override: readonly T[], merge: (a: T, b: T) => T): T[] {
  const merged = new Map(original.map((item) => [item.name, item]));
  for (const item of override) {
    const existing = merged.get(item.name);
    merged.set(item.name, existing ? merge(existing, item) : item);
  }
  return [...merged.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** merge.Container for the fields the examples set: scalars and lists taken when given, mounts merged by name+path+subPath. */
function mergeContainer(original: V1Container, override: V1Container): V1Container {
  const mountKey = (m: V1VolumeMount): string => [m.name, m.mountPath, m.subPath ?? ''].join('_');
  const mounts = new Map((original.volumeMounts ?? []).map((m) => [mountKey(m), m]));
  for (const m of override.volumeMounts ?? []) mounts.set(mountKey(m), { ...mounts.get(mountKey(m)), ...m });
  const env = new Map((original.env ?? []).map((e) => [e.name, e]));
  for (const e of override.env ?? []) env.set(e.name, e);
  return {
    ...original,
    ...(override.image ? { image: override.image } : {}),
    ...(override.command?.length ? { command: override.command } : {}),
    ...(override.args?.length ? { args: override.args } : {}),
    ...(override.resources ? { resources: { ...original.resources, ...override.resources } } : {}),
    ...(override.securityContext ? { securityContext: { ...original.securityContext, ...override.securityContext } } : {}),
    ...(override.livenessProbe ? { livenessProbe: override.livenessProbe } : {}),
    ...(override.startupProbe ? { startupProbe: override.startupProbe } : {}),
    env: [...env.values()],
    volumeMounts: [...mounts.values()].sort((a, b) => (mountKey(a) < mountKey(b) ? -1 : 1)),
  };
}
