import { describe, expect, it } from 'vitest';
import type { SwitchyardConfig } from '../../src/config/index.js';
import { agreement } from '../../src/eval/agreement.js';
import { renderHtmlReport } from '../../src/eval/html/html-report.js';
import { runEval } from '../../src/eval/run-eval.js';
import { renderTerminalReport } from '../../src/eval/terminal-report.js';
import type { ProviderRequest } from '../../providers/types.js';
import { silentLogger } from './helpers.js';

const promptOf = (request: unknown) => (request as ProviderRequest).messages.at(-1)!.content;
const PROVIDERS: SwitchyardConfig['providers'] = {
  good: { type: 'fake', respond: () => ({ text: 'yes' }) },
  same: { type: 'fake', respond: () => ({ text: 'yes' }) },
  down: { type: 'fake', respond: () => ({ fail: 'quota_exhausted' }) },
  gone: { type: 'fake', respond: () => ({ fail: 'auth', status: 401 }) },
  flaky: { type: 'fake', respond: (req: unknown) => (promptOf(req) === 'two' ? { fail: 'bad_request', status: 400 } : { text: 'yes' }) },
};
const cases = [{ id: 'one', prompt: 'one', expect: { equals: 'yes' } }, { id: 'two', prompt: 'two', expect: { equals: 'yes' } }];

async function reportOf(chain: string[]) {
  return runEval({ config: { providers: PROVIDERS, chains: { main: chain }, retry: { maxAttempts: 1 } }, chain: 'main', cases, repeat: 2, routerOptions: { logger: silentLogger } });
}

describe('what the eval summary says about agreement', () => {
  it('says the targets agree only when every target answered every case the same way', async () => {
    const report = await reportOf(['good:g-1', 'same:s-1']);
    expect(agreement(report)).toEqual({ headline: 'Targets agree on every case.', outages: [] });
    expect(renderTerminalReport(report)).toContain('\nTargets agree on every case.\n');
  });

  it('never says "targets agree" when one of two targets errors on every run: only the other answered', async () => {
    const report = await reportOf(['good:g-1', 'down:d-1']);
    expect(agreement(report)).toEqual({
      headline: 'Only good:g-1 answered, so there is nothing to compare it with.',
      outages: ['down:d-1 (quota_exhausted) failed every run: it is not compared.'],
    });
    const text = renderTerminalReport(report);
    expect(text).not.toContain('Targets agree');
    expect(text).toContain('down:d-1 (quota_exhausted) failed every run: it is not compared.');
    expect(renderHtmlReport(report)).toContain('Only good:g-1 answered, so there is nothing to compare it with. down:d-1 (quota_exhausted) failed every run: it is not compared.');
  });

  it('says the targets that answered agree, and names every target that failed every run', async () => {
    const report = await reportOf(['good:g-1', 'down:d-1', 'same:s-1', 'gone:x-1']);
    expect(agreement(report)).toEqual({
      headline: 'The targets that answered agree on every case.',
      outages: ['down:d-1 (quota_exhausted) and gone:x-1 (auth) failed every run: they are not compared.'],
    });
  });

  it('names a target that never answered some cases, apart from whether the rest agree', async () => {
    const report = await reportOf(['good:g-1', 'flaky:f-1']);
    expect(agreement(report)).toEqual({ headline: 'The targets that answered agree on every case.', outages: ['flaky:f-1 never answered 1 of 2 cases (bad_request).'] });
  });

  it('says so when no target answered at all', async () => {
    const report = await reportOf(['down:d-1', 'gone:x-1']);
    expect(agreement(report).headline).toBe('No target answered: every run failed, so there is nothing to compare.');
  });

  it('lists the cases the answering targets disagree on, then the outages', async () => {
    const report = await runEval({
      config: { providers: { ...PROVIDERS, bad: { type: 'fake', respond: () => ({ text: 'no' }) } }, chains: { main: ['good:g-1', 'bad:b-1', 'down:d-1'] }, retry: { maxAttempts: 1 } },
      chain: 'main', cases, routerOptions: { logger: silentLogger },
    });
    expect(agreement(report)).toEqual({ headline: 'Targets disagree on 2 of 2 cases:', outages: ['down:d-1 (quota_exhausted) failed every run: it is not compared.'] });
    expect(renderTerminalReport(report)).toMatch(/Targets disagree on 2 of 2 cases:\n\s+one\s+pass: good:g-1 · fail: bad:b-1 \(equals\) · error: down:d-1 \(quota_exhausted\)\n[\s\S]*\ndown:d-1 \(quota_exhausted\) failed every run/);
  });
});
