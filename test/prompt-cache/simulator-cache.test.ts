import { afterEach, describe, expect, it } from 'vitest';
import type { SwitchyardConfig } from '../../src/config/index.js';
import { createRouter } from '../../src/router.js';
import { startSimulator, type Simulator } from '../../src/sim/index.js';
import { spendWindows } from '../../src/decide/cost.js';
import { SHIPPED_PRICES } from '../../src/spend/prices.js';
import { MemoryStore } from '../../src/store/memory-store.js';
import type { ChatRequest, Message, Usage } from '../../src/types.js';
import { captureLogger } from '../support/capture-logger.js';
import { VirtualClock } from '../support/virtual-clock.js';

// Prompt caching end to end on the simulator's prefix cache (src/sim/prefix-cache.ts): the router,
// each adapter through its real SDK, and a simulated provider that caches prompts the way the
// provider does, on one virtual clock. A second identical call reads what the first wrote, and costs
// less in costUsd, by the price table's arithmetic.

const SONNET = 'claude-sonnet-4-6';
const BEDROCK_CLAUDE = 'anthropic.claude-sonnet-4-5-20250929-v1:0';
const GPT = 'gpt-4o';
/** A system prompt of about 1,900 tokens (4 characters a token): above every caching minimum. */
const RULES = Array.from({ length: 300 }, (_, i) => `Rule ${String(i).padStart(3, '0')}: write it down.`).join(' ');

let cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const fn of cleanup.reverse()) await fn();
  cleanup = [];
});

async function setup(config: Partial<SwitchyardConfig> = {}) {
  const clock = new VirtualClock();
  const sim: Simulator = await startSimulator({
    clock,
    providers: { claude: { type: 'anthropic', prefixCache: {} }, aws: { type: 'bedrock', prefixCache: {} }, oai: { type: 'openai', prefixCache: {} } },
  });
  cleanup.push(() => sim.stop());
  const store = new MemoryStore();
  const router = createRouter({
    providers: {
      claude: { type: 'anthropic', apiKey: 'sk-ant-sim', baseURL: sim.baseURL('claude'), timeoutMs: 60_000 },
      aws: { type: 'bedrock', region: 'us-east-1', baseURL: sim.baseURL('aws'), timeoutMs: 60_000 },
      oai: { type: 'openai', apiKey: 'sk-sim', baseURL: sim.baseURL('oai'), timeoutMs: 60_000 },
    },
    chains: {
      claude: [`claude:${SONNET}`],
      auto: { steps: [`claude:${SONNET}`], promptCache: { auto: true } },
      bedrock: { steps: [`aws:${BEDROCK_CLAUDE}`], promptCache: { auto: true } },
      gpt: [`oai:${GPT}`],
    },
    retry: { maxAttempts: 1 },
    ...config,
  }, { logger: captureLogger().logger, clock, store });
  cleanup.push(() => router.close());
  const sent = (provider: string) => sim.stats().providers[provider]!.requests;
  return { sim, router, clock, store, sent };
}

/** The table's arithmetic, written out: fresh input, reads, 5-minute and 1-hour writes, output. */
function tableCost(u: Usage, p: { inputPerMTok: number; cachedInputPerMTok?: number; cacheWritePerMTok?: number; cacheWrite1hPerMTok?: number; outputPerMTok: number }) {
  const read = u.cachedInputTokens ?? 0;
  const written = u.cacheWriteTokens ?? 0;
  const hour = u.cacheWrite1hTokens ?? 0;
  return ((u.inputTokens - read - written) * p.inputPerMTok + read * (p.cachedInputPerMTok ?? p.inputPerMTok)
    + (written - hour) * (p.cacheWritePerMTok ?? p.inputPerMTok) + hour * (p.cacheWrite1hPerMTok ?? p.cacheWritePerMTok ?? p.inputPerMTok)
    + u.outputTokens * p.outputPerMTok) / 1e6;
}

const marked: Message[] = [{ role: 'system', content: RULES, cache: {} }, { role: 'user', content: 'Which rule comes first?' }];

