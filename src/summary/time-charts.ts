/**
 * The summary page's charts over time, as inline SVG: entries per bucket by type and by
 * severity (stacked bars), and the slow operations by duration. Every chart of a page shares
 * one time axis (TimeAxis: the same start, end and ticks), its ticks on round times
 * (time-ticks.ts), its labels kept inside the plot's box, its y axis titled with its unit; the
 * server's restarts, elections and state changes are marked on each (chart-markers.ts).
 *
 * Each time chart's <svg> says its axis as data attributes (`data-start`, `data-end`,
 * `data-step`, epoch ms) and each tick its time (`data-time`), so a test reads what was drawn.
 */
import { escapeTerminal } from '../render/escape-terminal.js';
import { chartFold, foldBuckets } from './activity-fold.js';
import { COLLSCAN_COLOR, ERROR_COLOR, MARKER_COLORS, WARNING_COLOR, typeColor } from './chart-colors.js';
import { MARKER_KINDS, MARKER_LETTERS, chartMarkers, markerKindWords, type ChartMarker } from './chart-markers.js';
import type { Summary } from './summary.js';
import { countTicks, timeTickLabel, timeTicks, type TimeTicks } from './time-ticks.js';
import { selectTypeMarks, type DrawnTypeMark } from './type-marks.js';

/**
 * Text for the page, in an element or an attribute: its controls shown as the text output shows
 * them (escape-terminal.ts: C0 but tab, DEL, C1 and the bidirectional controls as `\x07`,
 * `\u{202e}`; an `app\u202Eevil` appName would otherwise display reversed, and a raw control is
 * no character a page should hold), then HTML's five specials as entities.
 */
export const escapeHtml = (text: string): string =>
  escapeTerminal(text).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const number = (n: number): string => n.toLocaleString('en-US');

/** The plot's box in the SVG's units: the margins hold the axes' ticks and titles, the markers' letters on top. */
export const PLOT = { width: 960, height: 280, left: 76, right: 16, top: 28, bottom: 44 };
/** Tick text's size in the SVG's units, and the width of one of its characters at most (digits, `:`, `-`). */
const TICK_FONT = 11;
const TICK_CHAR_WIDTH = 7;
/** Marker letters closer than this to the last one drawn are left out (its line stays). */
const MARKER_LETTER_GAP = 12;

export interface TimeAxis {
  /** Epoch ms: the left and right edges of every chart's plot. */
  readonly start: number;
  readonly end: number;
  readonly ticks: TimeTicks;
  readonly markers: readonly ChartMarker[];
  /** The other logs' notable events drawn (type-marks.ts), how many more there were, and each type's shape. */
  readonly typeMarks: readonly DrawnTypeMark[];
  readonly typeMarksLeft: number;
  readonly typeShapes: ReadonlyMap<string, string>;
  /** The activity as the bar charts draw it (chartActivity): the axis runs from its first bucket's start to its last one's end. */
  readonly bars: Summary['activity'];
}

/** Other logs' marks drawn on a chart at the most (the rest are said as "N more"). */
export const MAX_DRAWN_TYPE_MARKS = 40;
/** Marks of a type this close on the plot (in the SVG's units) are one. */
const TYPE_MARK_CLOSE = 6;
/** Rows of marks along the top of a plot, one per type. */
const TYPE_MARK_ROWS = 4;

/** Each type's shape for its marks (a path around 0,0, about 10 units across), in the order the types are listed. */
const TYPE_MARK_SHAPES = ['M0 -5L5 4H-5Z', 'M-4 -4H4V4H-4Z', 'M0 5L5 -4H-5Z', 'M-1.5 -5H1.5V-1.5H5V1.5H1.5V5H-1.5V1.5H-5V-1.5H-1.5Z', 'M-2.5 -4.5H2.5L5 0L2.5 4.5H-2.5L-5 0Z'];
const TYPE_MARK_STROKES: Readonly<Record<DrawnTypeMark['kind'], string>> = { error: ERROR_COLOR, warning: WARNING_COLOR, failure: '#212121' };

type Bucket = Summary['activity']['buckets'][number];

/**
 * The one time axis of a page: from the first bar's bucket's start to the last one's end
 * (chartActivity: the activity's buckets, or the round buckets they are folded into),
 * widened to take in every slow point and marked event (they are lines the buckets counted,
 * so it seldom is); undefined when no line had a time.
 */
