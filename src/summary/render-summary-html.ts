/**
 * The summary as one self-contained page: inline CSS and SVG, nothing fetched, so it opens
 * anywhere (a laptop at 3 a.m., an attachment to a ticket). Its one inline script sorts a
 * table by a click on a column header (table-sorter.ts); with scripts off, the page reads the
 * same, its tables in their written order. Every string from a log is HTML-escaped.
 */
import { counted } from '../render/counted.js';
import { TABLE_SORTER } from './table-sorter.js';
import { typeLabel } from './type-label.js';
import type { Summary } from './summary.js';

const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const number = (n: number): string => n.toLocaleString('en-US');
const when = (iso: string | null | undefined): string => (iso ? iso.replace('T', ' ').replace(/\.\d+Z$/, 'Z') : '-');

const NUMERIC = /^-?[\d,.]+$/;

/** A cell written as it is: markup made here, every string from a log in it already escaped. */
interface Markup {
  readonly html: string;
}

function table(header: readonly string[], rows: readonly (readonly (string | Markup)[])[], className = ''): string {
  if (rows.length === 0) return '<p class="none">none</p>';
  const cell = (c: string | Markup): string => (typeof c === 'string' ? `<td${NUMERIC.test(c) ? ' class="n"' : ''}>${escapeHtml(c)}</td>` : `<td>${c.html}</td>`);
  return `<table class="${className}"><thead><tr>${header.map((h) => `<th>${escapeHtml(h)}</th>`).join('')}</tr></thead><tbody>${rows
    .map((row) => `<tr>${row.map(cell).join('')}</tr>`)
    .join('')}</tbody></table>`;
}

/** The slowest operations, each line folded away under its row (a server line can be kilobytes). */
function slowestTable(server: NonNullable<Summary['server']>): string {
  const cell = (value: number | null): string => (value === null ? '-' : number(value));
  return table(
    ['duration ms', 'time', 'connection', 'appName', 'namespace', 'operation', 'plan', 'keys examined', 'docs examined', 'line'],
    server.slowest.map((op) => [
      number(op.durationMillis),
      when(op.time),
      op.connection ?? '-',
      op.appName ?? '-',
      op.ns,
      op.operation,
      `${op.plan ?? '-'}${op.plan?.startsWith('COLLSCAN') ? ' ◀' : ''}`,
      cell(op.keysExamined),
      cell(op.docsExamined),
      op.line === null ? '-' : { html: `<details><summary>line</summary><pre class="line">${escapeHtml(op.line)}</pre></details>` },
    ]),
    'slowest',
  );
}

const PLOT = { width: 960, height: 260, left: 64, right: 16, top: 16, bottom: 36 };
const TYPE_COLORS = ['#2e7d32', '#7b1fa2', '#00838f', '#1565c0', '#c62828', '#ef6c00', '#6d4c41', '#546e7a', '#ad1457', '#9e9d24'];

interface Axis {
  readonly min: number;
  readonly max: number;
}

function timeTicks(axis: Axis, x: (t: number) => number): string {
  const ticks = 6;
  // Within an hour the seconds tell the ticks apart; over days, the date does.
  const [from, to] = axis.max - axis.min < 3_600_000 ? [11, 19] : [5, 16];
  let out = '';
  for (let i = 0; i <= ticks; i++) {
    const t = axis.min + ((axis.max - axis.min) * i) / ticks;
    const label = new Date(t).toISOString().slice(from, to).replace('T', ' ');
    out += `<text class="tick" x="${x(t).toFixed(1)}" y="${PLOT.height - 12}" text-anchor="middle">${label}</text>`;
  }
  return out;
}

function frame(title: string, id: string, body: string, legend = ''): string {
  const { width, height, left, top, bottom, right } = PLOT;
  return `<figure><figcaption>${escapeHtml(title)}</figcaption>${legend}<svg id="${id}" class="plot" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" aria-label="${escapeHtml(title)}">
<rect class="area" x="${left}" y="${top}" width="${width - left - right}" height="${height - top - bottom}"/>${body}</svg></figure>`;
}

