/**
 * The summary page of a real server log (Hatchet's replica member rs1) in headless Chromium, at
 * 1400 and 390 px wide: screenshots kept in test-artifacts/report/ (not in git); the slowest
 * operation and every COLLSCAN of the plot's points drawn; no horizontal overflow of the page;
 * plot text not shrunk below 8 px; the slowest operations' table led by the slowest; a click on
 * a column header sorts a table, and with scripts off every row is still there. Every time chart
 * shares one time axis, its ticks on round times and its labels inside the plot, with the
 * restarts and replica-set events marked; a type has one colour on every chart and page, and
 * red is for errors only.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Summary } from '../../src/summary/summary.js';
import { timeAxisTitle } from '../../src/summary/time-charts.js';
import { FILTER_BIN, REAL_DATA, REPO, cleanEnv, tempDir } from '../_helpers/sidecar-process.js';
import { CHROMIUM, testWithTool } from '../_helpers/system-tool.js';
import type { ExecutionContext } from 'ava';
import type { Browser, Page } from 'playwright-core';

const ARTIFACTS = path.join(REPO, 'test-artifacts/report');

/** `logtype summary --json --html` of `args` into `file` in a directory of its own: the page and the summary. */
function summaryPage(t: ExecutionContext, file: string, args: readonly string[]): { dir: string; page: string; summary: Summary } {
  const dir = tempDir(`logtype-report-${path.basename(file, '.html')}-`);
  const page = path.join(dir, file);
  const run = spawnSync(process.execPath, [FILTER_BIN, 'summary', '--json', '--html', page, ...args], { env: cleanEnv(), encoding: 'utf8', maxBuffer: 64 << 20 });
  t.is(run.status, 0, run.stderr);
  return { dir, page, summary: JSON.parse(run.stdout) as Summary };
}

