import test from 'ava';
import { UnloggedStops } from '../../src/doctor/unlogged-stops.js';
import { parseRecord } from '../../src/parse/parse-record.js';
import fs from 'node:fs';
import path from 'node:path';
import { ProblemFinder } from '../../src/doctor/find-problems.js';
import { KNOWN_PROBLEMS } from '../../src/doctor/known-problems.js';
import { REAL_DATA } from '../_helpers/sidecar-process.js';

/** For every known problem: lines that show it (real or realistic), and near misses that must not. */
const CASES: Record<string, { type?: string; matches: string[]; misses: string[] }> = {
  'tls-certificate-name': {
    type: 'automation-agent-verbose',
    matches: [
      '[2026-11-22T10:00:00.123+0000] [.error] [src/mongoctl/processctl.go:Ping:1234] [10:00:00.123] Server at my-replica-set-1.my-replica-set-svc.mongodb.svc.cluster.local:27017 is down: TLS attempt failed : x509: certificate is valid for my-replica-set-0.my-replica-set-svc.mongodb.svc.cluster.local, not my-replica-set-1.my-replica-set-svc.mongodb.svc.cluster.local',
    ],
    misses: ['TLS handshake succeeded with my-replica-set-1', 'x509: certificate signed by unknown authority'],
  },
  'version-not-available': {
    type: 'operator',
    matches: ['Failed to deploy: Status: 400 (Bad Request), Detail: Invalid config: MongoDB 8.0.4-ent is not available.', 'Status: 400 (Bad Request), Detail: Invalid config: Datastore 7.0.2 is not available.'],
    misses: ['Status: 200 (OK), Detail: MongoDB 8.0.4-ent is available.', 'Invalid config: replica set member count must be odd'],
  },
  'platform-rejects-deployment': {
    type: 'operator',
    matches: ['Failed to deploy: Status: 400 (Bad Request), Detail: Invalid config: process rs0-2 uses an unsupported featureCompatibilityVersion'],
    misses: ['Status: 400 (Bad Request), Detail: Invalid config: MongoDB 8.0.4-ent is not available.', 'Status: 409 (Conflict)'],
  },
  'pvc-not-found': {
    matches: ['Warning  FailedScheduling  12s  default-scheduler  pvc not found to schedule the pod', '0/3 nodes are available: persistentvolumeclaim "data-my-replica-set-1" not found.'],
    misses: ['persistentvolumeclaim "data-my-replica-set-1" bound'],
  },
  'pod-pending-resources': {
    matches: [
      'Warning  FailedScheduling  3m  default-scheduler  0/3 nodes are available: 3 Insufficient memory. preemption: 0/3 nodes are available',
      '0/3 nodes are available: 1 node(s) had untolerated taint, 12 Insufficient cpu.',
      'FailedScheduling: Insufficient memory',
    ],
    misses: ['Normal  Scheduled  3m  default-scheduler  Successfully assigned mongodb/my-replica-set-0 to node-1', 'the kubelet reports Insufficient memory on node-1', '3  Insufficient cpu'],
  },
  'validation-webhook-missing': {
    type: 'operator',
    matches: [
      'Failed to configure admission webhooks: failed to create the validating webhook configuration: validatingwebhookconfigurations.admissionregistration.k8s.io is forbidden',
      'failed to update the validating webhook configuration: the server could not find the requested resource',
    ],
    misses: ['Configured the validating webhook'],
  },
  'admission-denied': {
    matches: ['Error from server (Forbidden): error when creating "rs.yaml": admission webhook "mdbpolicy.mongodb.com" denied the request: spec.members: must be greater than 0'],
    misses: ['admission webhook "mdbpolicy.mongodb.com" allowed the request'],
  },
  'operator-upgrade-kubectl': {
    matches: [
      "The StatefulSet \"mongodb-enterprise-operator\" is invalid: spec: Forbidden: updates to statefulset spec for fields other than 'replicas', 'template', and 'updateStrategy' are forbidden",
      // As Kubernetes 1.22 and later word it (quoted from GitLab's chart documentation and a
      // public kubectl apply transcript): the list of fields grew.
      "Error: UPGRADE FAILED: cannot patch \"gitlab-redis-master\" with kind StatefulSet: StatefulSet.apps \"gitlab-redis-master\" is invalid: spec: Forbidden: updates to statefulset spec for fields other than 'replicas', 'template', 'updateStrategy' and 'minReadySeconds' are forbidden",
      "The StatefulSet \"catalog-mysql\" is invalid: spec: Forbidden: updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden",
    ],
    misses: ['statefulset.apps/my-replica-set configured'],
  },
  'operator-upgrade-chart': {
    matches: ['Error: UPGRADE FAILED: cannot patch "mongodb-enterprise-operator" with kind Deployment: Deployment.apps "mongodb-enterprise-operator" is invalid: spec.selector: Invalid value: v1.LabelSelector{}: field is immutable'],
    misses: ['Release "mongodb-enterprise-operator" has been upgraded. Happy Helming!'],
  },
  'agent-api-key': {
    type: 'automation-agent',
    matches: [
      '[2026-11-22T10:00:00.123+0000] [.error] [main/components/agent.go:Iterate:230] [10:00:00.123] Error sending GET request to https://ops.example/agents/api/automation/conf/v1/6a1b: HTTP 401 unauthorized: invalid agent API key',
      // The agent's own words when the platform refuses it (the shape of lines in public issue threads).
      '[2026/11/22 10:00:09.977] [.error] [cm/mmssettings/mmssettings.go:refresh:130] [10:00:09.977] Error retrieving settings from MMS : Failed to fetch url https://ops.example/agents/api/automation/settings/v1/6a1b?av=12.0.0. Expected status code to be 200, but was 401. Response body: {}',
      '[2026-11-22T10:00:00.123+0000] [.error] [src/agent/client.go:get:88] [10:00:00.123] Error getting automation config: statusCode=401',
    ],
    misses: [
      '[2026-11-22T10:00:00.123+0000] [.info] [director.go:1] [10:00:00.123] Applied 401 documents',
      'Authorization succeeded for agent',
      // From an incident trial: a time's milliseconds, or a source line, of 401 on a line with the
      // server's own (Unauthorized): a database user's rights, not the agents' key.
      '[2026-11-22T10:00:00.401+0000] [.warn] [src/mongoctl/processctl.go:getServerStatus:120] <db-0> [10:00:00.401] Error executing serverStatus: (Unauthorized) command serverStatus requires authentication',
      '[2026-11-22T10:00:00.123+0000] [.error] [src/mongoctl/mongoclient.go:withClientForHelper:401] <db-0> [10:00:00.123] Error running command: (Unauthorized) not authorized on admin to execute command { replSetGetStatus: 1 }',
    ],
  },
  'agent-disk-full': {
    type: 'automation-agent-stderr',
    matches: [fs.readFileSync(path.join(REAL_DATA, 'agent-stderr-disk-full.log'), 'utf8').split('\n')[0]!],
    misses: ['disk usage at 80%, space left: 20 GB'],
  },
  'node-disk-full': {
    type: 'operator',
    matches: ['{"level":"error","ts":"2026-11-27T10:05:00.000Z","msg":"Failed to create pod: failed to pull image: write /var/lib/containerd/io.containerd.content.v1.content/ingest/x/data: no space left on device"}'],
    misses: [
      '{"level":"error","ts":"2026-11-27T10:05:00.000Z","msg":"Failed to pull image: rpc error: code = NotFound"}',
      'Logging error occurred: write /var/log/mongodb-mms-automation/automation-agent.log: no space left on device',
      // A volume the kubelet mounts (a PVC) is the pod's, not the node's disk (a review).
      '{"level":"error","msg":"write /var/lib/kubelet/pods/0c1d/volumes/kubernetes.io~csi/pvc-7/mount/automation-agent.log: no space left on device"}',
    ],
  },
  'server-disk-full': {
    type: 'mongodb',
    matches: [
      // WiredTiger's error in the 4.4+ shape (a real line's, with error 28 and its words for ENOSPC), and in the text shape before it.
      '{"t":{"$date":"2022-04-27T09:13:09.292+00:00"},"s":"E",  "c":"STORAGE",  "id":22435,   "ctx":"WTCheckpointThread","msg":"WiredTiger error","attr":{"error":28,"message":"[1651050789:292831][1:0x7f169df86100], file:collection-2--8597162973160007227.wt, WT_SESSION.checkpoint: __posix_file_write, 579: /data/collection-2--8597162973160007227.wt: handle-write: pwrite: failed to write 8192 bytes at offset 140288000: No space left on device"}}',
      '2016-05-21T22:31:48.042-0400 E STORAGE  [thread1] WiredTiger error (28) [1463884307:558146][277593:0x7faf94a62700], file:collection-2--8597162973160007227.wt, WT_SESSION.checkpoint: collection-2--8597162973160007227.wt write error: failed to write 8192 bytes at offset 140288000: No space left on device',
    ],
    misses: ['{"t":{"$date":"2022-04-27T09:13:09.292+00:00"},"s":"E",  "c":"STORAGE",  "id":22435,   "ctx":"initandlisten","msg":"WiredTiger error","attr":{"error":95,"message":"[1651050789:292831][1:0x7f169df86100], connection: __posix_std_fallocate, 58: /data/journal/WiredTigerTmplog.0000000001: fallocate:: Operation not supported"}}'],
  },
  'server-fatal': {
    type: 'mongodb',
    matches: [
      // 4.4+: a fatal assertion, the abort after it, and the fatal message of a signal (ids 23089, 23090, 4757800).
      '{"t":{"$date":"2026-11-27T10:05:00.000+00:00"},"s":"F",  "c":"ASSERT",   "id":23089,   "ctx":"thread10","msg":"Fatal assertion","attr":{"msgid":50853,"file":"src/mongo/db/storage/wiredtiger/wiredtiger_util.cpp","line":712}}',
      '{"t":{"$date":"2026-11-27T10:05:00.001+00:00"},"s":"F",  "c":"-",        "id":23090,   "ctx":"thread10","msg":"\\n\\n***aborting after fassert() failure\\n\\n"}',
      // The text before 4.4: a fatal assertion, and a signal (its component "-").
      '2019-11-11T10:05:00.000+0000 F STORAGE  [thread10] Fatal Assertion 50853 at src/mongo/db/storage/wiredtiger/wiredtiger_util.cpp 712',
      '2019-11-11T10:05:00.001+0000 F -        [conn12] Got signal: 11 (Segmentation fault).',
    ],
    misses: [
      // Errors and warnings are not the server's end; a slow operation's filter may say "s":"F".
      '{"t":{"$date":"2026-11-27T10:05:00.000+00:00"},"s":"E",  "c":"STORAGE",  "id":22435,   "ctx":"thread10","msg":"WiredTiger error","attr":{"error":-31802}}',
      '{"t":{"$date":"2026-11-27T10:05:00.000+00:00"},"s":"I",  "c":"COMMAND",  "id":51803,   "ctx":"conn5","msg":"Slow query","attr":{"command":{"find":"x","filter":{"s":"F"}},"durationMillis":120}}',
      '2019-11-11T10:05:00.000+0000 E STORAGE  [thread10] WiredTiger error (-31802) WT_ERROR: non-specific WiredTiger error',
    ],
  },
  'authentication-failed': {
    type: 'mongodb-audit',
    matches: [
      '{"atype":"authenticate","ts":{"$date":"2026-11-22T09:58:04.529Z"},"local":{"ip":"10.42.0.5","port":27017},"remote":{"ip":"10.42.6.180","port":37273},"users":[],"roles":[],"param":{"user":"alice","db":"admin","mechanism":"SCRAM-SHA-256"},"result":18}',
      '{ "atype" : "authenticate", "ts" : { "$date" : "2022-09-16T01:38:20.034+0000" }, "users" : [], "roles" : [], "param" : { "user" : "mms-automation", "db" : "admin", "mechanism" : "SCRAM-SHA-256" }, "result" : 18 }',
    ],
    // The real events (4.2 and 5.0): two authentications that succeeded (result 0), a clientMetadata and a logout.
    misses: fs.readFileSync(path.join(REAL_DATA, 'audit-json.log'), 'utf8').split('\n').filter((line) => line.length > 0),
  },
  'server-unclean-shutdown': {
    type: 'mongodb',
    matches: [
      // 4.4+ (LOGV2_WARNING 22271) and the text before it, which names the lock file.
      '{"t":{"$date":"2026-11-22T10:02:00.101+00:00"},"s":"W",  "c":"STORAGE",  "id":22271,   "ctx":"initandlisten","msg":"Detected unclean shutdown - Lock file is not empty","attr":{"lockFile":"/data/mongod.lock"}}',
      '2019-11-11T10:02:00.101+0000 W STORAGE  [initandlisten] Detected unclean shutdown - /data/mongod.lock is not empty.',
    ],
    misses: ['{"t":{"$date":"2026-11-22T10:02:00.101+00:00"},"s":"I",  "c":"CONTROL",  "id":20565,   "ctx":"SignalHandler","msg":"Now exiting"}', 'clean shutdown complete'],
  },
  'sidecar-lines-lost': {
    type: 'logtype-sidecar',
    matches: [
      '{"level":40,"time":"2026-11-27T10:38:25.371Z","logType":"logtype-sidecar","event":"resume-lost","source":"automation-agent","path":"logs/automation-agent.log","position":330,"msg":"a file read before the restart (330 bytes of it delivered) is not found (deleted, compressed, cut by a copytruncate, or another file has its name and inode now): lines only it held past that cannot be delivered; a file at the name that is not it is read from its start"}',
      '{"level":40,"time":"2026-11-27T10:38:25.371Z","logType":"logtype-sidecar","event":"gave-up","source":"mongodb","path":"/var/log/mongodb-mms-automation/mongodb.log","file":"/var/log/mongodb-mms-automation/mongodb.log.2","bytes":81920,"msg":"too many rotated files held while the output waited: closed the oldest with 81920 bytes unread"}',
      '{"level":40,"time":"2026-11-27T10:38:25.371Z","logType":"logtype-sidecar","event":"truncated","source":"mongodb","path":"/var/log/mongodb-mms-automation/mongodb.log","position":4096,"lostBytes":610,"msg":"file truncated and no copy holds the 610 bytes not read yet; reading it from its start"}',
      // The health line, where the warnings were dropped (stderr on stdout's stalled pipe).
      '{"level":30,"time":"2026-11-27T10:38:25.371Z","logType":"logtype-sidecar","event":"stats","source":"mongodb","path":"/logs/mongodb.log","lines":9,"bytes":900,"rotations":40,"deletions":0,"truncations":0,"givenUpBytes":6288291,"msg":"file stats"}',
      // A store that wrote the line again with spaces (Python's json.dumps).
      '{"@timestamp": "2026-11-27T10:38:25.371Z", "level": 40, "logType": "logtype-sidecar", "event": "resume-lost", "source": "mongodb", "position": 330, "msg": "a file read before the restart is not found"}',
    ],
    misses: [
      '{"level":40,"time":"2026-11-27T10:38:25.371Z","logType":"logtype-sidecar","event":"truncated","source":"mongodb","path":"/var/log/mongodb-mms-automation/mongodb.log","position":4096,"copy":"/var/log/mongodb-mms-automation/mongodb.log.1","msg":"file truncated (copytruncate); reading the rest from its copy, then the file from its start"}',
      '{"level":30,"time":"2026-11-27T10:38:25.371Z","logType":"logtype-sidecar","event":"resumed","source":"mongodb","path":"/var/log/mongodb-mms-automation/mongodb.log","position":330,"msg":"resuming where the last run stopped"}',
      '{"level":30,"time":"2026-11-27T10:38:25.371Z","logType":"logtype-sidecar","event":"stats","source":"mongodb","lines":3,"bytes":330,"givenUpBytes":0,"msg":"shipped"}',
      '{"level":30,"time":"2026-11-27T10:38:25.371Z","logType":"logtype-sidecar","event":"stats","source":"mongodb","lines":3,"bytes":330,"givenUpBytes":10,"msg":"shipped"}'.replace('"givenUpBytes":10', '"givenUpBytes":0,"lostBytes":0'),
    ],
  },
  'sidecar-lines-maybe-lost': {
    type: 'logtype-sidecar',
    matches: ['{"level":40,"time":"2026-11-27T10:38:25.371Z","logType":"logtype-sidecar","event":"resume-lost","source":"mongodb","path":"/logs/mongodb.log","position":1818,"afterKill":true,"msg":"a file read before the restart (1818 bytes of it delivered by the last save; the last run was killed) is not found"}'],
    misses: ['{"level":40,"time":"2026-11-27T10:38:25.371Z","logType":"logtype-sidecar","event":"resume-lost","source":"mongodb","path":"/logs/mongodb.log","position":1818,"msg":"a file read before the restart is not found"}'],
  },
  'sidecar-lines-repeated': {
    type: 'logtype-sidecar',
    matches: ['{"level":40,"time":"2026-11-27T10:38:25.371Z","logType":"logtype-sidecar","event":"resume-lost","source":"mongodb","path":"/logs/mongodb.log","position":330,"inPlace":true,"size":120,"msg":"the file at the name is the one read before the restart, but shorter than the 330 bytes delivered: truncated or rewritten while down; read again from its start, so lines repeat"}'],
    misses: ['{"level":40,"time":"2026-11-27T10:38:25.371Z","logType":"logtype-sidecar","event":"resume-lost","source":"mongodb","path":"/logs/mongodb.log","position":330,"msg":"a file read before the restart is not found"}'],
  },
  'sidecar-unreadable': {
    type: 'logtype-sidecar',
    matches: [
      '{"level":40,"time":"2026-11-27T10:38:25.371Z","logType":"logtype-sidecar","event":"unreadable","source":"mongodb","path":"/logs/mongodb.log","uid":1000,"gid":1000,"fileUid":2000,"fileGid":2000,"fileMode":"0600","error":"EACCES: permission denied","msg":"cannot read /logs/mongodb.log: permission denied for uid 1000 (gid 1000); run the sidecar as uid 2000"}',
      '{"level":40,"time":"2026-11-27T10:38:25.371Z","logType":"logtype-sidecar","event":"heartbeat-held","unreadable":["/logs/mongodb.log"],"msg":"the heartbeat file is not refreshed while a followed file may not be read"}',
    ],
    misses: ['{"level":30,"time":"2026-11-27T10:38:25.371Z","logType":"logtype-sidecar","event":"opened","source":"mongodb","path":"/logs/mongodb.log","position":0,"msg":"following file"}'],
  },
  'sidecar-log-missing': {
    type: 'logtype-sidecar',
    matches: [
      '{"level":40,"time":"2026-11-27T10:38:25.371Z","logType":"logtype-sidecar","event":"missing","source":"mongodb","path":"/var/log/mongodb-mms-automation/mongodb.log","variable":"MDB_LOG_FILE_MONGODB","msg":"no file at /var/log/mongodb-mms-automation/mongodb.log after 3 minutes"}',
      '{"level":40,"time":"2026-11-27T10:38:25.371Z","logType":"logtype-sidecar","event":"missing","source":"automation-agent-verbose","path":"/var/log/mongodb-mms-automation/automation-agent-verbose.log","msg":"no file after 3 minutes"}',
      '{"level":40,"time":"2026-11-27T10:38:25.371Z","logType":"logtype-sidecar","event":"missing-dir","path":"/var/log/mongodb-mms-automation","files":["mongodb.log"],"msg":"no directory /var/log/mongodb-mms-automation"}',
    ],
    misses: [
      '{"level":40,"time":"2026-11-27T10:38:25.371Z","logType":"logtype-sidecar","event":"missing","source":"mongodb-audit","path":"/var/log/mongodb-mms-automation/mongodb-audit.log","msg":"no file after 3 minutes"}',
      '{"level":30,"time":"2026-11-27T10:38:25.371Z","logType":"logtype-sidecar","event":"waiting","source":"mongodb","path":"/var/log/mongodb-mms-automation/mongodb.log","msg":"waiting for the file to appear"}',
    ],
  },
  'sidecar-file-missing': {
    type: 'logtype-sidecar',
    matches: [
      '{"level":40,"time":"2026-11-27T10:38:25.371Z","logType":"logtype-sidecar","event":"missing","source":"mongodb-audit","path":"/var/log/mongodb-mms-automation/mongodb-audit.log","variable":"MDB_LOG_FILE_MONGODB_AUDIT","msg":"no file at /var/log/mongodb-mms-automation/mongodb-audit.log after 3 minutes"}',
      '{"level":40,"time":"2026-11-27T10:38:25.371Z","logType":"logtype-sidecar","event":"missing","source":"backup-agent","path":"/var/log/mongodb-mms-automation/backup-agent.log","msg":"no file after 3 minutes"}',
    ],
    misses: ['{"level":30,"time":"2026-11-27T10:38:25.371Z","logType":"logtype-sidecar","event":"waiting","source":"mongodb-audit","path":"/var/log/mongodb-mms-automation/mongodb-audit.log","msg":"waiting for the file to appear"}'],
  },
  'sidecar-state': {
    type: 'logtype-sidecar',
    matches: [
      '{"level":40,"time":"2026-11-27T10:38:25.371Z","logType":"logtype-sidecar","event":"state-unwritable","path":"/data/logtype-state.json","code":"ENOSPC","msg":"cannot save the state file: the volume is full"}',
      '{"level":50,"time":"2026-11-27T10:38:25.371Z","logType":"logtype-sidecar","event":"state-in-use","path":"/data/logtype-state.json","pid":17,"msg":"another sidecar holds the state file"}',
    ],
    misses: ['{"level":30,"time":"2026-11-27T10:38:25.371Z","logType":"logtype-sidecar","event":"state-saved","path":"/data/logtype-state.json","msg":"the state file is saved again"}'],
  },
  'sidecar-compressed': {
    type: 'logtype-sidecar',
    matches: ['{"level":40,"time":"2026-11-27T10:38:25.371Z","logType":"logtype-sidecar","event":"compressed","source":"mongodb","path":"/logs/mongodb.log","file":"/logs/mongodb.log","compression":"gzip","msg":"/logs/mongodb.log holds gzip-compressed data, not the text log the sidecar follows: not read"}'],
    misses: ['{"level":30,"time":"2026-11-27T10:38:25.371Z","logType":"logtype-sidecar","event":"rotated","source":"mongodb","path":"/logs/mongodb.log","msg":"file rotated; draining the old one"}'],
  },
  'sidecar-stop-timeout': {
    type: 'logtype-sidecar',
    matches: [
      '{"level":40,"time":"2026-11-27T10:38:25.371Z","logType":"logtype-sidecar","event":"stop-timeout","cutEntryBytes":0,"msg":"the reader did not take everything before the stop timeout"}',
      '{"level":40,"time":"2026-11-27T10:38:25.371Z","logType":"logtype-sidecar","event":"stop-timeout","stopTimeoutMs":30000,"msg":"stdin did not end before the stop timeout (its writer kept it open); what it sent was delivered"}',
    ],
    misses: ['{"level":30,"time":"2026-11-27T10:38:25.371Z","logType":"logtype-sidecar","event":"stats","source":"mongodb","lines":3,"msg":"shipped"}'],
  },
  'sidecar-killed': {
    type: 'logtype-sidecar',
    matches: ['{"level":40,"time":"2026-11-27T10:46:41.812Z","logType":"logtype-sidecar","event":"previous-run-killed","path":"st.json","pid":11612,"msg":"the last run (pid 11612) ended without its stop (killed: SIGKILL after the grace period, the OOM killer, a lost node): resuming from its last save"}'],
    misses: ['{"level":30,"time":"2026-11-27T10:46:41.812Z","logType":"logtype-sidecar","event":"started","version":"0.1.0","pid":11624,"msg":"logtype-sidecar 0.1.0 started (pid 11624)"}'],
  },
  'pod-pipes-unavailable': {
    type: 'logtype-pod',
    matches: ['{"level":50,"time":"2026-11-27T10:37:53.000Z","logType":"logtype-pod","event":"pipe-unavailable","msg":"cannot make the named pipe /run/logtype/automation-agent-stdout.fifo: mount a writable emptyDir at /run/logtype in this container and in the database container (see sidecar/README.md)"}'],
    misses: ['{"level":30,"time":"2026-11-27T10:37:53.000Z","logType":"logtype-pod","event":"launcher-patched","msg":"/opt/scripts/agent-launcher.sh: 8 tail pipelines made conditional"}'],
  },
  'pod-launcher-not-patched': {
    type: 'logtype-pod',
    matches: [
      '{"level":40,"time":"2026-11-27T10:37:53.000Z","logType":"logtype-pod","event":"launcher-missing","msg":"no launcher at /opt/scripts/agent-launcher.sh: left as it is"}',
      '{"level":40,"time":"2026-11-27T10:37:53.000Z","logType":"logtype-pod","event":"launcher-not-recognised","msg":"/opt/scripts/agent-launcher.sh has none of the tail | jq lines this patch replaces"}',
    ],
    misses: ['{"level":30,"time":"2026-11-27T10:37:53.000Z","logType":"logtype-pod","event":"launcher-already-patched","msg":"/opt/scripts/agent-launcher.sh is already patched; left as it is"}'],
  },
  'logtype-other-warning': {
    type: 'logtype-sidecar',
    matches: [
      '{"level":50,"time":"2026-11-27T10:38:25.371Z","logType":"logtype-sidecar","event":"usage","msg":"logtype-sidecar: unknown option --log-dri (see logtype-sidecar --help)"}',
      '{"level":40,"time":"2026-11-27T10:38:25.371Z","logType":"logtype-sidecar","event":"state-path-moved","path":"/logs/mongodb.log","from":"/old/mongodb.log","msg":"resumed from where the state file knew it"}',
      '{"level":40,"time":"2026-11-27T10:38:25.371Z","logType":"logtype-sidecar","event":"stopped","cause":"SIGTERM","code":0,"diagnosticsDropped":605,"msg":"stopped (SIGTERM), exit 0; 605 diagnostic lines were dropped"}',
      '{"@timestamp": "2026-11-27T10:38:25.371Z", "level": 50, "logType": "logtype-sidecar", "event": "usage", "msg": "unknown option"}',
    ],
    misses: [
      '{"level":30,"time":"2026-11-27T10:38:25.371Z","logType":"logtype-sidecar","event":"opened","source":"mongodb","path":"/logs/mongodb.log","position":0,"msg":"following file"}',
      '{"level":40,"time":"2026-11-27T10:38:25.371Z","logType":"logtype-sidecar","event":"truncated","source":"mongodb","path":"/logs/mongodb.log","position":4096,"copy":"/logs/mongodb.log.1","msg":"file truncated (copytruncate); reading the rest from its copy"}',
    ],
  },
  'automatic-recovery': {
    type: 'operator',
    matches: ['Applying automatic recovery: pushing the automation configuration, the resource has been Failed for longer than MDB_AUTOMATIC_RECOVERY_BACKOFF_TIME_S (1200s)'],
    misses: ['Reconciling MongoDB resource'],
  },
};

