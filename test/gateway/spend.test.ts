import OpenAI, { APIError } from 'openai';
import { describe, expect, it } from 'vitest';
import { hashKey } from '../../src/gateway/index.js';
import { OPENAI_PATH } from '../support/fixtures.js';
import type { Upstream } from '../support/upstream.js';
import { upstreamPerTest } from '../support/upstream-per-test.js';
import { VirtualClock } from '../support/virtual-clock.js';
import { GATEWAY_PATHS, startHarness, type Harness } from './gateway-harness.js';

const ALPHA_KEY = 'sk-gw-alpha-0123456789abcdef';
const BETA_KEY = 'sk-gw-beta-fedcba9876543210';

let up: Upstream;
let h: Harness;
upstreamPerTest((u) => (up = u), () => h?.close());

// One cent a token: the upstream's answer (19 prompt + 10 completion tokens) costs $0.29.
const CENT_A_TOKEN = { inputPerMTok: 10_000, outputPerMTok: 10_000 };
const ask = { model: 'openai-only', max_tokens: 10, messages: [{ role: 'user' as const, content: 'Please say hello to everyone in this room, politely.' }] };
const failure = (p: Promise<unknown>) => p.then(() => { throw new Error('expected the request to fail'); }, (e: unknown) => e as APIError);

describe.each(GATEWAY_PATHS)('$path', ({ passThrough }) => {
  describe('gateway: spend budgets', () => {
    it('answers a key past its own budget 429 budget_exceeded with x-should-retry: false, sending nothing; another key of the same tenant goes on', async () => {
      h = await startHarness(up, {
        prices: { 'gpt-4o-mini': CENT_A_TOKEN, 'claude-sonnet-4-6': CENT_A_TOKEN },
        gateway: {
          keys: [
            { keyEnv: 'GW_KEY_ALPHA', tenant: 'team', spend: { usdPerDay: 0.4 } },
            { keyHash: hashKey(BETA_KEY), tenant: 'team' },
          ],
        },
      }, { env: { GW_KEY_ALPHA: ALPHA_KEY }, passThrough }, new VirtualClock());
      const alpha = h.client(ALPHA_KEY, { maxRetries: 2 });
      await alpha.chat.completions.create(ask);
      expect(up.count(OPENAI_PATH)).toBe(1);
      const refused = await failure(alpha.chat.completions.create(ask).withResponse());
      expect(refused).toBeInstanceOf(OpenAI.RateLimitError);
      expect([refused.status, refused.code]).toEqual([429, 'budget_exceeded']);
      expect(refused.headers?.get('x-should-retry')).toBe('false');
      expect(refused.message).toContain('key:GW_KEY_ALPHA spend budget is full');
      // The SDK honoured x-should-retry: false (maxRetries 2 sent no retry), and nothing went upstream.
      expect(up.count(OPENAI_PATH)).toBe(1);
      await h.client(BETA_KEY).chat.completions.create(ask);
      expect(up.count(OPENAI_PATH)).toBe(2);
    });

    it('holds a tenant budget across all its keys', async () => {
      h = await startHarness(up, {
        prices: { 'gpt-4o-mini': CENT_A_TOKEN, 'claude-sonnet-4-6': CENT_A_TOKEN },
        tenants: { team: { spend: { usdPerDay: 0.4 } } },
        gateway: { keys: [{ keyEnv: 'GW_KEY_ALPHA', tenant: 'team' }, { keyHash: hashKey(BETA_KEY), tenant: 'team' }] },
      }, { env: { GW_KEY_ALPHA: ALPHA_KEY }, passThrough }, new VirtualClock());
      await h.client(ALPHA_KEY).chat.completions.create(ask);
      const refused = await failure(h.client(BETA_KEY).chat.completions.create(ask));
      expect([refused.status, refused.code]).toEqual([429, 'budget_exceeded']);
      expect(up.count(OPENAI_PATH)).toBe(1);
    });
  });
});
