import { describe, expect, it } from 'vitest';
import type { SwitchyardConfig } from '../../src/config/index.js';
import { RouterError } from '../../src/errors.js';
import { withEvalChains } from '../../src/eval/eval-chains.js';
import { runEval, type EvalProgress } from '../../src/eval/run-eval.js';
import { createRouter } from '../../src/router.js';
import type { ProviderRequest } from '../../providers/types.js';
import { VirtualClock } from '../support/virtual-clock.js';
import { silentLogger } from './helpers.js';
import { fakeRequests } from '../../src/testing/index.js';

const promptOf = (request: unknown) => (request as ProviderRequest).messages.at(-1)!.content;

/** A chain of fake targets: `good` answers "yes" to everything; `bad` says "no" to the second case. */
function config(extra: Partial<SwitchyardConfig> = {}, providers: SwitchyardConfig['providers'] = {}): SwitchyardConfig {
  return {
    providers: {
      good: { type: 'fake', respond: () => ({ text: 'yes' }) },
      bad: { type: 'fake', respond: (req: unknown) => ({ text: promptOf(req) === 'two' ? 'no' : 'yes' }) },
      ...providers,
    },
    chains: { main: ['good:g-1', 'bad:b-1', ...Object.keys(providers).map((p) => `${p}:x-1`)] },
    retry: { maxAttempts: 3, baseDelayMs: 1, maxDelayMs: 2 },
    ...extra,
  };
}

const cases = [
  { id: 'one', prompt: 'one', expect: { equals: 'yes' } },
  { id: 'two', prompt: 'two', expect: { equals: 'yes' } },
];
const routerOptions = { logger: silentLogger };

