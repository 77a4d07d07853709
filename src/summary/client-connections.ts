/**
 * Who connected: connections opened and ended by client IP (22943 and 22944's `remote`, a text
 * line's `connection accepted from IP:PORT` and `end connection IP:PORT`), and the drivers
 * that said who they were (client metadata, 51800; a text line's `received client metadata`)
 * by driver, version and appName, each with how many connections and from which IPs. Only
 * those lines are read; the keys are bounded, the lighter rows folded into one "(other)" row
 * when more come (heavy-rows.ts): the busiest client keeps its row whenever it came.
 */
import { MetadataPlaces, readMetadataPlaces } from '../parse/connection-attributes.js';
import type { LogRecord } from '../parse/log-record.js';
import { attrString, attrStringPlace, attrValue, attrValuePlace, attrValueText } from '../parse/record-attributes.js';
import { TextPlace } from '../parse/text-place.js';
import { ByteKeyed } from './byte-keyed.js';
import { HeavyRows, missed } from './heavy-rows.js';
import type { ServerSummary } from './summary.js';
import { MAX_CLIENT_DRIVERS, MAX_CLIENT_IPS, MAX_DRIVER_IPS } from './summary-limits.js';

export const CLIENT_METADATA_ID = 51800;
/** The row that counts the keys beyond a limit. */
export const OTHER = '(other)';
/** An IP or remote a line did not say. */
const UNKNOWN = '(unknown)';

const TEXT_REMOTE = /^(?:connection accepted from|end connection) (\S+)/;
const TEXT_METADATA = /^received client metadata from (\S+) \S+: (.*)$/;
/** The shell-notation document of a text line: what the metadata says, read by its words. */
const TEXT_DRIVER = /driver: \{ name: "((?:[^"\\]|\\.)*)", version: "((?:[^"\\]|\\.)*)"/;
const TEXT_APPLICATION = /application: \{ name: "((?:[^"\\]|\\.)*)"/;

/** `10.0.0.1:5`, `[::1]:5`: the host without its port. */
export function remoteHost(remote: string): string {
  if (remote.charCodeAt(0) === 0x5b) {
    const bracketed = /^\[([^\]]*)\](?::\d+)?$/.exec(remote);
    if (bracketed) return bracketed[1]!;
  }
  const colon = remote.lastIndexOf(':');
  // An IPv6 address written without brackets has several colons and no port to cut.
  if (colon <= 0 || colon === remote.length - 1 || remote.indexOf(':') !== colon) return remote;
  // The port's digits read one by one: every connection line's remote is cut here.
  for (let i = colon + 1; i < remote.length; i++) {
    const code = remote.charCodeAt(i);
    if (code < 0x30 || code > 0x39) return remote;
  }
  return remote.slice(0, colon);
}

/**
 * remoteHost of the remote in bytes[start, end) (UTF-8), where it stands: `into` set to the
 * host's place. Colons and brackets are single bytes in UTF-8, so the bytes are cut where the
 * text would be.
 */
export function remoteHostPlace(bytes: Buffer, start: number, end: number, into: TextPlace): void {
  if (bytes[start] === 0x5b) {
    let close = start + 1;
    while (close < end && bytes[close] !== 0x5d) close++;
    // `[host]`, or `[host]:digits`.
    if (close < end && (close + 1 === end || (bytes[close + 1] === 0x3a && close + 2 < end && allDigits(bytes, close + 2, end)))) {
      into.set(bytes, start + 1, close);
      return;
    }
  }
  let colon = end - 1;
  while (colon >= start && bytes[colon] !== 0x3a) colon--;
  let first = start;
  while (first < colon && bytes[first] !== 0x3a) first++;
  if (colon <= start || colon === end - 1 || first !== colon || !allDigits(bytes, colon + 1, end)) into.set(bytes, start, end);
  else into.set(bytes, start, colon);
}

const allDigits = (bytes: Uint8Array, start: number, end: number): boolean => {
  for (let i = start; i < end; i++) if (bytes[i]! < 0x30 || bytes[i]! > 0x39) return false;
  return true;
};

/** A connection's remote as summary passes it on: its text, or where it stands in the line (good until the next line). */
export type RemoteText = string | TextPlace;