describe('an Anthropic target with a breakpoint, on the simulator', () => {
  it('writes the prefix on the first call, reads it on a second identical one within 5 minutes, and writes it again after', async () => {
    const { router, clock, sent } = await setup();
    const price = SHIPPED_PRICES.anthropic![SONNET]!;
    const first = await router.chat({ chain: 'claude', messages: marked });
    const written = first.usage!.cacheWriteTokens!;
    expect(written).toBeGreaterThan(1_024);
    expect(first.usage).toMatchObject({ cacheWriteTokens: written, cacheWrite5mTokens: written, cacheWrite1hTokens: 0 });
    expect(first.usage!.cachedInputTokens).toBeUndefined();

    await clock.advance(299_000);
    const second = await router.chat({ chain: 'claude', messages: marked });
    expect(second.usage).toEqual({ inputTokens: first.usage!.inputTokens, outputTokens: first.usage!.outputTokens, cachedInputTokens: written });
    expect(second.costUsd).toBeLessThan(first.costUsd!);
    expect(first.costUsd).toBeCloseTo(tableCost(first.usage!, price), 12);
    expect(second.costUsd).toBeCloseTo(tableCost(second.usage!, price), 12);
    // Written at 1.25x input, read at 0.1x: the difference is the prefix at 1.15x the input price.
    expect(first.costUsd! - second.costUsd!).toBeCloseTo(written * (3.75 - 0.3) / 1e6, 12);

    // A hit refreshed the entry: 5 minutes after the second call (not the first) it has expired.
    await clock.advance(300_001);
    const third = await router.chat({ chain: 'claude', messages: marked });
    expect(third.usage).toMatchObject({ cacheWriteTokens: written });
    expect(third.usage!.cachedInputTokens).toBeUndefined();
    expect(sent('claude')).toBe(3);
  });

  it('reports 1-hour and 5-minute writes apart, and after 6 minutes reads the 1-hour prefix and rewrites the 5-minute one', async () => {
    const { router, clock, sent } = await setup();
    const messages: Message[] = [{ role: 'system', content: RULES, cache: { ttl: '1h' } }, { role: 'user', content: `Now this. ${RULES}`, cache: {} }];
    const first = await router.chat({ chain: 'claude', messages });
    const { cacheWrite1hTokens: hour, cacheWrite5mTokens: five } = first.usage!;
    expect(hour).toBeGreaterThan(1_024);
    expect(five).toBeGreaterThan(1_024);
    expect(first.usage!.cacheWriteTokens).toBe(hour! + five!);
    expect(first.costUsd).toBeCloseTo(tableCost(first.usage!, SHIPPED_PRICES.anthropic![SONNET]!), 12);

    await clock.advance(360_000);
    const second = await router.chat({ chain: 'claude', messages });
    expect(second.usage).toMatchObject({ cachedInputTokens: hour, cacheWriteTokens: five, cacheWrite5mTokens: five, cacheWrite1hTokens: 0 });
    expect(second.costUsd).toBeLessThan(first.costUsd!);
    expect(sent('claude')).toBe(2);
  });

  it('caches nothing without a breakpoint; promptCache.auto places one, so the second call reads', async () => {
    const { router, sent } = await setup();
    const plain: ChatRequest = { chain: 'claude', messages: [{ role: 'system', content: RULES }, { role: 'user', content: 'Which rule comes first?' }] };
    await router.chat(plain);
    const again = await router.chat(plain);
    expect(again.usage!.cachedInputTokens).toBeUndefined();
    expect(again.usage!.cacheWriteTokens).toBeUndefined();
    const auto = await router.chat({ ...plain, chain: 'auto' });
    expect(auto.usage!.cacheWriteTokens).toBeGreaterThan(1_024);
    const autoAgain = await router.chat({ ...plain, chain: 'auto' });
    // The system prefix and the last user turn were both written; the second call reads them all.
    expect(autoAgain.usage!.cachedInputTokens).toBe(auto.usage!.cacheWriteTokens);
    expect(autoAgain.costUsd).toBeLessThan(auto.costUsd!);
    expect(sent('claude')).toBe(4);
  });
});

