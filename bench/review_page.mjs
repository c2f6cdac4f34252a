// The review page at scale in headless Chromium (bench/review.sh): time
// to the first paint of the queue, the page's response to filters (from
// the change to the redrawn table), and the page's memory, against a real
// `mcpvet serve` holding the generated 1,000-server, 50,000-tool store.
// Env: BASE, API_KEY, CHROMIUM, MCPVET_SOURCE_DIR; ROUNDS (default 20).
// Prints "key value" lines.
import { createRequire } from 'node:module';
import path from 'node:path';

const env = (k) => { const v = process.env[k]; if (!v) throw new Error(`set ${k}`); return v; };
const BASE = env('BASE'), KEY = env('API_KEY'), CHROMIUM = env('CHROMIUM');
const require = createRequire(path.join(env('MCPVET_SOURCE_DIR'), 'tests/node/package.json'));
const { chromium } = require('playwright-core');
const ROUNDS = Number(process.env.ROUNDS || 20);

const pct = (v, p) => { const s = [...v].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.round(p / 100 * (s.length - 1)))]; };

const browser = await chromium.launch({
  executablePath: CHROMIUM, headless: true,
  args: process.getuid && process.getuid() === 0 ? ['--no-sandbox'] : [],
});
try {
  const context = await browser.newContext({ viewport: { width: 1200, height: 900 } });
  await context.addInitScript((k) => {
    sessionStorage.setItem('mcpvet.apiKey', k);
    /* The first animation frame after the queue's rows exist: the table
     * has been laid out and painted. */
    window.__queuePaint = new Promise(resolve => {
      const seen = () => document.querySelector('#queue tbody tr');
      const obs = new MutationObserver(() => {
        if (seen()) { obs.disconnect(); requestAnimationFrame(() => resolve(performance.now())); }
      });
      document.addEventListener('DOMContentLoaded', () => obs.observe(document.body, { childList: true, subtree: true }));
    });
  }, KEY);
  const paints = [];
  let page;
  for (let i = 0; i < 5; i++) {
    if (page) await page.close();
    page = await context.newPage();
    await page.goto(BASE + '/#/queue');
    paints.push(await page.evaluate(() => window.__queuePaint));
  }
  const rows = await page.$$eval('#queue tbody tr', r => r.length);

  /* filter round trips, measured in the page: change -> new rows painted */
  const measure = async (act, done, arg) => {
    await page.evaluate(() => {
      window.__t0 = performance.now();
      window.__done = null;
    });
    await act();
    await page.waitForFunction(done, arg);
    return page.evaluate(() => new Promise(r => requestAnimationFrame(() => r(performance.now() - window.__t0))));
  };
  const filt = [];
  for (let i = 0; i < ROUNDS; i++) {
    filt.push(await measure(() => page.selectOption('#filter-state', 'changed'),
      () => [...document.querySelectorAll('#queue tbody tr')].every(t => t.cells[2].textContent === 'changed')));
    filt.push(await measure(() => page.selectOption('#filter-verdict', 'quarantine'),
      () => [...document.querySelectorAll('#queue tbody tr')].every(t => t.cells[3].textContent === 'quarantine') || document.getElementById('empty')));
    filt.push(await measure(async () => { await page.selectOption('#filter-state', ''); },
      () => document.querySelectorAll('#queue tbody tr').length > 0 && [...document.querySelectorAll('#queue tbody tr')].some(t => t.cells[2].textContent !== 'changed')));
    filt.push(await measure(async () => { await page.selectOption('#filter-verdict', ''); },
      () => [...document.querySelectorAll('#queue tbody tr')].some(t => t.cells[3].textContent !== 'quarantine')));
    const q = 'tool_0' + String(i % 10);
    filt.push(await measure(async () => { await page.fill('#filter-q', q); await page.press('#filter-q', 'Enter'); },
      (qq) => [...document.querySelectorAll('#queue tbody tr')].every(t => t.dataset.tool.includes(qq)), q));
    filt.push(await measure(async () => { await page.fill('#filter-q', ''); await page.press('#filter-q', 'Enter'); },
      () => document.querySelectorAll('#queue tbody tr').length === 50));
    filt.push(await measure(() => page.click('#pager .next'), () => /page 2 of/.test(document.getElementById('pager').textContent)));
    filt.push(await measure(() => page.click('#pager .prev'), () => /page 1 of/.test(document.getElementById('pager').textContent)));
  }
  const cdp = await context.newCDPSession(page);
  await cdp.send('Performance.enable');
  await cdp.send('HeapProfiler.collectGarbage');
  const m = Object.fromEntries((await cdp.send('Performance.getMetrics')).metrics.map(x => [x.name, x.value]));
  console.log(`queue_rows ${rows}`);
  console.log(`first_paint_ms_median ${pct(paints, 50).toFixed(1)}`);
  console.log(`first_paint_ms_max ${Math.max(...paints).toFixed(1)}`);
  console.log(`filter_ms_p50 ${pct(filt, 50).toFixed(1)}`);
  console.log(`filter_ms_p99 ${pct(filt, 99).toFixed(1)}`);
  console.log(`filter_samples ${filt.length}`);
  console.log(`js_heap_used_mb ${(m.JSHeapUsedSize / 1048576).toFixed(2)}`);
  console.log(`js_heap_total_mb ${(m.JSHeapTotalSize / 1048576).toFixed(2)}`);
  console.log(`dom_nodes ${m.Nodes}`);
} finally {
  await browser.close();
}