/** Headless Chromium for `use`; closed, and `dir` removed, whatever happens. */
async function withBrowser(executablePath: string, dir: string, use: (browser: Browser) => Promise<void>): Promise<void> {
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({ executablePath, args: ['--no-sandbox'] });
  try {
    await use(browser);
  } finally {
    await browser.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** `page` open `width` px wide; its whole-page screenshot kept in ARTIFACTS as `shot`, when named. */
async function openAt(browser: Browser, page: string, width: number, shot?: string): Promise<Page> {
  const tab = await browser.newPage({ viewport: { width, height: 900 } });
  await tab.goto(`file://${page}`);
  if (shot) {
    fs.mkdirSync(ARTIFACTS, { recursive: true });
    await tab.screenshot({ path: path.join(ARTIFACTS, shot), fullPage: true });
  }
  return tab;
}

testWithTool(CHROMIUM, 'the summary page of a real log at 1400 and 390 px: outliers drawn, no overflow, readable text, tables sort by a click on a header, one time axis with round ticks and events marked, one colour per type; screenshots kept', async (t, executablePath) => {
  const log = path.join(REAL_DATA, 'mongod-replica-rs1.log.gz');
  const { dir, page, summary } = summaryPage(t, 'rs1.html', ['--as', 'mongodb', log]);
  const server = summary.server!;
  const slowest = Math.max(...server.slowOperations.map((g) => g.maxMillis));
  const collscans = server.slowPoints.filter((p) => p.collscan).length;
  t.true(collscans > 0 && slowest > 1000, 'the log has COLLSCANs and an operation over 1 s');
  await withBrowser(executablePath, dir, async (browser) => {
    for (const width of [1400, 390]) {
      const tab = await openAt(browser, page, width, `summary-rs1-${width}.png`);
      const seen = (await tab.evaluate(`(() => {
        const drawn = (el) => { const b = el.getBoundingClientRect(); return b.width > 0 && b.height > 0; };
        const points = [...document.querySelectorAll('svg#plot-slow .slow-point')];
        const ticks = [...document.querySelectorAll('svg.plot text.tick')].map((text) => text.getBoundingClientRect().height);
        const cut = [...document.querySelectorAll('svg.time-chart')].flatMap((svg) => {
          const box = svg.getBoundingClientRect();
          return [...svg.querySelectorAll('text')].filter((text) => { const b = text.getBoundingClientRect(); return b.left < box.left - 0.5 || b.right > box.right + 0.5; }).map((text) => svg.id + ' ' + text.textContent);
        });
        return {
          cut,
          scrollWidth: document.documentElement.scrollWidth,
          collscans: points.filter((p) => p.classList.contains('collscan') && drawn(p)).length,
          slowestDrawn: points.some((p) => drawn(p) && p.textContent.includes(' ${slowest} ms ')),
          smallestTick: Math.min(...ticks),
          slowestRow: document.querySelector('table.slowest tbody tr td')?.textContent,
        };
      })()`)) as { cut: string[]; scrollWidth: number; collscans: number; slowestDrawn: boolean; smallestTick: number; slowestRow: string | undefined };
      t.true(seen.scrollWidth <= width, `${width} px: the page is ${seen.scrollWidth} px wide`);
      t.is(seen.collscans, collscans, `${width} px: every COLLSCAN point drawn`);
      t.true(seen.slowestDrawn, `${width} px: the slowest operation (${slowest} ms) drawn`);
      t.is(seen.slowestRow, slowest.toLocaleString('en-US'), `${width} px: the slowest operations' table starts with the slowest`);
      t.true(seen.smallestTick >= 8, `${width} px: plot text ${seen.smallestTick.toFixed(1)} px high`);
      t.deepEqual(seen.cut, [], `${width} px: no chart text cut at the plot's edge`);
      await tab.close();
    }
    // One time axis for every chart, its ticks on round times, the restarts and replica-set events marked on each.
    const tab0 = await openAt(browser, page, 1400);
    const charts = (await tab0.evaluate(`[...document.querySelectorAll('svg.time-chart')].map((svg) => ({
      id: svg.id, start: Number(svg.dataset.start), end: Number(svg.dataset.end), step: Number(svg.dataset.step),
      ticks: [...svg.querySelectorAll('text.tick[data-time]')].map((text) => ({ time: Number(text.dataset.time), label: text.textContent })),
      titles: [...svg.querySelectorAll('text.axis-title')].map((text) => text.textContent),
      yTicks: [...svg.querySelectorAll('text.tick:not([data-time])')].map((text) => text.textContent),
      markers: [...svg.querySelectorAll('g.marker')].map((g) => ({ kind: g.getAttribute('class'), time: Number(g.dataset.time), title: g.querySelector('title').textContent })),
    }))`)) as { id: string; start: number; end: number; step: number; ticks: { time: number; label: string }[]; titles: string[]; yTicks: string[]; markers: { kind: string; time: number; title: string }[] }[];
    t.deepEqual(charts.map((c) => c.id), ['plot-types', 'plot-severity', 'plot-slow']);
    const [first] = charts;
    t.is(first!.start, Date.parse(summary.activity.start!), 'the axis starts at the first minute');
    t.true(first!.end >= Date.parse(summary.last!), 'the axis ends after the last line');
    const roundSteps = [1, 2, 5, 10, 15, 30].flatMap((n) => [n * 1000, n * 60_000]).concat([1, 2, 3, 6, 12, 24].map((h) => h * 3_600_000));
    for (const chart of charts) {
      t.deepEqual([chart.start, chart.end, chart.step], [first!.start, first!.end, first!.step], `${chart.id}: the same time axis as ${first!.id}`);
      t.true(roundSteps.includes(chart.step), `${chart.id}: a round step (${chart.step} ms)`);
      t.true(chart.ticks.length >= 4 && chart.ticks.length <= 8, `${chart.id}: ${chart.ticks.length} ticks`);
      for (const tick of chart.ticks) {
        t.is(tick.time % chart.step, 0, `${chart.id}: the tick ${tick.label} is on a multiple of its step`);
        t.true(tick.time >= chart.start && tick.time <= chart.end);
        // Under a minute's step the seconds, else hours and minutes, of the tick's own time.
        t.is(tick.label, new Date(tick.time).toISOString().slice(11, chart.step < 60_000 ? 19 : 16), `${chart.id}: the label says the tick's time`);
      }
      t.deepEqual(chart.ticks, first!.ticks, `${chart.id}: the same ticks`);
      t.deepEqual(chart.titles, [timeAxisTitle(chart.start, chart.end), chart.id === 'plot-slow' ? 'duration (log scale)' : 'entries per minute'], `${chart.id}: axis titles`);
      // A few round ticks up the y axis: counts 1, 2 or 5 times a power of ten apart from 0; durations in decades with their unit.
      t.true(chart.yTicks.length >= 2 && chart.yTicks.length <= 6, `${chart.id}: ${chart.yTicks.join(' ')}`);
      if (chart.id === 'plot-slow') t.true(chart.yTicks.every((tick) => /^(1|10|100) ms$|^[\d,]+ s$/.test(tick)), chart.yTicks.join(' '));
      else {
        const values = chart.yTicks.map((tick) => Number(tick.replace(/,/g, '')));
        const step = values[1]! - values[0]!;
        t.is(values[0], 0);
        t.true(/^[125]0*$/.test(String(step)) && values.every((v, i) => v === i * step), `${chart.id}: ${chart.yTicks.join(' ')}`);
      }
      // Every restart and every replica-set event with a time, marked where it happened.
      const expected = [
        ...server.restarts.map((r) => ({ kind: 'marker marker-restart', time: Date.parse(r.time!) })),
        ...server.shutdowns.filter((d) => d.time !== null).map((d) => ({ kind: 'marker marker-shutdown', time: Date.parse(d.time!) })),
        ...server.replication.filter((e) => e.time !== null).map((e) => ({ kind: e.event.startsWith('election: ') ? 'marker marker-election' : 'marker marker-state', time: Date.parse(e.time!) })),
      ].sort((a, b) => a.time - b.time || (a.kind < b.kind ? -1 : 1));
      t.true(expected.some((m) => m.kind === 'marker marker-restart') && expected.some((m) => m.kind === 'marker marker-state'));
      t.deepEqual(chart.markers.map(({ kind, time }) => ({ kind, time })).sort((a, b) => a.time - b.time || (a.kind < b.kind ? -1 : 1)), expected, `${chart.id}: restarts, shutdowns and replica-set events marked`);
      t.true(chart.markers.some((m) => /→ PRIMARY|is now PRIMARY/.test(m.title)), `${chart.id}: a marker's title says what happened`);
    }
    await tab0.close();
    // One colour per type on every chart and page (the table's swatch, the legend's, the bars);
    // red only for errors: no type's, no COLLSCAN's. A second page: rs1 with an agent's and an audit log.
    const mixed = path.join(dir, 'mixed.html');
    const logs = [log, path.join(REAL_DATA, 'kubectl-logs-enterprise-agent.log'), path.join(REAL_DATA, 'audit-json.log')];
    const second = spawnSync(process.execPath, [FILTER_BIN, 'summary', '--html', mixed, ...logs], { env: cleanEnv(), encoding: 'utf8', maxBuffer: 64 << 20 });
    t.is(second.status, 0, second.stderr);
    const colours = async (file: string): Promise<{ types: Record<string, string[]>; error: string; collscans: string[] }> => {
      const tab = await openAt(browser, file, 1400);
      const found = (await tab.evaluate(`(() => {
        const types = {};
        const add = (key, colour) => { (types[key] ??= []).includes(colour) || types[key].push(colour); };
        for (const el of document.querySelectorAll('table.types .swatch[data-key], figure:has(#plot-types) .legend .swatch[data-key]')) add(el.dataset.key, getComputedStyle(el).backgroundColor);
        for (const el of document.querySelectorAll('#plot-types rect.bar[data-key]')) add(el.dataset.key, getComputedStyle(el).fill);
        const error = getComputedStyle(document.querySelector('figure:has(#plot-severity) .legend .swatch[data-key="error and fatal"]')).backgroundColor;
        const collscans = [...document.querySelectorAll('#plot-slow .slow-point.collscan')].map((el) => getComputedStyle(el).fill);
        return { types, error, collscans };
      })()`)) as { types: Record<string, string[]>; error: string; collscans: string[] };
      await tab.close();
      return found;
    };
    const alone = await colours(page);
    const together = await colours(mixed);
    for (const type of ['mongodb', 'mongodb-audit', 'automation-agent-verbose']) t.true(type in together.types, `${type} on the second page (${Object.keys(together.types).join(', ')})`);
    for (const found of [alone, together]) {
      for (const [type, seen] of Object.entries(found.types)) {
        t.is(seen.length, 1, `${type}: one colour in the table, the legend and the bars (${seen.join(', ')})`);
        t.not(seen[0], found.error, `${type}: not the errors' red`);
      }
      t.true(found.collscans.length > 0 && found.collscans.every((fill) => fill !== found.error), 'COLLSCAN is not red');
    }
    t.deepEqual(alone.types['mongodb'], together.types['mongodb'], 'mongodb: the same colour on both pages');
    t.notDeepEqual(together.types['mongodb'], together.types['mongodb-audit'], 'two types, two colours');
    // Sorting: a click on a header orders the rows by that column, a second click reverses it.
    const tab = await openAt(browser, page, 1400);
    const counts = `[...document.querySelectorAll('table.slow tbody tr')].map((row) => Number(row.cells[1].textContent.replace(/,/g, '')))`;
    const before = (await tab.evaluate(counts)) as number[];
    await tab.click('table.slow thead th:nth-child(2)');
    const descending = (await tab.evaluate(counts)) as number[];
    await tab.click('table.slow thead th:nth-child(2)');
    const ascending = (await tab.evaluate(counts)) as number[];
    const byCount = [...before].sort((a, b) => b - a);
    t.notDeepEqual(before, byCount, 'the table is not written in count order (else the click would show nothing)');
    t.deepEqual(descending, byCount, 'one click on "count": the most first');
    t.deepEqual(ascending, [...byCount].reverse(), 'a second click: the fewest first');
    const times = `[...document.querySelectorAll('table.slowest tbody tr')].map((row) => row.cells[1].textContent)`;
    await tab.click('table.slowest thead th:nth-child(2)');
    const byTime = (await tab.evaluate(times)) as string[];
    t.deepEqual(byTime, [...byTime].sort(), 'a click on "time": the earliest first');
    const rows = (await tab.evaluate(`document.querySelectorAll('tbody tr').length`)) as number;
    await tab.close();
    // With scripts off the page is the same, every row there, only not sortable.
    const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 1400, height: 900 } });
    const still = await context.newPage();
    await still.goto(`file://${page}`);
    t.is(await still.evaluate(`document.querySelectorAll('tbody tr').length`), rows, 'scripts off: every row');
    t.is(await still.evaluate(`document.documentElement.className`), '', 'scripts off: no sorting offered');
    await context.close();
  });
  t.true(fs.statSync(path.join(ARTIFACTS, 'summary-rs1-390.png')).size > 10_000);
});

