/**
 * The events the time charts mark with a vertical line: the server's restarts, shutdowns,
 * elections and replica-set state changes, from what the summary already holds (its restarts and its replica
 * set's events, replication-events.ts). Events without a time are not marked.
 */
import type { ServerSummary } from './summary.js';

export interface ChartMarker {
  /** Epoch ms. */
  readonly time: number;
  readonly kind: 'restart' | 'shutdown' | 'election' | 'state';
  /** What happened, as the summary says it (the line's title). */
  readonly label: string;
}

/** The letter above a marker's line (the legend says what each means). */
export const MARKER_LETTERS: Readonly<Record<ChartMarker['kind'], string>> = { restart: 'R', shutdown: 'D', election: 'E', state: 'S' };

/** The kinds in the order legends list them. */
export const MARKER_KINDS: readonly ChartMarker['kind'][] = ['restart', 'shutdown', 'election', 'state'];

/** A shutdown's words: what began it, and its exit code where its end was logged. */
export function shutdownLabel(cause: string | null, exitCode: number | null): string {
  return `shutdown${cause === null ? '' : `: ${cause}`}${exitCode === null ? '' : ` (exit code ${exitCode})`}`;
}

/** With several members, whose event it is (`my-rs-1: `), as the shutdowns and the text say. */
const whose = (member: string | undefined): string => (member === undefined ? '' : `${member}: `);

export function chartMarkers(server: ServerSummary | undefined): ChartMarker[] {
  if (!server) return [];
  const markers: ChartMarker[] = [];
  for (const restart of server.restarts) {
    const time = restart.time === null ? Number.NaN : Date.parse(restart.time);
    if (!Number.isNaN(time)) markers.push({ time, kind: 'restart', label: `${whose(restart.member)}${restart.atLogStart ? 'start' : 'restart'}${restart.version === null ? '' : ` (v${restart.version})`}` });
  }
  for (const shutdown of server.shutdowns) {
    const time = shutdown.time === null ? Number.NaN : Date.parse(shutdown.time);
    if (!Number.isNaN(time)) markers.push({ time, kind: 'shutdown', label: `${whose(shutdown.member)}${shutdownLabel(shutdown.cause, shutdown.exitCode)}` });
  }
  for (const { time: at, event, member } of server.replication) {
    const time = at === null ? Number.NaN : Date.parse(at);
    if (!Number.isNaN(time)) markers.push({ time, kind: event.startsWith('election: ') ? 'election' : 'state', label: `${whose(member)}${event}` });
  }
  return markers.sort((a, b) => a.time - b.time);
}

/**
 * What a kind of marker stands for, in a legend, from the markers drawn: an E marks step-downs
 * too (isElectionMessage), and an R a start a log begins with, which is not counted as a
 * restart (the text says "restarts: none after the log begins" beside it); a legend saying
 * "election" or "restart" there claims more
 * than happened. `labels`: the drawn markers' labels of that kind.
 */
export function markerKindWords(kind: ChartMarker['kind'], labels: readonly string[]): string {
  if (kind === 'state') return 'state change';
  if (kind === 'shutdown') return 'shutdown';
  if (kind === 'election') return 'election or step-down';
  const starts = labels.filter((label) => /^(?:\S+: )?start\b/.test(label)).length;
  return starts === 0 ? 'restart' : starts === labels.length ? 'start where a log begins' : 'restart, or start where a log begins';
}
