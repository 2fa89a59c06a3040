import { describe, expect, it } from 'vitest';
import { jsonTextDepth, SIM_MAX_BODY_DEPTH } from '../../src/sim/body-depth.js';
import { ANTHROPIC_KEY, OPENAI_KEY, useSimulators } from './helpers.js';

const start = useSimulators();
const deep = (n: number) => `${'{"a":'.repeat(n)}1${'}'.repeat(n)}`;

describe('the simulator and deeply nested bodies', () => {
  it('reads the nesting of a JSON text without parsing it, skipping brackets inside strings', () => {
    expect(jsonTextDepth('{"a":[1,{"b":"[[[{"}],"c":"\\"{"}')).toBe(3);
    expect(jsonTextDepth(deep(1_000_000))).toBe(1_000_000);
  });

  it('answers a body nested 100,000 levels deep 400 in each wire format, and keeps serving', async () => {
    const sim = await start();
    const openai = await fetch(`${sim.baseURL('openai')}/chat/completions`, {
      method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${OPENAI_KEY}` },
      body: `{"model":"gpt-4o-mini","messages":[{"role":"user","content":"hi"}],"tools":[{"type":"function","function":{"name":"f","parameters":${deep(100_000)}}}]}`,
    });
    expect(openai.status).toBe(400);
    expect(((await openai.json()) as any).error.message).toBe(`request body nested 100004 levels deep; at most ${SIM_MAX_BODY_DEPTH} are read`);
    const anthropic = await fetch(`${sim.baseURL('anthropic')}/v1/messages`, {
      method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': ANTHROPIC_KEY, 'anthropic-version': '2023-06-01' },
      body: `{"model":"claude-sonnet-4-6","max_tokens":10,"messages":[{"role":"user","content":"hi"}],"metadata":${deep(100_000)}}`,
    });
    expect([anthropic.status, ((await anthropic.json()) as any).type]).toEqual([400, 'error']);
    const fine = await fetch(`${sim.baseURL('openai')}/chat/completions`, {
      method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${OPENAI_KEY}` },
      body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(fine.status).toBe(200);
  });
});
