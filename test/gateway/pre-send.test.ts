import { describe, expect, it } from 'vitest';
import { OPENAI_PATH } from '../support/fixtures.js';
import type { Upstream } from '../support/upstream.js';
import { upstreamPerTest } from '../support/upstream-per-test.js';
import { startHarness, type Harness } from './gateway-harness.js';

// A client's body that cannot be sent upstream (here a `metadata` object nested 100,000 levels
// deep, which the SDK cannot serialise) is that client's error: a 4xx naming the field, nothing
// sent, no breaker verdict, so it cannot cut other tenants off from a provider.
//
// Validation refuses a body this deep first (input.maxDepth, docs/limits-on-input.md), before any
// breaker could hear of it; the bound is raised past it here, so the body is within the limit and
// what is proved is the send step's own isolation (as in test/policy/pre-send.test.ts).

let up: Upstream;
let h: Harness;
upstreamPerTest((u) => (up = u), () => h?.close());

const ALPHA = 'sk-gw-alpha-0123456789abcdef';
const BETA = 'sk-gw-beta-0123456789abcdef';
const DEPTH = 100_000;
const UNBOUNDED = { maxDepth: 1_000_000, maxChars: 1_000_000_000 };

/** The raw JSON text of a chat body whose `metadata` nests DEPTH levels (no client library could encode it). */
const deepBody = `{"model":"openai-only","messages":[{"role":"user","content":"Say hello"}],"metadata":${'{"a":'.repeat(DEPTH)}1${'}'.repeat(DEPTH)}}`;

function post(key: string, body: string) {
  return fetch(`${h.url}/v1/chat/completions`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body });
}

describe('a body that cannot be sent upstream', () => {
  it('answers 4xx naming the field, sends nothing, and leaves the breaker closed; 50 of them do not cut off another tenant', async () => {
    h = await startHarness(up, {
      breaker: { consecutiveFailures: 3 },
      input: UNBOUNDED,
      gateway: { keys: [{ keyEnv: 'GW_ALPHA', tenant: 'alpha' }, { keyEnv: 'GW_BETA', tenant: 'beta' }] },
    }, { env: { GW_ALPHA: ALPHA, GW_BETA: BETA } });

    const first = await post(ALPHA, deepBody);
    expect(first.status).toBeGreaterThanOrEqual(400);
    expect(first.status).toBeLessThan(500);
    const { error } = await first.json() as { error: { type: string; param: string | null; message: string } };
    expect(error).toMatchObject({ type: 'invalid_request_error', param: 'metadata' });
    // Refused by the send step, not by validation: the breaker assertions below are about that step.
    expect(error.message).toMatch(/could not be encoded for the provider, so nothing was sent/);
    expect(up.count(OPENAI_PATH)).toBe(0);
    expect(h.router.breakerStates()).toMatchObject({ openai: 'closed' });

    for (let i = 0; i < 49; i++) {
      const res = await post(ALPHA, deepBody);
      expect(res.status).toBe(first.status);
      await res.arrayBuffer();
    }
    expect(up.count(OPENAI_PATH)).toBe(0);
    expect(h.router.breakerStates()).toMatchObject({ openai: 'closed' });

    // Another tenant's call is served at once, by the provider the bad bodies named.
    const beta = await post(BETA, JSON.stringify({ model: 'openai-only', messages: [{ role: 'user', content: 'Say hello' }] }));
    expect(beta.status).toBe(200);
    expect(beta.headers.get('x-switchyard-attempts')).toBe('1');
    expect(((await beta.json()) as { choices: Array<{ message: { content: string } }> }).choices[0]!.message.content).toBe('Hello! How can I assist you today?');
    expect(up.count(OPENAI_PATH)).toBe(1);
  });
});
