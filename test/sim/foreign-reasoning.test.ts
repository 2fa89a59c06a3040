import { describe, expect, it } from 'vitest';
import { thinkingSignature, thinkingText } from '../../src/sim/thinking.js';
import { ANTHROPIC_KEY, OPENAI_KEY, useSimulators } from './helpers.js';

// The simulated upstreams refuse reasoning they did not make, the way the real APIs do, so a test
// that sends one family's reasoning to another fails: Anthropic and Bedrock Claude verify Claude's
// signatures (either API's: one model), Gemini its thought signatures, OpenAI its encrypted content.

const start = useSimulators();
const GEMINI_KEY = 'AIzaSySIMTESTkey0123456789abcdefghij';
const SIGV4 = 'AWS4-HMAC-SHA256 Credential=AKIDTEST/20261201/us-east-1/bedrock/aws4_request, SignedHeaders=host, Signature=00';
const asked = [{ role: 'user' as const, content: 'Weather in Paris?' }];
const claudeSig = thinkingSignature(thinkingText(asked));
const geminiSig = thinkingSignature(thinkingText(asked), 'gemini');
const openaiSig = thinkingSignature(thinkingText(asked), 'openai');

async function post(url: string, headers: Record<string, string>, body: unknown) {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  return { status: res.status, body: await res.json() as any };
}

async function sims() {
  const sim = await start({ providers: { anthropic: { type: 'anthropic' }, aws: { type: 'bedrock' }, google: { type: 'gemini' }, openai: { type: 'openai' } } });
  const messages = (signature: string) => post(`${sim.baseURL('anthropic')}/v1/messages`, { 'x-api-key': ANTHROPIC_KEY, 'anthropic-version': '2023-06-01' }, {
    model: 'claude-sonnet-4-5', max_tokens: 100,
    messages: [{ role: 'user', content: 'Weather in Paris?' }, { role: 'assistant', content: [{ type: 'thinking', thinking: thinkingText(asked), signature }, { type: 'text', text: 'Sunny.' }] }, { role: 'user', content: 'Thanks' }],
  });
  const converse = (model: string, signature: string) => post(`${sim.baseURL('aws')}/model/${encodeURIComponent(model)}/converse`, { authorization: SIGV4 }, {
    messages: [{ role: 'user', content: [{ text: 'Weather in Paris?' }] }, { role: 'assistant', content: [{ reasoningContent: { reasoningText: { text: thinkingText(asked), signature } } }, { text: 'Sunny.' }] }, { role: 'user', content: [{ text: 'Thanks' }] }],
  });
  const gemini = (signature: string) => post(`${sim.baseURL('google')}/models/gemini-2.5-flash:generateContent`, { 'x-goog-api-key': GEMINI_KEY }, {
    contents: [{ role: 'user', parts: [{ text: 'Weather in Paris?' }] }, { role: 'model', parts: [{ text: 'Sunny.', thoughtSignature: signature }] }, { role: 'user', parts: [{ text: 'Thanks' }] }],
  });
  const responses = (item: unknown) => post(`${sim.baseURL('openai')}/responses`, { authorization: `Bearer ${OPENAI_KEY}` }, {
    model: 'gpt-5-mini', input: [{ role: 'user', content: 'Weather in Paris?' }, item, { role: 'user', content: 'Thanks' }],
  });
  return { sim, messages, converse, gemini, responses };
}

describe('the simulator refuses reasoning another family made', () => {
  it('Anthropic takes a Claude signature (its own or Bedrock\'s) and answers 400 to a Gemini one', async () => {
    const { messages } = await sims();
    expect((await messages(claudeSig)).status).toBe(200);
    const refused = await messages(geminiSig);
    expect(refused).toMatchObject({ status: 400, body: { type: 'error', error: { type: 'invalid_request_error', message: 'messages.1.content.0: Invalid `signature` in `thinking` block' } } });
  });

  it('Bedrock Claude verifies reasoningContent signatures; another Bedrock model refuses reasoningContent', async () => {
    const { converse } = await sims();
    expect((await converse('us.anthropic.claude-sonnet-4-5-20250929-v1:0', claudeSig)).status).toBe(200);
    const forged = await converse('us.anthropic.claude-sonnet-4-5-20250929-v1:0', openaiSig);
    expect(forged.status).toBe(400);
    expect(forged.body.message).toContain('messages.1.content.0: Invalid `signature` in `thinking` block');
    const nova = await converse('amazon.nova-pro-v1:0', claudeSig);
    expect(nova.status).toBe(400);
    expect(nova.body.message).toContain('reasoningContent');
  });

  it('Gemini takes its own thought signature and the documented stand-ins, and refuses a Claude one', async () => {
    const { gemini } = await sims();
    expect((await gemini(geminiSig)).status).toBe(200);
    expect((await gemini('skip_thought_signature_validator')).status).toBe(200);
    expect((await gemini('context_engineering_is_the_way_to_go')).status).toBe(200);
    expect(await gemini(claudeSig)).toMatchObject({ status: 400, body: { error: { code: 400, status: 'INVALID_ARGUMENT', message: 'Corrupted thought signature.' } } });
  });

  it('the Responses API answers a reasoning request with encrypted reasoning, takes it back, and refuses foreign content and unknown item types', async () => {
    const { sim, responses } = await sims();
    const first = await post(`${sim.baseURL('openai')}/responses`, { authorization: `Bearer ${OPENAI_KEY}` }, {
      model: 'gpt-5-mini', input: 'Weather in Paris?', reasoning: { effort: 'low' }, include: ['reasoning.encrypted_content'], store: false,
    });
    expect(first.status).toBe(200);
    const reasoning = first.body.output[0];
    expect(reasoning).toMatchObject({ type: 'reasoning', id: expect.stringMatching(/^rs_/), summary: [], encrypted_content: openaiSig });
    expect((await responses(reasoning)).status).toBe(200);
    expect(await responses(Object.assign({}, reasoning, { encrypted_content: claudeSig }))).toMatchObject({
      status: 400, body: { error: { type: 'invalid_request_error', code: 'invalid_encrypted_content', message: `The encrypted content for item ${reasoning.id} could not be verified.` } },
    });
    expect(await responses({ type: 'thinking', thinking: 'hm', signature: claudeSig })).toMatchObject({
      status: 400, body: { error: { code: 'invalid_value', param: 'input[1].type', message: expect.stringMatching(/^Invalid value: 'thinking'\. Supported values are: 'message', /) } },
    });
  });
});
