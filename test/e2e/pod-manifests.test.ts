/**
 * The example resources in sidecar/: each is checked against the MongoDB resource's schema (the
 * operator's CRD, test/fixtures/operator), its pod templates against Kubernetes' own PodTemplateSpec
 * schema, and then merged into the pod the operator builds for each component (as the operator
 * merges them) to check what matters in the pod that actually runs.
 */
import test from 'ava';
import { Ajv } from 'ajv';
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import type { IContainer } from 'kubernetes-models/v1/Container';
import { PodTemplateSpec, type IPodTemplateSpec } from 'kubernetes-models/v1/PodTemplateSpec';
import { REPO } from '../_helpers/sidecar-process.js';
import {
  DATABASE_CONTAINER,
  INIT_DATABASE_CONTAINER,
  LOG_DIR,
  SCRIPTS_VOLUME,
  logFileEnv,
  mergePodTemplate,
  operatorPod,
  storageMounts,
  type Component,
  type ResourceSpec,
} from '../_helpers/operator-pod.js';

interface Example {
  readonly file: string;
  /** Each component the resource makes pods for, and the field its pod template is in. */
  readonly components: readonly { component: Component; field: string }[];
}

const EXAMPLES: readonly Example[] = [
  { file: 'replica-set.yaml', components: [{ component: 'replica-set', field: 'podSpec' }] },
  { file: 'replica-set-multiple-volumes.yaml', components: [{ component: 'replica-set', field: 'podSpec' }] },
  {
    file: 'sharded-cluster.yaml',
    components: [
      { component: 'shard', field: 'shardPodSpec' },
      { component: 'config-server', field: 'configSrvPodSpec' },
      { component: 'mongos', field: 'mongosPodSpec' },
    ],
  },
];

const SIDECAR = 'logtype';
const LAUNCHER_PATCH = 'override-agent-launcher';
const RUN_DIR = '/run/logtype';
/** Loki's default max_line_size, 256KB as Loki parses it (KB: 1000 bytes). */
const LOKI_MAX_LINE = 256_000;

const schema = JSON.parse(fs.readFileSync(path.join(REPO, 'test/fixtures/operator/mongodb-resource.schema.json'), 'utf8')) as object;
const validateResource = new Ajv({ allErrors: true }).compile(schema);

interface Resource {
  metadata: { name: string };
  spec: ResourceSpec & Record<string, { podTemplate?: IPodTemplateSpec } | undefined>;
}

function load(file: string): Resource {
  return parse(fs.readFileSync(path.join(REPO, 'sidecar', file), 'utf8')) as Resource;
}

function container(list: readonly IContainer[] | undefined, name: string): IContainer {
  const found = list?.find((c) => c.name === name);
  if (!found) throw new Error(`no container ${name} in ${list?.map((c) => c.name).join(', ')}`);
  return found;
}

function flag(args: readonly string[] | undefined, name: string): string | undefined {
  return args?.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
}

/**
 * The fields each Kubernetes type the examples use has, read from kubernetes-models' declarations
 * (generated from the Kubernetes OpenAPI). Its validate() lets unknown fields through, as the API
 * server's decoding drops them: a misspelt `restartPolicy` would make logtype a plain init
 * container without a word. Only the types the examples set are walked; maps are not.
 */
const NESTED_TYPES: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  PodTemplateSpec: { metadata: 'ObjectMeta', spec: 'PodSpec' },
  PodSpec: { initContainers: 'Container', containers: 'Container', volumes: 'Volume' },
  Container: {
    env: 'EnvVar', resources: 'ResourceRequirements', securityContext: 'SecurityContext', startupProbe: 'Probe', livenessProbe: 'Probe',
    readinessProbe: 'Probe', volumeMounts: 'VolumeMount',
  },
  SecurityContext: { capabilities: 'Capabilities' },
  Probe: { exec: 'ExecAction' },
  Volume: { emptyDir: 'EmptyDirVolumeSource' },
};

