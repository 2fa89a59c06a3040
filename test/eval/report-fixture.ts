import { runEval } from '../../src/eval/run-eval.js';
import type { EvalReport } from '../../src/eval/report-types.js';
import { silentLogger } from './helpers.js';

/** Model output and a case id that would inject markup if a report did not escape them. */
export const HOSTILE_ANSWER = '<script>window.hacked = true</script><img src=x onerror="window.hacked = true"> & "quotes"';
export const HOSTILE_ID = 'id-<b>bold</b>';

/** A small real report: 3 cases × 3 targets (one hostile, one down) × `repeat`. */
export async function fixtureReport(repeat = 2): Promise<EvalReport> {
  return runEval({
    config: {
      providers: {
        good: { type: 'fake', respond: (req: unknown) => ({ text: JSON.stringify(req).includes('JSON?') ? '{"yes": true}' : 'yes' }) },
        evil: { type: 'fake', respond: () => ({ text: HOSTILE_ANSWER }) },
        down: { type: 'fake', respond: () => ({ fail: 'quota_exhausted' }) },
      },
      chains: { main: ['good:g-1', 'evil:e-1', 'down:d-1'] },
      prices: { 'g-1': { inputPerMTok: 1, outputPerMTok: 2 } },
    },
    chain: 'main',
    cases: [
      { id: 'plain', prompt: 'Say yes', expect: { contains: 'yes' } },
      { id: HOSTILE_ID, prompt: '<i>prompt</i>', expect: { maxLength: 10 } },
      { id: 'json', prompt: 'JSON?', expect: { json: true } },
    ],
    repeat,
    routerOptions: { logger: silentLogger },
  });
}
