/**
 * sidecar/fluent-bit.yaml and sidecar/vector.yaml, as far as this machine allows: neither shipper
 * is installable here (not in Debian or npm), so each option is checked against the options the
 * shipper's own reference documents (listed below with the page they come from), and the parts
 * that decide whether a line is shipped at all are run here as the documentation describes them:
 * the tail input's tag expansion and the kubernetes filter's prefix and file-name pattern, the
 * label selector and path glob against the pods the operator makes, the type-extracting regex on
 * the real sidecar's output, and what is left of a record for Loki's line.
 */
import test from 'ava';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { REPO, SIDECAR_BIN, cleanEnv } from '../_helpers/sidecar-process.js';
import { operatorPod, type Component } from '../_helpers/operator-pod.js';

/** Options each Fluent Bit plugin documents (fluent-bit-docs @ f92ae080), plus the keys every plugin takes. */
const FLUENT_BIT_OPTIONS: Readonly<Record<string, readonly string[]>> = {
  common: ['name', 'alias', 'log_level', 'tag', 'match', 'match_regex'],
  // pipeline/inputs/tail.md
  tail: [
    'buffer_chunk_size', 'buffer_max_size', 'db', 'db.compare_filename', 'db.journal_mode', 'db.locking', 'db.sync', 'docker_mode',
    'docker_mode_flush', 'docker_mode_parser', 'event_batch_size', 'exclude_path', 'exit_on_eof', 'file_cache_advise', 'generic.encoding',
    'ignore_active_older_files', 'ignore_older', 'inotify_watcher', 'key', 'mem_buf_limit', 'offset_key', 'parser', 'path', 'path_key',
    'progress_check_interval', 'progress_check_interval_nsec', 'read_from_head', 'read_newly_discovered_files_from_head', 'refresh_interval',
    'rotate_wait', 'skip_empty_lines', 'skip_long_lines', 'static_batch_size', 'tag', 'tag_regex', 'threaded', 'truncate_long_lines',
    'unicode.encoding', 'watcher_interval', 'multiline.parser',
  ],
  // pipeline/filters/kubernetes.md
  kubernetes: [
    'annotations', 'buffer_size', 'cache_use_docker_id', 'dns_retries', 'dns_wait_time', 'dummy_meta', 'k8s-logging.exclude', 'k8s-logging.parser',
    'keep_log', 'kube_ca_file', 'kube_ca_path', 'kube_meta_cache_ttl', 'kube_meta_namespace_cache_ttl', 'kube_meta_preload_cache_dir',
    'kube_namespace_file', 'kube_tag_prefix', 'kube_token_command', 'kube_token_file', 'kube_token_ttl', 'kube_url', 'kubelet_host',
    'kubelet_port', 'labels', 'merge_log', 'merge_log_key', 'merge_log_trim', 'merge_parser', 'namespace_annotations', 'namespace_labels',
    'namespace_metadata_only', 'owner_references', 'regex_parser', 'set_platform', 'tls.debug', 'tls.verify', 'tls.verify_hostname', 'tls.vhost',
    'use_journal', 'use_kubelet', 'use_tag_for_meta',
  ],
  // pipeline/filters/parser.md
  parser: ['key_name', 'parser', 'preserve_key', 'reserve_data'],
  // pipeline/outputs/loki.md
  loki: [
    'host', 'uri', 'port', 'tls', 'http_user', 'http_passwd', 'bearer_token', 'header', 'tenant_id', 'labels', 'label_keys', 'label_map_path',
    'structured_metadata', 'structured_metadata_map_keys', 'remove_keys', 'drop_single_key', 'line_format', 'auto_kubernetes_labels',
    'tenant_id_key', 'tenant_id_key_error_handling', 'buffer_size', 'compress', 'workers',
  ],
  // administration/configuring-fluent-bit/yaml/service-section.md (the ones a shipper sets)
  service: ['flush', 'log_level', 'grace', 'http_server', 'http_listen', 'http_port', 'parsers_file', 'storage.path', 'storage.sync'],
  // pipeline/parsers/configuring-parser.md
  parsers: [
    'decode_field', 'decode_field_as', 'format', 'logfmt_no_bare_keys', 'name', 'regex', 'skip_empty_values', 'time_format', 'time_keep', 'time_key',
    'time_offset', 'time_strict', 'time_zone', 'time_system_timezone', 'types',
  ],
};