function declaredFields(type: string): Set<string> {
  const file =
    type === 'ObjectMeta'
      ? path.join(REPO, 'node_modules/@kubernetes-models/apimachinery/apis/meta/v1/ObjectMeta.d.ts')
      : path.join(REPO, `node_modules/kubernetes-models/v1/${type}.d.ts`);
  const text = fs.readFileSync(file, 'utf8');
  const body = new RegExp(`^export interface I${type} \\{\\n([\\s\\S]*?)^\\}`, 'm').exec(text)![1]!;
  return new Set([...body.matchAll(/^ {4}"?(\w+)"?\??:/gm)].map((m) => m[1]!));
}

/** The paths of the fields in `value` that its Kubernetes type does not have. */
function unknownFields(value: unknown, type: string, at: string): string[] {
  if (Array.isArray(value)) return value.flatMap((item, i) => unknownFields(item, type, `${at}[${i}]`));
  if (value === null || typeof value !== 'object') return [];
  const known = declaredFields(type);
  return Object.entries(value).flatMap(([key, field]) => {
    if (!known.has(key)) return [`${at}.${key}`];
    const nested = NESTED_TYPES[type]?.[key];
    return nested ? unknownFields(field, nested, `${at}.${key}`) : [];
  });
}

test('the field check finds a misspelt field at any depth, and knows the native sidecar\'s restartPolicy', (t) => {
  t.true(declaredFields('Container').has('restartPolicy'));
  const template = { spec: { initContainers: [{ name: 'logtype', restartpolicy: 'Always', livenessProbe: { exec: { comand: ['true'] } } }], containers: [] } };
  t.deepEqual(unknownFields(template, 'PodTemplateSpec', 'podTemplate'), [
    'podTemplate.spec.initContainers[0].restartpolicy',
    'podTemplate.spec.initContainers[0].livenessProbe.exec.comand',
  ]);
});

test('every example resource in sidecar/ is one of those checked here', (t) => {
  const yamlFiles = fs.readdirSync(path.join(REPO, 'sidecar')).filter((f) => f.endsWith('.yaml'));
  const resources = yamlFiles.filter((f) => (parse(fs.readFileSync(path.join(REPO, 'sidecar', f), 'utf8')) as { kind?: string }).kind === 'MongoDB');
  t.deepEqual(resources.sort(), EXAMPLES.map((e) => e.file).sort());
});