/** Hosts known by their bytes: a busy server's clients, a few thousand. */
const MAX_KNOWN_HOSTS = 4096;

/** A host known by its bytes: its text, and its row once a connection line counted it. */
interface Host {
  readonly ip: string;
  counts: IpCounts | undefined;
  /** The IP rows' folds when `counts` was taken: once they moved, the row may have been folded. */
  folds: number;
  /** The driver row this host was last counted under: its IP is among that row's already (or the row's IPs were full). */
  driver: DriverCounts | undefined;
}

/** An IP's connections. A class, not an object literal (docs/design.md, "classes for what is made per key"). */
class IpCounts {
  opened = 0;
  ended = 0;
}

interface DriverCounts {
  readonly driver: string;
  readonly version: string;
  readonly appName: string;
  connections: number;
  readonly ips: Set<string>;
  /** IPs beyond MAX_DRIVER_IPS were seen. */
  moreIps: boolean;
}

/** What a client's metadata document says of it. */
interface Metadata {
  readonly driver: string | undefined;
  readonly version: string | undefined;
  readonly appName: string | undefined;
  /** The driver's row's key (driverKey), made once a document. */
  readonly key: string;
}

/** A driver's row: by driver, version and appName, each `(not said)` or `-` when not said. */
const driverKey = (driver: string | undefined, version: string | undefined, appName: string | undefined): string =>
  `${driver ?? NOT_SAID}\u0000${version ?? '-'}\u0000${appName ?? '-'}`;
const NOT_SAID = '(not said)';

/**
 * Metadata documents kept by their text: a driver's instances write the same document on every
 * connection, read once. Beyond this many texts, each is read anew.
 */
const MAX_METADATA_TEXTS = 1000;
/** Bytes kept of a document on average (a driver's is a few hundred). */
const MAX_METADATA_BYTES = 1024;

/** Whether a line read from bytes is inside an entry's literal (AttributeReader.inBytes). */
const escapedLine = (_bytes: Buffer, _headEnd: number, _end: number, escaped: boolean): boolean => escaped;
const NO_BYTES = Buffer.alloc(0);

const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
const member = (value: unknown, key: string): unknown => (typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined);

const foldIp = (other: IpCounts, row: IpCounts): void => {
  other.opened += row.opened;
  other.ended += row.ended;
};
const newIpCounts = (): IpCounts => new IpCounts();
const newDriverCounts = (driver: string, version: string, appName: string): DriverCounts => ({ driver, version, appName, connections: 0, ips: new Set(), moreIps: false });

