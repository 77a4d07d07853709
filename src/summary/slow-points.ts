/**
 * The points of the slow-operation plot, in bounded memory: the outliers are always drawn (the
 * MAX_SLOWEST_POINTS slowest operations, and every COLLSCAN up to MAX_COLLSCAN_POINTS), then a
 * uniform sample of the rest (MAX_SLOW_POINTS), which the plot labels "N sampled of M".
 */
import { isoString } from './iso-string.js';
import { Reservoir, linearCongruential } from './reservoir.js';
import type { ServerSummary, SlowPoint } from './summary.js';
import { MAX_COLLSCAN_POINTS, MAX_SLOWEST_POINTS, MAX_SLOW_POINTS } from './summary-limits.js';
import { TopN } from './top-n.js';

interface Point {
  /** The order it was seen in: one point may be both an outlier and in the sample. */
  readonly seq: number;
  readonly time: number;
  readonly durationMillis: number;
  readonly ns: string;
  readonly collscan: boolean;
}

export class SlowPoints {
  #seen = 0;
  readonly #slowest = new TopN<Point>(MAX_SLOWEST_POINTS, (p) => p.durationMillis);
  readonly #collscans: Point[] = [];
  /** COLLSCANs past MAX_COLLSCAN_POINTS: in the sample only. */
  #collscansSampled = 0;
  readonly #sample = new Reservoir<Point>(MAX_SLOW_POINTS, linearCongruential(0x2545f491));

  add(time: number, durationMillis: number, ns: string, collscan: boolean): void {
    const point: Point = { seq: this.#seen++, time, durationMillis, ns, collscan };
    this.#slowest.add(point);
    if (collscan) {
      if (this.#collscans.length < MAX_COLLSCAN_POINTS) this.#collscans.push(point);
      else this.#collscansSampled++;
    }
    this.#sample.add(point);
  }

  summary(): Pick<ServerSummary, 'slowPoints' | 'slowPointsSeen' | 'collscansSampled'> {
    const points = new Map<number, SlowPoint & { readonly at: number }>();
    const put = (p: Point, outlier: SlowPoint['outlier']): void => {
      if (!points.has(p.seq)) points.set(p.seq, { at: p.time, time: isoString(p.time)!, durationMillis: p.durationMillis, ns: p.ns, collscan: p.collscan, outlier });
    };
    for (const p of this.#slowest.items()) put(p, 'slowest');
    for (const p of this.#collscans) put(p, 'collscan');
    for (const p of this.#sample.items) put(p, null);
    return {
      slowPoints: [...points.values()].sort((a, b) => a.at - b.at).map(({ at: _at, ...point }) => point),
      slowPointsSeen: this.#seen,
      collscansSampled: this.#collscansSampled,
    };
  }
}