describe('runEval', () => {
  it('runs every case against every target and reports which targets disagree', async () => {
    const report = await runEval({ config: config(), chain: 'main', cases, routerOptions });
    expect(report.targets.map((t) => [t.key, t.passed, t.runs])).toEqual([['good:g-1', 2, 2], ['bad:b-1', 1, 2]]);
    expect(report.cases.map((c) => [c.id, c.disagree, c.notPassing])).toEqual([['one', false, []], ['two', true, ['bad:b-1']]]);
    expect(report.runs).toHaveLength(4);
    expect(report.targets[1]!.failuresByExpectation).toEqual({ equals: 1 });
  });

  it('evaluates each member of a pool as a target of its own, named by the member that answered', async () => {
    const base = config({ chains: { main: [{ pool: ['east:gpt-4o', 'west:gpt-4o'] }, 'good:g-1'] } }, {
      east: { type: 'fake', respond: () => ({ text: 'yes' }) },
      west: { type: 'fake', respond: (req: unknown) => ({ text: promptOf(req) === 'two' ? 'no' : 'yes' }) },
    });
    const router = createRouter(withEvalChains(base, 'main').config, routerOptions);
    const report = await runEval({ router, chain: 'main', cases });
    expect(report.targets.map((t) => [t.key, t.passed, t.runs])).toEqual([['east:gpt-4o', 2, 2], ['west:gpt-4o', 1, 2], ['good:g-1', 2, 2]]);
    expect(report.cases.find((c) => c.id === 'two')).toMatchObject({ disagree: true, notPassing: ['west:gpt-4o'] });
    // Each member's runs went to that member alone: the pool never picked for the eval.
    expect([fakeRequests(router, 'east').length, fakeRequests(router, 'west').length]).toEqual([2, 2]);
    expect(report.runs.filter((r) => r.target === 'west:gpt-4o').map((r) => r.text)).toEqual(['yes', 'no']);
    await router.close();
  });

  it('calls each target directly: a failing first target never falls through to the next', async () => {
    const base = config({ chains: { main: ['down:x-1', 'good:g-1'] } }, { down: { type: 'fake', respond: () => ({ fail: 'server' }) } });
    const router = createRouter(withEvalChains(base, 'main').config, routerOptions);
    const report = await runEval({ router, chain: 'main', cases });
    const byTarget = Object.fromEntries(report.targets.map((t) => [t.key, t]));
    expect(byTarget['down:x-1']).toMatchObject({ passed: 0, errored: 2 });
    // Retried, then (with the breaker's volume reached) skipped: never answered by another target.
    expect(Object.keys(byTarget['down:x-1']!.errorKinds).every((k) => k === 'server' || k === 'circuit_open')).toBe(true);
    expect(byTarget['good:g-1']).toMatchObject({ passed: 2, runs: 2 });
    expect(fakeRequests(router, 'good')).toHaveLength(2);
    await router.close();
  });

  it('reports a target that fails every call with quota, and completes the run for the others', async () => {
    const report = await runEval({
      config: config({}, { broke: { type: 'fake', respond: () => ({ fail: 'quota_exhausted' }) } }),
      chain: 'main', cases, repeat: 3, routerOptions,
    });
    const broke = report.targets.find((t) => t.key === 'broke:x-1')!;
    expect(broke).toMatchObject({ runs: 6, passed: 0, errored: 6, passRate: 0, latencyMs: null, errorKinds: { quota_exhausted: 6 } });
    expect(report.runs.filter((r) => r.target === 'broke:x-1').every((r) => r.error?.kind === 'quota_exhausted')).toBe(true);
    expect(report.targets.find((t) => t.key === 'good:g-1')).toMatchObject({ passed: 6, passRate: 1 });
    expect(report.cases.every((c) => c.cells.find((cell) => cell.target === 'broke:x-1')!.status === 'error')).toBe(true);
  });

  it('retries a transient failure on the same target per the router\'s rules', async () => {
    let calls = 0;
    const report = await runEval({
      config: config({ chains: { main: ['flaky:x-1'] } }, { flaky: { type: 'fake', respond: () => (++calls === 1 ? { fail: 'server' } : { text: 'yes' }) } }),
      chain: 'main', cases: [cases[0]!], routerOptions,
    });
    expect(report.runs[0]).toMatchObject({ ok: true, pass: true, requests: 2 });
  });

  it('waits for a target that is cooling after a long rate-limit hint, then asks again', async () => {
    const clock = new VirtualClock();
    const report = await runEval({
      config: config({ chains: { main: ['busy:x-1'] } }, { busy: { type: 'fake', respond: (_req: unknown, n: number) => (n === 1 ? { fail: 'rate_limited', retryAfterMs: 20_000 } : { text: 'yes' }) } }),
      chain: 'main', cases: [cases[0]!], routerOptions: { ...routerOptions, clock, random: () => 0.5 },
    });
    expect(report.runs[0]).toMatchObject({ ok: true, pass: true, requests: 2 });
    expect(report.runs[0]!.capacityWaitMs).toBeGreaterThanOrEqual(20_000);
    expect(clock.sleeps).toContain(report.runs[0]!.capacityWaitMs);
  });

  it('records a rate limit whose reset is further away than capacityWaitMs as an error, without waiting', async () => {
    const clock = new VirtualClock();
    const report = await runEval({
      config: config({ chains: { main: ['busy:x-1'] } }, { busy: { type: 'fake', script: [{ fail: 'rate_limited', retryAfterMs: 600_000 }] } }),
      chain: 'main', cases: [cases[0]!], capacityWaitMs: 60_000, routerOptions: { ...routerOptions, clock },
    });
    expect(report.runs[0]).toMatchObject({ ok: false, error: { kind: 'rate_limited', status: 429 } });
    expect(clock.sleeps).toEqual([]);
  });

  it('keeps no more calls in flight than the concurrency limit', async () => {
    let inFlight = 0;
    let peak = 0;
    const slow = { type: 'fake' as const, latencyMs: 5, respond: () => { peak = Math.max(peak, ++inFlight); return { text: 'yes' }; } };
    const many = Array.from({ length: 12 }, (_, i) => ({ id: `c${i}`, prompt: `p${i}` }));
    await runEval({
      config: { providers: { a: slow, b: slow }, chains: { main: ['a:1', 'b:1'] } },
      chain: 'main', cases: many, concurrency: 3, routerOptions,
      onProgress: () => inFlight--,
    });
    expect(peak).toBe(3);
  });

  it('orders the report by case, target and repeat whatever order the calls finish in', async () => {
    // Earlier cases answer slowest, so they finish last.
    const respond = (req: unknown) => ({ text: 'yes', latencyMs: 30 - Number(promptOf(req)) * 10 });
    const threeCases = [0, 1, 2].map((i) => ({ id: `case-${i}`, prompt: String(i) }));
    const finished: string[] = [];
    const report = await runEval({
      config: { providers: { a: { type: 'fake', respond }, b: { type: 'fake', respond } }, chains: { main: ['a:1', 'b:1'] } },
      chain: 'main', cases: threeCases, repeat: 2, concurrency: 12, routerOptions,
      onProgress: (p: EvalProgress) => finished.push(p.last.caseId),
    });
    expect(finished[0]).toBe('case-2');
    expect(report.runs.map((r) => `${r.caseId}/${r.target}/${r.repeat}`)).toEqual([
      'case-0/a:1/0', 'case-0/a:1/1', 'case-0/b:1/0', 'case-0/b:1/1',
      'case-1/a:1/0', 'case-1/a:1/1', 'case-1/b:1/0', 'case-1/b:1/1',
      'case-2/a:1/0', 'case-2/a:1/1', 'case-2/b:1/0', 'case-2/b:1/1',
    ]);
  });

  it('reports progress after every run, ending at the total', async () => {
    const seen: EvalProgress[] = [];
    await runEval({ config: config(), chain: 'main', cases, repeat: 2, routerOptions, onProgress: (p) => seen.push(p) });
    expect(seen.map((p) => p.done)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(seen.at(-1)).toMatchObject({ total: 8, passed: 6, failed: 2, errored: 0 });
  });

  it('estimates cost from the config\'s prices and leaves an unpriced target unknown', async () => {
    const report = await runEval({
      config: config({ prices: { 'good:g-1': { inputPerMTok: 1_000_000, outputPerMTok: 0 } } }),
      chain: 'main', cases, routerOptions,
    });
    const [good, bad] = report.targets;
    expect(good!.costUsd).toBe(good!.tokens.input);
    expect(bad!.costUsd).toBeNull();
  });

  it('measures stability across repeats', async () => {
    let n = 0;
    const report = await runEval({
      config: config({ chains: { main: ['good:g-1', 'wobbly:x-1'] } }, { wobbly: { type: 'fake', respond: () => ({ text: ++n % 2 ? 'yes' : 'no' }) } }),
      chain: 'main', cases: [cases[0]!], repeat: 4, concurrency: 1, routerOptions,
    });
    expect(report.targets.map((t) => t.stability)).toEqual([1, 0.5]);
    expect(report.targets[1]!.flakyCases).toBe(1);
  });

  it('sends the case\'s call options with the request', async () => {
    const router = createRouter(withEvalChains(config(), 'main').config, routerOptions);
    await runEval({ router, chain: 'main', targets: ['good'], cases: [{ id: 'o', prompt: 'x', options: { maxTokens: 7, temperature: 0.3 } }] });
    const sent = fakeRequests(router, 'good');
    expect(sent).toEqual([{ model: 'g-1', messages: [{ role: 'user', content: 'x' }], maxTokens: 7, temperature: 0.3 }]);
    await router.close();
  });

  it('picks targets by provider:model, provider or model, in chain order', async () => {
    const report = await runEval({ config: config(), chain: 'main', cases, targets: ['b-1', 'good:g-1'], routerOptions });
    expect(report.targets.map((t) => t.key)).toEqual(['good:g-1', 'bad:b-1']);
  });

  it.each([
    ['an unknown chain', { chain: 'nope' }, 'unknown chain "nope" (declared: main)'],
    ['an unknown target', { targets: ['gpt-5'] }, 'no target "gpt-5" in chain "main" (targets: good:g-1, bad:b-1)'],
    ['a repeat of zero', { repeat: 0 }, 'repeat must be a positive integer'],
  ])('refuses %s before sending anything', async (_name, options, message) => {
    await expect(runEval({ config: config(), chain: 'main', cases, routerOptions, ...options })).rejects.toThrow(message);
  });

  it('refuses a router built without the eval chains', async () => {
    const router = createRouter(config(), routerOptions);
    const err = await runEval({ router, chain: 'main', cases }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RouterError);
    expect((err as RouterError).message).toContain('withEvalChains');
    await router.close();
  });

  it('keeps API keys out of error messages in the report', async () => {
    const report = await runEval({
      config: config({ chains: { main: ['leaky:x-1'] } }, {
        leaky: { type: 'fake', apiKey: 'super-secret-key-123', respond: () => ({ fail: 'auth', message: 'Incorrect API key provided: super-secret-key-123 (sk-abcdef123456789)' }) },
      }),
      chain: 'main', cases: [cases[0]!], routerOptions,
    });
    const text = JSON.stringify(report);
    expect(report.runs[0]!.error).toMatchObject({ kind: 'auth', status: 401 });
    expect(text).not.toContain('super-secret-key-123');
    expect(text).not.toContain('sk-abcdef123456789');
    expect(report.runs[0]!.error!.message).toContain('[REDACTED]');
  });
});

describe('runEval, cases with tools and structured output', () => {
  const weather = { name: 'get_weather', description: 'Weather for a city', parameters: { type: 'object', properties: { city: { type: 'string', enum: ['Paris', 'Rome'] } }, required: ['city'] } };
  const toolConfig = (): SwitchyardConfig => ({
    providers: {
      caller: { type: 'fake' },
      talker: { type: 'fake', respond: () => ({ text: 'It is sunny.' }) },
    },
    chains: { main: ['caller:c-1', 'talker:t-1'] },
    retry: { maxAttempts: 1 },
  });

  it('passes a target that calls the expected tool with the expected arguments, and fails one that answers in prose', async () => {
    const report = await runEval({
      config: toolConfig(), chain: 'main', routerOptions,
      cases: [{ id: 'weather', prompt: 'What is the weather? Use get_weather.', tools: [weather], expect: { toolCall: { name: 'get_weather', arguments: { city: 'Paris' } } } }],
    });
    const byTarget = Object.fromEntries(report.targets.map((t) => [t.key, t]));
    expect(byTarget['caller:c-1']).toMatchObject({ passed: 1 });
    expect(byTarget['talker:t-1']).toMatchObject({ passed: 0, failuresByExpectation: { toolCall: 1 } });
    const run = report.runs.find((r) => r.target === 'caller:c-1')!;
    expect(run.text).toBe('→ get_weather({"city":"Paris"})');
  });

  it('checks the parsed object of a structured answer against expect.object, and reports invalid output as an error', async () => {
    const schema = { type: 'object', properties: { priority: { type: 'string', enum: ['high', 'low'] } }, required: ['priority'] };
    const report = await runEval({
      config: toolConfig(), chain: 'main', routerOptions,
      cases: [{ id: 'triage', prompt: 'Checkout is down for everyone', responseFormat: { type: 'json_schema', schema }, expect: { object: { priority: 'high' } } }],
    });
    const byTarget = Object.fromEntries(report.targets.map((t) => [t.key, t]));
    expect(byTarget['caller:c-1']).toMatchObject({ passed: 1 });
    expect(byTarget['talker:t-1']).toMatchObject({ passed: 0, errored: 1, errorKinds: { invalid_output: 1 } });
  });

  it('refuses expectations a case cannot meet: toolCall without tools, object without responseFormat', async () => {
    await expect(runEval({ config: toolConfig(), chain: 'main', routerOptions, cases: [{ id: 'x', prompt: 'hi', expect: { toolCall: { name: 'get_weather' } } }] })).rejects.toThrow(/expect\.toolCall: needs tools/);
    await expect(runEval({ config: toolConfig(), chain: 'main', routerOptions, cases: [{ id: 'y', prompt: 'hi', expect: { object: { a: 1 } } }] })).rejects.toThrow(/expect\.object: needs responseFormat/);
  });
});
