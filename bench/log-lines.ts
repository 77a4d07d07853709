/**
 * Deterministic, realistic log lines for every type, shaped after the real logs in
 * test/fixtures/real: the server's padded JSON (with slow queries of 2-20 KB), audit events,
 * bracketed agent lines and the launcher's entries. The same seed gives the same lines, so
 * benchmarks and samples are repeatable.
 */
export type Random = () => number;

/** mulberry32: small, fast, good enough for test data. */
export function seededRandom(seed: number): Random {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pick = <T>(random: Random, items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
const int = (random: Random, min: number, max: number): number => min + Math.floor(random() * (max - min + 1));

export class LogClock {
  #ms: number;
  constructor(start = Date.parse('2026-11-22T03:00:00.000Z')) {
    this.#ms = start;
  }
  tick(random: Random, maxStepMs = 40): Date {
    this.#ms += Math.floor(random() * maxStepMs);
    return new Date(this.#ms);
  }
}

const serverTime = (date: Date): string => date.toISOString().replace('Z', '+00:00');

export function serverLine(time: Date, s: string, c: string, id: number, ctx: string, msg: string, attr?: object): string {
  // Real servers pad the severity, component and id fields to fixed widths.
  const fields = [
    `"t":{"$date":"${serverTime(time)}"}`,
    `"s":"${s}",`.padEnd(10),
    `"c":"${c}",`.padEnd(16),
    `"id":${id},`.padEnd(14),
    `"ctx":"${ctx}"`,
    `"msg":${JSON.stringify(msg)}`,
  ];
  return `{${fields[0]},${fields[1]}${fields[2]}${fields[3]}${fields[4]},${fields[5]}${attr ? `,"attr":${JSON.stringify(attr)}` : ''}}`;
}

const NAMESPACES = ['shop.orders', 'shop.customers', 'shop.carts', 'analytics.events', 'admin.system.users'];
const APPS = ['checkout-api', 'reporting', 'mongosh 2.3.1', 'MongoDB Automation Agent v107.0.1'];
const remote = (random: Random): string => `10.42.${int(random, 0, 9)}.${int(random, 2, 250)}:${int(random, 30000, 60000)}`;

export function slowQueryLine(random: Random, time: Date, targetBytes: number): string {
  const ns = pick(random, NAMESPACES);
  const collscan = random() < 0.3;
  const docsExamined = collscan ? int(random, 10_000, 2_000_000) : int(random, 1, 500);
  const filter: Record<string, unknown> = { status: pick(random, ['open', 'paid', 'shipped']), 'customer.region': pick(random, ['eu', 'us', 'ap']) };
  const inList = [] as string[];
  const attr = {
    type: 'command',
    ns,
    appName: pick(random, APPS),
    command: { find: ns.split('.')[1], filter, $in: inList, limit: 50, lsid: { id: { $uuid: '9b1e4c4e-6c55-4f5c-9a3e-0c7d5e3f2a11' } }, $db: ns.split('.')[0] },
    planSummary: collscan ? 'COLLSCAN' : 'IXSCAN { status: 1, created: -1 }',
    keysExamined: collscan ? 0 : docsExamined,
    docsExamined,
    nreturned: int(random, 0, 50),
    queryHash: pick(random, ['9F5A2B1C', '1D3E5F7A', '77AC01B2', 'E4C3B2A1']),
    planCacheKey: pick(random, ['5E6F7A8B', 'AC12BD34']),
    numYields: int(random, 0, 400),
    reslen: int(random, 200, 90_000),
    locks: { Global: { acquireCount: { r: int(random, 1, 500) } } },
    remote: remote(random),
    protocol: 'op_msg',
    durationMillis: collscan ? int(random, 300, 12_000) : int(random, 100, 900),
  };
  // Large $in lists are what make real slow-query lines 2-20 KB long.
  let line = serverLine(time, 'I', 'COMMAND', 51803, `conn${int(random, 1, 900)}`, 'Slow query', attr);
  while (line.length < targetBytes) {
    inList.push(`order-${int(random, 100000, 999999)}`);
    if (inList.length % 50 === 0) line = serverLine(time, 'I', 'COMMAND', 51803, `conn${int(random, 1, 900)}`, 'Slow query', attr);
  }
  return serverLine(time, 'I', 'COMMAND', 51803, `conn${int(random, 1, 900)}`, 'Slow query', attr);
}

export function serverLogLine(random: Random, time: Date, slowShare = 0.005): string {
  if (random() < slowShare) return slowQueryLine(random, time, int(random, 2_000, 20_000));
  const conn = `conn${int(random, 1, 900)}`;
  const roll = random();
  if (roll < 0.25) {
    return serverLine(time, 'I', 'NETWORK', 22943, 'listener', 'Connection accepted', {
      remote: remote(random),
      uuid: { uuid: { $uuid: 'f0c2b3a4-1d2e-4f50-8a9b-0c1d2e3f4a5b' } },
      connectionId: int(random, 1, 90000),
      connectionCount: int(random, 5, 400),
    });
  }
  if (roll < 0.5) {
    return serverLine(time, 'I', 'NETWORK', 22944, conn, 'Connection ended', {
      remote: remote(random),
      uuid: { uuid: { $uuid: 'f0c2b3a4-1d2e-4f50-8a9b-0c1d2e3f4a5b' } },
      connectionId: int(random, 1, 90000),
      connectionCount: int(random, 5, 400),
    });
  }
  if (roll < 0.7) {
    return serverLine(time, 'I', 'NETWORK', 51800, conn, 'client metadata', {
      remote: remote(random),
      client: conn,
      negotiatedCompressors: [],
      doc: { application: { name: pick(random, APPS) }, driver: { name: 'nodejs', version: '6.9.0' }, os: { type: 'Linux', name: 'linux', architecture: 'x64' } },
    });
  }
  if (roll < 0.85) {
    return serverLine(time, 'I', 'ACCESS', 20250, conn, 'Authentication succeeded', {
      mechanism: 'SCRAM-SHA-256',
      speculative: true,
      principalName: pick(random, ['app', 'reporting', 'mms-automation-agent']),
      authenticationDatabase: 'admin',
      remote: remote(random),
      extraInfo: {},
    });
  }
  if (roll < 0.95) {
    return serverLine(time, 'I', 'WTCHKPT', 22430, 'Checkpointer', 'WiredTiger message', {
      message: { ts_sec: Math.floor(time.getTime() / 1000), ts_usec: 0, thread: '1:0x7f', session_name: 'WT_SESSION.checkpoint', category: 'WT_VERB_CHECKPOINT_PROGRESS', category_id: 6, verbose_level: 'DEBUG_1', verbose_level_id: 1, msg: `saving checkpoint snapshot min: ${int(random, 1, 99999)}, snapshot max: ${int(random, 1, 99999)}` },
    });
  }
  if (roll < 0.98) {
    return serverLine(time, 'W', 'NETWORK', 4615610, conn, 'Failed to check socket connectivity', { error: 'Connection reset by peer' });
  }
  return serverLine(time, 'I', 'REPL', 21215, 'ReplCoord-3', 'Member is in new state', {
    hostAndPort: `my-replica-set-${int(random, 1, 2)}.my-replica-set-svc.mongodb.svc.cluster.local:27017`,
    newState: pick(random, ['SECONDARY', 'SECONDARY', 'RECOVERING']),
  });
}

export function auditLine(random: Random, time: Date): string {
  const user = pick(random, ['alice', 'app', 'reporting', 'mms-automation-agent']);
  const failed = random() < 0.08;
  return JSON.stringify({
    atype: failed ? 'authenticate' : pick(random, ['authenticate', 'authCheck', 'createCollection', 'createIndex', 'logout']),
    ts: { $date: time.toISOString() },
    uuid: { $binary: 'Jv2cBoVqRYKXU6dwOqOyWA==', $type: '04' },
    local: { ip: '10.42.0.5', port: 27017 },
    remote: { ip: remote(random).split(':')[0], port: int(random, 30000, 60000) },
    users: failed ? [] : [{ user, db: 'admin' }],
    roles: failed ? [] : [{ role: 'readWrite', db: 'shop' }],
    param: { user, db: 'admin', mechanism: 'SCRAM-SHA-256' },
    result: failed ? 18 : 0,
  });
}

const AGENT_SOURCES = [
  'director/director.go:computePlan:1083',
  'main/components/agent.go:LoadClusterConfig:259',
  'src/mongoctl/processctl.go:Ping:1234',
  'realtime/rtcollector/rtcollector.go:controlLoop:87',
];
const AGENT_MESSAGES = [
  'All 3 Mongo processes are in goal state',
  'Step=WaitAllRsMembersUp as part of Move=WaitAllRsMembersUp in plan failed : <rs0-1> [10:00:00.123] Postcondition not yet met',
  'New cluster config received! 41 -> 42',
  'Starting control loop',
  'Server at my-replica-set-1.my-replica-set-svc.mongodb.svc.cluster.local:27017 (local=false) is down',
  'Error sending GET request to https://ops.example/agents/api/automation/conf/v1/6a1b: HTTP 401 unauthorized: invalid agent API key',
];
const agentTime = (date: Date): string => date.toISOString().replace('Z', '+0000');

export function agentLine(random: Random, time: Date): string {
  const level = random() < 0.9 ? 'info' : pick(random, ['warn', 'error', 'debug']);
  const hms = time.toISOString().slice(11, 23);
  return `[${agentTime(time)}] [.${level}] [${pick(random, AGENT_SOURCES)}] [${hms}] ${pick(random, AGENT_MESSAGES)}`;
}

export type GeneratedType = 'mongodb' | 'mongodb-audit' | 'automation-agent' | 'automation-agent-verbose' | 'monitoring-agent' | 'backup-agent';

/** A line for a type at a time. */
export function lineFor(type: GeneratedType, random: Random, time: Date): string {
  switch (type) {
    case 'mongodb':
      return serverLogLine(random, time);
    case 'mongodb-audit':
      return auditLine(random, time);
    default:
      return agentLine(random, time);
  }
}

/** The filter benchmark's mix (docs/anchors.md §2): 66.5% server, 3.5% audit, 30% agents. */
export function pickFilterType(random: Random): GeneratedType {
  const roll = random();
  if (roll < 0.665) return 'mongodb';
  if (roll < 0.7) return 'mongodb-audit';
  return pick(random, ['automation-agent', 'automation-agent-verbose', 'monitoring-agent', 'backup-agent'] as const);
}

/** The sidecar catch-up mix (docs/anchors.md §1): 70% server JSON, 30% agent text. */
export function pickCatchUpType(random: Random): GeneratedType {
  return random() < 0.7 ? 'mongodb' : pick(random, ['automation-agent', 'automation-agent-verbose', 'monitoring-agent', 'backup-agent'] as const);
}
