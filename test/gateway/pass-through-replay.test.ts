import { describe, expect, it } from 'vitest';
import { OPENAI_PATH } from '../support/fixtures.js';
import type { Upstream } from '../support/upstream.js';
import { upstreamPerTest } from '../support/upstream-per-test.js';
import { startHarness, type Harness } from './gateway-harness.js';

// A passed-through answer keeps the API it answers (set by the adapter) through the response cache:
// a replay on its own endpoint is the upstream's body byte for byte; on another endpoint the
// gateway renders its own answer, never the other API's body.

let up: Upstream;
let h: Harness;
upstreamPerTest((u) => (up = u), () => h?.close());

/** An upstream chat completion whose bytes no gateway rendering would produce (its spacing, its extra field). */
const UPSTREAM = '{ "id": "chatcmpl-up", "object": "chat.completion", "created": 1, "model": "gpt-4o-mini", "system_fingerprint": "fp_up",\n  "choices": [{ "index": 0, "message": { "role": "assistant", "content": "Hi there" }, "finish_reason": "stop" }],\n  "usage": { "prompt_tokens": 5, "completion_tokens": 2, "total_tokens": 7 } }';

const post = (path: string, body: object) => fetch(`${h.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

describe('pass-through answers replayed from the response cache', () => {
  it('relays a cached chat completion as the upstream sent it, and renders a Response of its own for /v1/responses', async () => {
    h = await startHarness(up, { cache: { ttlMs: 60_000 } });
    up.script(OPENAI_PATH, { status: 200, headers: { 'content-type': 'application/json' }, body: UPSTREAM });
    const params = { model: 'openai-only', messages: [{ role: 'user', content: 'Say hello' }] };
    const first = await (await post('/v1/chat/completions', params)).text();
    const replayed = await (await post('/v1/chat/completions', params)).text();
    expect(up.count(OPENAI_PATH)).toBe(1);
    expect(first).toBe(UPSTREAM);
    expect(replayed).toBe(UPSTREAM);
    // The same call through /v1/responses hits the same cache entry: a chat completion's body is not its answer.
    const responses = await post('/v1/responses', { model: 'openai-only', input: [{ role: 'user', content: 'Say hello' }] });
    const answer = await responses.json() as { object?: string; output_text?: string; output?: Array<{ content?: Array<{ text?: string }> }> };
    expect(up.count(OPENAI_PATH)).toBe(1);
    expect(answer.object).toBe('response');
    expect(answer.output?.[0]?.content?.[0]?.text).toBe('Hi there');
  });
});
