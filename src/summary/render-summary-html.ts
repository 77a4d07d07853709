/**
 * The summary as one self-contained page: inline CSS and SVG, nothing fetched, so it opens
 * anywhere (a laptop at 3 a.m., an attachment to a ticket). Its one inline script sorts a
 * table by a click on a column header (table-sorter.ts); with scripts off, the page reads the
 * same, its tables in their written order. Every string from a log goes through escapeHtml
 * (time-charts.ts): its controls shown escaped as the text shows them, then HTML-escaped.
 */
import { newestFirstWords } from './time-order.js';
import { counted } from '../render/counted.js';
import { ERROR_COLOR, INFO_COLOR, WARNING_COLOR, typeColor } from './chart-colors.js';
import { laneChart } from './lane-chart.js';
import { allSelected, clockStepWords, sameServerWords, focusLine, incompleteLines, joinedWords, repeatedLinesWords, lifetime, memberCountWords, notListedWords, SLOW_OPS_COLUMN, peakWords, perMinuteNote, primaryWords, problemExample, problemWords, startLines } from './render-summary-text.js';
import { TABLE_SORTER } from './table-sorter.js';
import { bucketWords } from './activity-fold.js';
import { countCell, foldedWords, rowsWords } from './folded-rows.js';
import { MAX_CLIENT_DRIVERS, MAX_CLIENT_IPS, MAX_RESPONSE_SIZE_KEYS, MAX_SERVER_PROBLEMS } from './summary-limits.js';
import { appliedEntries, escapeHtml, slowPlot, stackedBars, timeAxisOf, type BarSeries } from './time-charts.js';
import { typeLabel } from './type-label.js';
import { durationCells, sketchNote } from './duration-cells.js';
import type { ServerSummary, Summary, TypeProblems } from './summary.js';

const number = (n: number): string => n.toLocaleString('en-US');

const when = (iso: string | null | undefined): string => (iso ? iso.replace('T', ' ').replace(/\.\d+Z$/, 'Z') : '-');

/** A number as the page writes it (`1,234`, `0.5`); not an address (`10.0.0.1`) nor a version (`4.3.3`). */
const NUMERIC = /^-?\d[\d,]*(?:\.\d+)?\+?$/;
/**
 * Short cells of a fixed format, kept on one line (a cell else breaks anywhere, for the long
 * words of free text): a time as `when` writes it (with a few words after it in brackets, as
 * "(restart)"), a lifetime as `lifetime` writes it, a quantile said approximate (`~1,234`).
 */
const ONE_LINE = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\dZ(?: \([a-z ]{1,20}\))?$|^\d+(?:\.\d)?(?:ms|s)$|^\d+[mhd] \d\d[smh]$|^~[\d,.]+$/;

/** A cell written as it is: markup made here, every string from a log in it already escaped; its class, if any. */
interface Markup {
  readonly html: string;
  readonly className?: string;
}

/**
 * A cell of words (a driver's name, an appName, a server's message): broken only between its words,
 * at a space or after a hyphen or `|` (`NetworkInterfaceTL-` / `ReplNetwork`), never inside one
 * as free text is (`Netwo` / `rkInter`); the table scrolls sideways when a word is wider.
 */
const words = (text: string): Markup => ({ html: escapeHtml(text), className: 'words' });
/**
 * A namespace (`db.collection.more`): broken after a dot where the column is narrow, and inside
 * a part only where that part alone is wider than the column (a cell that may break anywhere
 * lets the table squeeze its column to a letter).
 */
const namespace = (ns: string): Markup => ({ html: escapeHtml(ns).replaceAll('.', '.<wbr>'), className: 'ns' });
/**
 * A server's message: words, in a column kept wide enough for a few of them a line (at 390 px
 * the times and counts before it left it one word wide, a row a dozen lines tall); the table
 * scrolls sideways instead.
 */
const message = (text: string): Markup => ({ html: escapeHtml(text), className: 'words message' });

/** A group's message, and under it what its first line said (`first: …`), where there is more to say. */
const messageWithFirst = (text: string, first: string | undefined): Markup => ({
  html: `${escapeHtml(text)}${first === undefined ? '' : `<br><span class="example">first: ${escapeHtml(first)}</span>`}`,
  className: 'words message',
});

