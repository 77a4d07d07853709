/**
 * The points of the slow-operation plot, in bounded memory. Three parts, each bounded:
 * - the MAX_SLOWEST_POINTS slowest operations, COLLSCANs or not: always drawn;
 * - the COLLSCANs: every one while they are no more than MAX_COLLSCAN_POINTS, beyond that a
 *   uniform sample of them all (not the first ones: a spike early in the input, or the first
 *   of several pods read one after another, would otherwise take every place);
 * - the other operations: a uniform sample of MAX_SLOW_POINTS.
 * The plot says which (time-charts.ts): "all N COLLSCANs", or "M of N COLLSCANs, a uniform
 * sample". Each point costs a heap step and a reservoir step, whatever the input's length.
 */
import { isoString } from './iso-string.js';
import { Reservoir, linearCongruential, xorshift32 } from './reservoir.js';
import type { ServerSummary, SlowPoint } from './summary.js';
import { MAX_COLLSCAN_POINTS, MAX_SLOWEST_POINTS, MAX_SLOW_POINTS } from './summary-limits.js';
import { TopN } from './top-n.js';

interface Point {
  /** The order it was seen in: one point may be both among the slowest and in a sample. */
  readonly seq: number;
  readonly time: number;
  readonly durationMillis: number;
  readonly ns: string;
  readonly collscan: boolean;
}

export class SlowPoints {
  #seen = 0;
  readonly #slowest = new TopN<Point>(MAX_SLOWEST_POINTS, (p) => p.durationMillis);
  readonly #collscans = new Reservoir<Point>(MAX_COLLSCAN_POINTS, xorshift32(0x6c078965));
  readonly #sample = new Reservoir<Point>(MAX_SLOW_POINTS, linearCongruential(0x2545f491));

  add(time: number, durationMillis: number, ns: string, collscan: boolean): void {
    const point: Point = { seq: this.#seen++, time, durationMillis, ns, collscan };
    this.#slowest.add(point);
    (collscan ? this.#collscans : this.#sample).add(point);
  }

  summary(): Pick<ServerSummary, 'slowPoints' | 'slowPointsSeen' | 'collscansSeen'> {
    const points = new Map<number, SlowPoint & { readonly at: number }>();
    const put = (p: Point, outlier: SlowPoint['outlier']): void => {
      if (!points.has(p.seq)) points.set(p.seq, { at: p.time, time: isoString(p.time)!, durationMillis: p.durationMillis, ns: p.ns, collscan: p.collscan, outlier });
    };
    for (const p of this.#slowest.items()) put(p, 'slowest');
    for (const p of this.#collscans.items) put(p, 'collscan');
    for (const p of this.#sample.items) put(p, null);
    return {
      slowPoints: [...points.values()].sort((a, b) => a.at - b.at).map(({ at: _at, ...point }) => point),
      slowPointsSeen: this.#seen,
      collscansSeen: this.#collscans.seen,
    };
  }
}
