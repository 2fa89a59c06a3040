import { APIError } from 'openai';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { OPENAI_PATH } from '../support/fixtures.js';
import { startUpstream, type Upstream } from '../support/upstream.js';
import { startHarness, type Harness } from './gateway-harness.js';

let up: Upstream;
let h: Harness;
beforeEach(async () => {
  up = await startUpstream();
  h = await startHarness(up);
});
afterEach(async () => {
  await h.close();
  await up.close();
});

const hi = [{ role: 'user' as const, content: 'hi' }];

/** Posts a raw body (the SDK's types would refuse most of these) and reads the envelope. */
async function post(body: unknown): Promise<{ status: number; error: { message: string; type: string; param: string | null; code: string | null } }> {
  const res = await fetch(`${h.url}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.status, error: ((await res.json()) as { error: never }).error };
}

describe('POST /v1/chat/completions: bad input is a 400 naming the wire parameter, and nothing goes upstream', () => {
  it.each<[string, Record<string, unknown>, string, string]>([
    ['temperature "hot"', { temperature: 'hot' }, 'temperature', 'invalid_parameter'],
    ['max_tokens -5 (the router\'s range, in the wire\'s name)', { max_tokens: -5 }, 'max_tokens', 'invalid_parameter'],
    ['max_tokens "10"', { max_tokens: '10' }, 'max_tokens', 'invalid_parameter'],
    ['temperature 3 (out of range)', { temperature: 3 }, 'temperature', 'invalid_parameter'],
    ['stream "yes"', { stream: 'yes' }, 'stream', 'invalid_parameter'],
    ['an unknown field', { best_of: 2 }, 'best_of', 'unsupported_parameter'],
    ['n: 2', { n: 2 }, 'n', 'unsupported_parameter'],
    ['messages[2].content a number', { messages: [...hi, { role: 'assistant', content: 'yes?' }, { role: 'user', content: 42 }] }, 'messages[2].content', 'invalid_parameter'],
    ['a tool result answering no call', { messages: [...hi, { role: 'tool', tool_call_id: 'call_x', content: 'r' }] }, 'messages[1].tool_call_id', 'invalid_parameter'],
  ])('%s', async (_what, fields, param, code) => {
    const { status, error } = await post({ model: 'default', messages: hi, ...fields });
    expect(status).toBe(400);
    expect(error).toMatchObject({ type: 'invalid_request_error', param, code });
    expect(error.message).not.toContain('\n');
    expect(error.message).toContain(param);
    expect(error.message).not.toMatch(/maxTokens|toolCallId|fromOpenAI/);
    expect(up.count()).toBe(0);
  });

  it('is an APIError the openai SDK raises with the param and code', async () => {
    const err = await h.client().chat.completions.create({ model: 'default', messages: hi, temperature: 'hot' as unknown as number }).then(() => undefined, (e: unknown) => e as APIError);
    if (!err) throw new Error('expected a 400');
    expect(err).toBeInstanceOf(APIError);
    expect([err.status, err.param, err.code]).toEqual([400, 'temperature', 'invalid_parameter']);
    expect(up.count()).toBe(0);
  });
});

describe('POST /v1/chat/completions: what clients send by default is accepted', () => {
  it('takes name on every role (LangChain\'s ToolMessage carries it) and does not forward it', async () => {
    const { data } = await h.client().chat.completions.create({
      model: 'openai-only',
      messages: [
        { role: 'system', name: 'rules', content: 'Be terse.' },
        { role: 'user', name: 'ann', content: 'Weather?' },
        { role: 'assistant', content: '', tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'w', arguments: '{}' } }] },
        { role: 'tool', name: 'w', tool_call_id: 'call_1', content: 'sunny' } as never,
      ],
    }).withResponse();
    expect(data.choices[0]!.message.content).toBeTruthy();
    expect(up.count(OPENAI_PATH)).toBe(1);
    const sent = up.requests[0]!.body.messages as Array<Record<string, unknown>>;
    expect(sent.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool']);
    expect(sent.some((m) => 'name' in m)).toBe(false);
  });

  it('takes the no-op fields clients send at their defaults: stream false, n 1, text format and modalities, nulls', async () => {
    const { status } = await fetch(`${h.url}/v1/chat/completions`, {
      method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'openai-only', messages: hi, stream: false, n: 1, response_format: { type: 'text' }, modalities: ['text'], temperature: null, stream_options: null, tool_choice: null, audio: null }),
    });
    expect(status).toBe(200);
    expect(up.count(OPENAI_PATH)).toBe(1);
  });
});