/** A server warning's or error's message, and what its first line said beyond it. */
const serverProblemMessage = (p: ServerSummary['problems'][number]): Markup => messageWithFirst(p.msg, p.example);

/** An agent's or the operator's group of messages: its words, and under a shape its first message as written (problemExample). */
const problemMessage = (m: TypeProblems['messages'][number]): Markup => messageWithFirst(problemWords(m), problemExample(m));
/** A version is no number (`4.3.3` beside `v1.12.1`): text, on one line. */
const version = (text: string): Markup => ({ html: escapeHtml(text), className: 'one-line' });

/**
 * Whose lines a row's are (memberCountWords), each member's name and count kept together: the
 * cell breaks only after a count's comma, where `my-db-0 10, my-db-1` / `10` read as a member
 * without a count and a count without a member.
 */
function memberCounts(members: Parameters<typeof memberCountWords>[0]): Markup {
  if (members === undefined || members.length < 2) return { html: escapeHtml(memberCountWords(members)), className: 'members' };
  return { html: members.map((m) => `<span class="pair">${escapeHtml(m.name)} ${number(m.count)}</span>`).join(', '), className: 'members' };
}

/** A query's shape (its hash, or a plan's word): text, even a hash of digits alone (`17830885` beside `740C02B0`). */
const shape = (text: string): Markup => ({ html: escapeHtml(text), className: TOKEN.test(text) ? 'token' : '' });

/** A string cell's class: a number's (right-aligned, one line), another short fixed format's (one line), or none. */
const cellClass = (text: string): string => (NUMERIC.test(text) ? ' class="n"' : ONE_LINE.test(text) ? ' class="one-line"' : TOKEN.test(text) ? ' class="token"' : '');

/**
 * One short word (an operation, a plan's stage, an address with its port: `createIndexes`,
 * `CLUSTERED_IXSCAN`, `192.168.254.144:3904`): never cut inside, where a cell may otherwise
 * break anywhere (a cut `…:390|4` reads as another port).
 */
const TOKEN = /^\S{1,32}$/;

/**
 * Tables whose words sit in their last columns (namespace, operation, plan), past the numbers:
 * on a phone's width those are scrolled out of sight, which a line above them says.
 */
const WIDE_TABLES = new Set(['slow', 'slowest', 'transactions']);

function table(header: readonly string[], rows: readonly (readonly (string | Markup)[])[], className = ''): string {
  if (rows.length === 0) return '<p class="none">none</p>';
  const hint = WIDE_TABLES.has(className) ? '<p class="wide-hint">The table is wider than the screen: scroll it sideways for the namespace, the operation and the plan.</p>' : '';
  const cell = (c: string | Markup): string => (typeof c === 'string' ? `<td${cellClass(c)}>${escapeHtml(c)}</td>` : `<td${c.className ? ` class="${c.className}"` : ''}>${c.html}</td>`);
  return `${hint}<table class="${className}"><thead><tr>${header.map((h) => `<th>${escapeHtml(h)}</th>`).join('')}</tr></thead><tbody>${rows
    .map((row) => `<tr>${row.map(cell).join('')}</tr>`)
    .join('')}</tbody></table>`;
}

/** The slowest operations, each line folded away under its row (a server line can be kilobytes). */
function slowestTable(server: NonNullable<Summary['server']>): string {
  const cell = (value: number | null): string => (value === null ? '-' : number(value));
  const several = server.members !== undefined;
  return table(
    ['duration ms', 'time', ...(several ? ['member'] : []), 'connection', 'appName', 'namespace', 'operation', 'plan', 'keys examined', 'docs examined', 'line'],
    server.slowest.map((op) => [
      number(op.durationMillis),
      when(op.time),
      ...(several ? [op.member ?? '-'] : []),
      op.connection ?? '-',
      op.appName ?? '-',
      namespace(op.ns),
      op.operation,
      `${op.plan ?? '-'}${op.plan?.startsWith('COLLSCAN') ? ' ◀' : ''}`,
      cell(op.keysExamined),
      cell(op.docsExamined),
      op.line === null ? '-' : { html: `<details><summary>line</summary><pre class="line">${escapeHtml(op.line)}</pre></details>` },
    ]),
    'slowest',
  );
}

