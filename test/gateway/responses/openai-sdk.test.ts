import OpenAI, { APIError } from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { anthropicOk, openaiBodies } from '../../support/fixtures.js';
import { anthropicSse } from '../../support/sse.js';
import { startUpstream, type Upstream } from '../../support/upstream.js';
import { GATEWAY_PATHS } from '../gateway-harness.js';
import { answerWith, CHAT_PATH, gatewayConfig, KEYS, MESSAGES_PATH, UPSTREAM_RESPONSES_PATH, startGateway, upstreamBodies, type ServedGateway } from './responses-harness.js';

// The openai SDK's own `client.responses` against a real `switchyard serve`, whose chain sends
// Chat Completions to a loopback upstream: what the SDK returns, and what the upstream received.

const weather = { type: 'function' as const, name: 'get_weather', description: 'The weather in a city', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false }, strict: true };

// On both gateway paths: pass-through (the default) and translated; their chains' targets speak Chat Completions
// (translated either way), and the reasoning chain's a Responses API whose bodies here the blocker refuses.
describe.each(GATEWAY_PATHS)('POST /v1/responses with the openai SDK ($path)', ({ passThrough }) => {
  let up: Upstream;
  let gw: ServedGateway;
  let client: OpenAI;
  beforeAll(async () => {
    up = await startUpstream();
    const config = gatewayConfig(up.url);
    gw = await startGateway({ ...config, gateway: { ...config.gateway, passThrough } });
    client = gw.openai();
  }, 60_000);
  afterAll(async () => {
    await gw?.stop();
    await up?.close();
  });
  beforeEach(() => up.reset());

  it('answers text input with instructions as a Response: output_text, usage, the served target in headers', async () => {
    answerWith(up, { text: 'A switchyard sorts railway cars.' });
    const { data, response } = await client.responses.create({ model: 'default', instructions: 'Answer in one sentence.', input: 'What is a switchyard?', max_output_tokens: 200, temperature: 0.2 }).withResponse();
    expect(data.object).toBe('response');
    expect(data.id).toMatch(/^resp_[0-9a-f]{48}$/);
    expect(data.status).toBe('completed');
    expect(data.output_text).toBe('A switchyard sorts railway cars.');
    expect(data.output).toEqual([{ type: 'message', id: expect.stringMatching(/^msg_/), status: 'completed', role: 'assistant', content: [{ type: 'output_text', text: 'A switchyard sorts railway cars.', annotations: [], logprobs: [] }] }]);
    expect(data.usage).toEqual({ input_tokens: 21, input_tokens_details: { cached_tokens: 4, cache_write_tokens: 0 }, output_tokens: 9, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 30 });
    expect(data).toMatchObject({ instructions: 'Answer in one sentence.', max_output_tokens: 200, temperature: 0.2, model: 'gpt-4o-mini', store: true, previous_response_id: null });
    expect(response.headers.get('x-switchyard-provider')).toBe('openai');
    const [sent] = upstreamBodies(up);
    expect(sent.messages).toEqual([{ role: 'system', content: 'Answer in one sentence.' }, { role: 'user', content: 'What is a switchyard?' }]);
    expect(sent).toMatchObject({ model: 'gpt-4o-mini', temperature: 0.2 });
    expect(sent.max_completion_tokens ?? sent.max_tokens).toBe(200);
  });

  it('streams the Responses events in order, numbered from 0, ending at response.completed with the whole answer', async () => {
    answerWith(up, { text: 'Sorting cars.' });
    const stream = await client.responses.create({ model: 'default', input: 'What does a switchyard do?', stream: true });
    const events: OpenAI.Responses.ResponseStreamEvent[] = [];
    for await (const event of stream) events.push(event);
    expect(events.map((e) => e.type)).toEqual([
      'response.created', 'response.in_progress', 'response.output_item.added', 'response.content_part.added',
      'response.output_text.delta', 'response.output_text.delta', 'response.output_text.done', 'response.content_part.done',
      'response.output_item.done', 'response.completed',
    ]);
    expect(events.map((e) => e.sequence_number)).toEqual(events.map((_, i) => i));
    const deltas = events.filter((e): e is OpenAI.Responses.ResponseTextDeltaEvent => e.type === 'response.output_text.delta').map((e) => e.delta);
    expect(deltas.join('')).toBe('Sorting cars.');
    const done = events.at(-1) as OpenAI.Responses.ResponseCompletedEvent;
    expect(done.response.output).toEqual([expect.objectContaining({ type: 'message', content: [expect.objectContaining({ text: 'Sorting cars.' })] })]);
    expect(done.response.usage?.output_tokens).toBe(9);
    expect(upstreamBodies(up)[0]).toMatchObject({ stream: true, stream_options: { include_usage: true } });
  });

  it("passes the SDK's own stream helper, which checks every event against the items it has seen", async () => {
    answerWith(up, { text: 'Yes.', toolCalls: [{ id: 'call_w1', name: 'get_weather', arguments: { city: 'Oslo' } }] });
    const stream = client.responses.stream({ model: 'default', input: 'Weather in Oslo?', tools: [weather] });
    const args: string[] = [];
    stream.on('response.function_call_arguments.delta', (e) => args.push(e.delta));
    const final = await stream.finalResponse();
    expect(final.output_text).toBe('Yes.');
    expect(final.output.map((o) => o.type)).toEqual(['message', 'function_call']);
    expect(final.output[1]).toMatchObject({ type: 'function_call', call_id: 'call_w1', name: 'get_weather', arguments: '{"city":"Oslo"}', status: 'completed' });
    expect(args.join('')).toBe('{"city":"Oslo"}');
  });

  it('runs a two-step tool loop: the function_call comes back as input with its function_call_output', async () => {
    answerWith(up, { toolCalls: [{ id: 'call_w2', name: 'get_weather', arguments: { city: 'Bergen' } }] }, { text: 'Rain in Bergen, 9 °C.' });
    const input: OpenAI.Responses.ResponseInput = [{ role: 'user', content: 'Weather in Bergen?' }];
    const first = await client.responses.create({ model: 'default', input, tools: [weather], store: false });
    const call = first.output.find((o): o is OpenAI.Responses.ResponseFunctionToolCall => o.type === 'function_call')!;
    expect(call).toMatchObject({ call_id: 'call_w2', name: 'get_weather', arguments: '{"city":"Bergen"}', id: expect.stringMatching(/^fc_/) });
    expect(first.output_text).toBe('');
    const second = await client.responses.create({
      model: 'default', tools: [weather], store: false,
      input: [...input, call, { type: 'function_call_output', call_id: call.call_id, output: '{"rain":true,"celsius":9}' }],
    });
    expect(second.output_text).toBe('Rain in Bergen, 9 °C.');
    const [one, two] = upstreamBodies(up);
    expect(one.tools).toEqual([{ type: 'function', function: { name: 'get_weather', description: 'The weather in a city', parameters: weather.parameters, strict: true } }]);
    expect(two.messages).toEqual([
      { role: 'user', content: 'Weather in Bergen?' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'call_w2', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Bergen"}' } }] },
      { role: 'tool', tool_call_id: 'call_w2', content: '{"rain":true,"celsius":9}' },
    ]);
  });

  it('continues a conversation from previous_response_id: the upstream receives the whole history, instructions not carried over', async () => {
    answerWith(up, { toolCalls: [{ id: 'call_w3', name: 'get_weather', arguments: { city: 'Tromsø' } }] }, { text: 'Snow in Tromsø.' }, { text: 'You asked about Tromsø.' });
    const first = await client.responses.create({ model: 'default', instructions: 'Be brief.', input: 'Weather in Tromsø?', tools: [weather] });
    const call = first.output.find((o): o is OpenAI.Responses.ResponseFunctionToolCall => o.type === 'function_call')!;
    const second = await client.responses.create({ model: 'default', previous_response_id: first.id, tools: [weather], input: [{ type: 'function_call_output', call_id: call.call_id, output: 'snow' }] });
    expect(second.output_text).toBe('Snow in Tromsø.');
    expect(second.previous_response_id).toBe(first.id);
    const third = await client.responses.create({ model: 'default', previous_response_id: second.id, input: 'Which city did I ask about?' });
    expect(third.output_text).toBe('You asked about Tromsø.');
    const bodies = upstreamBodies(up);
    expect(bodies[1].messages).toEqual([
      { role: 'user', content: 'Weather in Tromsø?' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'call_w3', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Tromsø"}' } }] },
      { role: 'tool', tool_call_id: 'call_w3', content: 'snow' },
    ]);
    expect(bodies[2].messages.map((m: { role: string; content: unknown }) => [m.role, m.content])).toEqual([
      ['user', 'Weather in Tromsø?'], ['assistant', null], ['tool', 'snow'], ['assistant', 'Snow in Tromsø.'], ['user', 'Which city did I ask about?'],
    ]);
  });

  it('continues a streamed response too: it is kept before response.completed reaches the client', async () => {
    answerWith(up, { text: 'First.' }, { text: 'Second.' });
    const stream = await client.responses.create({ model: 'default', input: 'One', stream: true });
    let id = '';
    for await (const e of stream) if (e.type === 'response.completed') id = e.response.id;
    const next = await client.responses.create({ model: 'default', previous_response_id: id, input: 'Two' });
    expect(next.output_text).toBe('Second.');
    expect(upstreamBodies(up)[1].messages).toEqual([{ role: 'user', content: 'One' }, { role: 'assistant', content: 'First.' }, { role: 'user', content: 'Two' }]);
  });

  it("refuses a previous_response_id it does not know, one stored with store: false, and another tenant's: 400 naming it, nothing sent", async () => {
    answerWith(up, { text: 'kept' }, { text: 'not kept' });
    const kept = await client.responses.create({ model: 'default', input: 'a' });
    const unkept = await client.responses.create({ model: 'default', input: 'b', store: false });
    up.reset();
    const other = gw.openai(KEYS.b);
    for (const [c, id] of [[client, 'resp_nope'], [client, unkept.id], [other, kept.id]] as const) {
      const err = await c.responses.create({ model: 'default', input: 'c', previous_response_id: id }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(OpenAI.BadRequestError);
      expect((err as APIError).error).toEqual({ message: `Previous response with id '${id}' not found.`, type: 'invalid_request_error', param: 'previous_response_id', code: 'previous_response_not_found' });
    }
    // Nor can another tenant reach one of its items by reference.
    const stolen = await other.responses.create({ model: 'default', input: [{ type: 'item_reference', id: kept.output[0]!.id! }] }).catch((e: unknown) => e);
    expect((stolen as APIError).error).toMatchObject({ param: 'input[0].id', code: 'item_not_found' });
    expect(up.count(CHAT_PATH)).toBe(0);
    // Its owner can.
    answerWith(up, { text: 'again' });
    await client.responses.create({ model: 'default', input: [{ type: 'item_reference', id: kept.output[0]!.id! }, { role: 'user', content: 'once more' }] });
    expect(upstreamBodies(up)[0].messages).toEqual([{ role: 'assistant', content: 'kept' }, { role: 'user', content: 'once more' }]);
  });

  it('retrieves a stored response (GET /v1/responses/{id}) for its tenant only, and none stored with store: false', async () => {
    answerWith(up, { text: 'Kept for later.' }, { text: 'Streamed and kept.' }, { text: 'Not kept.' });
    const created = await client.responses.create({ model: 'default', input: 'Keep this', metadata: { ticket: 'T-1' } });
    const fetched = await client.responses.retrieve(created.id);
    expect(fetched).toEqual(created);
    let streamedId = '';
    for await (const e of await client.responses.create({ model: 'default', input: 'Stream this', stream: true })) if (e.type === 'response.completed') streamedId = e.response.id;
    expect((await client.responses.retrieve(streamedId)).output_text).toBe('Streamed and kept.');
    const unkept = await client.responses.create({ model: 'default', input: 'Drop this', store: false });
    for (const [c, id] of [[gw.openai(KEYS.b), created.id], [client, unkept.id], [client, 'resp_unknown']] as const) {
      const err = await c.responses.retrieve(id).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(OpenAI.NotFoundError);
      expect((err as APIError).error).toMatchObject({ code: 'response_not_found', message: `Response with id '${id}' not found.` });
    }
  });

  it('maps text.format json_schema and reasoning effort onto the chain, and answers the JSON as output_text', async () => {
    answerWith(up, { text: '{"city":"Oslo"}' });
    const schema = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false };
    const res = await client.responses.create({ model: 'default', input: 'Pick a city', text: { format: { type: 'json_schema', name: 'pick', schema, strict: true } }, reasoning: { effort: 'low' } });
    expect(JSON.parse(res.output_text)).toEqual({ city: 'Oslo' });
    expect(res.text?.format).toMatchObject({ type: 'json_schema', name: 'pick', strict: true });
    const [sent] = upstreamBodies(up);
    expect(sent.response_format).toEqual({ type: 'json_schema', json_schema: { name: 'pick', schema, strict: true } });
  });

  it.each([
    [{ conversation: 'conv_1' }, 'conversation', 'unsupported_parameter'],
    [{ tools: [{ type: 'web_search' }] }, 'tools[0].type', 'unsupported_parameter'],
    [{ truncation: 'auto' }, 'truncation', 'unsupported_parameter'],
    // reasoning.summary is taken (issue 37: Codex sends it), at the values the Responses API has.
    [{ reasoning: { effort: 'low', summary: 'verbose' } }, 'reasoning.summary', 'invalid_value'],
    [{ reasoning: { effort: 'low', budget: 9 } }, 'reasoning.budget', 'unsupported_parameter'],
    [{ temperature: 'hot' }, 'temperature', 'invalid_type'],
    [{ max_output_tokens: -5 }, 'max_output_tokens', 'invalid_value'],
    [{ top_p: 3 }, 'top_p', 'invalid_value'],
    [{ tools: [{ type: 'function', name: 'f', parameters: { type: 'object' } }, { type: 'function', name: 'f', parameters: { type: 'object' } }] }, 'tools[1].name', 'invalid_value'],
    [{ input: [{ role: 'user', content: [{ type: 'input_audio', input_audio: {} }] }] }, 'input[0].content[0].type', 'unsupported_parameter'],
    [{ input: [{ type: 'function_call', call_id: 'c', name: 'f', arguments: '{not json' }] }, 'input[0].arguments', 'invalid_value'],
    [{ input: [{ type: 'item_reference', id: 'msg_unknown' }] }, 'input[0].id', 'item_not_found'],
    // Refused by the router's own checks, named as the client sent them.
    [{ instructions: 'x', input: [{ role: 'user', content: [{ type: 'input_image', image_url: 'ftp://host/cat.png' }] }] }, 'input[0].content[0].image_url', 'invalid_value'],
    [{ input: [{ type: 'function_call_output', call_id: 'call_none', output: 'x' }] }, 'input[0].call_id', 'invalid_value'],
    [{ tools: [{ type: 'function', name: 'a', parameters: { type: 'object' } }], tool_choice: { type: 'function', name: 'nope' } }, 'tool_choice.name', 'invalid_value'],
  ])('refuses %j with a 400 naming %s (%s), and sends nothing', async (fields, param, code) => {
    const err = await client.responses.create({ model: 'default', input: 'hi', ...(fields as object) } as never).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.BadRequestError);
    expect((err as APIError).error).toMatchObject({ type: 'invalid_request_error', param, code });
    expect((err as APIError).message).not.toMatch(/\n|messages\[|toolChoice|toolCallId/);
    expect(up.count(CHAT_PATH)).toBe(0);
  });

  it("keeps a reasoning model's reasoning items for previous_response_id, so its upstream gets them back on the next turn", async () => {
    const reasoning = { type: 'reasoning', id: 'rs_up_1', summary: [], encrypted_content: 'gAAAA-opaque' };
    const answer = (text: string) => ({
      status: 200, body: {
        id: 'resp_upstream', object: 'response', created_at: 1_767_000_000, status: 'completed', model: 'o4-mini', error: null, incomplete_details: null,
        output: [reasoning, { type: 'message', id: 'msg_up', status: 'completed', role: 'assistant', content: [{ type: 'output_text', text, annotations: [] }] }],
        usage: { input_tokens: 12, input_tokens_details: { cached_tokens: 0 }, output_tokens: 30, output_tokens_details: { reasoning_tokens: 24 }, total_tokens: 42 },
      },
    });
    up.script(UPSTREAM_RESPONSES_PATH, answer('Seven.'), answer('Eight.'));
    const first = await client.responses.create({ model: 'reasoning', input: '3 + 4?', reasoning: { effort: 'high' } });
    expect(first.output.map((o) => o.type)).toEqual(['message']);
    expect(first.usage?.output_tokens_details.reasoning_tokens).toBe(24);
    const second = await client.responses.create({ model: 'reasoning', previous_response_id: first.id, input: 'Plus one?' });
    expect(second.output_text).toBe('Eight.');
    const [one, two] = up.requests.filter((r) => r.path === UPSTREAM_RESPONSES_PATH).map((r) => r.body);
    expect(one.reasoning).toEqual({ effort: 'high' });
    expect(two.input).toContainEqual(reasoning);
  });

  it('falls through to the next target when the first is down, JSON and stream alike', async () => {
    up.otherwise(CHAT_PATH, () => ({ status: 503, body: openaiBodies.overloaded503 }));
    up.script(MESSAGES_PATH, anthropicOk('From the backup.'), { sse: anthropicSse(['From the ', 'backup, streamed.']) });
    const { data, response } = await client.responses.create({ model: 'fallback', input: 'hi' }).withResponse();
    expect(data.output_text).toBe('From the backup.');
    expect(response.headers.get('x-switchyard-provider')).toBe('anthropic');
    let text = '';
    for await (const e of await client.responses.create({ model: 'fallback', input: 'hi', stream: true })) if (e.type === 'response.output_text.delta') text += e.delta;
    expect(text).toBe('From the backup, streamed.');
    expect(up.requests.filter((r) => r.path === MESSAGES_PATH).map((r) => r.body.messages)).toEqual([[{ role: 'user', content: 'hi' }], [{ role: 'user', content: 'hi' }]]);
  });

  it('answers a chain where every target failed with an HTTP error in the envelope, before any event', async () => {
    up.otherwise(CHAT_PATH, () => ({ status: 503, body: openaiBodies.overloaded503 }));
    up.otherwise(MESSAGES_PATH, () => ({ status: 529, body: { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } } }));
    for (const stream of [false, true]) {
      const err = await client.responses.create({ model: 'fallback', input: 'hi', stream }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(APIError);
      expect((err as APIError).status).toBeGreaterThanOrEqual(429);
      expect((err as APIError).error).toMatchObject({ code: 'chain_exhausted', type: expect.any(String), param: null });
    }
  });

  it('ends a stream cut off after its first token with an error event and response.failed', async () => {
    up.otherwise(CHAT_PATH, () => ({ sse: [`data: ${JSON.stringify({ id: 'x', object: 'chat.completion.chunk', created: 1, model: 'gpt-4o-mini', choices: [{ index: 0, delta: { role: 'assistant', content: 'Half an ans' }, finish_reason: null }] })}`], cutAfter: 1 }));
    const stream = await client.responses.create({ model: 'default', input: 'hi', stream: true });
    const types: string[] = [];
    let failed: OpenAI.Responses.ResponseFailedEvent | undefined;
    for await (const e of stream) {
      types.push(e.type);
      if (e.type === 'response.failed') failed = e;
    }
    expect(types.slice(-2)).toEqual(['error', 'response.failed']);
    expect(types).toContain('response.output_text.delta');
    expect(failed?.response.status).toBe('failed');
    expect(failed?.response.error?.message).toMatch(/stream/);
  });
});