for (const example of EXAMPLES) {
  test(`${example.file}: valid against the MongoDB resource's schema (the operator's CRD)`, (t) => {
    const resource = load(example.file);
    t.true(validateResource(resource), JSON.stringify(validateResource.errors, null, 1));
  });

  for (const { component, field } of example.components) {
    const title = `${example.file} ${field}`;

    test(`${title}: the pod template and the pod it makes are valid Kubernetes PodTemplateSpecs`, (t) => {
      const resource = load(example.file);
      const template = resource.spec[field]!.podTemplate!;
      t.notThrows(() => new PodTemplateSpec(template).validate());
      t.deepEqual(unknownFields(template, 'PodTemplateSpec', `${field}.podTemplate`), [], 'fields the API server would drop');
      const merged = mergePodTemplate(operatorPod(resource.metadata.name, component, resource.spec).template, template);
      t.notThrows(() => new PodTemplateSpec(merged).validate());
    });

    test(`${title}: in the pod, logtype is a native sidecar started first, and the launcher is edited after the operator's copy`, (t) => {
      const resource = load(example.file);
      const merged = mergePodTemplate(operatorPod(resource.metadata.name, component, resource.spec).template, resource.spec[field]!.podTemplate!);
      // The operator sorts init containers by name: this order is what the kubelet runs.
      t.deepEqual(
        merged.spec!.initContainers!.map((c) => c.name),
        [SIDECAR, INIT_DATABASE_CONTAINER, LAUNCHER_PATCH],
      );
      t.is(container(merged.spec!.initContainers, SIDECAR).restartPolicy, 'Always');
      t.is(container(merged.spec!.initContainers, LAUNCHER_PATCH).restartPolicy, undefined, 'runs to completion');
      const patch = container(merged.spec!.initContainers, LAUNCHER_PATCH);
      const database = container(merged.spec!.containers, DATABASE_CONTAINER);
      t.deepEqual(patch.command, ['logtype-pod', 'patch-launcher', database.command![0]!]);
      t.true(patch.volumeMounts!.some((m) => m.name === SCRIPTS_VOLUME && database.command![0]!.startsWith(`${m.mountPath}/`) && !m.readOnly));
      t.is(patch.image, container(merged.spec!.initContainers, SIDECAR).image, 'one image for both');
    });

    test(`${title}: no pinned uid; the pod's own securityContext stays; every container locked down`, (t) => {
      const resource = load(example.file);
      const template = resource.spec[field]!.podTemplate!;
      t.is(template.spec!.securityContext, undefined, 'a template securityContext would replace the operator\'s (uid 2000, fsGroup 2000) whole');
      const merged = mergePodTemplate(operatorPod(resource.metadata.name, component, resource.spec).template, template);
      t.like(merged.spec!.securityContext, { runAsUser: 2000, fsGroup: 2000 });
      for (const name of [SIDECAR, LAUNCHER_PATCH]) {
        const context = container(merged.spec!.initContainers, name).securityContext!;
        t.is(context.runAsUser, undefined, `${name}: runAsUser`);
        t.is(context.runAsGroup, undefined, `${name}: runAsGroup`);
        t.like(context, { runAsNonRoot: true, readOnlyRootFilesystem: true, allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } }, name);
      }
    });

    test(`${title}: every mount names a volume of this pod; logtype mounts the logs as the database container does`, (t) => {
      const resource = load(example.file);
      const { template, claims } = operatorPod(resource.metadata.name, component, resource.spec);
      const merged = mergePodTemplate(template, resource.spec[field]!.podTemplate!);
      const volumes = new Set([...merged.spec!.volumes!.map((v) => v.name), ...claims]);
      for (const c of [...merged.spec!.containers, ...merged.spec!.initContainers!]) {
        for (const mount of c.volumeMounts ?? []) t.true(volumes.has(mount.name), `${c.name} mounts ${mount.name}, which this pod does not have`);
      }
      const logMount = (c: IContainer) => c.volumeMounts!.find((m) => m.mountPath === LOG_DIR);
      const sidecar = container(merged.spec!.initContainers, SIDECAR);
      const database = container(merged.spec!.containers, DATABASE_CONTAINER);
      t.deepEqual(logMount(sidecar), logMount(database));
      const multiple = resource.spec.podSpec?.persistence?.multiple !== undefined && component !== 'mongos';
      t.deepEqual(logMount(database), storageMounts(multiple).find((m) => m.mountPath === LOG_DIR));
      // The run directory both share: the pipes and the heartbeat.
      const run = (c: IContainer) => c.volumeMounts!.find((m) => m.mountPath === RUN_DIR);
      t.truthy(run(sidecar));
      t.deepEqual(run(sidecar), run(database));
      t.truthy(merged.spec!.volumes!.find((v) => v.name === run(sidecar)!.name)?.emptyDir, 'an emptyDir');
      // The template adds a mount to the database container and nothing else.
      const override = container(resource.spec[field]!.podTemplate!.spec!.containers, DATABASE_CONTAINER);
      t.deepEqual(Object.keys(override).sort(), ['name', 'volumeMounts']);
      // The state file on the log volume: the default (<log dir>/.logtype-sidecar.state), not
      // named, since the operator's liveness probe greps `ps -ax` for 'mongodb-mms-aut' and
      // 'mongod': with a shared process namespace (its debug sidecar turns one on), a sidecar
      // whose command line named them would keep a dead agent's probe passing.
      t.is(flag(sidecar.args, 'state-file'), undefined);
      for (const word of [...(sidecar.command ?? []), ...(sidecar.args ?? [])]) t.notRegex(word, /mongodb-mms-aut|mongod/, word);
      // A stuck sidecar is killed soon after its stop timeout, not after the pod's grace period.
      t.true(sidecar.livenessProbe!.terminationGracePeriodSeconds! <= 60);
    });

    test(`${title}: logtype gets the MDB_LOG_FILE_* values the operator gives the database container`, (t) => {
      const resource = load(example.file);
      const merged = mergePodTemplate(operatorPod(resource.metadata.name, component, resource.spec).template, resource.spec[field]!.podTemplate!);
      const values = (c: IContainer) =>
        Object.fromEntries((c.env ?? []).filter((e) => e.name.startsWith('MDB_LOG_FILE_')).map((e) => [e.name, e.value]));
      const sidecar = values(container(merged.spec!.initContainers, SIDECAR));
      t.deepEqual(sidecar, values(container(merged.spec!.containers, DATABASE_CONTAINER)));
      t.deepEqual(sidecar, Object.fromEntries(logFileEnv(resource.spec)));
    });

    test(`${title}: kubectl lands in the database container; requests equal limits; probes bounded`, (t) => {
      const resource = load(example.file);
      const merged = mergePodTemplate(operatorPod(resource.metadata.name, component, resource.spec).template, resource.spec[field]!.podTemplate!);
      const annotation = merged.metadata!.annotations!['kubectl.kubernetes.io/default-container'];
      t.is(annotation, DATABASE_CONTAINER);
      t.truthy(merged.spec!.containers.find((c) => c.name === annotation));
      for (const name of [SIDECAR, LAUNCHER_PATCH]) {
        const { requests, limits } = container(merged.spec!.initContainers, name).resources!;
        t.truthy(requests?.['cpu'] && requests['memory'], name);
        t.deepEqual(requests, limits, `${name}: requests equal limits, so a Guaranteed pod stays Guaranteed`);
      }
      const sidecar = container(merged.spec!.initContainers, SIDECAR);
      const heartbeat = flag(sidecar.args, 'heartbeat-file')!;
      t.true(heartbeat.startsWith(`${RUN_DIR}/`));
      const liveness = sidecar.livenessProbe!;
      t.true(liveness.exec!.command!.join(' ').includes(heartbeat));
      t.true((liveness.timeoutSeconds ?? 1) >= 2, 'an exec probe has time to run on a loaded node');
      // The heartbeat is refreshed every poll (2 s by default): the probe's age limit leaves room.
      const maxAge = Number(/-lt (\d+)/.exec(liveness.exec!.command!.join(' '))![1]);
      t.true(maxAge >= 30, `${maxAge} s`);
      t.deepEqual(sidecar.startupProbe!.exec!.command, ['test', '-f', heartbeat]);
    });

    test(`${title}: --max-line-bytes keeps every entry under Loki's line limit`, (t) => {
      const resource = load(example.file);
      const sidecar = container(resource.spec[field]!.podTemplate!.spec!.initContainers, SIDECAR);
      const [, number, unit] = /^(\d+)(KiB|MiB)?$/.exec(flag(sidecar.args, 'max-line-bytes')!)!;
      const maxLineBytes = Number(number) * (unit === 'KiB' ? 1024 : unit === 'MiB' ? 1024 ** 2 : 1);
      // Worst case: every byte a control character, written as \u00XX; then the longest prefix
      // ({"logType":"automation-agent-verbose","contents":") and the partial suffix.
      const longestEntry = 6 * maxLineBytes + '{"logType":"automation-agent-verbose","contents":"'.length + '","partial":true}'.length;
      t.true(longestEntry < LOKI_MAX_LINE, `${longestEntry} bytes`);
    });
  }
}