test('every known problem has test lines, and every problem tested is known', (t) => {
  t.deepEqual(Object.keys(CASES).sort(), KNOWN_PROBLEMS.map((p) => p.id).sort());
});

/** The problems one line shows, as doctor finds them: line by line, and by the witness of a problem found over several lines (a line alone to it). */
function problemsIn(type: string | undefined, line: string): string[] {
  const finder = new ProblemFinder();
  for (const problem of KNOWN_PROBLEMS.filter((p) => p.witnessed)) {
    const stops = new UnloggedStops(problem.matches);
    if (type !== undefined && stops.line('', line, () => parseRecord(type, line)?.message, () => undefined)) finder.witness(problem.id, type, line, () => undefined);
  }
  finder.look(type, line, () => undefined);
  return finder.findings().map((f) => f.problem.id);
}

for (const [id, { type, matches, misses }] of Object.entries(CASES)) {
  test(`known problem ${id}: its lines are found, near misses are not`, (t) => {
    for (const line of matches) t.deepEqual(problemsIn(type, line), [id], line);
    for (const line of misses) t.false(problemsIn(type, line).includes(id), line);
  });
}

// From a field trial: a ticketing app's slow queries (their filter and documents quoted in the
// server's line) said "disk is full", "killed or crashed" and "wrong certificate name", exit 1.
test("known problems: a slow operation's line quotes the clients' data, and no problem is found in it, in any shape", (t) => {
  const words = ['No space left on device', 'Detected unclean shutdown - Lock file is not empty', 'TLS attempt failed : x509: certificate is valid for a, not b', 'Status: 400 (Bad Request)'];
  for (const said of words) {
    const json = JSON.stringify(said).slice(1, -1);
    const lines = [
      `{"t":{"$date":"2026-11-22T10:00:00.000+00:00"},"s":"I",  "c":"COMMAND",  "id":51803,   "ctx":"conn9","msg":"Slow query","attr":{"type":"command","ns":"support.tickets","command":{"find":"tickets","filter":{"subject":"${json}"}},"durationMillis":120}}`,
      `{"t":{"$date":"2026-11-22T10:00:00.000+00:00"},"s":"I",  "c":"TXN",  "id":51802,   "ctx":"conn9","msg":"transaction","attr":{"parameters":{"lsid":{"id":"${json}"}},"durationMillis":700}}`,
      `{"t":{"$date":"2026-11-22T10:00:00.000+00:00"},"s":"I",  "c":"WRITE",  "id":51803,   "ctx":"conn9","msg":"Slow query","attr":{"type":"update","ns":"a.b","command":{"q":{"msg":"${json}"}},"durationMillis":120}}`,
      `2019-11-11T10:02:00.101+0000 I COMMAND  [conn9] command support.tickets command: find { find: "tickets", filter: { subject: "${said}" } } planSummary: COLLSCAN 120ms`,
    ];
    for (const line of lines) t.deepEqual(problemsIn('mongodb', line), [], line);
  }
});

