import { describe, expect, it } from 'vitest';
import { hashKey } from '../../src/gateway/index.js';
import type { Upstream } from '../support/upstream.js';
import { upstreamPerTest } from '../support/upstream-per-test.js';
import { startHarness, type Harness } from './gateway-harness.js';

const ALPHA_KEY = 'sk-gw-alpha-0123456789abcdef';
const BETA_KEY = 'sk-gw-beta-fedcba9876543210';

let up: Upstream;
let h: Harness;
upstreamPerTest((u) => (up = u), () => h?.close());

/** A fresh gateway with two tenants; a breaker that opens after 3 failures, so a leak of blame shows at once. */
function withTenants() {
  return startHarness(up, {
    breaker: { consecutiveFailures: 3, volumeThreshold: 3 },
    gateway: { keys: [{ keyHash: hashKey(ALPHA_KEY), tenant: 'alpha' }, { keyHash: hashKey(BETA_KEY), tenant: 'beta' }] },
  });
}

/** `n` levels of `{"a": ...}` as JSON text: built by hand, since JSON.stringify itself overflows the stack on it. */
const deepObject = (n: number) => `${'{"a":'.repeat(n)}1${'}'.repeat(n)}`;
/** An object of `n` keys, about 20 characters each. */
const wideObject = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${String(i).padStart(8, '0')}`, 'vvvvvvvv']));

const user = '{"role":"user","content":"hi"}';
const history = (args: string) => `${user},{"role":"assistant","content":null,"tool_calls":[{"id":"call_1","type":"function","function":{"name":"f","arguments":${JSON.stringify(args)}}}]},{"role":"tool","tool_call_id":"call_1","content":"ok"}`;

/** Every free-form field of a Chat Completions body, as raw JSON text around a value, and the `param` a refusal names. */
const FIELDS: Array<{ name: string; param: string; body: (value: string) => string }> = [
  { name: 'metadata', param: 'metadata', body: (v) => `{"model":"openai-only","messages":[${user}],"metadata":${v}}` },
  { name: 'prediction', param: 'prediction', body: (v) => `{"model":"openai-only","messages":[${user}],"prediction":${v}}` },
  {
    name: 'tool parameters', param: 'tools[0].function.parameters',
    body: (v) => `{"model":"openai-only","messages":[${user}],"tools":[{"type":"function","function":{"name":"f","parameters":{"type":"object","properties":{"x":${v}}}}}]}`,
  },
  {
    name: 'response_format schema', param: 'response_format.json_schema.schema',
    body: (v) => `{"model":"openai-only","messages":[${user}],"response_format":{"type":"json_schema","json_schema":{"name":"s","schema":{"type":"object","properties":{"x":${v}}}}}}`,
  },
  { name: 'tool call arguments in the history', param: 'messages[1].tool_calls[0].function.arguments', body: (v) => `{"model":"openai-only","messages":[${history(`{"x":${v}}`)}],"tools":[{"type":"function","function":{"name":"f"}}]}` },
];

const SHAPES: Array<{ name: string; value: () => string; says: RegExp }> = [
  { name: '100,000 levels deep', value: () => deepObject(100_000), says: /nested deeper than 64 levels/ },
  { name: '2 MB wide', value: () => JSON.stringify(wideObject(100_000)), says: /longer than 1048576 characters/ },
];

async function post(h: Harness, key: string, body: string, stream = false) {
  const text = stream ? body.replace(/^\{/, '{"stream":true,') : body;
  const res = await fetch(`${h.url}/v1/chat/completions`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: text });
  return { status: res.status, body: (await res.json()) as { error: { param: string | null; code: string | null; message: string; type: string } } };
}

/** Every provider's breaker is there and closed (an empty list would prove nothing). */
const allClosed = (h: Harness) => {
  const states = h.router.breakerStates();
  return Object.keys(states).sort().join() === 'anthropic,openai' && Object.values(states).every((s) => s === 'closed');
};

describe('free-form JSON bounds at the gateway', () => {
  for (const field of FIELDS) {
    for (const shape of SHAPES) {
      it(`refuses ${field.name} ${shape.name}: 400 naming ${field.param}, nothing sent, every breaker closed`, async () => {
        h = await withTenants();
        for (const stream of [false, true]) {
          const { status, body } = await post(h, ALPHA_KEY, field.body(shape.value()), stream);
          expect([status, body.error.type, body.error.param]).toEqual([400, 'invalid_request_error', field.param]);
          expect(body.error.message).toMatch(shape.says);
        }
        expect(up.count()).toBe(0);
        expect(allClosed(h)).toBe(true);
      });
    }
  }

  it('after 50 deep bodies from one tenant, another tenant is served at once, by the first target', async () => {
    h = await withTenants();
    const deep = FIELDS[0]!.body(deepObject(100_000));
    for (let i = 0; i < 50; i++) expect((await post(h, ALPHA_KEY, deep, i % 2 === 1)).status).toBe(400);
    expect(up.count()).toBe(0);
    expect(allClosed(h)).toBe(true);
    const answer = await h.client(BETA_KEY).chat.completions.create({ model: 'default', messages: [{ role: 'user', content: 'hi' }] }).withResponse();
    expect(answer.response.headers.get('x-switchyard-provider')).toBe('openai');
    expect(answer.response.headers.get('x-switchyard-attempts')).toBe('1');
    expect(up.count()).toBe(1);
  });

  it('passes a body inside the bounds: 63 levels of metadata reach the upstream as sent', async () => {
    h = await withTenants();
    const { status } = await post(h, ALPHA_KEY, FIELDS[0]!.body(deepObject(63)));
    expect(status).toBe(200);
    expect(up.count()).toBe(1);
    let depth = 0;
    for (let v: any = up.requests[0]!.body.metadata; typeof v === 'object'; v = v.a) depth++;
    expect(depth).toBe(63);
  });
});