export function timeAxisOf(summary: Summary): TimeAxis | undefined {
  const bars = chartActivity(summary.activity);
  const { start, bucketMinutes, buckets } = bars;
  if (start === null || buckets.length === 0) return undefined;
  const markers = chartMarkers(summary.server);
  let min = Date.parse(start);
  let max = min + buckets.length * bucketMinutes * 60_000;
  for (const p of summary.server?.slowPoints ?? []) {
    const t = Date.parse(p.time);
    if (t < min) min = t;
    if (t > max) max = t;
  }
  for (const m of markers) {
    if (m.time < min) min = m.time;
    if (m.time > max) max = m.time;
  }
  const closeMs = ((max - min) * TYPE_MARK_CLOSE) / (PLOT.width - PLOT.left - PLOT.right);
  const { drawn, left } = selectTypeMarks(summary.marks ?? [], closeMs, MAX_DRAWN_TYPE_MARKS);
  const typeShapes = new Map<string, string>();
  for (const type of summary.types) if (drawn.some((m) => m.logType === type.logType)) typeShapes.set(type.logType, TYPE_MARK_SHAPES[typeShapes.size % TYPE_MARK_SHAPES.length]!);
  for (const m of drawn) if (!typeShapes.has(m.logType)) typeShapes.set(m.logType, TYPE_MARK_SHAPES[typeShapes.size % TYPE_MARK_SHAPES.length]!);
  return { start: min, end: max, ticks: timeTicks(min, max), markers, typeMarks: drawn, typeMarksLeft: left + (summary.marksNotKept ?? 0), typeShapes, bars };
}

/**
 * The other logs' marks along the top of the plot, a row for each type (the first
 * TYPE_MARK_ROWS; more share the last): the type's shape in its colour, its edge red for an
 * error, orange for a warning.
 */
function typeMarksMarkup(axis: TimeAxis): string {
  const x = xOf(axis);
  const rows = new Map([...axis.typeShapes.keys()].map((logType, i) => [logType, Math.min(i, TYPE_MARK_ROWS - 1)]));
  return axis.typeMarks
    .map((m) => {
      const y = PLOT.top + 8 + rows.get(m.logType)! * 12;
      const title = `${new Date(m.time).toISOString()} ${m.logType} ${m.kind}: ${m.label}${m.count > 1 ? ` (and ${m.count - 1} more close after it)` : ''}`;
      return `<g class="type-mark type-mark-${m.kind}" data-key="${escapeHtml(m.logType)}" data-time="${m.time}" data-count="${m.count}"><title>${escapeHtml(title)}</title><path transform="translate(${x(m.time).toFixed(1)} ${y})" d="${axis.typeShapes.get(m.logType)!}" fill="${typeColor(m.logType)}" stroke="${TYPE_MARK_STROKES[m.kind]}" stroke-width="1.5"/></g>`;
    })
    .join('');
}

/** What the logs' marks mean: each type's shape in its colour, and how many were not drawn. */
function typeMarksLegend(axis: TimeAxis): string {
  if (axis.typeMarks.length === 0) return '';
  const kinds = (['error', 'warning', 'failure'] as const).filter((kind) => axis.typeMarks.some((m) => m.kind === kind));
  const shapes = [...axis.typeShapes]
    .map(([logType, shape]) => `<svg class="mark-key" width="12" height="12" viewBox="-6 -6 12 12" aria-hidden="true"><path d="${shape}" fill="${typeColor(logType)}"/></svg>${escapeHtml(logType)}`)
    .join(' ');
  return `<span class="marker-key">events of the logs: ${shapes} (edge: ${kinds.map((kind) => `<b style="color:${TYPE_MARK_STROKES[kind]}">${kind}</b>`).join(', ')})${axis.typeMarksLeft > 0 ? `, ${number(axis.typeMarksLeft)} more not drawn` : ''}</span>`;
}

export const xOf =
  (axis: TimeAxis) =>
  (t: number): number =>
    PLOT.left + ((t - axis.start) / (axis.end - axis.start)) * (PLOT.width - PLOT.left - PLOT.right);

/** A label centred on `x`, moved in where centred it would cross the SVG's edge. */
function tickText(x: number, y: number, label: string, attributes = ''): string {
  const half = (label.length * TICK_CHAR_WIDTH) / 2;
  const [anchor, at]: [string, number] = x + half > PLOT.width ? ['end', PLOT.width - 1] : x - half < 0 ? ['start', 1] : ['middle', x];
  return `<text class="tick"${attributes} x="${at.toFixed(1)}" y="${y}" text-anchor="${anchor}">${escapeHtml(label)}</text>`;
}