/**
 * The operator's log is JSON (zap's JSON, or its console lines' fields): a problem's message
 * there sits inside a JSON string, its quotes escaped. Every problem not kept to the agents'
 * logs is found in such a line as it is in the plain message.
 */
test('known problems: each message is found inside the operator\'s zap JSON and console lines, quotes escaped', (t) => {
  const inJson = KNOWN_PROBLEMS.filter((p) => p.types === undefined || p.types.includes('operator'));
  t.true(inJson.length >= 8);
  for (const problem of inJson) {
    for (const message of CASES[problem.id]!.matches) {
      const zapJson = JSON.stringify({ level: 'error', ts: '2026-11-22T10:00:00.123Z', caller: 'operator/mongodbreplicaset_controller.go:100', msg: 'Failed to reconcile', error: message });
      const zapConsole = `2026-11-22T10:00:00.123Z\tERROR\toperator/mongodbreplicaset_controller.go:100\tFailed to reconcile\t${JSON.stringify({ ReplicaSet: 'mongodb/my-replica-set', error: message })}`;
      for (const line of [zapJson, zapConsole]) {
        const finder = new ProblemFinder();
        finder.look('operator', line, () => undefined);
        t.deepEqual(finder.findings().map((f) => f.problem.id), [problem.id], line);
      }
    }
  }
});