/** What the slow plot draws: every point, or its outliers and a sample of the rest, said so. */
function slowPointsDrawn(server: NonNullable<Summary['server']>): string {
  const points = server.slowPoints;
  const outliers = points.filter((p) => p.outlier !== null).length;
  if (points.length >= server.slowPointsSeen) return `all ${number(points.length)}`;
  const collscans = server.collscansSampled > 0 ? `the first ${number(points.filter((p) => p.outlier === 'collscan').length)} COLLSCANs` : 'every COLLSCAN';
  return `${number(points.length)} of ${number(server.slowPointsSeen)}: the ${number(points.filter((p) => p.outlier === 'slowest').length)} slowest and ${collscans} (${number(outliers)} in all), and ${number(points.length - outliers)} sampled of the rest`;
}

/** Slow operations: time across, duration up on a log scale, COLLSCAN in red. */
function slowPlot(summary: Summary): string {
  const points = summary.server?.slowPoints ?? [];
  if (points.length === 0) return '<p class="none">No slow operations.</p>';
  const times = points.map((p) => Date.parse(p.time));
  const axis = { min: Math.min(...times), max: Math.max(...times, Math.min(...times) + 60_000) };
  const durations = points.map((p) => Math.max(1, p.durationMillis));
  const low = Math.floor(Math.log10(Math.min(...durations)));
  const high = Math.max(low + 1, Math.ceil(Math.log10(Math.max(...durations))));
  const { width, height, left, right, top, bottom } = PLOT;
  const x = (t: number): number => left + ((t - axis.min) / (axis.max - axis.min)) * (width - left - right);
  const y = (ms: number): number => height - bottom - ((Math.log10(Math.max(1, ms)) - low) / (high - low)) * (height - top - bottom);
  let body = '';
  for (let decade = low; decade <= high; decade++) {
    const ms = 10 ** decade;
    body += `<line class="grid" x1="${left}" x2="${width - right}" y1="${y(ms).toFixed(1)}" y2="${y(ms).toFixed(1)}"/><text class="tick" x="${left - 6}" y="${(y(ms) + 4).toFixed(1)}" text-anchor="end">${ms >= 1000 ? `${ms / 1000}s` : `${ms}ms`}</text>`;
  }
  body += timeTicks(axis, x);
  // The sample first, the outliers (the slowest, every COLLSCAN) over it, never hidden by it.
  const order = points.map((_, i) => i).sort((a, b) => Number(points[a]!.outlier !== null) - Number(points[b]!.outlier !== null));
  for (const i of order) {
    const p = points[i]!;
    body += `<circle class="slow-point${p.collscan ? ' collscan' : ''}${p.outlier ? ' outlier' : ''}" cx="${x(times[i]!).toFixed(1)}" cy="${y(p.durationMillis).toFixed(1)}" r="${p.outlier ? 4 : 3}"><title>${escapeHtml(`${p.time} ${p.durationMillis} ms ${p.ns}${p.collscan ? ' COLLSCAN' : ''}`)}</title></circle>`;
  }
  const legend = '<p class="legend"><span class="swatch ok"></span>indexed or other plan <span class="swatch collscan"></span>COLLSCAN</p>';
  return frame(`Slow operations over time, by duration (${slowPointsDrawn(summary.server!)})`, 'plot-slow', body, legend);
}

/** Stacked bars per activity bucket: one series per key. */
function stackedBars(summary: Summary, id: string, title: string, series: readonly { key: string; color: string; value: (b: Summary['activity']['buckets'][number]) => number }[]): string {
  const { buckets, start, bucketMinutes } = summary.activity;
  if (buckets.length === 0 || start === null) return '<p class="none">No timed lines.</p>';
  const { width, height, left, right, top, bottom } = PLOT;
  const startMs = Date.parse(start);
  const stepMs = bucketMinutes * 60_000;
  const axis = { min: startMs, max: startMs + buckets.length * stepMs };
  const x = (t: number): number => left + ((t - axis.min) / (axis.max - axis.min)) * (width - left - right);
  const totals = buckets.map((b) => series.reduce((sum, s) => sum + s.value(b), 0));
  const max = Math.max(1, ...totals);
  const scale = (height - top - bottom) / max;
  const barWidth = Math.max(0.5, (width - left - right) / buckets.length - (buckets.length < 200 ? 1 : 0));
  let body = `<text class="tick" x="${left - 6}" y="${top + 4}" text-anchor="end">${number(max)}</text><text class="tick" x="${left - 6}" y="${height - bottom}" text-anchor="end">0</text>`;
  body += timeTicks(axis, x);
  buckets.forEach((bucket, i) => {
    let base = height - bottom;
    for (const s of series) {
      const value = s.value(bucket);
      if (value === 0) continue;
      const h = value * scale;
      base -= h;
      body += `<rect class="bar" x="${x(startMs + i * stepMs).toFixed(1)}" y="${base.toFixed(1)}" width="${barWidth.toFixed(2)}" height="${h.toFixed(1)}" fill="${s.color}"><title>${escapeHtml(`${new Date(startMs + i * stepMs).toISOString()} ${s.key}: ${value}`)}</title></rect>`;
    }
  });
  const legend = `<p class="legend">${series.map((s) => `<span class="swatch" style="background:${s.color}"></span>${escapeHtml(s.key)}`).join(' ')}</p>`;
  return frame(title, id, body, legend);
}