testWithTool(CHROMIUM, "the members' lanes of rs1 and rs2 at 1400 and 390 px: one lane per member on the same time axis as the other charts, no lane text out of its chart, no name over a lane's mark, no overflow of the page, each member primary where its log said so", async (t, executablePath) => {
  const logs = ['mongod-replica-rs1.log.gz', 'mongod-replica-rs2.log.gz'].map((file) => path.join(REAL_DATA, file));
  const { dir, page, summary } = summaryPage(t, 'members.html', logs);
  const members = summary.server!.members!;
  t.is(members.length, 2);
  await withBrowser(executablePath, dir, async (browser) => {
    for (const width of [1400, 390]) {
      const tab = await openAt(browser, page, width, `summary-members-${width}.png`);
      const seen = (await tab.evaluate(`(() => {
        const charts = [...document.querySelectorAll('svg.time-chart')].map((svg) => ({
          id: svg.id, axis: [svg.dataset.start, svg.dataset.end, svg.dataset.step].map(Number),
          ticks: [...svg.querySelectorAll('text.tick[data-time]')].map((text) => Number(text.dataset.time) + ' ' + text.textContent),
        }));
        const lanes = document.querySelector('svg#plot-lanes');
        const box = lanes.getBoundingClientRect();
        const area = lanes.querySelector('rect.area').getBoundingClientRect();
        const cut = [...lanes.querySelectorAll('text')].filter((text) => { const b = text.getBoundingClientRect(); return b.left < box.left - 0.5 || b.right > box.right + 0.5 || b.top < box.top - 0.5 || b.bottom > box.bottom + 0.5; }).map((text) => text.textContent);
        const names = [...lanes.querySelectorAll('text.lane-name')].map((text) => { const b = text.getBoundingClientRect(); return { name: text.dataset.member, inside: b.left >= area.left && b.right <= area.right, height: b.height }; });
        const primaries = [...lanes.querySelectorAll('g.lane')].map((g) => ({ member: g.dataset.member, primary: [...g.querySelectorAll('rect.lane-state[data-state="PRIMARY"]')].map((r) => [Number(r.dataset.from), Number(r.dataset.to)]) }));
        const events = [...lanes.querySelectorAll('g.lane-event')].map((g) => g.getAttribute('class') + ' ' + g.querySelector('title').textContent);
        // A name's box against every mark drawn in any lane (restart, election, error): none may cover another.
        const meets = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
        const marks = [...lanes.querySelectorAll('g.lane-event')].map((g) => ({ box: g.getBoundingClientRect(), title: g.querySelector('title').textContent }));
        const overlaps = [...lanes.querySelectorAll('text.lane-name')].flatMap((text) => { const b = text.getBoundingClientRect(); return marks.filter((m) => meets(b, m.box)).map((m) => text.dataset.member + ' over ' + m.title); });
        return { charts, cut, names, primaries, events, overlaps, scrollWidth: document.documentElement.scrollWidth };
      })()`)) as { charts: { id: string; axis: number[]; ticks: string[] }[]; cut: string[]; names: { name: string; inside: boolean; height: number }[]; primaries: { member: string; primary: number[][] }[]; events: string[]; overlaps: string[]; scrollWidth: number };
      t.deepEqual(seen.charts.map((c) => c.id), ['plot-types', 'plot-severity', 'plot-lanes', 'plot-slow'], `${width} px: the lanes among the time charts`);
      const lanes = seen.charts.find((c) => c.id === 'plot-lanes')!;
      for (const chart of seen.charts) {
        t.deepEqual(lanes.axis, chart.axis, `${width} px: the lanes on ${chart.id}'s time axis`);
        t.deepEqual(lanes.ticks, chart.ticks, `${width} px: the lanes with ${chart.id}'s ticks`);
      }
      t.deepEqual(seen.cut, [], `${width} px: no lane text out of its chart`);
      t.deepEqual(seen.overlaps, [], `${width} px: no member's name over a mark of a lane`);
      t.deepEqual(seen.names.map((n) => n.name), members.map((m) => m.name));
      for (const name of seen.names) {
        t.true(name.inside, `${width} px: ${name.name} inside the plot`);
        t.true(name.height >= 8, `${width} px: ${name.name} ${name.height.toFixed(1)} px high`);
      }
      t.true(seen.scrollWidth <= width, `${width} px: the page is ${seen.scrollWidth} px wide`);
      t.deepEqual(
        seen.primaries,
        members.map((m) => ({ member: m.name, primary: m.lane.filter((s) => s.state === 'PRIMARY').map((s) => [Date.parse(s.from), Date.parse(s.to)]) })),
        `${width} px: each member's PRIMARY drawn where its log said so`,
      );
      t.true(seen.primaries.every((p) => p.primary.length > 0));
      t.true(seen.events.some((e) => e.startsWith('lane-event lane-event-restart') && e.includes('start (v')) && seen.events.some((e) => e.startsWith('lane-event lane-event-election')), `${width} px: restarts and elections marked and titled`);
      await tab.close();
    }
    // Scripts off: the lanes are drawn the same (they are SVG, no script).
    const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 1400, height: 900 } });
    const still = await context.newPage();
    await still.goto(`file://${page}`);
    t.is(await still.evaluate(`document.querySelectorAll('svg#plot-lanes rect.lane-state').length`), members.reduce((n, m) => n + m.lane.length, 0), 'scripts off: every segment');
    await context.close();
  });
});