export class ClientConnections {
  // Weighed by connections opened, what the table ranks them by (and what a row may miss is counted in).
  readonly #ips = new HeavyRows<string, IpCounts>(MAX_CLIENT_IPS, new IpCounts(), { weight: (c) => c.opened, fold: foldIp });
  readonly #drivers = new HeavyRows<string, DriverCounts>(MAX_CLIENT_DRIVERS, newDriverCounts(OTHER, '', ''), {
    weight: (d) => d.connections,
    fold: (other, row) => {
      other.connections += row.connections;
    },
  });
  readonly #metadata = new Map<string, Metadata>();
  /**
   * Documents by their bytes where the reference reading found them, in a line and inside an
   * entry's literal apart (a document's bytes are one or the other, so a line read in one pass
   * takes only a document found in its own kind of line); a new one is read from the record in
   * hand (#metadataRecord).
   */
  readonly #docs = [false, true].map(() => new ByteKeyed<Metadata>(MAX_METADATA_TEXTS, () => metadataOf(attrValue(this.#metadataRecord!, 'doc')), MAX_METADATA_BYTES));
  #metadataRecord: LogRecord | undefined;
  /** A metadata line's places read in one pass over its bytes (readMetadataPlaces), reused from line to line. */
  readonly #places = new MetadataPlaces();
  readonly #readPlaces = (bytes: Buffer, headEnd: number, end: number, escaped: boolean): ByteKeyed<Metadata> | undefined =>
    readMetadataPlaces(bytes, headEnd, end, escaped, this.#places) ? this.#docs[escaped ? 1 : 0] : undefined;
  readonly #doc = new TextPlace();
  readonly #hosts = new ByteKeyed<Host>(MAX_KNOWN_HOSTS, (ip) => ({ ip, counts: undefined, folds: 0, driver: undefined }));
  /** The remote of the line in hand, and its host, where they stand: reused from line to line. */
  readonly #remote = new TextPlace();
  readonly #host = new TextPlace();
  /** What the last client metadata line said of its connection (add). */
  readonly #said: { appName: string | undefined; remote: RemoteText } = { appName: undefined, remote: UNKNOWN };

  /** A connection opened or ended (the caller knows which: connectionEventOf); returns its remote (`(unknown)` when the line has none). */
  connection(record: LogRecord, opened: boolean): string {
    const remote = record.id === undefined ? TEXT_REMOTE.exec(record.message)?.[1] : attrString(record, 'remote');
    const counts = this.#countsOf(remote === undefined ? UNKNOWN : remoteHost(remote));
    if (opened) counts.opened++;
    else counts.ended++;
    return remote ?? UNKNOWN;
  }

  /** A connection opened or ended, its remote's host read where it stands: bytes[start, end) (readConnectionAttributes). */
  connectionAt(bytes: Buffer, start: number, end: number, opened: boolean): void {
    const host = this.#hosts.get(bytes, start, end);
    let counts = host.counts;
    if (counts === undefined || host.folds !== this.#ips.folds) {
      counts = host.counts = this.#countsOf(host.ip);
      host.folds = this.#ips.folds;
    }
    if (opened) counts.opened++;
    else counts.ended++;
  }

  /** An IP's row. */
  #countsOf(ip: string): IpCounts {
    return this.#ips.row(ip, newIpCounts);
  }

  /** The host of a remote where it stands (remoteHost), known by its bytes. */
  #hostOf(remote: TextPlace): Host {
    const host = this.#host;
    remoteHostPlace(remote.bytes, remote.start, remote.end, host);
    const known = this.#hosts.get(host.bytes, host.start, host.end);
    host.clear();
    return known;
  }

  /** The line in hand is done with: its bytes are let go (what `add` said of it is no longer good). */
  lineDone(): void {
    this.#remote.clear();
    this.#said.remote = UNKNOWN;
  }

  /**
   * Any server line: only client metadata's is read further; returns what it said of its
   * connection (its appName and remote), if it was one: the same object each time, good until
   * the next line (its remote may be where it stands in the line).
   */
  add(record: LogRecord): { readonly appName: string | undefined; readonly remote: RemoteText } | undefined {
    const id = record.id;
    const said = this.#said;
    if (id === CLIENT_METADATA_ID) {
      if (this.#knownInBytes(record)) return said;
      const { driver, version, appName, key } = this.#metadataOf(record);
      let ip: string;
      if (attrStringPlace(record, 'remote', this.#remote)) {
        said.remote = this.#remote;
        ip = this.#hostOf(this.#remote).ip;
      } else {
        const remote = attrString(record, 'remote');
        said.remote = remote ?? UNKNOWN;
        ip = remote === undefined ? UNKNOWN : remoteHost(remote);
      }
      this.#driver(key, driver ?? NOT_SAID, version ?? '-', appName ?? '-', ip);
      said.appName = appName;
      return said;
    }
    if (id !== undefined || record.component !== 'NETWORK' || !record.message.startsWith('received client metadata')) return undefined;
    const line = TEXT_METADATA.exec(record.message);
    if (!line) return undefined;
    const remote = line[1];
    const about = TEXT_DRIVER.exec(line[2]!);
    const driver = about?.[1];
    const version = about?.[2];
    const appName = TEXT_APPLICATION.exec(line[2]!)?.[1];
    this.#driver(driverKey(driver, version, appName), driver ?? NOT_SAID, version ?? '-', appName ?? '-', remote === undefined ? UNKNOWN : remoteHost(remote));
    said.appName = appName;
    said.remote = remote ?? UNKNOWN;
    return said;
  }

  /**
   * A client metadata line read in one pass over its bytes (readMetadataPlaces), when its
   * document's bytes are those of one the reference reading found before: counted as `add`
   * counts it, and `said` set. False, and nothing counted, for any other line.
   */
  #knownInBytes(record: LogRecord): boolean {
    const docs = record.attributes?.inBytes?.(this.#readPlaces);
    if (!docs) return false;
    const places = this.#places;
    const bytes = places.bytes;
    // The line's bytes are let go: its input chunk is not held until the next metadata line.
    places.bytes = NO_BYTES;
    const metadata = docs.known(bytes, places.docStart, places.docEnd);
    if (!metadata) return false;
    this.#remote.set(bytes, places.remoteStart, places.remoteEnd);
    const said = this.#said;
    said.remote = this.#remote;
    said.appName = metadata.appName;
    const { driver, version, appName } = metadata;
    const host = this.#hosts.get(bytes, places.remoteStart, places.hostEnd);
    this.#driver(metadata.key, driver ?? NOT_SAID, version ?? '-', appName ?? '-', host.ip, host);
    return true;
  }

  /**
   * A client metadata line's document: read once a text (metadataOf), known by its bytes where
   * it stands (its text still escaped inside an entry's literal, so no text stands for two
   * documents), else by its text.
   */
  #metadataOf(record: LogRecord): Metadata {
    if (attrValuePlace(record, 'doc', this.#doc)) {
      this.#metadataRecord = record;
      const doc = this.#doc;
      const metadata = this.#docs[record.attributes?.inBytes?.(escapedLine) === true ? 1 : 0]!.get(doc.bytes, doc.start, doc.end);
      // The record and its bytes are read only within the lookup: not held past its line.
      this.#metadataRecord = undefined;
      doc.clear();
      return metadata;
    }
    const doc = attrValueText(record, 'doc');
    const known = doc === undefined ? undefined : this.#metadata.get(doc);
    if (known) return known;
    const metadata = metadataOf(attrValue(record, 'doc'));
    if (doc !== undefined && this.#metadata.size < MAX_METADATA_TEXTS) this.#metadata.set(doc, metadata);
    return metadata;
  }

  /** `host`: the IP's host where it is known by its bytes, which remembers the row it was last counted under (a client's connections come from one driver, mostly). */
  #driver(key: string, driver: string, version: string, appName: string, ip: string, host?: Host): void {
    const counts = this.#drivers.get(key) ?? this.#drivers.row(key, () => newDriverCounts(driver, version, appName));
    counts.connections++;
    if (host) {
      // The row's IPs only grow: once counted under it, the IP is there, or was one too many.
      if (host.driver === counts) return;
      host.driver = counts;
    }
    if (counts.ips.has(ip)) return;
    if (counts.ips.size < MAX_DRIVER_IPS) counts.ips.add(ip);
    else counts.moreIps = true;
  }

  /** IPs by connections opened, then drivers by connections; the rows folded as one "(other)" row each, last. */
  summary(): Pick<ServerSummary, 'clients' | 'drivers'> {
    const clients = [...this.#ips.entries()]
      .map(({ key: ip, row: c, before }) => ({ ip, opened: c.opened, ended: c.ended, ...missed(before) }))
      .sort((a, b) => b.opened - a.opened || b.ended - a.ended || (a.ip < b.ip ? -1 : 1));
    const otherIps = this.#ips.other;
    if (this.#ips.otherKeys > 0) clients.push({ ip: OTHER, opened: otherIps.opened, ended: otherIps.ended });
    const drivers = [...this.#drivers.entries()]
      .map(({ row: d, before }) => ({ driver: d.driver, version: d.version, appName: d.appName, connections: d.connections, ips: [...d.ips].sort(), moreIps: d.moreIps, ...missed(before) }))
      .sort((a, b) => b.connections - a.connections || (a.driver < b.driver ? -1 : a.driver > b.driver ? 1 : 0));
    if (this.#drivers.otherKeys > 0) drivers.push({ driver: OTHER, version: '', appName: '', connections: this.#drivers.other.connections, ips: [], moreIps: false });
    return { clients, drivers };
  }
}

/** What a client metadata document (51800's `doc`) says: its driver's name and version, its application's name. */
function metadataOf(doc: unknown): Metadata {
  const about = member(doc, 'driver');
  const driver = text(member(about, 'name'));
  const version = text(member(about, 'version'));
  const appName = text(member(member(doc, 'application'), 'name'));
  return { driver, version, appName, key: driverKey(driver, version, appName) };
}