export function renderSummaryHtml(summary: Summary): string {
  const axis = timeAxisOf(summary);
  // The bars' buckets are as wide as they must be to be seen (time-charts.ts): the titles say how wide.
  const per = bucketWords(axis?.bars.bucketMinutes ?? summary.activity.bucketMinutes);
  const typeSeries: BarSeries[] = summary.types.map((t) => ({ key: t.logType, color: typeColor(t.logType), value: (b) => b.byType[t.logType] ?? 0 }));
  const severitySeries: BarSeries[] = [
    { key: 'error and fatal', color: ERROR_COLOR, value: (b) => b.errors },
    { key: 'warn', color: WARNING_COLOR, value: (b) => b.warnings },
    { key: 'info, debug and unknown', color: INFO_COLOR, value: (b) => b.lines - b.errors - b.warnings },
  ];
  const server = summary.server;
  const audit = summary.audit;
  const members = server?.members;
  const sections = [
    `<h1>logtype summary</h1><p>${counted(summary.lines.entries, 'entry', 'entries', number)} read, ${number(summary.lines.selected)} selected${escapeHtml(joinedWords(summary.lines))}, ${counted(summary.lines.notEntries, 'line that was not an entry', 'lines that were not entries', number)}${summary.first ? `; from ${when(summary.first)} to ${when(summary.last)}` : ''}.</p>${incompleteLines(summary)
      .map((why) => `<p class="incomplete"><b>Incomplete:</b> ${escapeHtml(why)}</p>`)
      .join('')}${summary.newestFirst ? `<p class="incomplete"><b>Newest first:</b> ${escapeHtml(newestFirstWords(summary.newestFirst))}</p>` : ''}${repeatedLinesWords(summary).map((why) => `<p class="incomplete"><b>Repeated:</b> ${escapeHtml(why)}</p>`).join('')}${clockStepWords(summary, when).map((why) => `<p class="incomplete"><b>Clock:</b> ${escapeHtml(why)}</p>`).join('')}${sameServerWords(summary).map((why) => `<p class="incomplete"><b>Members:</b> ${escapeHtml(why)}</p>`).join('')}${focusParagraph(summary)}`,
    '<h2>Log types</h2>',
    table(
      ['type', 'entries', 'first', 'last', 'per min', 'errors', 'warnings', 'unparsed'],
      summary.types.map((t) => [{ html: `<span class="swatch" data-key="${escapeHtml(t.logType)}" style="background:${typeColor(t.logType)}"></span>${escapeHtml(typeLabel(t.logType, summary))}`, className: 'one-line' }, number(t.entries), when(t.first), when(t.last), t.perMinute === undefined ? '-' : String(t.perMinute), number(t.errors), number(t.warnings), number(t.unparsed)]),
      'types',
    ),
    ...(perMinuteNote(summary) ? [`<p class="note">${escapeHtml(perMinuteNote(summary)!)}</p>`] : []),
    '<h2>Activity</h2>',
    ...(axis === undefined
      ? ['<p class="none">No timed lines.</p>']
      : [
          stackedBars(axis, 'plot-types', `Entries per ${per}, by type`, `entries per ${per}`, typeSeries),
          stackedBars(axis, 'plot-severity', `Entries per ${per}, by severity`, `entries per ${per}`, severitySeries),
        ]),
  ];
  if (members) {
    sections.push(
      `<h2>Replica set members (${number(members.length)})</h2>`,
      '<p>Each a pod (its lines\' prefix) or an input without one; their states as their own logs said them, on the time axis of the charts above.</p>',
      axis === undefined ? '' : laneChart(members, axis),
      '<h3>Who was primary when</h3>',
      // The answer first: on a phone's width the last column is the one scrolled out of sight.
      table(['primary', 'from', 'to', 'for'], (server!.primaries ?? []).map((p) => [words(primaryWords(p)), when(p.from), when(p.to), lifetime(Date.parse(p.to) - Date.parse(p.from))]), 'primaries'),
      '<h3>Each member</h3>',
      table(
        ['member', 'lines', 'warnings', 'errors', 'slow ops', 'restarts', 'elections or step-downs', 'state changes', 'last state', 'first', 'last'],
        members.map((m) => [m.name, number(m.lines), number(m.warnings), number(m.errors), number(m.slowOperations), number(m.restarts), number(m.elections), number(m.stateChanges), m.lastState ?? '-', when(m.first), when(m.last)]),
        'members',
      ),
      `<p>${escapeHtml(SLOW_OPS_COLUMN)}.</p>`,
    );
  }
  if (server) {
    sections.push(
      '<h2>Server</h2>',
      `<p>Connections: ${number(server.connections.opened)} opened, ${number(server.connections.closed)} closed, ${escapeHtml(peakWords(server.connections))}${allSelected(summary.lines) ? '' : ' (of the selected lines)'}. ${escapeHtml(startLines(server, when, allSelected(summary.lines)).map((line) => `${line[0]!.toUpperCase()}${line.slice(1)}`).join('. '))}.</p>`,
      '<h3>Connections by client IP</h3>',
      table(['IP', 'opened', 'ended'], server.clients.map((c) => [c.ip, countCell(number(c.opened), c), number(c.ended)]), 'clients'),
      foldedNote(server.clients, (c) => c.ip, MAX_CLIENT_IPS),
      '<h3>Drivers and applications (client metadata)</h3>',
      table(['driver', 'version', 'appName', 'connections', 'from'], server.drivers.map((d) => [words(d.driver), version(d.version), words(d.appName), countCell(number(d.connections), d), `${d.ips.join(', ')}${d.moreIps ? ', …' : ''}`]), 'drivers'),
      foldedNote(server.drivers, (d) => d.driver, MAX_CLIENT_DRIVERS),
      '<h3>Response sizes (reslen of slow operations)</h3>',
      ...responseSizesMarkup(server.responseSizes),
      `<h3>Longest-lived connections (${number(server.longLivedConnections.length)})</h3>`,
      server.connectionsNotFollowed > 0 ? `<p>${number(server.connectionsNotFollowed)} connections not followed: too many were open at once.</p>` : '',
      table(
        ['lived s', 'opened', 'closed', 'connection', 'remote', 'appName', ...(server.longLivedConnections.some((c) => c.member !== undefined) ? ['member'] : [])],
        server.longLivedConnections.map((c) => [(c.durationMillis / 1000).toFixed(1), when(c.opened), c.end === 'still open' ? 'still open at the end' : `${when(c.closed)}${c.end === 'restart' || c.end === 'shutdown' ? ` (${c.end})` : ''}`, String(c.connectionId), c.remote, c.appName ?? '-', ...(c.member !== undefined ? [c.member] : [])]),
        'long-lived',
      ),
      '<h3>Slow operations</h3>',
      slowPlot(summary, axis),
      table(
        ['total ms', 'count', 'p50 ms', 'p95 ms', 'max ms', 'examined/returned', ...(members ? ['members'] : []), 'namespace', 'operation', 'query', 'shape', 'plan'],
        server.slowOperations.map((g) => [...durationCells(g, number, number), g.examinedPerReturned === null ? '-' : number(g.examinedPerReturned), ...(members ? [memberCounts(g.members)] : []), namespace(g.ns), g.operation, g.pattern ?? '-', shape(g.shape), `${g.plan ?? '-'}${g.collscan && !g.plan?.startsWith('COLLSCAN') ? ' (COLLSCAN)' : ''}${g.collscan ? ' ◀' : ''}`]),
        'slow',
      ),
      note(sketchNote(server.slowOperations, 'operations')),
      `<h3>Oplog entries applied slowly (by secondaries) (${number(appliedEntries(server))})</h3>`,
      table(
        ['total ms', 'count', 'p50 ms', 'p95 ms', 'max ms', ...(members ? ['members'] : []), 'namespace', 'operation'],
        server.appliedOperations.map((g) => [...durationCells(g, number, number), ...(members ? [memberCounts(g.members)] : []), namespace(g.ns), g.operation]),
        'applied',
      ),
      note(sketchNote(server.appliedOperations, 'entries')),
      `<h3>Slowest operations (${number(server.slowest.length)})</h3>`,
      slowestTable(server),
      `<h3>Slowest transactions, with their parameters (${number(server.slowestTransactions.length)})</h3>`,
      table(
        ['duration ms', 'time', ...(members ? ['member'] : []), 'connection', 'txnNumber', 'ended', 'active µs', 'inactive µs', 'yields', 'readConcern', 'autocommit', 'lsid'],
        server.slowestTransactions.map((x) => [number(x.durationMillis), when(x.time), ...(members ? [x.member ?? '-'] : []), x.connection ?? '-', x.txnNumber === null ? '-' : number(x.txnNumber), x.terminationCause ?? '-', x.timeActiveMicros === null ? '-' : number(x.timeActiveMicros), x.timeInactiveMicros === null ? '-' : number(x.timeInactiveMicros), x.numYields === null ? '-' : number(x.numYields), x.readConcern ?? '-', x.autocommit === null ? '-' : String(x.autocommit), x.lsid ?? '-']),
        'transactions',
      ),
      '<h3>Replica set, in time order</h3>',
      members ? table(['time', 'member', 'event'], server.replication.map((e) => [when(e.time), e.member ?? '-', e.event])) : table(['time', 'event'], server.replication.map((e) => [when(e.time), e.event])),
      ...(server.failedAuthentications.length > 0
        ? ["<h3>Failed authentications (the server's own lines)</h3>", table(['count', 'user', 'from'], server.failedAuthentications.map((f) => [number(f.count), f.user, f.source]), 'failed-logins')]
        : []),
      `<h3>Warnings and errors, every message (${rowsWords(server.problems, (p) => p.msg, number)})</h3>`,
      table(['count', 'id', 'severity', 'first', 'last', ...(members ? ['members'] : []), 'message'], server.problems.map((p) => [countCell(number(p.count), p), p.id === null ? '-' : String(p.id), p.severity, when(p.first), when(p.last), ...(members ? [memberCounts(p.members)] : []), serverProblemMessage(p)]), 'problems'),
      foldedNote(server.problems, (p) => p.msg, MAX_SERVER_PROBLEMS),
      `<h3>Every message, the most frequent first (${rowsWords(server.messages, (m) => m.msg, number)})</h3>`,
      table(['count', 'id', 'severity', ...(members ? ['members'] : []), 'message'], server.messages.map((m) => [number(m.count), m.id === null ? '-' : String(m.id), m.severity, ...(members ? [memberCounts(m.members)] : []), message(m.msg)]), 'messages'),
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
    sections.push(`<h2>${escapeHtml(problems.logType)}: ${counted(problems.errors, 'error', 'errors', number)}, ${counted(problems.warnings, 'warning', 'warnings', number)}</h2>`, table(['count', 'level', ...(problems.messages.some((m) => m.members) ? ['pods'] : []), 'message'], problems.messages.map((m) => [number(m.count), m.level, ...(m.members ? [memberCounts(m.members)] : []), problemMessage(m)])));
    if (problems.notListed) sections.push(`<p>${escapeHtml(notListedWords(problems.notListed, number))}</p>`);
  }
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>logtype summary</title>
<style>
body{font:14px/1.45 system-ui,sans-serif;margin:24px auto;max-width:1360px;color:#1c2833;padding:0 12px}
h1{font-size:22px}h2{font-size:18px;margin-top:28px;border-bottom:1px solid #d5dbdb}h3{font-size:15px}
table{border-collapse:collapse;margin:8px 0;font-size:13px;display:block;max-width:100%;overflow-x:auto}td{overflow-wrap:anywhere}th,td{padding:3px 8px;text-align:left;border-bottom:1px solid #eaeded;vertical-align:top}
td.n{text-align:right;font-variant-numeric:tabular-nums}td.n,td.one-line{white-space:nowrap}td.words,td.members,td.token{overflow-wrap:normal}td.ns{overflow-wrap:break-word}td.message{min-width:16em}.pair{white-space:nowrap}.example{color:#555}td.message .example{overflow-wrap:anywhere}
figure{margin:12px 0;overflow-x:auto}.mark-key{vertical-align:middle;margin:0 3px 0 8px}.type-mark path{stroke-linejoin:round}.lane-name{font-size:12px;fill:#1c2833;paint-order:stroke;stroke:#fbfcfc;stroke-width:4px;stroke-linejoin:round}.lane-state{stroke:#fff;stroke-width:.5}figcaption{font-weight:600}.wide-hint{display:none;color:#555;font-size:13px;margin:8px 0 0}@media (max-width:820px){.wide-hint{display:block}figure.chart figcaption::after{content:' (scroll sideways: the chart is wider than the screen)';font-weight:400;color:#555}}svg.plot{width:100%;min-width:800px;height:auto}
.area{fill:#fbfcfc;stroke:#d5dbdb}.grid{stroke:#eaeded}.tick{font-size:11px;fill:#566573}.axis-title{font-size:11px;fill:#34495e}
.slow-point{fill-opacity:.6}.slow-point.collscan{fill-opacity:.9}
.marker line{stroke-dasharray:4 3;stroke-width:1.5}.marker text{font-size:11px;font-weight:700}.marker-key{margin-left:16px;padding-left:12px;border-left:1px solid #d5dbdb}.marker-key b{padding:0 2px}
.legend{font-size:12px;color:#566573}.swatch{display:inline-block;width:10px;height:10px;margin:0 4px 0 10px;vertical-align:middle}
pre.line{white-space:pre-wrap;overflow-wrap:anywhere;font-size:12px;margin:4px 0;max-width:60em}
.swatch.diamond{transform:rotate(45deg) scale(.8)}.none{color:#808b96}
.incomplete{border-left:4px solid ${WARNING_COLOR};background:#fef9e7;padding:4px 10px}
html.sortable th{cursor:pointer;user-select:none}html.sortable th:hover{text-decoration:underline}
th[aria-sort=ascending]::after{content:" ▲"}th[aria-sort=descending]::after{content:" ▼"}
</style></head><body>
${sections.join('\n')}
<script>${TABLE_SORTER}</script>
</body></html>
`;
}

/** Where most lines are, when a few far from them stretch the charts (focusLine), or nothing. */
function focusParagraph(summary: Summary): string {
  const focus = focusLine(summary, when);
  return focus ? `<p class="incomplete"><b>Most lines:</b> ${escapeHtml(focus)}</p>` : '';
}

/** A line under a table, where there is one to say. */
const note = (words: string | undefined): string => (words === undefined ? '' : `<p>${escapeHtml(words)}</p>`);

/** foldedWords under a table, as a paragraph; nothing when the table folded no row. */
function foldedNote<R extends { readonly missedAtMost?: number }>(rows: readonly R[], keyOf: (row: R) => string, limit: number): string {
  return note(foldedWords(rows, keyOf, limit, number));
}

/** The response sizes' three tables, each titled; with no reslen at all, one line that says so, not three bare "none". */
function responseSizesMarkup(sizes: NonNullable<Summary['server']>['responseSizes']): string[] {
  const tables = [
    ['namespace', sizes.byNamespace, namespace, 'sizes-ns'],
    ['appName', sizes.byAppName, (key: string) => key, 'sizes-app'],
    ['client IP', sizes.byClient, (key: string) => key, 'sizes-client'],
  ] as const;
  if (tables.every(([, rows]) => rows.length === 0)) return ['<p class="none">none: no slow operation said its response size (reslen)</p>'];
  return tables.flatMap(([title, rows, keyCell, id]) => [
    `<h4>by ${escapeHtml(title)}</h4>`,
    table([title, 'count', 'total bytes', 'max bytes'], rows.map((r) => [keyCell(r.key), number(r.count), countCell(number(r.totalBytes), r), number(r.maxBytes)]), id),
    foldedNote(rows, (r) => r.key, MAX_RESPONSE_SIZE_KEYS),
  ]);
}
