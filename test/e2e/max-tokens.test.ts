import { describe, expect, it } from 'vitest';
import { converseInput } from '../../providers/bedrock/converse-request.js';
import { bedrockThinkingTraits } from '../../providers/bedrock/model-family.js';
import { geminiPath, geminiText } from '../../providers/test-support/gemini-wire.js';
import type { ProviderRequest } from '../../providers/types.js';
import type { SwitchyardConfig } from '../../src/config/index.js';
import { thinkingPlan } from '../../src/decide/thinking-budget.js';
import { createRouter } from '../../src/router.js';
import type { ReasoningOptions } from '../../src/types.js';
import { captureLogger } from '../support/capture-logger.js';
import { ANTHROPIC_PATH, anthropicOk, OPENAI_PATH, openaiOk } from '../support/fixtures.js';
import type { Upstream } from '../support/upstream.js';
import { upstreamPerTest } from '../support/upstream-per-test.js';
import { VirtualClock } from '../support/virtual-clock.js';
import { ANTHROPIC_KEY, OPENAI_KEY } from '../support/wire-router.js';

// maxTokens 100 with and without each effort and with budgetTokens, per provider: the bodies the
// upstreams received (docs/providers.md, "maxTokens and thinking").
let up: Upstream;
const closers = upstreamPerTest((u) => (up = u));
const GEMINI_MODELS = ['gemini-2.5-flash', 'gemini-2.5-pro', 'gemini-2.5-flash-lite', 'gemini-3-pro-preview', 'gemini-2.0-flash'];

function router(targets: string[]) {
  up.otherwise(OPENAI_PATH, () => openaiOk());
  up.otherwise(ANTHROPIC_PATH, () => anthropicOk());
  for (const model of GEMINI_MODELS) up.otherwise(geminiPath(model, 'generateContent'), () => ({ status: 200, body: geminiText('Hi') }));
  const config: SwitchyardConfig = {
    providers: {
      openai: { type: 'openai', apiKey: OPENAI_KEY, baseURL: `${up.url}/v1`, timeoutMs: 60_000 },
      anthropic: { type: 'anthropic', apiKey: ANTHROPIC_KEY, baseURL: up.url, timeoutMs: 60_000 },
      gemini: { type: 'gemini', apiKey: 'AIzaSyTESTmaxTokens0123456789abcdefgh', baseURL: `${up.url}/v1beta`, timeoutMs: 60_000 },
    },
    chains: Object.fromEntries(targets.map((t) => [t, [t]])),
  };
  const r = createRouter(config, { clock: new VirtualClock(), logger: captureLogger().logger, random: () => 0 });
  closers.push(() => r.close());
  return r;
}

/** The body one target received for maxTokens 100 and `reasoning`. */
async function sent(target: string, reasoning?: ReasoningOptions): Promise<any> {
  const r = router([target]);
  await r.chat({ chain: target, messages: [{ role: 'user', content: 'Say hello' }], maxTokens: 100, ...(reasoning ? { reasoning } : {}) });
  expect(up.count()).toBe(1);
  return up.requests[0]!.body;
}