testWithTool(CHROMIUM, "the agents' and the operator's events on the server's time axis at 1400 and 390 px: each drawn on every time chart in its type's colour and its own shape, red edges for errors only, titled with what happened, no overflow", async (t, executablePath) => {
  const logs = ['mongod-replica-rs1.log.gz', 'agent-issue-threads.log', 'kubectl-logs-enterprise-agent.log', 'operator-issue-threads.log', 'audit-json.log'].map((file) => path.join(REAL_DATA, file));
  const { dir, page, summary } = summaryPage(t, 'marks.html', logs);
  const marks = summary.marks!;
  t.true(new Set(marks.map((m) => m.logType)).size >= 2, 'marks of two types or more');
  await withBrowser(executablePath, dir, async (browser) => {
    for (const width of [1400, 390]) {
      const tab = await openAt(browser, page, width);
      const seen = (await tab.evaluate(`(() => {
        const swatches = Object.fromEntries([...document.querySelectorAll('table.types .swatch[data-key]')].map((el) => [el.dataset.key, getComputedStyle(el).backgroundColor]));
        const red = getComputedStyle(document.querySelector('figure:has(#plot-severity) .legend .swatch[data-key="error and fatal"]')).backgroundColor;
        const charts = [...document.querySelectorAll('svg.time-chart')].map((svg) => {
          const box = svg.getBoundingClientRect();
          return {
            id: svg.id,
            marks: [...svg.querySelectorAll('g.type-mark')].map((g) => {
              const p = g.querySelector('path');
              const b = p.getBoundingClientRect();
              return { type: g.dataset.key, kind: g.getAttribute('class'), time: Number(g.dataset.time), count: Number(g.dataset.count), title: g.querySelector('title').textContent, shape: p.getAttribute('d'), fill: getComputedStyle(p).fill, stroke: getComputedStyle(p).stroke, inside: b.left >= box.left && b.right <= box.right && b.top >= box.top };
            }),
          };
        });
        return { swatches, red, charts, scrollWidth: document.documentElement.scrollWidth };
      })()`)) as { swatches: Record<string, string>; red: string; charts: { id: string; marks: { type: string; kind: string; time: number; count: number; title: string; shape: string; fill: string; stroke: string; inside: boolean }[] }[]; scrollWidth: number };
      t.true(seen.scrollWidth <= width, `${width} px: the page is ${seen.scrollWidth} px wide`);
      const [first] = seen.charts;
      t.is(first!.marks.reduce((n, m) => n + m.count, 0), marks.length, `${width} px: every mark drawn (few enough)`);
      const shapes = new Map<string, string>();
      for (const chart of seen.charts) {
        t.deepEqual(chart.marks.map(({ type, time, count }) => ({ type, time, count })), first!.marks.map(({ type, time, count }) => ({ type, time, count })), `${width} px: ${chart.id} marks what ${first!.id} marks`);
        for (const mark of chart.marks) {
          t.is(mark.fill, seen.swatches[mark.type] ?? 'no swatch', `${mark.type}: its type's colour`);
          t.not(mark.fill, seen.red, `${mark.type}: not the errors' red`);
          t.is(mark.stroke === seen.red, mark.kind.includes('type-mark-error'), `${mark.type}: a red edge for an error only`);
          t.true(mark.inside, `${width} px: ${chart.id} ${mark.type} inside its chart`);
          const words = marks.find((m) => m.logType === mark.type && Date.parse(m.time) === mark.time)!;
          t.true(mark.title.includes(words.label), `its title says what happened: ${mark.title}`);
          if (!shapes.has(mark.type)) shapes.set(mark.type, mark.shape);
          t.is(mark.shape, shapes.get(mark.type) ?? 'no shape', `${mark.type}: one shape on every chart`);
        }
      }
      t.is(new Set(shapes.values()).size, shapes.size, 'a shape per type');
      await tab.close();
    }
  });
});