/** The time axis: a grid line and a label at each round tick, and the axis' title. */
function timeAxisMarkup(axis: TimeAxis, height = PLOT.height): string {
  const x = xOf(axis);
  const { bottom, top } = PLOT;
  let out = '';
  for (const t of axis.ticks.times) {
    const at = x(t).toFixed(1);
    out += `<line class="grid" x1="${at}" x2="${at}" y1="${top}" y2="${height - bottom}"/>`;
    out += tickText(x(t), height - bottom + 16, timeTickLabel(t, axis.ticks.stepMs, axis.end - axis.start), ` data-time="${t}"`);
  }
  out += `<text class="axis-title" x="${PLOT.width - PLOT.right}" y="${height - 4}" text-anchor="end">${escapeHtml(timeAxisTitle(axis.start, axis.end))}</text>`;
  return out;
}

/**
 * The time axis' title: its zone, and the days it covers, with their year: the ticks say the
 * time of day, or the month and day, and a tick's day alone (23:57, then 00:00) or a day
 * without its year (01-01 … 01-05) does not say which.
 */
export function timeAxisTitle(start: number, end: number): string {
  const first = new Date(start).toISOString().slice(0, 10);
  const last = new Date(end).toISOString().slice(0, 10);
  return `time (UTC), ${first}${last === first ? '' : ` to ${last}`}`;
}

/**
 * Each marked event: a dashed line across the plot with its letter above, what it was in its
 * title. Events closer than a letter's room share one place above the plot, where each kind
 * among them has its letter (a shutdown a second after a step-down reads "ED", not "E"), in
 * its colour; every line is drawn.
 */
function markersMarkup(axis: TimeAxis, height = PLOT.height): string {
  const x = xOf(axis);
  const { bottom, top } = PLOT;
  const groups: { at: number; kinds: ChartMarker['kind'][] }[] = [];
  const lines = axis.markers.map((m) => {
    const at = x(m.time);
    const group = groups.at(-1);
    if (group && at - group.at < MARKER_LETTER_GAP) {
      if (!group.kinds.includes(m.kind)) group.kinds.push(m.kind);
    } else groups.push({ at, kinds: [m.kind] });
    const title = `<title>${escapeHtml(`${new Date(m.time).toISOString()} ${m.label}`)}</title>`;
    return `<g class="marker marker-${m.kind}" data-time="${m.time}">${title}<line x1="${at.toFixed(1)}" x2="${at.toFixed(1)}" y1="${top}" y2="${height - bottom}" stroke="${MARKER_COLORS[m.kind]}"/></g>`;
  });
  const letters = groups.map(
    ({ at, kinds }) =>
      `<text class="marker-letters" x="${at.toFixed(1)}" y="${top - 6}" text-anchor="${kinds.length > 1 ? 'start' : 'middle'}">${kinds.map((kind) => `<tspan fill="${MARKER_COLORS[kind]}">${MARKER_LETTERS[kind]}</tspan>`).join('')}</text>`,
  );
  return lines.join('') + letters.join('');
}

/** The y axis' title, turned along it: what is counted and its unit. */
const yTitle = (title: string): string =>
  `<text class="axis-title" transform="translate(14 ${(PLOT.top + PLOT.height - PLOT.bottom) / 2}) rotate(-90)" text-anchor="middle">${escapeHtml(title)}</text>`;

/**
 * A time chart: its plot `height` high (the lanes' grows with their number), the axis, the
 * body, the markers over them, the other logs' marks along the top (`typeMarks`), and `overlay` over all.
 */
export function frame(title: string, id: string, axis: TimeAxis, body: string, legend: string, height = PLOT.height, overlay = '', typeMarks = true): string {
  const { width, left, top, bottom, right } = PLOT;
  const markerLegend =
    axis.markers.length === 0
      ? ''
      : `<span class="marker-key">marked: ${MARKER_KINDS
          .filter((kind) => axis.markers.some((m) => m.kind === kind))
          .map((kind) => `<b style="color:${MARKER_COLORS[kind]}">${MARKER_LETTERS[kind]}</b> ${markerKindWords(kind, axis.markers.filter((m) => m.kind === kind).map((m) => m.label))}`)
          .join(', ')} (a line's title says what)</span>`;
  const marksLegend = typeMarks ? typeMarksLegend(axis) : '';
  return `<figure class="chart"><figcaption>${escapeHtml(title)}</figcaption><p class="legend">${legend}${markerLegend}${marksLegend}</p><svg id="${id}" class="plot time-chart" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" aria-label="${escapeHtml(title)}" data-start="${axis.start}" data-end="${axis.end}" data-step="${axis.ticks.stepMs}">
<rect class="area" x="${left}" y="${top}" width="${width - left - right}" height="${height - top - bottom}"/>${timeAxisMarkup(axis, height)}${body}${markersMarkup(axis, height)}${typeMarks ? typeMarksMarkup(axis) : ''}${overlay}</svg></figure>`;
}

