import { Registry } from 'prom-client';
import { afterEach, describe, expect, it } from 'vitest';
import { collectMetrics } from '../../src/integrations/prometheus/index.js';
import type { SwitchyardConfig } from '../../src/config/index.js';
import { evalShadowGrader } from '../../src/eval/shadow-grader.js';
import type { RouterEvents } from '../../src/observe/events.js';
import { createRouter } from '../../src/router.js';
import { fakeRequests } from '../../src/testing/index.js';
import { captureLogger } from '../support/capture-logger.js';
import { VirtualClock } from '../support/virtual-clock.js';

// A shadow answer scored with the eval expectations and the eval judge (evalShadowGrader), on the
// fake provider through the real code paths: the judge is a chain of the same router.

let closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of closers.reverse()) await c();
  closers = [];
});

const turns = async (n = 20) => {
  for (let i = 0; i < n; i++) await new Promise<void>((r) => setImmediate(r));
};

function scored(judgeSays: unknown, shadow: Record<string, unknown>, grader = true) {
  const clock = new VirtualClock({ autoAdvance: false });
  const router = createRouter({
    providers: {
      prod: { type: 'fake', respond: () => ({ text: 'Paris' }) },
      cand: { type: 'fake', respond: () => ({ text: 'It is Lyon' }) },
      judge: { type: 'fake', respond: () => ({ text: typeof judgeSays === 'string' ? judgeSays : JSON.stringify(judgeSays) }) },
    },
    chains: {
      default: { steps: ['prod:m'], shadow: Object.assign({ targets: ['cand:m'], percent: 100 }, shadow) },
      judge: ['judge:m'],
    } as unknown as SwitchyardConfig['chains'],
    retry: { maxAttempts: 1 },
  }, grader ? { logger: captureLogger().logger, clock, shadowGrader: evalShadowGrader } : { logger: captureLogger().logger, clock });
  closers.push(() => router.close());
  const events: RouterEvents['shadow'][] = [];
  router.on('shadow', (e) => events.push(e));
  const settle = async () => {
    for (let i = 0; i < 3; i++) {
      await turns();
      await clock.advance(0);
    }
    await turns();
  };
  return { router, events, settle, sent: (p: string) => fakeRequests(router, p).length };
}

const ask = { messages: [{ role: 'user' as const, content: 'Capital of France? One word.' }] };

describe('a scored shadow', () => {
  it("puts the expectations' verdict and the judge's score and reason in the shadow event", async () => {
    const { router, events, settle, sent } = scored({ score: 0.25, reason: 'names the wrong city' }, {
      expect: { contains: 'Paris', maxLength: 40 },
      judge: { rubric: 'Names the capital of France.', minScore: 0.7 },
    });
    const result = await router.chat(ask);
    expect(result.text).toBe('Paris');
    await settle();
    expect([sent('prod'), sent('cand'), sent('judge')]).toEqual([1, 1, 1]);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      provider: 'cand', outcome: 'ok',
      agreement: { equal: false, similarity: 0 },
      expect: { pass: false, failed: [{ name: 'contains', reason: 'missing "Paris"' }] },
      judge: { score: 0.25, reason: 'names the wrong city', pass: false },
    });
    expect(events[0]!.graderError).toBeUndefined();
    // The judge read the rubric with the real answer as its reference, and the shadow's answer.
    const judged = JSON.stringify(fakeRequests(router, 'judge')[0]!.messages);
    expect(judged).toContain('the production target answered:\\nParis');
    expect(judged).toContain('It is Lyon');
  });

  it('counts shadows, their similarity, expectations and judge scores in the switchyard_shadow_* metrics', async () => {
    const { router, settle } = scored({ score: 0.25, reason: 'wrong city' }, { expect: { contains: 'Paris' }, judge: { rubric: 'r' } });
    const registry = new Registry();
    const stop = collectMetrics(router, { registry });
    await router.chat(ask);
    await router.chat(ask);
    await settle();
    const text = await registry.metrics();
    stop();
    expect(text).toContain('switchyard_shadow_total{chain="default",target="cand:m",outcome="ok"} 2');
    expect(text).toContain('switchyard_shadow_similarity_count{chain="default",target="cand:m"} 2');
    expect(text).toContain('switchyard_shadow_expect_total{chain="default",target="cand:m",pass="false"} 2');
    expect(text).toContain('switchyard_shadow_judge_score_sum{chain="default",target="cand:m"} 0.5');
  });

  it("reports a malformed verdict as the grader's error, and keeps the shadow's own outcome ok", async () => {
    const { router, events, settle } = scored('no verdict here', { judge: { rubric: 'r' } });
    await router.chat(ask);
    await settle();
    expect(events).toEqual([expect.objectContaining({ outcome: 'ok', graderError: expect.stringContaining('judge:') })]);
    expect(events[0]!.judge).toBeUndefined();
  });

  it('says no grader was given when the chain asks for one and the router has none', async () => {
    const { router, events, settle, sent } = scored({ score: 1, reason: 'ok' }, { judge: { rubric: 'r' } }, false);
    await router.chat(ask);
    await settle();
    expect(sent('judge')).toBe(0);
    expect(events).toEqual([expect.objectContaining({ outcome: 'ok', agreement: { equal: false, similarity: 0 }, graderError: expect.stringContaining('no shadow grader') })]);
  });

  it('refuses a shadow.expect with judge or similar at config load, naming the field (they are graded apart; a shadow has shadow.judge)', () => {
    for (const graded of [{ judge: { rubric: 'r' } }, { similar: { to: 'Paris' } }]) {
      expect(() => scored({}, { expect: graded })).toThrow(/chains\.default\.shadow\.expect.*judge and similar are not checked on shadow answers/s);
    }
  });
});
