/**
 * The summary page of a real server log (Hatchet's replica member rs1) in headless Chromium, at
 * 1400 and 390 px wide: screenshots kept in test-artifacts/report/ (not in git); the slowest
 * operation and every COLLSCAN of the plot's points drawn; no horizontal overflow of the page;
 * plot text not shrunk below 8 px; the slowest operations' table led by the slowest.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Summary } from '../../src/summary/summary.js';
import { FILTER_BIN, REAL_DATA, REPO, cleanEnv, tempDir } from '../_helpers/sidecar-process.js';
import { CHROMIUM, testWithTool } from '../_helpers/system-tool.js';

const ARTIFACTS = path.join(REPO, 'test-artifacts/report');

testWithTool(CHROMIUM, 'the summary page of a real log at 1400 and 390 px: outliers drawn, no overflow, readable text; screenshots kept', async (t, executablePath) => {
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
  } finally {
    await browser.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
  t.true(fs.statSync(path.join(ARTIFACTS, 'summary-rs1-390.png')).size > 10_000);
});