export interface BarSeries {
  readonly key: string;
  readonly color: string;
  readonly value: (bucket: Bucket) => number;
}

/** A bar's least width in the SVG's units: 2 px or more at the plot's least width (svg.plot's min-width, 800 px). */
const MIN_BAR_WIDTH = 2.5;

/**
 * The activity as the bar charts draw it: folded into buckets of a round number of minutes
 * (activity-fold.ts) when a bucket's bar would be narrower than MIN_BAR_WIDTH, as it is
 * when the lines span days; as it is, bucket for bucket, otherwise. Each bar is then the sum
 * over its bucket, and the charts' titles say the bucket (bucketWords).
 */
function chartActivity(activity: Summary['activity']): Summary['activity'] {
  const { minutes, origin } = chartFold(activity, Math.floor((PLOT.width - PLOT.left - PLOT.right) / MIN_BAR_WIDTH));
  return foldBuckets(activity, minutes, origin);
}

/** Stacked bars per bucket of the axis' activity (TimeAxis.bars), one series per key; the y axis in round counts. */
export function stackedBars(axis: TimeAxis, id: string, title: string, unit: string, series: readonly BarSeries[]): string {
  const { buckets, start, bucketMinutes } = axis.bars;
  const { width, height, left, right, top, bottom } = PLOT;
  const startMs = Date.parse(start!);
  const stepMs = bucketMinutes * 60_000;
  const x = xOf(axis);
  const totals = buckets.map((b) => series.reduce((sum, s) => sum + s.value(b), 0));
  const y = countTicks(Math.max(0, ...totals));
  const scale = (height - top - bottom) / y.top;
  const barWidth = Math.max(0.5, x(startMs + stepMs) - x(startMs) - (buckets.length < 200 ? 1 : 0));
  let body = '';
  for (const v of y.ticks) {
    const at = (height - bottom - v * scale).toFixed(1);
    body += `<line class="grid" x1="${left}" x2="${width - right}" y1="${at}" y2="${at}"/><text class="tick" x="${left - 6}" y="${(Number(at) + 4).toFixed(1)}" text-anchor="end">${number(v)}</text>`;
  }
  body += yTitle(unit);
  buckets.forEach((bucket, i) => {
    let base = height - bottom;
    for (const s of series) {
      const value = s.value(bucket);
      if (value === 0) continue;
      const h = value * scale;
      base -= h;
      body += `<rect class="bar" data-key="${escapeHtml(s.key)}" x="${x(startMs + i * stepMs).toFixed(1)}" y="${base.toFixed(1)}" width="${barWidth.toFixed(2)}" height="${h.toFixed(1)}" fill="${s.color}"><title>${escapeHtml(`${new Date(startMs + i * stepMs).toISOString()} ${s.key}: ${value}`)}</title></rect>`;
    }
  });
  const legend = series.map((s) => `<span class="swatch" data-key="${escapeHtml(s.key)}" style="background:${s.color}"></span>${escapeHtml(s.key)}`).join(' ');
  return frame(title, id, axis, body, legend);
}

/**
 * What the slow plot draws, counted from its points: every operation, or the slowest always,
 * every COLLSCAN or a uniform sample of them, and a uniform sample of the others, said so.
 */
export function slowPointsDrawn(server: Pick<NonNullable<Summary['server']>, 'slowPoints' | 'slowPointsSeen' | 'collscansSeen'>): string {
  const points = server.slowPoints;
  const seen = server.slowPointsSeen;
  const collscansSeen = server.collscansSeen;
  const allCollscans = collscansSeen === 1 ? 'the 1 COLLSCAN' : `all ${number(collscansSeen)} COLLSCANs`;
  if (points.length >= seen) return collscansSeen > 0 ? `all ${number(points.length)}, ${allCollscans} among them` : `all ${number(points.length)}`;
  // Each point counted once, in the first of its parts (a slowest COLLSCAN among the slowest), so the parts add up to the points drawn.
  let slowest = 0;
  let slowestCollscans = 0;
  let collscans = 0;
  for (const p of points) {
    if (p.outlier === 'slowest') {
      slowest++;
      if (p.collscan) slowestCollscans++;
    } else if (p.collscan) collscans++;
  }
  const parts = [`the ${number(slowest)} slowest always`];
  if (collscansSeen > 0) {
    const every = collscans + slowestCollscans >= collscansSeen;
    if (every) parts.push(slowestCollscans > 0 ? `the other ${number(collscans)} COLLSCANs, every one of the ${number(collscansSeen)} drawn` : allCollscans);
    else parts.push(`${number(collscans)} of the ${number(collscansSeen - slowestCollscans)} other COLLSCANs, a uniform sample`);
  }
  const others = seen - collscansSeen - (slowest - slowestCollscans);
  if (others > 0) parts.push(`${number(points.length - slowest - collscans)} of the ${number(others)} other operations, a uniform sample`);
  return `${number(points.length)} of ${number(seen)}: ${parts.join('; ')}`;
}