testWithTool(CHROMIUM, 'a page over 5 days (an agent line, then rs1): the per-minute bars folded into round buckets at least 2 px wide, titled with their bucket, each the sum of its minutes; the slow points and markers at their own times', async (t, executablePath) => {
  // rs1 (real) after a real agent line moved to 5 days before rs1's first line.
  const dir0 = tempDir('logtype-report-span-');
  const agent = path.join(dir0, 'agent.log');
  const agentLine = fs.readFileSync(path.join(REAL_DATA, 'agent-community-operator.log'), 'utf8').split('\n')[1]!;
  fs.writeFileSync(agent, `${agentLine.replace(/^\[2021-09-17T13:19:52\.333\+0000\]/, '[2024-03-13T14:40:00.000+0000]')}\n`);
  const { dir, page, summary } = summaryPage(t, 'span.html', [agent, path.join(REAL_DATA, 'mongod-replica-rs1.log.gz')]);
  t.is(summary.types.length, 2, 'the agent line and the server log');
  t.true(Date.parse(summary.last!) - Date.parse(summary.first!) > 5 * 86_400_000, 'the lines span 5 days');
  const server = summary.server!;
  await withBrowser(executablePath, dir, async (browser) => {
    const tab = await openAt(browser, page, 1400, 'summary-span-1400.png');
    const charts = (await tab.evaluate(`[...document.querySelectorAll('svg.time-chart')].map((svg) => {
      const area = svg.querySelector('rect.area').getBoundingClientRect();
      const [start, end] = [Number(svg.dataset.start), Number(svg.dataset.end)];
      const timeAt = (x) => start + ((x - area.left) / area.width) * (end - start);
      return {
        id: svg.id,
        caption: svg.closest('figure').querySelector('figcaption').textContent,
        yTitle: [...svg.querySelectorAll('text.axis-title')].map((text) => text.textContent).find((title) => !title.startsWith('time (UTC)')),
        bars: [...svg.querySelectorAll('rect.bar')].map((bar) => ({ width: bar.getBoundingClientRect().width, title: bar.querySelector('title').textContent })),
        msPerPx: (end - start) / area.width,
        points: [...svg.querySelectorAll('.slow-point')].map((p) => { const b = p.getBoundingClientRect(); return { at: timeAt((b.left + b.right) / 2), title: p.querySelector('title').textContent }; }),
        markers: [...svg.querySelectorAll('g.marker')].map((g) => ({ time: Number(g.dataset.time), at: timeAt(g.querySelector('line').getBoundingClientRect().left) })),
      };
    })`)) as { id: string; caption: string; yTitle: string; bars: { width: number; title: string }[]; msPerPx: number; points: { at: number; title: string }[]; markers: { time: number; at: number }[] }[];
    for (const id of ['plot-types', 'plot-severity']) {
      const chart = charts.find((c) => c.id === id)!;
      t.regex(chart.caption, /^Entries per 30 min, by (type|severity)$/, `${id}: the title says the bucket`);
      t.is(chart.yTitle, 'entries per 30 min', `${id}: the y axis says the bucket`);
      t.true(chart.bars.length > 0);
      for (const bar of chart.bars) t.true(bar.width >= 2, `${id}: a bar ${bar.width.toFixed(2)} px wide (${bar.title})`);
      // Each bar the sum over its bucket: together every entry, the server's in one bar of its half hour.
      t.is(sum(chart.bars.map((bar) => Number(/: (\d+)$/.exec(bar.title)![1]))), summary.lines.entries, `${id}: the bars sum to the entries`);
      if (id === 'plot-types') t.true(chart.bars.some((bar) => bar.title === `2024-03-18T14:30:00.000Z mongodb: ${summary.types.find((type) => type.logType === 'mongodb')!.entries}`), `${id}: rs1's 7 minutes in the bar of 14:30`);
    }
    // Points and markers keep their own times (to the width of a pixel), not their bucket's.
    const slow = charts.find((c) => c.id === 'plot-slow')!;
    t.true(slow.points.length > 0);
    for (const point of slow.points) t.true(Math.abs(point.at - Date.parse(point.title.split(' ')[0]!)) <= slow.msPerPx, `a slow point at its time: ${point.title}`);
    t.true(slow.markers.length > 0);
    for (const marker of slow.markers) t.true(Math.abs(marker.at - marker.time) <= slow.msPerPx, `a marker at its time (${new Date(marker.time).toISOString()})`);
    t.true(server.restarts.some((r) => slow.markers.some((m) => m.time === Date.parse(r.time!))), 'the restart marked at its own time');
    await tab.close();
  });
  fs.rmSync(dir0, { recursive: true, force: true });
});

