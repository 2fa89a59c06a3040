import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { chatKind } from '../../src/calls/chat.js';
import type { SwitchyardConfig } from '../../src/config/index.js';
import { INTERNALS, createRouter, type Router, type RouterInternals } from '../../src/router.js';
import { MemoryStore } from '../../src/store/memory-store.js';
import { captureLogger } from '../support/capture-logger.js';
import { OPENAI_PATH, openaiOk } from '../support/fixtures.js';
import { startUpstream, type Upstream } from '../support/upstream.js';
import { VirtualClock } from '../support/virtual-clock.js';
import { OPENAI_KEY, rejectionOf } from '../support/wire-router.js';

// A spend refusal comes after admission took the attempt's request and tokens from the endpoint's
// local pacing level (what a pool orders its members by). The attempt sends nothing, so all of it
// must come back: refused calls must not look like load.

const CENT_A_TOKEN = { inputPerMTok: 10_000, outputPerMTok: 10_000 };
const PROMPT = 'Please say hello to everyone in this room, politely.';
const ask = (tenant = 'acme') => ({ messages: [{ role: 'user' as const, content: PROMPT }], tenant, maxTokens: 10 });

let up: Upstream;
let routers: Router[] = [];
beforeEach(async () => {
  up = await startUpstream();
  up.otherwise(OPENAI_PATH, () => openaiOk('Hello!')); // 19 prompt and 10 completion tokens
});
afterEach(async () => {
  for (const r of routers) await r.close();
  routers = [];
  await up.close();
});

function setup(usdPerDay: number) {
  const limits = { rpm: 600, tpm: 60_000 };
  const cfg: SwitchyardConfig = {
    providers: {
      openai: { type: 'openai', apiKey: OPENAI_KEY, baseURL: `${up.url}/v1`, timeoutMs: 60_000, limits },
      backup: { type: 'openai', apiKey: OPENAI_KEY, baseURL: `${up.url}/v1`, timeoutMs: 60_000, limits },
    },
    chains: { default: [{ pool: ['openai:gpt-4o-mini', 'backup:gpt-4o-mini'] }] },
    retry: { maxAttempts: 1, baseDelayMs: 10, maxDelayMs: 40 },
    prices: { 'gpt-4o-mini': CENT_A_TOKEN },
    tenants: { acme: { spend: { usdPerDay } } },
  };
  const clock = new VirtualClock();
  const router = createRouter(cfg, { logger: captureLogger().logger, clock, store: new MemoryStore() });
  routers.push(router);
  const rt = (router as Router & { [INTERNALS]: RouterInternals })[INTERNALS].runtime;
  const levels = () => rt.chains.get('default')!.map((t) => chatKind.endpoint(t).load.level!.share(clock.now()));
  return { router, clock, levels };
}

describe('a spend refusal after admission', () => {
  it('leaves the pool members\' pacing levels as they were, however many calls it refuses', async () => {
    // $0.10 a day: every call's worst case (about $0.30) is refused, after admission took its room.
    const { router, levels } = setup(0.1);
    for (let i = 0; i < 8; i++) {
      const err = await rejectionOf(router.chat(ask()));
      expect(err.kind).toBe('budget_exceeded');
    }
    expect(up.count(OPENAI_PATH)).toBe(0);
    // Nothing was taken, net: every bucket full (a share of 1, or nothing taken yet at all).
    for (const share of levels()) expect(share ?? 1).toBeCloseTo(1, 10);
  });

  it('still charges a call that was sent (the give-back is for unsent attempts only)', async () => {
    const { router, levels } = setup(100);
    await router.chat(ask());
    expect(up.count(OPENAI_PATH)).toBe(1);
    // One member took the request: a burst of 10 requests (a second's worth at least), one gone.
    expect(Math.min(...levels().map((s) => s ?? 1))).toBeLessThan(1);
  });
});
