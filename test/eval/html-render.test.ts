import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderHtmlReport } from '../../src/eval/html/html-report.js';
import { applyMinPass } from '../../src/eval/min-pass.js';
import { fixtureReport } from './report-fixture.js';

// Debian's Chromium (CI installs it); never a downloaded browser.
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
// Without the background-networking flags Chromium's own connections are refused on a closed network.
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];

// Code passed to page.evaluate runs in the page; the project compiles without the DOM lib, so the
// page's globals are reached through this loosely typed handle.
type PageGlobals = any;

let browser: Browser;
let page: Page;
const requested: string[] = [];
const dir = mkdtempSync(join(tmpdir(), 'switchyard-eval-html-'));

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`Chromium not found at ${CHROMIUM}: the HTML report render test needs it (apt-get install chromium, as .ci/run does, or set CHROMIUM_PATH)`);
  }
  const file = join(dir, 'report.html');
  writeFileSync(file, renderHtmlReport(applyMinPass(await fixtureReport(2), 0.5)));
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
  page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
  page.on('request', (r) => requested.push(r.url()));
  await page.goto(pathToFileURL(file).href, { waitUntil: 'load' });
});

afterAll(async () => {
  await browser?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('HTML report in a headless browser', () => {
  it('renders every chart with a visible size and visible bars', async () => {
    const charts = await page.$$eval('svg.chart', (svgs) => svgs.map((svg) => {
      const box = svg.getBoundingClientRect();
      const bars = [...svg.querySelectorAll('rect.bar')].map((r) => r.getBoundingClientRect()).filter((b) => b.width > 0 && b.height > 0);
      const style = (globalThis as PageGlobals).getComputedStyle(svg);
      return { label: svg.getAttribute('aria-label'), width: box.width, height: box.height, bars: bars.length, visible: style.display !== 'none' && style.visibility !== 'hidden' };
    }));
    expect(charts.map((c) => c.label)).toEqual(['Pass rate', 'Runs: passed, failed, errored', 'Latency p50 / p95 (answered runs)', 'Tokens (input / output)', 'Estimated cost (USD)', 'Stability over 2 repeats']);
    for (const chart of charts) {
      expect(chart.visible, chart.label!).toBe(true);
      expect(chart.width, chart.label!).toBeGreaterThan(200);
      expect(chart.height, chart.label!).toBeGreaterThan(40);
      expect(chart.bars, chart.label!).toBeGreaterThan(0);
    }
  });

  it('fills bars with colour from the inline stylesheet', async () => {
    const fills = await page.$$eval('svg.chart rect.bar', (rects) => [...new Set(rects.map((r) => (globalThis as PageGlobals).getComputedStyle(r).fill as string))]);
    expect(fills.length).toBeGreaterThanOrEqual(3);
    expect(fills).not.toContain('rgb(0, 0, 0)');
  });

  it('shows a side-by-side cell for every case and target', async () => {
    const cells = await page.$$eval('table.sxs td.cell', (tds) => tds.map((td) => {
      const box = td.getBoundingClientRect();
      return { key: `${td.dataset.case}|${td.dataset.target}`, visible: box.width > 0 && box.height > 0, status: td.className };
    }));
    expect(cells).toHaveLength(9);
    expect(new Set(cells.map((c) => c.key)).size).toBe(9);
    expect(cells.every((c) => c.visible)).toBe(true);
    expect(cells.find((c) => c.key === 'plain|down:d-1')!.status).toBe('cell error');
  });

  it('runs no script from the answers, only its own inline one, and fetches nothing but the page itself', async () => {
    expect(await page.evaluate(() => (globalThis as PageGlobals).hacked)).toBeUndefined();
    expect(await page.locator('script').count()).toBe(1);
    expect(await page.locator('script[src]').count()).toBe(0);
    expect(requested.filter((url) => !url.startsWith('file://'))).toEqual([]);
    expect(await page.locator('text=<script>window.hacked = true</script>').count()).toBeGreaterThan(0);
  });

  it('paints a page that is not blank', async () => {
    const png = await page.screenshot({ path: join(dir, 'report.png'), fullPage: false });
    const colours = await page.evaluate(async (b64) => {
      const { Image, document } = globalThis as PageGlobals;
      const img = new Image();
      img.src = `data:image/png;base64,${b64}`;
      await img.decode();
      const canvas = document.createElement('canvas');
      canvas.width = img.width;
      canvas.height = img.height;
      const ctx = canvas.getContext('2d')!;
      ctx.drawImage(img, 0, 0);
      const data = ctx.getImageData(0, 0, img.width, img.height).data;
      const seen = new Set<number>();
      for (let i = 0; i < data.length; i += 4 * 97) seen.add((data[i]! << 16) | (data[i + 1]! << 8) | data[i + 2]!);
      return seen.size;
    }, png.toString('base64'));
    expect(colours).toBeGreaterThan(20);
  });
});