describe('maxTokens is the visible answer\'s budget: what each provider is sent for maxTokens 100', () => {
  it.each([
    ['gemini:gemini-2.5-flash', undefined, 8292, { thinkingBudget: 8192 }],
    ['gemini:gemini-2.5-flash', { effort: 'minimal' }, 100, { thinkingBudget: 0 }],
    ['gemini:gemini-2.5-flash', { effort: 'low' }, 1124, { thinkingBudget: 1024 }],
    ['gemini:gemini-2.5-flash', { effort: 'medium' }, 8292, { thinkingBudget: 8192 }],
    ['gemini:gemini-2.5-flash', { effort: 'high' }, 24_676, { thinkingBudget: 24_576 }],
    ['gemini:gemini-2.5-flash', { budgetTokens: 500 }, 600, { thinkingBudget: 500 }],
    ['gemini:gemini-2.5-pro', { effort: 'minimal' }, 228, { thinkingBudget: 128 }],
    ['gemini:gemini-2.5-pro', { budgetTokens: 40_000 }, 32_868, { thinkingBudget: 32_768 }],
    ['gemini:gemini-2.5-flash-lite', undefined, 100, undefined],
    ['gemini:gemini-2.5-flash-lite', { effort: 'low' }, 1124, { thinkingBudget: 1024 }],
    ['gemini:gemini-3-pro-preview', undefined, 24_676, undefined],
    ['gemini:gemini-3-pro-preview', { effort: 'low' }, 4196, { thinkingLevel: 'LOW' }],
    ['gemini:gemini-3-pro-preview', { budgetTokens: 2000 }, 2100, { thinkingLevel: 'LOW' }],
    ['gemini:gemini-2.0-flash', { effort: 'high' }, 100, undefined],
  ] as const)('%s with reasoning %j: maxOutputTokens %i, thinkingConfig %j', async (target, reasoning, max, thinkingConfig) => {
    const body = await sent(target, reasoning);
    expect(body.generationConfig.maxOutputTokens).toBe(max);
    expect(body.generationConfig.thinkingConfig).toEqual(thinkingConfig);
  });

  it.each([
    ['anthropic:claude-sonnet-4-5', undefined, 100, undefined, undefined],
    ['anthropic:claude-sonnet-4-5', { effort: 'minimal' }, 1124, { type: 'enabled', budget_tokens: 1024 }, undefined],
    ['anthropic:claude-sonnet-4-5', { effort: 'low' }, 1124, { type: 'enabled', budget_tokens: 1024 }, undefined],
    ['anthropic:claude-sonnet-4-5', { effort: 'medium' }, 2148, { type: 'enabled', budget_tokens: 2048 }, undefined],
    ['anthropic:claude-sonnet-4-5', { effort: 'high' }, 4196, { type: 'enabled', budget_tokens: 4096 }, undefined],
    ['anthropic:claude-sonnet-4-5', { budgetTokens: 5000 }, 5100, { type: 'enabled', budget_tokens: 5000 }, undefined],
    ['anthropic:claude-sonnet-4-5', { budgetTokens: 10 }, 1124, { type: 'enabled', budget_tokens: 1024 }, undefined],
    ['anthropic:claude-sonnet-4-6', undefined, 100, undefined, undefined],
    ['anthropic:claude-sonnet-4-6', { effort: 'low' }, 4196, { type: 'adaptive' }, { effort: 'low' }],
    ['anthropic:claude-sonnet-4-6', { effort: 'high' }, 24_676, { type: 'adaptive' }, { effort: 'high' }],
    ['anthropic:claude-sonnet-4-6', { budgetTokens: 3000 }, 3100, { type: 'adaptive' }, { effort: 'low' }],
  ] as const)('%s with reasoning %j: max_tokens %i, thinking %j, output_config %j', async (target, reasoning, max, thinking, outputConfig) => {
    const body = await sent(target, reasoning);
    expect(body.max_tokens).toBe(max);
    expect(body.thinking).toEqual(thinking);
    expect(body.output_config).toEqual(outputConfig);
  });

  it.each([
    ['openai:gpt-4o-mini', undefined, 100, undefined],
    ['openai:gpt-4o-mini', { effort: 'high' }, 100, undefined],
    ['openai:gpt-5', undefined, 8292, undefined],
    ['openai:gpt-5', { effort: 'minimal' }, 1124, 'minimal'],
    ['openai:gpt-5', { effort: 'low' }, 4196, 'low'],
    ['openai:gpt-5', { effort: 'medium' }, 8292, 'medium'],
    ['openai:gpt-5', { effort: 'high' }, 24_676, 'high'],
    ['openai:o4-mini', { budgetTokens: 6000 }, 6100, 'medium'],
  ] as const)('%s with reasoning %j: max_completion_tokens %i, reasoning_effort %s', async (target, reasoning, max, effort) => {
    const body = await sent(target, reasoning);
    expect(body.max_completion_tokens).toBe(max);
    expect(body.reasoning_effort).toBe(effort);
  });

  it('keeps Claude\'s thinking off, and max_tokens at maxTokens, when a forced tool forbids thinking', async () => {
    const r = router(['anthropic:claude-sonnet-4-5']);
    await r.chat({
      chain: 'anthropic:claude-sonnet-4-5', messages: [{ role: 'user', content: 'Weather?' }], maxTokens: 100, reasoning: { effort: 'high' },
      tools: [{ name: 'w', parameters: { type: 'object', properties: {} } }], toolChoice: 'required',
    });
    expect(up.requests[0]!.body.max_tokens).toBe(100);
    expect(up.requests[0]!.body.thinking).toBeUndefined();
    expect(up.count()).toBe(1);
  });
});

describe('Bedrock Claude: the same in its reasoning config', () => {
  const converse = (model: string, reasoning?: ReasoningOptions) => {
    const request: ProviderRequest = { model, messages: [{ role: 'user', content: 'Say hello' }], maxTokens: 100 };
    if (reasoning) request.reasoning = reasoning;
    const plan = thinkingPlan(bedrockThinkingTraits(model)!, reasoning);
    if (plan) request.thinking = plan;
    return converseInput(request) as any;
  };

  it.each([
    [undefined, 100, undefined],
    [{ effort: 'low' }, 1124, { thinking: { type: 'enabled', budget_tokens: 1024 } }],
    [{ effort: 'high' }, 4196, { thinking: { type: 'enabled', budget_tokens: 4096 } }],
    [{ budgetTokens: 2500 }, 2600, { thinking: { type: 'enabled', budget_tokens: 2500 } }],
  ] as const)('Claude 4.5 with reasoning %j: inferenceConfig.maxTokens %i, additionalModelRequestFields %j', (reasoning, max, fields) => {
    const input = converse('us.anthropic.claude-sonnet-4-5-20250929-v1:0', reasoning);
    expect(input.inferenceConfig.maxTokens).toBe(max);
    expect(input.additionalModelRequestFields).toEqual(fields);
  });

  it('Claude 4.6 adaptive: the effort\'s allowance on top, the effort in outputConfig', () => {
    const input = converse('global.anthropic.claude-opus-4-6-v1', { effort: 'medium' });
    expect(input.inferenceConfig.maxTokens).toBe(8292);
    expect(input.additionalModelRequestFields).toEqual({ thinking: { type: 'adaptive' } });
    expect(input.outputConfig).toEqual({ effort: 'medium' });
  });
});
