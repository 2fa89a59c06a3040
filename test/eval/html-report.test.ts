import { describe, expect, it } from 'vitest';
import { renderHtmlReport } from '../../src/eval/html/html-report.js';
import { applyMinPass } from '../../src/eval/min-pass.js';
import { HOSTILE_ANSWER, HOSTILE_ID, fixtureReport } from './report-fixture.js';

const report = await fixtureReport(2);
const html = renderHtmlReport(applyMinPass(report, 0.5));

describe('HTML report', () => {
  it('escapes model output, prompts and case ids, so nothing in them becomes markup', () => {
    // The one script is the page's own; an answer inside its data cannot close it.
    expect(html.match(/<script/g)).toEqual(['<script']);
    expect(html.match(/<\/script/gi)).toEqual(['</script']);
    expect(html).toContain('\\u003cscript>window.hacked = true\\u003c/script>');
    expect(html).not.toContain('<img');
    expect(html).not.toContain('<b>bold</b>');
    expect(html).not.toContain('<i>prompt</i>');
    expect(html).toContain('&lt;script&gt;window.hacked = true&lt;/script&gt;');
    expect(html).toContain('id-&lt;b&gt;bold&lt;/b&gt;');
    expect(html).toContain('onerror=&quot;window.hacked');
    expect(HOSTILE_ANSWER).toContain('<script>');
    expect(HOSTILE_ID).toContain('<b>');
  });

  it('is self-contained: one inline script, no external scripts, stylesheets, fonts, images or links', () => {
    expect(html).not.toMatch(/<script[^>]*src|<link|<img|@import|url\(|https?:\/\//i);
    expect(html).toContain('<style>');
    expect(html).toContain('<script>\nvar REPEATS = {');
  });

  it('draws a chart per metric, with stability only when cases were repeated', () => {
    const titles = [...html.matchAll(/<svg class="chart" role="img" aria-label="([^"]+)"/g)].map((m) => m[1]);
    expect(titles).toEqual(['Pass rate', 'Runs: passed, failed, errored', 'Latency p50 / p95 (answered runs)', 'Tokens (input / output)', 'Estimated cost (USD)', 'Stability over 2 repeats']);
    const once = renderHtmlReport({ ...report, repeat: 1 });
    expect(once).not.toContain('Stability over');
  });

  it('has a side-by-side cell per case and target, with its status, answer and what failed in view', () => {
    const cells = [...html.matchAll(/<td id="c\d+-\d+" class="cell (\w+)" data-case="([^"]*)" data-column="([^"]*)" data-target="([^"]*)">(.*?)<\/td>/g)];
    expect(cells).toHaveLength(3 * 3);
    const status = (c: string, t: string) => cells.find((m) => m[2] === c && m[4] === t)?.[1];
    expect(status('plain', 'good:g-1')).toBe('pass');
    expect(status('plain', 'evil:e-1')).toBe('fail');
    expect(status('plain', 'down:d-1')).toBe('error');
    const evil = cells.find((m) => m[2] === 'plain' && m[4] === 'evil:e-1')![5];
    expect(evil).toContain('<li class="fail">contains: missing &quot;yes&quot;</li>');
    expect(evil).toContain('<pre class="answer">&lt;script&gt;window.hacked');
  });

  it('shows an unknown cost as unknown and flags the targets under the minimum pass rate', () => {
    expect(html).toContain('unknown: no price in config');
    expect(html).toContain('Under the minimum pass rate of 50.0%: evil:e-1, down:d-1');
    expect(html).toMatch(/<line class="marker"/);
  });
});