test('an agent-only problem is not found in other logs (a 401 in the server log is something else)', (t) => {
  const finder = new ProblemFinder();
  finder.look('mongodb', 'HTTP 401 unauthorized: invalid agent API key', () => undefined);
  t.deepEqual(finder.findings(), []);
});

test('evidence: count, first and last time, the first example', (t) => {
  const finder = new ProblemFinder();
  const times = ['2026-11-22T10:00:05Z', '2026-11-22T10:00:01Z', '2026-11-22T10:00:09Z'];
  times.forEach((time, i) => finder.look('automation-agent-stderr', `no space left on device (${i})`, () => Date.parse(time)));
  const [finding] = finder.findings();
  t.is(finding?.count, 3);
  t.is(finding?.first, Date.parse('2026-11-22T10:00:01.000Z'));
  t.is(finding?.last, Date.parse('2026-11-22T10:00:09.000Z'));
  t.is(finding?.example, 'no space left on device (0)');
});

test('known problem authentication-failed: the server\'s own lines, 5.0+ and 4.4 JSON and the text before it; a success is not one', (t) => {
  const rows: readonly (readonly [string, boolean])[] = [
    ['{"t":{"$date":"2026-11-22T09:58:04.530+00:00"},"s":"I",  "c":"ACCESS",   "id":20249,   "ctx":"conn769","msg":"Authentication failed","attr":{"mechanism":"SCRAM-SHA-256","speculative":false,"principalName":"mms-automation-agent","authenticationDatabase":"admin","remote":"10.42.4.44:54216","extraInfo":{},"error":"AuthenticationFailed: SCRAM authentication failed, storedKey mismatch"}}', true],
    ['2019-06-20T08:02:11.402+0000 I ACCESS   [conn12] SASL SCRAM-SHA-1 authentication failed for mms-automation on admin from client 10.42.4.44:54216 ; AuthenticationFailed: SCRAM authentication failed, storedKey mismatch', true],
    // 5.0 and later: id 5286307 `Failed to authenticate` (its success: 5286306).
    ['{"t":{"$date":"2025-04-29T09:55:22.461+00:00"},"s":"I",  "c":"ACCESS",   "id":5286307, "ctx":"conn231150","msg":"Failed to authenticate","attr":{"client":"10.32.2.33:58258","isSpeculative":false,"isClusterMember":false,"mechanism":"SCRAM-SHA-256","user":"mms-automation-agent","db":"admin","error":"AuthenticationFailed: SCRAM authentication failed, storedKey mismatch","result":18}}', true],
    ['{"t":{"$date":"2025-04-29T09:55:22.470+00:00"},"s":"I",  "c":"ACCESS",   "id":5286306, "ctx":"conn231151","msg":"Successfully authenticated","attr":{"client":"10.32.2.33:58260","isSpeculative":true,"isClusterMember":false,"mechanism":"SCRAM-SHA-256","user":"mms-automation-agent","db":"admin","result":0}}', false],
    ['{"t":{"$date":"2026-11-22T09:58:06.476+00:00"},"s":"I",  "c":"ACCESS",   "id":20250,   "ctx":"conn769","msg":"Authentication succeeded","attr":{"mechanism":"SCRAM-SHA-256","speculative":true,"principalName":"mms-automation-agent","authenticationDatabase":"admin","remote":"10.42.4.44:54216","extraInfo":{}}}', false],
  ];
  for (const [line, found] of rows) {
    const finder = new ProblemFinder();
    finder.look('mongodb', line, () => undefined);
    t.deepEqual(finder.findings().map((f) => f.problem.id), found ? ['authentication-failed'] : [], line);
  }
});

// From a field trial: an operator's image pull on a full node disk was said to be the agents' full log disk.
test("no space left on device: the agents' log disk where the agents' logs are written, the node's where the container runtime's place is named", (t) => {
  const operator = '{"level":"error","ts":1732701600,"logger":"controller","msg":"failed to pull image: write /var/lib/containerd/tmp/x: no space left on device"}';
  const agent = 'Logging error occurred: write /var/log/mongodb-mms-automation/automation-agent.log: no space left on device';
  const found = (logType: string | undefined, text: string): string[] => {
    const finder = new ProblemFinder();
    finder.look(logType, text, () => undefined);
    return finder.findings().map((f) => f.problem.id);
  };
  t.deepEqual(found('operator', operator), ['node-disk-full']);
  t.deepEqual(found(undefined, operator), ['node-disk-full'], 'pasted');
  t.deepEqual(found('automation-agent-stderr', agent), ['agent-disk-full']);
  t.deepEqual(found('operator', `{"level":"error","msg":"Failed to reconcile","error":"${agent}"}`), ['agent-disk-full'], "the operator quoting the agent's error");
  t.deepEqual(found(undefined, agent), ['agent-disk-full'], 'a pasted line of no type');
});
