/**
 * The summary page of a real server log (Hatchet's replica member rs1) in headless Chromium, at
 * 1400 and 390 px wide: screenshots kept in test-artifacts/report/ (not in git); the slowest
 * operation and every COLLSCAN of the plot's points drawn; no horizontal overflow of the page;
 * plot text not shrunk below 8 px; the slowest operations' table led by the slowest; a click on
 * a column header sorts a table, and with scripts off every row is still there.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Summary } from '../../src/summary/summary.js';
import { FILTER_BIN, REAL_DATA, REPO, cleanEnv, tempDir } from '../_helpers/sidecar-process.js';
import { CHROMIUM, testWithTool } from '../_helpers/system-tool.js';

const ARTIFACTS = path.join(REPO, 'test-artifacts/report');

testWithTool(CHROMIUM, 'the summary page of a real log at 1400 and 390 px: outliers drawn, no overflow, readable text, tables sort by a click on a header; screenshots kept', async (t, executablePath) => {
  const dir = tempDir('logtype-report-page-');
  const page = path.join(dir, 'rs1.html');
  const log = path.join(REAL_DATA, 'mongod-replica-rs1.log.gz');
  const run = spawnSync(process.execPath, [FILTER_BIN, 'summary', '--json', '--html', page, '--as', 'mongodb', log], { env: cleanEnv(), encoding: 'utf8', maxBuffer: 64 << 20 });
  t.is(run.status, 0, run.stderr);
  const server = (JSON.parse(run.stdout) as Summary).server!;
  const slowest = Math.max(...server.slowOperations.map((g) => g.maxMillis));
  const collscans = server.slowPoints.filter((p) => p.collscan).length;
  t.true(collscans > 0 && slowest > 1000, 'the log has COLLSCANs and an operation over 1 s');
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({ executablePath, args: ['--no-sandbox'] });
  try {
    for (const width of [1400, 390]) {
      const tab = await browser.newPage({ viewport: { width, height: 900 } });
      await tab.goto(`file://${page}`);
      await tab.screenshot({ path: path.join(ARTIFACTS, `summary-rs1-${width}.png`), fullPage: true });
      const seen = (await tab.evaluate(`(() => {
        const drawn = (el) => { const b = el.getBoundingClientRect(); return b.width > 0 && b.height > 0; };
        const points = [...document.querySelectorAll('svg#plot-slow circle.slow-point')];
        const ticks = [...document.querySelectorAll('svg.plot text.tick')].map((text) => text.getBoundingClientRect().height);
        return {
          scrollWidth: document.documentElement.scrollWidth,
          collscans: points.filter((p) => p.classList.contains('collscan') && drawn(p)).length,
          slowestDrawn: points.some((p) => drawn(p) && p.textContent.includes(' ${slowest} ms ')),
          smallestTick: Math.min(...ticks),
          slowestRow: document.querySelector('table.slowest tbody tr td')?.textContent,
        };
      })()`)) as { scrollWidth: number; collscans: number; slowestDrawn: boolean; smallestTick: number; slowestRow: string | undefined };
      t.true(seen.scrollWidth <= width, `${width} px: the page is ${seen.scrollWidth} px wide`);
      t.is(seen.collscans, collscans, `${width} px: every COLLSCAN point drawn`);
      t.true(seen.slowestDrawn, `${width} px: the slowest operation (${slowest} ms) drawn`);
      t.is(seen.slowestRow, slowest.toLocaleString('en-US'), `${width} px: the slowest operations' table starts with the slowest`);
      t.true(seen.smallestTick >= 8, `${width} px: plot text ${seen.smallestTick.toFixed(1)} px high`);
      await tab.close();
    }
    // Sorting: a click on a header orders the rows by that column, a second click reverses it.
    const tab = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await tab.goto(`file://${page}`);
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
  } finally {
    await browser.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
  t.true(fs.statSync(path.join(ARTIFACTS, 'summary-rs1-390.png')).size > 10_000);
});