export function renderSummaryHtml(summary: Summary): string {
  const per = summary.activity.bucketMinutes === 1 ? 'minute' : `${summary.activity.bucketMinutes} minutes`;
  const typeSeries = summary.types.map((t, i) => ({ key: t.logType, color: TYPE_COLORS[i % TYPE_COLORS.length]!, value: (b: Summary['activity']['buckets'][number]) => b.byType[t.logType] ?? 0 }));
  const severitySeries = [
    { key: 'error and fatal', color: '#c62828', value: (b: Summary['activity']['buckets'][number]) => b.errors },
    { key: 'warn', color: '#ef6c00', value: (b: Summary['activity']['buckets'][number]) => b.warnings },
    { key: 'info, debug and unknown', color: '#90a4ae', value: (b: Summary['activity']['buckets'][number]) => b.lines - b.errors - b.warnings },
  ];
  const server = summary.server;
  const audit = summary.audit;
  const sections = [
    `<h1>logtype summary</h1><p>${counted(summary.lines.entries, 'entry', 'entries', number)} read, ${number(summary.lines.selected)} selected, ${counted(summary.lines.notEntries, 'line that was not an entry', 'lines that were not entries', number)}${summary.first ? `; from ${when(summary.first)} to ${when(summary.last)}` : ''}.</p>`,
    '<h2>Log types</h2>',
    table(
      ['type', 'entries', 'first', 'last', 'per min', 'errors', 'warnings', 'unparsed'],
      summary.types.map((t) => [typeLabel(t.logType, summary), number(t.entries), when(t.first), when(t.last), t.perMinute === undefined ? '-' : String(t.perMinute), number(t.errors), number(t.warnings), number(t.unparsed)]),
      'types',
    ),
    '<h2>Activity</h2>',
    ...(summary.activity.buckets.length === 0
      ? ['<p class="none">No timed lines.</p>']
      : [stackedBars(summary, 'plot-types', `Entries per ${per}, by type`, typeSeries), stackedBars(summary, 'plot-severity', `Entries per ${per}, by severity`, severitySeries)]),
  ];
  if (server) {
    sections.push(
      '<h2>Server</h2>',
      `<p>Connections: ${number(server.connections.opened)} opened, ${number(server.connections.closed)} closed, peak ${server.connections.peak === null ? 'unknown' : number(server.connections.peak)}. Restarts: ${server.restarts.length === 0 ? 'none' : escapeHtml(server.restarts.map((r) => `${when(r.time)}${r.version === null ? '' : ` (v${r.version})`}`).join(', '))}.</p>`,
      '<h3>Connections by client IP</h3>',
      table(['IP', 'opened', 'ended'], server.clients.map((c) => [c.ip, number(c.opened), number(c.ended)]), 'clients'),
      '<h3>Drivers and applications (client metadata)</h3>',
      table(['driver', 'version', 'appName', 'connections', 'from'], server.drivers.map((d) => [d.driver, d.version, d.appName, number(d.connections), `${d.ips.join(', ')}${d.moreIps ? ', …' : ''}`]), 'drivers'),
      '<h3>Slow operations</h3>',
      slowPlot(summary),
      table(
        ['total ms', 'count', 'p50 ms', 'p95 ms', 'max ms', 'examined/returned', 'namespace', 'operation', 'shape', 'plan'],
        server.slowOperations.map((g) => [number(g.totalMillis), number(g.count), `${g.exactQuantiles ? '' : '~'}${number(g.p50Millis)}`, `${g.exactQuantiles ? '' : '~'}${number(g.p95Millis)}`, number(g.maxMillis), g.examinedPerReturned === null ? '-' : number(g.examinedPerReturned), g.ns, g.operation, g.shape, `${g.plan ?? '-'}${g.collscan && !g.plan?.startsWith('COLLSCAN') ? ' (COLLSCAN)' : ''}${g.collscan ? ' ◀' : ''}`]),
        'slow',
      ),
      `<h3>Slowest operations (${number(server.slowest.length)})</h3>`,
      slowestTable(server),
      '<h3>Replica set, in time order</h3>',
      table(['time', 'event'], server.replication.map((e) => [when(e.time), e.event])),
      `<h3>Warnings and errors, every message (${number(server.problems.length)})</h3>`,
      table(['count', 'id', 'severity', 'first', 'last', 'message'], server.problems.map((p) => [number(p.count), p.id === null ? '-' : String(p.id), p.severity, when(p.first), when(p.last), p.msg]), 'problems'),
      '<h3>Most frequent messages</h3>',
      table(['count', 'id', 'severity', 'message'], server.messages.map((m) => [number(m.count), m.id === null ? '-' : String(m.id), m.severity, m.msg])),
      '<h3>Severity and components</h3>',
      table(['severity', 'count'], server.bySeverity.map((c) => [c.key, number(c.count)])),
      table(['component', 'count'], server.byComponent.map((c) => [c.key, number(c.count)])),
    );
  }
  if (audit) {
    sections.push(
      '<h2>Audit</h2>',
      table(['event type', 'count'], audit.byAtype.map((c) => [c.key, number(c.count)])),
      '<h3>Failed authentications</h3>',
      table(['user', 'from', 'count'], audit.failedAuthentications.map((f) => [f.user, f.source, number(f.count)])),
    );
  }
  for (const problems of summary.problems) {
    sections.push(`<h2>${escapeHtml(problems.logType)}: ${number(problems.errors)} errors, ${number(problems.warnings)} warnings</h2>`, table(['count', 'level', 'message'], problems.messages.map((m) => [number(m.count), m.level, m.message])));
  }
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>logtype summary</title>
<style>
body{font:14px/1.45 system-ui,sans-serif;margin:24px auto;max-width:1360px;color:#1c2833;padding:0 12px}
h1{font-size:22px}h2{font-size:18px;margin-top:28px;border-bottom:1px solid #d5dbdb}h3{font-size:15px}
table{border-collapse:collapse;margin:8px 0;font-size:13px;display:block;max-width:100%;overflow-x:auto}td{overflow-wrap:anywhere}th,td{padding:3px 8px;text-align:left;border-bottom:1px solid #eaeded;vertical-align:top}
td.n{text-align:right;font-variant-numeric:tabular-nums}
figure{margin:12px 0;overflow-x:auto}figcaption{font-weight:600}svg.plot{width:100%;min-width:800px;height:auto}
.area{fill:#fbfcfc;stroke:#d5dbdb}.grid{stroke:#eaeded}.tick{font-size:11px;fill:#566573}
.slow-point{fill:#1565c0;fill-opacity:.6}.slow-point.collscan{fill:#c62828}
.legend{font-size:12px;color:#566573}.swatch{display:inline-block;width:10px;height:10px;margin:0 4px 0 10px;vertical-align:middle}
pre.line{white-space:pre-wrap;overflow-wrap:anywhere;font-size:12px;margin:4px 0;max-width:60em}
.swatch.ok{background:#1565c0}.swatch.collscan{background:#c62828}.none{color:#808b96}
html.sortable th{cursor:pointer;user-select:none}html.sortable th:hover{text-decoration:underline}
th[aria-sort=ascending]::after{content:" ▲"}th[aria-sort=descending]::after{content:" ▼"}
</style></head><body>
${sections.join('\n')}
<script>${TABLE_SORTER}</script>
</body></html>
`;
}
