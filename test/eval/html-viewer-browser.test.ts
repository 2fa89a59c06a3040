import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderHtmlReport } from '../../src/eval/html/html-report.js';
import { fixtureReport, HOSTILE_ANSWER, HOSTILE_ID } from './report-fixture.js';
import { largeReport, viewerReport } from './viewer-fixture.js';

// Debian's Chromium (CI installs it in .ci/run); never a downloaded browser.
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const LARGE_CASES = 500;

let browser: Browser;
let page: Page;
const requested: string[] = [];
const errors: string[] = [];
const dir = mkdtempSync(join(tmpdir(), 'switchyard-eval-viewer-'));
const files = { v2: join(dir, 'v2.html'), plain: join(dir, 'plain.html'), large: join(dir, 'large.html') };

/** The visible rows' case ids. */
const shownCases = () => page.$$eval('tr.case-row', (rows) => rows.filter((r) => !(r as any).hidden).map((r) => r.querySelector('td.cell')?.getAttribute('data-case')));
const cell = (caseId: string, column: string) => page.locator(`td.cell[data-case="${caseId}"][data-column="${column}"]`);
const filter = (value: string) => page.check(`input[name="filter"][value="${value}"]`);
const open = (file: string) => page.goto(pathToFileURL(file).href, { waitUntil: 'load' });

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`Chromium not found at ${CHROMIUM}: the eval viewer's browser test needs it (apt-get install chromium, as .ci/run does, or set CHROMIUM_PATH)`);
  }
  writeFileSync(files.v2, renderHtmlReport((await viewerReport()).report));
  writeFileSync(files.plain, renderHtmlReport(await fixtureReport(2)));
  writeFileSync(files.large, renderHtmlReport(await largeReport(LARGE_CASES)));
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
  page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  page.on('request', (r) => requested.push(r.url()));
  page.on('pageerror', (e) => errors.push(e.message));
  await open(files.v2);
}, 60_000);