/** Options of the Vector components used (Vector's generated reference, website/cue/reference/components), plus every component's. */
const VECTOR_OPTIONS: Readonly<Record<string, readonly string[]>> = {
  common: ['type', 'inputs'],
  kubernetes_logs: [
    'auto_partial_merge', 'data_dir', 'delay_deletion_ms', 'exclude_paths_glob_patterns', 'extra_field_selector', 'extra_label_selector',
    'extra_namespace_label_selector', 'fingerprint_lines', 'glob_minimum_cooldown_ms', 'ignore_older_secs', 'include_paths_glob_patterns',
    'ingestion_timestamp_field', 'insert_namespace_fields', 'internal_metrics', 'kube_config_file', 'max_line_bytes', 'max_merged_line_action',
    'max_merged_line_bytes', 'max_read_bytes', 'namespace_annotation_fields', 'node_annotation_fields', 'oldest_first', 'pod_annotation_fields',
    'read_from', 'rotate_wait_secs', 'self_node_name', 'timezone', 'use_apiserver_cache',
  ],
  remap: ['source', 'file', 'files', 'drop_on_error', 'drop_on_abort', 'reroute_dropped', 'metric_tag_values', 'timezone'],
  loki: [
    'acknowledgements', 'auth', 'batch', 'buffer', 'compression', 'encoding', 'endpoint', 'healthcheck', 'labels', 'out_of_order_action', 'path',
    'remove_label_fields', 'remove_structured_metadata_fields', 'remove_timestamp', 'request', 'structured_metadata', 'tenant_id', 'tls',
  ],
};
const VECTOR_CODECS = ['avro', 'cef', 'csv', 'gelf', 'json', 'logfmt', 'native', 'native_json', 'otlp', 'protobuf', 'raw_message', 'text'];