const sum = (values: readonly number[]): number => values.reduce((a, b) => a + b, 0);

testWithTool(CHROMIUM, "the tables of rs1 and rs2 at 390 px: times, numbers and lifetimes on one line in the log types, one-word cells (createIndexes, an address and its port) never cut, who was primary when and each member's tables, long messages still wrapped, drivers' names, versions and appNames broken only between words, versions and query hashes aligned as text, each member's count kept beside its name, messages broken between words in a column wide enough for a few, namespaces broken after a dot; no overflow of the page at 1400 and 390 px", async (t, executablePath) => {
  const { dir, page } = summaryPage(t, 'cells.html', [path.join(REAL_DATA, 'mongod-replica-rs1.log.gz'), path.join(REAL_DATA, 'mongod-replica-rs2.log.gz')]);
  await withBrowser(executablePath, dir, async (browser) => {
    for (const width of [1400, 390]) {
      const tab = await openAt(browser, page, width, `summary-cells-${width}.png`);
      // From an incident trial: at 390 px the answer of who was primary when was the column
      // scrolled out of sight. Every row's primary is on the screen, unscrolled.
      const primaries = (await tab.evaluate(`[...document.querySelectorAll('table.primaries tbody tr')].map((row) => { const box = row.cells[0].getBoundingClientRect(); return { text: row.cells[0].textContent, seen: box.left >= 0 && box.right <= innerWidth }; })`)) as { text: string; seen: boolean }[];
      t.true(primaries.length >= 3, `${width}`);
      // The answer leads: where times are long (other days, other zones) the table scrolls, and the last column with it.
      t.is(await tab.evaluate(`document.querySelector('table.primaries thead th').textContent`), 'primary');
      t.deepEqual(primaries.filter((p) => !p.seen), [], `${width} px`);
      // A cell's lines: the distinct tops of the boxes of its text (not of its colour swatch).
      const seen = (await tab.evaluate(`(() => {
        const lines = (td) => new Set([...td.childNodes].filter((node) => node.nodeType === Node.TEXT_NODE).flatMap((node) => { const range = document.createRange(); range.selectNodeContents(node); return [...range.getClientRects()]; }).filter((r) => r.width > 0).map((r) => Math.round(r.top))).size;
        const time = /^\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\dZ$/;
        const fixed = [...document.querySelectorAll('table.types td, table.primaries td, table.members td')]
          .filter((td) => time.test(td.textContent) || /^[\\d,.]+$/.test(td.textContent) || /^\\d+(\\.\\d)?(ms|s)$|^\\d+[mhd] \\d\\d[smh]$/.test(td.textContent) || td.querySelector('.swatch'))
          .map((td) => ({ text: td.textContent, time: time.test(td.textContent), lines: lines(td) }));
        const messages = [...document.querySelectorAll('table.problems td:last-child')].map((td) => ({ text: td.textContent, lines: lines(td) }));
        // Where a cell breaks its text: the cell's text with a ⏎ where each new line starts.
        // own: the cell's own text alone, not its children's (a message's, not the first line's under it).
        const breaks = (td, own = false) => {
          const texts = [];
          if (own) texts.push(...[...td.childNodes].filter((node) => node.nodeType === Node.TEXT_NODE));
          else for (let walker = document.createTreeWalker(td, NodeFilter.SHOW_TEXT), text = walker.nextNode(); text; text = walker.nextNode()) texts.push(text);
          const chars = [];
          for (const text of texts) for (let i = 0; i < text.data.length; i++) chars.push({ text, i });
          const range = document.createRange();
          const tops = chars.map(({ text, i }) => { range.setStart(text, i); range.setEnd(text, i + 1); return Math.round(range.getBoundingClientRect().top); });
          const all = texts.map((text) => text.data).join('');
          return tops.flatMap((top, i) => (i > 0 && top > tops[i - 1] ? [all.slice(0, i) + '⏎' + all.slice(i)] : []));
        };
        const column = (table, header) => { const at = [...table.querySelectorAll('thead th')].findIndex((th) => th.textContent === header); return at === -1 ? [] : [...table.querySelectorAll('tbody tr')].map((row) => row.cells[at]); };
        const driverCells = [...document.querySelectorAll('table.drivers tbody tr')].flatMap((row) => [0, 1, 2].map((i) => row.cells[i]));
        const drivers = driverCells.map((td) => ({ text: td.textContent, breaks: breaks(td) }));
        const versionAlign = [...document.querySelectorAll('table.drivers tbody tr')].map((row) => row.cells[1].textContent + ' ' + getComputedStyle(row.cells[1]).textAlign);
        // Whose lines: each member's name and its count kept together ('my-db-1 / 10' read as two members' words).
        const memberCells = ['slow', 'problems', 'messages', 'applied'].flatMap((name) => column(document.querySelector('table.' + name), 'members').map((td) => ({ table: name, text: td.textContent, breaks: breaks(td) })));
        const messageCells = ['problems', 'messages'].flatMap((name) => column(document.querySelector('table.' + name), 'message').map((td) => ({ table: name, text: td.textContent, breaks: breaks(td, true), width: td.getBoundingClientRect().width })));
        const shapeAlign = column(document.querySelector('table.slow'), 'shape').map((td) => td.textContent + ' ' + getComputedStyle(td).textAlign);
        const namespaces = ['slow', 'applied', 'slowest', 'sizes-ns'].flatMap((name) => column(document.querySelector('table.' + name), 'namespace').map((td) => ({ table: name, text: td.textContent, breaks: breaks(td) })));
        // One short word (an operation, a plan's stage, an address and its port) is never cut inside.
        const tokens = [...document.querySelectorAll('td.token')].map((td) => ({ text: td.textContent, breaks: breaks(td) }));
        const primaryCells = column(document.querySelector('table.primaries'), 'primary').map((td) => ({ text: td.textContent, breaks: breaks(td) }));
        const hints = [...document.querySelectorAll('.wide-hint')].map((p) => getComputedStyle(p).display);
        return { fixed, messages, drivers, versionAlign, memberCells, messageCells, shapeAlign, namespaces, tokens, primaryCells, hints, scrollWidth: document.documentElement.scrollWidth };
      })()`)) as { primaryCells: { text: string; breaks: string[] }[]; hints: string[]; fixed: { text: string; time: boolean; lines: number }[]; messages: { text: string; lines: number }[]; drivers: { text: string; breaks: string[] }[]; versionAlign: string[]; memberCells: { table: string; text: string; breaks: string[] }[]; messageCells: { table: string; text: string; breaks: string[]; width: number }[]; shapeAlign: string[]; namespaces: { table: string; text: string; breaks: string[] }[]; tokens: { text: string; breaks: string[] }[]; scrollWidth: number };
      t.true(seen.tokens.some((c) => c.text === 'createIndexes') && seen.tokens.some((c) => /^\d+\.\d+\.\d+\.\d+:\d+$/.test(c.text)), `${width} px: operations and remotes among the one-word cells`);
      for (const cell of seen.tokens) for (const at of cell.breaks) t.regex(at, /[-|/]⏎/, `${width} px: "${cell.text}" broken only after a hyphen (mongod-replica-⏎rs1), never inside a word or a port`);
      t.true(seen.drivers.some((d) => d.text.length > 30), `${width} px: a long driver name among them`);
      // A break is at a space or after a hyphen, a '|' or a '/' (NetworkInterfaceTL-⏎ReplNetwork), never inside a word.
      for (const cell of seen.drivers) for (const at of cell.breaks) t.regex(at, /[ \-|/]⏎|⏎ /, `${width} px: "${cell.text}" broken between words`);
      // From a review of the report: "unknown: none said PRIMARY" broke as "unknow" / "n:" at 390 px.
      t.true(seen.primaryCells.length > 0);
      for (const cell of seen.primaryCells) for (const at of cell.breaks) t.regex(at, /[ \-(,]⏎|⏎ /, `${width} px: "${cell.text}" broken between words`);
      // The wide tables say they scroll sideways where the screen is narrow, and nothing where it is wide.
      t.true(seen.hints.length >= 2, `${width} px: ${seen.hints.length} hints`);
      t.true(seen.hints.every((display) => display === (width === 390 ? 'block' : 'none')), `${width} px: ${seen.hints.join(', ')}`);
      t.true(seen.versionAlign.length > 2 && seen.versionAlign.every((v) => v.endsWith(' left') || v.endsWith(' start')), `${width} px: versions aligned as text (${seen.versionAlign.join(', ')})`);
      t.deepEqual([...new Set(seen.memberCells.map((c) => c.table))], ['slow', 'problems', 'messages', 'applied'], `${width} px: a members column in each table of groups`);
      for (const cell of seen.memberCells) for (const at of cell.breaks) t.regex(at, /, ?⏎/, `${width} px: ${cell.table}: "${cell.text}" broken only after a member's count`);
      // A message is words: broken between them, not every few letters ('Connecti⏎on⏎accep') beside the members' column.
      t.true(seen.messageCells.some((c) => c.table === 'messages') && seen.messageCells.some((c) => c.table === 'problems'));
      for (const cell of seen.messageCells) t.true(cell.width >= 200, `${width} px: ${cell.table}: "${cell.text}" in a column ${cell.width.toFixed(0)} px wide`);
      for (const cell of seen.messageCells) for (const at of cell.breaks) t.regex(at, /[ \-|/,]⏎|⏎ /, `${width} px: ${cell.table}: "${cell.text}" broken between words`);
      // A namespace breaks after a dot ('admin.system.⏎keys'), never inside a part ('admin.system.key⏎s').
      t.deepEqual([...new Set(seen.namespaces.map((c) => c.table))], ['slow', 'applied', 'slowest', 'sizes-ns'], `${width} px: a namespace column in each table that has one`);
      for (const cell of seen.namespaces) for (const at of cell.breaks) t.regex(at, /\.⏎/, `${width} px: ${cell.table}: "${cell.text}" broken after a dot`);
      if (width === 390) t.true(seen.namespaces.some((c) => c.breaks.length > 0), `${width} px: some namespace broken`);
      // A query hash is no number, even one of digits alone (17830885 beside 740C02B0).
      t.true(seen.shapeAlign.some((s) => /^\d+ /.test(s)) && seen.shapeAlign.every((s) => s.endsWith(' left') || s.endsWith(' start')), `${width} px: shapes aligned as text (${seen.shapeAlign.filter((s) => !s.startsWith('- ')).join(', ')})`);
      t.true(seen.fixed.filter((c) => c.time).length >= 2 + 2 * 5 + 2 * 2, `${width} px: the times of the three tables found (${seen.fixed.filter((c) => c.time).length})`);
      for (const cell of seen.fixed) t.is(cell.lines, 1, `${width} px: "${cell.text}" on one line`);
      if (width === 390) t.true(seen.messages.some((m) => m.text.length > 100 && m.lines > 1), `${width} px: a long message wrapped`);
      t.true(seen.scrollWidth <= width, `${width} px: the page is ${seen.scrollWidth} px wide`);
      await tab.close();
    }
  });
});

// From a reports trial: "for" (3m 19s, 16.8s, 68ms) sorted as text, and addresses by their first octets as numbers.
testWithTool(CHROMIUM, 'a click sorts durations by their length and addresses by their octets, numbers in words by value', async (t, executablePath) => {
  const logs = ['mongod-replica-rs1.log.gz', 'mongod-replica-rs2.log.gz'].map((file) => path.join(REAL_DATA, file));
  const { dir, page } = summaryPage(t, 'sorting.html', [...logs, '--as', 'mongodb', path.join(REAL_DATA, 'mongod-3.6-text-restart.log')]);
  const ms = (text: string): number => [...text.matchAll(/([\d.]+)(ms|s|m|h|d)/g)].reduce((sum, [, n, unit]) => sum + Number(n) * { ms: 1, s: 1e3, m: 6e4, h: 36e5, d: 864e5 }[unit as 'ms']!, 0);
  const octets = (ip: string): number => ip.split('.').reduce((sum, part) => sum * 256 + Number(part), 0);
  await withBrowser(executablePath, dir, async (browser) => {
    const tab = await openAt(browser, page, 1400);
    const column = (table: string, index: number) => tab.evaluate(`[...document.querySelectorAll('table.${table} tbody tr')].map((row) => row.cells[${index}].textContent.trim())`) as Promise<string[]>;
    const forColumn = 4;
    await tab.click(`table.primaries thead th:nth-child(${forColumn})`);
    const spans = await column('primaries', forColumn - 1);
    t.true(spans.length >= 4, spans.join(' | '));
    t.deepEqual(spans.map(ms), [...spans.map(ms)].sort((a, b) => b - a), `"for", the longest first: ${spans.join(' | ')}`);
    const ipColumn = (await tab.evaluate(`[...document.querySelectorAll('table.clients thead th')].findIndex((th) => th.textContent === 'IP') + 1`)) as number;
    t.true(ipColumn > 0, 'a column of addresses');
    await tab.click(`table.clients thead th:nth-child(${ipColumn})`);
    const ips = await column('clients', ipColumn - 1);
    t.true(ips.length >= 4, ips.join(' | '));
    t.deepEqual(ips.map(octets), [...ips.map(octets)].sort((a, b) => a - b), `addresses in order: ${ips.join(' | ')}`);
    await tab.close();
  });
});