afterAll(async () => {
  await browser?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the eval viewer, side by side, in a headless browser', () => {
  it('shows a row per case and a column per target, each cell with its answer, verdict, reasons, latency and cost', async () => {
    expect(await page.$$eval('table.sxs thead th[data-column]', (ths) => ths.map((th) => th.getAttribute('data-column')))).toEqual(['good:g-1', 'evil:e-1', 'down:d-1']);
    expect(await page.locator('table.sxs thead th[data-column="good:g-1"] .note').textContent()).toBe('pass 100.0% [53.0%, 100.0%] · score 1.00');
    expect(await shownCases()).toEqual(['plain', HOSTILE_ID, 'json', 'greet']);
    expect(await page.locator('table.sxs td.cell').count()).toBe(12);

    const good = cell('plain', 'good:g-1');
    expect(await good.locator('.verdict').textContent()).toBe('✓pass 2/2cached');
    expect(await good.locator('pre.answer').textContent()).toBe('yes');
    expect(await good.locator('ul.checks li').allTextContents()).toEqual(['judge (score 0.90): answers yes clearly']);
    expect(await good.locator('.facts').textContent()).toMatch(/^p50 \d+ ms · \$[\d.]+\/run · grader \$0\.00040$/);

    const evil = cell('plain', 'evil:e-1');
    expect(await evil.locator('.verdict').textContent()).toBe('✗fail 0/2regressed');
    expect(await evil.locator('pre.answer').textContent()).toBe(HOSTILE_ANSWER);
    expect(await evil.locator('ul.checks li.fail').allTextContents()).toEqual(['contains: missing "yes"', 'judge (score 0.10): answer is markup, not yes']);
    expect(await evil.locator('.facts .cost').textContent()).toBe('cost unknown');

    expect(await cell('json', 'evil:e-1').locator('ul.checks li.grader').allTextContents()).toEqual(['grader error, judge: judge answered no JSON verdict']);
    const down = cell('plain', 'down:d-1');
    expect(await down.getAttribute('class')).toBe('cell error');
    expect(await down.locator('.answer').textContent()).toBe('no answer');
    expect(await down.locator('ul.checks li.error').allTextContents()).toEqual(['error content_filter: down 400 content_filter: scripted failure']);
  });

  it('shows intervals, comparisons, the power note, the baseline and the suggestion in the summary', async () => {
    const heads = await page.$$eval('table.summary thead th', (ths) => ths.map((th) => th.textContent));
    expect(heads.slice(0, 8)).toEqual(['target', 'passed', 'pass rate', '95% interval', 'score', 'grade errors', 'grader cost', 'cached runs']);
    expect(await page.locator('table.summary tbody tr').first().locator('td').nth(2).textContent()).toBe('53.0% – 100.0%');
    expect(await page.locator('ul.comparisons li').allTextContents()).toEqual([
      'good:g-1 beats evil:e-1 by +62 points [+25, +90] (good:g-1 vs evil:e-1, McNemar exact, n=8)',
      'no difference shown at n=8 (evil:e-1 vs down:d-1, McNemar exact, n=8)',
    ]);
    expect(await page.locator('ul.comparisons li.shown').count()).toBe(1);
    expect(await page.locator('#power').textContent()).toBe('A 5-point difference would need ~1540 cases to show.');
    expect(await page.locator('#baseline').textContent()).toBe('1 regression against the baseline old.json: plain (evil:e-1). 1 fixed: json (good:g-1).');
    expect(await page.locator('#suggestion ol li').allTextContents()).toEqual(['good:g-1: best score']);
    expect(await page.locator('#meta-extras').textContent()).toBe('judge chain "judge" · grader cost $0.00040 (apart from the targets\') · cache .switchyard/eval-cache: 2 hits, 22 misses');
  });

  it('filters to failures, disagreements, regressions and fixes, and back to all', async () => {
    expect(await page.locator('.filters label').allTextContents()).toEqual([' all cases (4)', ' failures only (3)', ' disagreements (2)', ' regressions vs baseline (1)', ' fixes vs baseline (1)']);
    await filter('failures');
    expect(await shownCases()).toEqual(['plain', HOSTILE_ID, 'json']);
    expect(await page.locator('#shown').textContent()).toBe('3 of 4 cases');
    await filter('disagreements');
    expect(await shownCases()).toEqual(['plain', HOSTILE_ID]);
    await filter('regressions');
    expect(await shownCases()).toEqual(['plain']);
    expect(await page.locator('tr.case-row:not([hidden]) .tag.regressed').allTextContents()).toEqual(['regression', 'regressed']);
    await filter('fixes');
    expect(await shownCases()).toEqual(['json']);
    expect(await cell('json', 'good:g-1').locator('.tag.fixed').textContent()).toBe('fixed');
    await filter('all');
    expect(await shownCases()).toEqual(['plain', HOSTILE_ID, 'json', 'greet']);
  });

  it('searches case ids, prompts and answers (every repeat\'s), within the filter', async () => {
    await page.fill('#search', 'GREET');
    expect(await shownCases()).toEqual(['greet']);
    await page.fill('#search', 'json?');
    expect(await shownCases()).toEqual(['json']);
    await page.fill('#search', 'certainly');
    expect(await shownCases()).toEqual(['plain']);
    await page.fill('#search', 'window.hacked');
    expect(await shownCases()).toEqual(['plain', HOSTILE_ID]);
    await filter('disagreements');
    await page.fill('#search', 'friend');
    expect(await shownCases()).toEqual([]);
    expect(await page.locator('#none-shown').isVisible()).toBe(true);
    expect(await page.locator('#shown').textContent()).toBe('0 of 4 cases');
    await filter('all');
    expect(await shownCases()).toEqual(['greet']);
    await page.fill('#search', '');
    expect(await shownCases()).toHaveLength(4);
    expect(await page.locator('#none-shown').isVisible()).toBe(false);
  });

  it('lists every repeat of a cell on demand, and folds them away again', async () => {
    const good = cell('plain', 'good:g-1');
    expect(await good.locator('.repeat-list').count()).toBe(0);
    await good.locator('button.more').click();
    expect(await good.locator('.repeat-list li pre.answer').allTextContents()).toEqual(['yes', 'Yes, certainly.']);
    expect(await good.locator('.repeat-list li .verdict').allTextContents()).toEqual([
      expect.stringMatching(/^#1 pass · \d+ ms · \$[\d.e-]+ · cached$/), expect.stringMatching(/^#2 pass · \d+ ms · \$[\d.e-]+ · cached$/)]);
    const evil = cell('json', 'evil:e-1');
    await evil.locator('button.more').click();
    expect(await evil.locator('.repeat-list li .verdict').allTextContents()).toEqual([expect.stringMatching(/^#1 pass /), expect.stringMatching(/^#2 graded\? /)]);
    expect(await evil.locator('.repeat-list li .line').allTextContents()).toEqual(['grader error, judge: judge answered no JSON verdict']);
    await evil.locator('button.more').click();
    expect(await evil.locator('.repeat-list').count()).toBe(0);
  });

  it('diffs two picked cells by words and by lines, and two repeats of one cell', async () => {
    expect(await page.locator('#diff').isVisible()).toBe(false);
    await cell('greet', 'good:g-1').locator('button.pick').click();
    expect(await page.locator('#diff-title').textContent()).toBe('Picked greet · good:g-1: pick a second cell to compare.');
    await cell('greet', 'evil:e-1').locator('button.pick').click();
    expect(await page.locator('#diff').isVisible()).toBe(true);
    expect(await page.locator('#diff-title').textContent()).toBe('greet · good:g-1  →  greet · evil:e-1');
    expect(await page.locator('#diff-out del').allTextContents()).toEqual(['Hello', 'there']);
    expect(await page.locator('#diff-out ins').allTextContents()).toEqual(['hello', '<b>friend</b>']);
    expect(await page.locator('#diff-out b').count()).toBe(0);
    expect(await page.locator('#diff-stats').textContent()).toBe('2 words removed, 2 words added');
    await page.check('input[name="diffmode"][value="line"]');
    expect(await page.locator('#diff-out del').allTextContents()).toEqual(['Hello there']);
    expect(await page.locator('#diff-out ins').allTextContents()).toEqual(['hello <b>friend</b>']);
    expect(await page.locator('#diff-stats').textContent()).toBe('1 lines removed, 1 lines added');
    await page.check('input[name="diffmode"][value="word"]');

    // A third pick lets go of the first.
    await cell('greet', 'down:d-1').locator('button.pick').click();
    expect(await page.locator('#diff-title').textContent()).toBe('greet · evil:e-1  →  greet · down:d-1');
    expect(await cell('greet', 'good:g-1').locator('button.pick').getAttribute('aria-pressed')).toBe('false');
    expect(await page.locator('#diff-out del').allTextContents()).toEqual([' <b>friend</b>']);
    expect(await page.locator('#diff-stats').textContent()).toBe('1 words removed, 0 words added');
    await page.click('#diff-clear');
    expect(await page.locator('#diff').isVisible()).toBe(false);
    expect(await page.locator('button.pick[aria-pressed="true"]').count()).toBe(0);

    const picks = cell('plain', 'good:g-1').locator('.repeat-list button.pick');
    await picks.nth(0).click();
    await picks.nth(1).click();
    expect(await page.locator('#diff-title').textContent()).toBe('plain · good:g-1 #1  →  plain · good:g-1 #2');
    expect(await page.locator('#diff-out del').allTextContents()).toEqual(['yes']);
    expect(await page.locator('#diff-out ins').allTextContents()).toEqual(['Yes, certainly.']);
    await page.click('#diff-clear');
  });

  it('runs only its own script and fetches nothing but the page itself', async () => {
    expect(await page.evaluate(() => (globalThis as any).hacked)).toBeUndefined();
    expect(await page.locator('script').count()).toBe(1);
    expect(await page.locator('script[src]').count()).toBe(0);
    expect(await page.locator('td.cell img, td.cell b, .repeat-list img').count()).toBe(0);
    expect(requested.filter((url) => !url.startsWith('file://'))).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('renders a plain run (no baseline, no suggestion, no graders, no cache): no baseline filters, the filters that apply still work', async () => {
    await open(files.plain);
    expect(await page.locator('input[name="filter"][value="regressions"]').isDisabled()).toBe(true);
    expect(await page.locator('input[name="filter"][value="fixes"]').isDisabled()).toBe(true);
    expect(await page.locator('#baseline, #suggestion, #meta-extras').count()).toBe(0);
    expect(await page.locator('#comparisons li').count()).toBe(3);
    expect(await page.$$eval('table.sxs thead th[data-column]', (ths) => ths.map((th) => th.getAttribute('data-column')))).toEqual(['good:g-1', 'evil:e-1', 'down:d-1']);
    await filter('disagreements');
    expect(await shownCases()).toEqual(['plain', HOSTILE_ID, 'json']);
    await page.fill('#search', 'JSON?');
    expect(await shownCases()).toEqual(['json']);
    expect(errors).toEqual([]);
  });

  it(`stays whole with ${LARGE_CASES} cases × 6 targets: every cell drawn, filters and search over all rows`, async () => {
    await open(files.large);
    expect(await page.locator('tr.case-row').count()).toBe(LARGE_CASES);
    expect(await page.locator('table.sxs td.cell').count()).toBe(LARGE_CASES * 6);
    // Case i fails on target t (0..5) when (i + t) % 7 === 0: on one target unless i % 7 === 1.
    const failing = Array.from({ length: LARGE_CASES }, (_, i) => i).filter((i) => i % 7 !== 1).length;
    await filter('failures');
    expect(failing).toBe(428);
    expect(await page.locator('#shown').textContent()).toBe(`${failing} of ${LARGE_CASES} cases`);
    expect(await page.locator('#case-1').isHidden()).toBe(true);
    await page.fill('#search', 'not 49');
    expect(await shownCases()).toEqual(['case-49', 'case-490', 'case-492', 'case-493', 'case-494', 'case-495', 'case-496', 'case-497', 'case-499']);
    await page.fill('#search', 'case-314');
    expect(await shownCases()).toEqual(['case-314']);
    expect(await cell('case-314', 'p1:m1').locator('pre.answer').textContent()).toBe('no, not 314');
    expect(await cell('case-314', 'p4:m4').getAttribute('class')).toBe('cell pass');
    expect(errors).toEqual([]);
  });
});