/** The kubernetes filter's pattern for the part of the tag after kube_tag_prefix (filters/kubernetes.md). */
const KUBE_TAG_PATTERN =
  /^(?<pod_name>[a-z0-9](?:[-a-z0-9]*[a-z0-9])?(?:\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*)_(?<namespace_name>[^_]+)_(?<container_name>.+)-(?<docker_id>[a-z0-9]{64})\.log$/;

interface FluentBitPlugin extends Record<string, unknown> {
  name: string;
}
const fluentBit = parse(fs.readFileSync(path.join(REPO, 'sidecar/fluent-bit.yaml'), 'utf8')) as {
  service: Record<string, unknown>;
  parsers: Record<string, string>[];
  pipeline: { inputs: FluentBitPlugin[]; filters: FluentBitPlugin[]; outputs: FluentBitPlugin[] };
};
const vector = parse(fs.readFileSync(path.join(REPO, 'sidecar/vector.yaml'), 'utf8')) as {
  sources: Record<string, Record<string, unknown>>;
  transforms: Record<string, Record<string, unknown>>;
  sinks: Record<string, Record<string, unknown>>;
};

/** A shell glob as a regular expression: `*` within one path segment. */
function glob(pattern: string): RegExp {
  return new RegExp(`^${pattern.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*')}$`);
}

/** The real sidecar's entries and diagnostics, as its container log holds them (stdout and stderr lines). */
function sidecarLines(): string[] {
  const run = spawnSync(process.execPath, [SIDECAR_BIN, '--once', '--log-dir', path.join(REPO, 'samples')], { env: cleanEnv(), encoding: 'utf8' });
  return [...run.stdout.trim().split('\n'), ...run.stderr.trim().split('\n')];
}

/** The logType each line should carry: the entry's, or the diagnostics' own. */
function logTypeOf(line: string): string {
  return (JSON.parse(line) as { logType: string }).logType;
}

const CONTAINER_ID = 'a'.repeat(64);

test('Fluent Bit: every option is one its documentation lists, and the version it needs is stated', (t) => {
  const check = (kind: string, plugin: Record<string, unknown>) => {
    for (const key of Object.keys(plugin)) t.true([...FLUENT_BIT_OPTIONS['common']!, ...FLUENT_BIT_OPTIONS[kind]!].includes(key), `${kind}: ${key}`);
  };
  check('service', fluentBit.service);
  for (const parser of fluentBit.parsers) check('parsers', parser);
  for (const plugin of [...fluentBit.pipeline.inputs, ...fluentBit.pipeline.filters, ...fluentBit.pipeline.outputs]) check(plugin.name, plugin);
  t.regex(fs.readFileSync(path.join(REPO, 'sidecar/fluent-bit.yaml'), 'utf8'), /^# Fluent Bit 3\.2 or later/);
});

test("Fluent Bit: the logtype container's file is read, its tag carries the prefix the kubernetes filter strips, and the pod is found", (t) => {
  const [tail] = fluentBit.pipeline.inputs;
  const kubernetes = fluentBit.pipeline.filters.find((f) => f.name === 'kubernetes')!;
  const file = `/var/log/containers/my-replica-set-0_mongodb_logtype-${CONTAINER_ID}.log`;
  t.regex(file, glob(String(tail!['path'])));
  t.notRegex(`/var/log/containers/my-replica-set-0_mongodb_mongodb-enterprise-database-${CONTAINER_ID}.log`, glob(String(tail!['path'])));
  // Any container of a pod in a namespace whose name starts with "logtype-" is not the sidecar.
  t.notRegex(`/var/log/containers/web-0_logtype-system_nginx-${CONTAINER_ID}.log`, glob(String(tail!['path'])));
  // tail.md: a * in the tag becomes the file's absolute path with / replaced by .
  const tag = String(tail!['tag']).replace('*', file.replaceAll('/', '.').replace(/^\./, ''));
  t.is(tag, `logtype.var.log.containers.my-replica-set-0_mongodb_logtype-${CONTAINER_ID}.log`);
  const prefix = String(kubernetes['kube_tag_prefix']);
  t.true(tag.startsWith(prefix), `${tag} does not start with ${prefix}`);
  t.like(KUBE_TAG_PATTERN.exec(tag.slice(prefix.length))?.groups, { pod_name: 'my-replica-set-0', namespace_name: 'mongodb', container_name: 'logtype' });
  for (const plugin of [...fluentBit.pipeline.filters, ...fluentBit.pipeline.outputs]) t.regex(tag, glob(String(plugin['match'])), plugin.name);
});

// The fluent-bit Helm chart's DaemonSet (fluent/helm-charts, charts/fluent-bit/values.yaml:
// daemonSetVolumes) mounts the node's /var/log read-write at /var/log, /var/lib/docker/containers
// read-only and /etc/machine-id; nothing else outlives the Fluent Bit pod. tail.md: without a db
// entry a file found at the start is read from its end (read_from_head false).
test('Fluent Bit: read positions are kept where the usual DaemonSet mounts the node\'s /var/log, so a restarted Fluent Bit resumes', (t) => {
  const [tail] = fluentBit.pipeline.inputs;
  const db = String(tail!['db']);
  t.true(db.startsWith('/var/log/') && !db.startsWith('/var/log/containers/') && !db.startsWith('/var/log/pods/'), db);
  t.not(tail!['read_from_head'], true, 'a restart without its positions would ship every log again from its start');
});

test("Fluent Bit: the parser finds each line's logType, and Loki gets the entry itself as the line, logType as a label", (t) => {
  const parser = fluentBit.parsers.find((p) => p['name'] === fluentBit.pipeline.filters.find((f) => f.name === 'parser')!['parser'])!;
  t.is(parser['format'], 'regex');
  const pattern = new RegExp(parser['regex']!);
  const lines = sidecarLines();
  t.true(lines.length > 100);
  for (const line of lines) t.is(pattern.exec(line)?.groups?.['logType'], logTypeOf(line), line);
  const loki = fluentBit.pipeline.outputs.find((o) => o.name === 'loki')!;
  t.regex(String(loki['labels']), /(^|, )logType=\$logType(,|$)/);
  // The record after the cri parser (which keeps the runtime's time as a key), the kubernetes
  // filter and the parser filter (preserve_key, reserve_data).
  const record = { time: '2026-11-22T10:00:00.123456789Z', log: lines[0], stream: 'stdout', _p: 'F', kubernetes: {}, logType: 'mongodb' };
  const removed = String(loki['remove_keys']).split(/,\s*/);
  t.deepEqual(Object.keys(record).filter((key) => !removed.includes(key)), ['log']);
  t.is(loki['drop_single_key'], 'raw', 'the one key left is sent as it is, unquoted');
});

test('Vector: every option is one its reference lists', (t) => {
  const check = (kind: string, component: Record<string, unknown>) => {
    for (const key of Object.keys(component)) t.true([...VECTOR_OPTIONS['common']!, ...VECTOR_OPTIONS[kind]!].includes(key), `${kind}: ${key}`);
  };
  for (const component of [...Object.values(vector.sources), ...Object.values(vector.transforms), ...Object.values(vector.sinks)]) {
    check(String(component['type']), component);
  }
  t.true(VECTOR_CODECS.includes(String((vector.sinks['loki']!['encoding'] as { codec: string }).codec)));
});

test("Vector: the label selector takes every pod the operator makes, the glob only the logtype container's log", (t) => {
  const source = Object.values(vector.sources)[0]!;
  const selector = String(source['extra_label_selector']).split(',').map((term) => term.split('='));
  for (const component of ['replica-set', 'shard', 'config-server', 'mongos'] as Component[]) {
    const labels = operatorPod('my-db', component, {}).template.metadata!.labels!;
    t.true(selector.every(([key, value]) => labels[key!] === value), `${component}: ${JSON.stringify(labels)}`);
  }
  const globs = (source['include_paths_glob_patterns'] as string[]).map(glob);
  const podDir = '/var/log/pods/mongodb_my-replica-set-0_0f4c9e7e-1b2a-4c3d-8e9f-0a1b2c3d4e5f';
  t.true(globs.some((g) => g.test(`${podDir}/logtype/0.log`)));
  t.false(globs.some((g) => g.test(`${podDir}/mongodb-enterprise-database/0.log`)));
  t.false(globs.some((g) => g.test(`${podDir}/mongodb-kubernetes-init-database/0.log`)));
});

test("Vector: the remap finds each line's logType, and Loki's line is the message as the sidecar wrote it", (t) => {
  const program = String(Object.values(vector.transforms)[0]!['source']);
  // VRL's raw string r'...' holds the regex as it is; (?P<name>) is its named group.
  const vrl = /parse_regex\(\.message, r'([^']+)'\)/.exec(program)![1]!;
  const pattern = new RegExp(vrl.replace('(?P<', '(?<'));
  for (const line of sidecarLines()) t.is(pattern.exec(line)?.groups?.['log_type'], logTypeOf(line), line);
  t.regex(program, /\.logType = if err == null \{ found\.log_type \} else \{ "other" \}/);
  const loki = vector.sinks['loki']!;
  t.is((loki['encoding'] as { codec: string }).codec, 'text', 'the text codec sends .message');
  t.is((loki['labels'] as Record<string, string>)['logType'], '{{ logType }}');
});