describe('a Bedrock Claude target with promptCache.auto, on the simulator', () => {
  it('writes on the first call (cacheWriteInputTokens with cacheDetails), reads on the second, and prices both by the table', async () => {
    const { router, sent } = await setup();
    const price = SHIPPED_PRICES.bedrock![BEDROCK_CLAUDE]!;
    const request: ChatRequest = { chain: 'bedrock', messages: [{ role: 'system', content: RULES }, { role: 'user', content: 'Which rule comes first?' }] };
    const first = await router.chat(request);
    const written = first.usage!.cacheWriteTokens!;
    expect(written).toBeGreaterThan(1_024);
    expect(first.usage).toMatchObject({ cacheWrite5mTokens: written, cacheWrite1hTokens: 0 });
    const second = await router.chat(request);
    expect(second.usage).toMatchObject({ cachedInputTokens: written });
    expect(second.usage!.cacheWriteTokens).toBeUndefined();
    expect(first.costUsd).toBeCloseTo(tableCost(first.usage!, price), 12);
    expect(second.costUsd).toBeCloseTo(tableCost(second.usage!, price), 12);
    expect(second.costUsd).toBeLessThan(first.costUsd!);
    expect(sent('aws')).toBe(2);
  });
});

describe('an OpenAI target, on the simulator', () => {
  it('reports cached_tokens for a repeated prefix of at least 1,024 tokens, in 128-token steps, and none for a short one', async () => {
    const { router, sent } = await setup();
    const price = SHIPPED_PRICES.openai![GPT]!;
    const request: ChatRequest = { chain: 'gpt', messages: [{ role: 'system', content: RULES }, { role: 'user', content: 'Which rule comes first?' }] };
    const first = await router.chat(request);
    expect(first.usage!.cachedInputTokens).toBeUndefined();
    const second = await router.chat(request);
    const input = second.usage!.inputTokens;
    expect(second.usage!.cachedInputTokens).toBe(input - (input % 128));
    expect(second.costUsd).toBeCloseTo(tableCost(second.usage!, price), 12);
    expect(second.costUsd).toBeLessThan(first.costUsd!);
    const short: ChatRequest = { chain: 'gpt', messages: [{ role: 'user', content: 'Hello there' }] };
    await router.chat(short);
    expect((await router.chat(short)).usage!.cachedInputTokens).toBeUndefined();
    expect(sent('oai')).toBe(4);
  });
});

describe('spend with cache prices', () => {
  it('settles each attempt at its cached cost (writes at 1.25x, reads at 0.1x) while reserving the uncached worst case', async () => {
    const { router, store, clock } = await setup({ tenants: { acme: { spend: { usdPerDay: 1 } } } });
    const day = spendWindows(clock.now()).day.name;
    const spent = () => store.readSpend([day], 'tenant:acme').reduce((sum, row) => sum + row.usd, 0);
    const first = await router.chat({ chain: 'claude', messages: marked, tenant: 'acme' });
    // The write costs more than the same prompt uncached: the settled spend is the cost, above the input price.
    const uncached = (first.usage!.inputTokens * 3 + first.usage!.outputTokens * 15) / 1e6;
    expect(first.costUsd).toBeGreaterThan(uncached);
    expect(spent()).toBeCloseTo(first.costUsd!, 12);
    const second = await router.chat({ chain: 'claude', messages: marked, tenant: 'acme' });
    expect(spent()).toBeCloseTo(first.costUsd! + second.costUsd!, 12);
    expect(second.costUsd).toBeLessThan(uncached);
  });

  it('refuses a call whose uncached worst case does not fit what the cached calls left', async () => {
    // Each call reserves its prompt estimate (~2,100 tokens) at $3/M and 1,024 output tokens at $15/M: $0.0218.
    // The first settles at its write cost ($0.0078), the later ones at their read cost ($0.0013): after two
    // calls a third worst case still fits $0.0315 (it would not, were the reservation priced at the 1-hour
    // write rate: ~$0.027); after three, a fourth does not.
    const { router, sent } = await setup({ tenants: { acme: { spend: { usdPerDay: 0.0315 } } } });
    const request: ChatRequest = { chain: 'claude', messages: marked, tenant: 'acme', maxTokens: 1_024 };
    const first = await router.chat(request);
    const second = await router.chat(request);
    expect(second.usage!.cachedInputTokens).toBe(first.usage!.cacheWriteTokens);
    await router.chat(request);
    const err = await router.chat(request).then(() => undefined, (e: unknown) => e as { kind: string; message: string });
    expect(err?.kind).toBe('budget_exceeded');
    expect(err?.message).toMatch(/may cost up to \$0\.02\d\d/);
    expect(sent('claude')).toBe(3);
  });
});