/**
 * Slow operations: time across, duration up on a log scale; a point in the server's type
 * colour, a COLLSCAN a dark diamond (red is for errors).
 */
export function slowPlot(summary: Summary, axis: TimeAxis | undefined): string {
  const points = summary.server?.slowPoints ?? [];
  if (points.length === 0 || !axis) return '<p class="none">No slow operations.</p>';
  const times = points.map((p) => Date.parse(p.time));
  const durations = points.map((p) => Math.max(1, p.durationMillis));
  const low = Math.floor(Math.log10(Math.min(...durations)));
  const high = Math.max(low + 1, Math.ceil(Math.log10(Math.max(...durations))));
  const { width, height, left, right, top, bottom } = PLOT;
  const x = xOf(axis);
  const y = (ms: number): number => height - bottom - ((Math.log10(Math.max(1, ms)) - low) / (high - low)) * (height - top - bottom);
  let body = '';
  for (let decade = low; decade <= high; decade++) {
    const ms = 10 ** decade;
    body += `<line class="grid" x1="${left}" x2="${width - right}" y1="${y(ms).toFixed(1)}" y2="${y(ms).toFixed(1)}"/><text class="tick" x="${left - 6}" y="${(y(ms) + 4).toFixed(1)}" text-anchor="end">${ms >= 1000 ? `${number(ms / 1000)} s` : `${ms} ms`}</text>`;
  }
  body += yTitle('duration (log scale)');
  const server = summary.server!;
  const pointColor = typeColor('mongodb');
  // The sample first, the outliers (the slowest, the COLLSCANs) over it, never hidden by it.
  const order = points.map((_, i) => i).sort((a, b) => Number(points[a]!.outlier !== null) - Number(points[b]!.outlier !== null));
  for (const i of order) {
    const p = points[i]!;
    const cx = x(times[i]!).toFixed(1);
    const cy = y(p.durationMillis).toFixed(1);
    const title = `<title>${escapeHtml(`${p.time} ${p.durationMillis} ms ${p.ns}${p.collscan ? ' COLLSCAN' : ''}`)}</title>`;
    const classes = `slow-point${p.collscan ? ' collscan' : ''}${p.outlier ? ' outlier' : ''}`;
    if (p.collscan) {
      const r = 5;
      // See-through with its edge: thousands of them (a log of COLLSCANs) leave the points under them seen.
      body += `<path class="${classes}" d="M${cx} ${(Number(cy) - r).toFixed(1)}l${r} ${r}l${-r} ${r}l${-r} ${-r}z" fill="${COLLSCAN_COLOR}" fill-opacity="0.35" stroke="${COLLSCAN_COLOR}" stroke-width="0.8">${title}</path>`;
    } else body += `<circle class="${classes}" cx="${cx}" cy="${cy}" r="${p.outlier ? 4 : 3}" fill="${pointColor}">${title}</circle>`;
  }
  const legend = `<span class="swatch" style="background:${pointColor};border-radius:50%"></span>indexed or other plan <span class="swatch diamond" style="background:${COLLSCAN_COLOR}"></span>COLLSCAN`;
  return frame(`Slow operations over time, by duration (${slowPointsDrawn(server)})${appliedAmong(server)}`, 'plot-slow', axis, body, legend);
}

/**
 * The plot draws the oplog entries secondaries applied slowly beside the slow queries and
 * transactions, where the tables count them apart: its title says how many of its operations they are.
 */
export function appliedAmong(server: Pick<NonNullable<Summary['server']>, 'appliedOperations' | 'slowPointsSeen'>): string {
  const applied = appliedEntries(server);
  if (applied === 0) return '';
  return applied >= server.slowPointsSeen ? ': all oplog entries applied slowly' : `: ${number(applied)} of the ${number(server.slowPointsSeen)} are oplog entries applied slowly, counted apart in their own table`;
}

/** The oplog entries applied slowly, over all their groups (the one beyond the bound too). */
export function appliedEntries(server: Pick<NonNullable<Summary['server']>, 'appliedOperations'>): number {
  return server.appliedOperations.reduce((sum, group) => sum + group.count, 0);
}
