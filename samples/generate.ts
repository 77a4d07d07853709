/**
 * Writes samples/: one small log per type, generated with a fixed seed (so a re-run gives the
 * same bytes) plus real lines from ../shared/data/real. `npm run samples` runs it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { LogClock, agentLine, auditLine, seededRandom, serverLogLine, slowQueryLine } from '../bench/log-lines.js';
import { encodeEntry } from '../src/encode/encode-entry.js';

const out = path.resolve(import.meta.dirname, '../../samples');
const random = seededRandom(20261122);
const clock = new LogClock(Date.parse('2026-11-22T09:58:00.000Z'));
const files = new Map<string, string[]>();
const add = (type: string, line: string): void => {
  files.set(type, [...(files.get(type) ?? []), line]);
};

for (let i = 0; i < 60; i++) {
  const time = clock.tick(random, 2000);
  add('mongodb', i % 15 === 7 ? slowQueryLine(random, time, 1500) : serverLogLine(random, time, 0));
  if (i % 4 === 0) add('mongodb-audit', auditLine(random, time));
  if (i % 3 === 0) add('automation-agent', agentLine(random, time));
  if (i % 2 === 0) add('automation-agent-verbose', agentLine(random, time));
  if (i % 10 === 0) add('monitoring-agent', agentLine(random, time));
  if (i % 20 === 0) add('backup-agent', agentLine(random, time));
}
// Real lines: the pre-4.4 text format, the agents' two time formats and banner, a full disk.
add('automation-agent-verbose', '[2019/09/10 04:07:51.398] [header.info] [::0]        GitCommitId = 8df36b2fdbe7d2ea98fdc1850ba76d9362cdf2cc');
add('automation-agent', '[2021-09-17T13:19:52.333+0000] [.info] [main/components/agent.go:NewAgent:123] [13:19:52.333] Constructing new agent object with desiredClusterConfigPath=/var/lib/automation/config/cluster-config.json');
add(
  'automation-agent-stderr',
  'Logging error occurred: rolling_file_appender: Failed to write to /var/log/mongodb-mms-automation/automation-agent-verbose.log: write /var/log/mongodb-mms-automation/automation-agent-verbose.log: no space left on device',
);
for (const line of ['Starting agent launcher', 'Downloading automation agent from the Ops Manager', 'Launching automation agent with pid 42']) {
  // The launcher's script_log writes entries into its own file.
  add('agent-launcher-script', encodeEntry('agent-launcher-script', `2026-11-22 09:58:00 ${line}`).trimEnd());
}

fs.mkdirSync(out, { recursive: true });
for (const [type, lines] of files) fs.writeFileSync(path.join(out, `${type}.log`), lines.join('\n') + '\n');
process.stdout.write(`wrote ${[...files.values()].reduce((n, l) => n + l.length, 0)} lines to ${out}\n`);
