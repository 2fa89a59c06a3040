import { BedrockRuntimeClient, ConverseCommand, ConverseStreamCommand, InvokeModelCommand, ThrottlingException, ValidationException } from '@aws-sdk/client-bedrock-runtime';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import { afterEach, describe, expect, it } from 'vitest';
import { startSimulator, type SimProviderOptions, type Simulator } from '../../src/sim/index.js';
import { crc32, decodeEventMessages, encodeEventMessage } from '../../src/sim/event-stream.js';

// The simulator's Bedrock wire, read by the AWS SDK itself (no adapter in between) and by plain fetch.
const MODEL = 'us.anthropic.claude-sonnet-4-5-20250929-v1:0';
let sim: Simulator | undefined;
let client: BedrockRuntimeClient | undefined;
afterEach(async () => {
  client?.destroy();
  await sim?.stop();
  sim = undefined;
  client = undefined;
});

async function start(options: Omit<SimProviderOptions, 'type'> = {}) {
  sim = await startSimulator({ providers: { aws: { type: 'bedrock', ...options } } });
  client = new BedrockRuntimeClient({ region: 'us-east-1', endpoint: sim.baseURL('aws'), maxAttempts: 1, requestHandler: new NodeHttpHandler() });
  return { sim, client };
}

const user = (text: string) => ({ role: 'user' as const, content: [{ text }] });

describe('the event-stream framing', () => {
  it('computes the IEEE CRC-32 the prelude and message checksums use', () => {
    expect(crc32(Buffer.from('123456789'))).toBe(0xcbf43926);
  });

  it('round-trips string headers and a payload, with the lengths in the prelude', () => {
    const frame = encodeEventMessage({ ':event-type': 'messageStart', ':message-type': 'event' }, '{"role":"assistant"}');
    expect(frame.readUInt32BE(0)).toBe(frame.length);
    expect(decodeEventMessages(frame)).toEqual([{ headers: { ':event-type': 'messageStart', ':message-type': 'event' }, payload: '{"role":"assistant"}' }]);
    const broken = Buffer.from(frame);
    broken[broken.length - 6] = broken[broken.length - 6]! ^ 0xff;
    expect(() => decodeEventMessages(broken)).toThrow(/checksum/);
  });
});

describe('the simulator speaking Bedrock', () => {
  it('answers Converse as the SDK expects, with x-amzn-requestid and honest usage', async () => {
    const { client } = await start();
    const out = await client.send(new ConverseCommand({ modelId: MODEL, messages: [user('Say hello')], inferenceConfig: { maxTokens: 40 } }));
    expect(out.output?.message?.content?.[0]?.text).toEqual(expect.any(String));
    expect(out.stopReason).toMatch(/end_turn|max_tokens/);
    expect(out.usage).toMatchObject({ inputTokens: expect.any(Number), outputTokens: expect.any(Number) });
    expect(out.usage!.totalTokens).toBe(out.usage!.inputTokens! + out.usage!.outputTokens!);
    expect(out.$metadata.requestId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-/);
  });

  it('streams ConverseStream as CRC-framed event-stream messages the SDK decodes, in Bedrock\'s order', async () => {
    const { client } = await start();
    const out = await client.send(new ConverseStreamCommand({ modelId: MODEL, messages: [user('Tell me about trains')] }));
    const kinds: string[] = [];
    for await (const event of out.stream!) kinds.push(Object.keys(event).find((k) => k !== '$unknown')!);
    expect(kinds[0]).toBe('messageStart');
    expect(kinds.slice(-3)).toEqual(['contentBlockStop', 'messageStop', 'metadata']);
    expect(kinds.filter((k) => k === 'contentBlockDelta').length).toBeGreaterThan(1);
  });

  it('sends the stream with the event-stream content type and an exception frame for a stream fault', async () => {
    const { sim } = await start({ faults: [{ fault: 'stream_error', afterChunks: 1 }] });
    const res = await fetch(`${sim.baseURL('aws')}/model/${encodeURIComponent(MODEL)}/converse-stream`, {
      method: 'POST', headers: { authorization: 'AWS4-HMAC-SHA256 Credential=AKIDTEST/20261201/us-east-1/bedrock/aws4_request, SignedHeaders=host, Signature=00', 'content-type': 'application/json' },
      body: JSON.stringify({ messages: [user('Hi there')] }),
    });
    expect(res.headers.get('content-type')).toBe('application/vnd.amazon.eventstream');
    const messages = decodeEventMessages(new Uint8Array(await res.arrayBuffer()));
    expect(messages.at(-1)!.headers).toMatchObject({ ':message-type': 'exception', ':exception-type': 'modelStreamErrorException' });
    expect(messages.every((m) => m.headers[':message-type'] !== 'event' || JSON.parse(m.payload).p)).toBe(true);
  });

  it('answers a throttling fault as a ThrottlingException with x-amzn-ErrorType and no retry-after', async () => {
    const { client, sim } = await start({ faults: [{ fault: 'rate_limit', nth: 1 }] });
    const err = await client.send(new ConverseCommand({ modelId: MODEL, messages: [user('x')] })).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ThrottlingException);
    expect(err).toMatchObject({ message: 'Too many requests, please wait before trying again.', $metadata: { httpStatusCode: 429 } });
    const raw = (err as { $response: { headers: Record<string, string> } }).$response.headers;
    expect(raw['x-amzn-errortype']).toBe('ThrottlingException:http://internal.amazon.com/coral/com.amazon.bedrock/');
    expect(raw['retry-after']).toBeUndefined();
    expect(sim.stats().providers.aws!.byStatus).toEqual({ 429: 1 });
  });

  it.each([
    [[{ role: 'assistant', content: [{ text: 'hi' }] }], 'A conversation must start with a user message'],
    [[user('a'), user('b')], 'A conversation must alternate between user and assistant roles'],
    [[{ role: 'user', content: [{ text: '   ' }] }], 'The text field in the ContentBlock object at messages.0.content.0 is blank'],
    [[user('x'), { role: 'assistant', content: [{ toolUse: { toolUseId: 't1', name: 'f', input: {} } }] }, { role: 'user', content: [{ toolResult: { toolUseId: 't1', content: [{ text: 'r' }] } }] }], 'The toolConfig field must be defined'],
  ])('refuses an invalid conversation with a ValidationException (%#)', async (messages, says) => {
    const { client } = await start();
    const err = await client.send(new ConverseCommand({ modelId: MODEL, messages: messages as never })).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ValidationException);
    expect((err as Error).message).toContain(says);
  });

  it('answers 503 ServiceUnavailableException and 403 for a request with no Authorization header', async () => {
    const { client, sim } = await start({ faults: [{ fault: 'unavailable', nth: 1 }] });
    const err = await client.send(new ConverseCommand({ modelId: MODEL, messages: [user('x')] })).catch((e: unknown) => e);
    expect(err).toMatchObject({ name: 'ServiceUnavailableException', $metadata: { httpStatusCode: 503 } });
    const res = await fetch(`${sim.baseURL('aws')}/model/${encodeURIComponent(MODEL)}/converse`, { method: 'POST', body: '{}' });
    expect(res.status).toBe(403);
    expect(res.headers.get('x-amzn-errortype')).toMatch(/^MissingAuthenticationTokenException:/);
  });

  it('answers Titan and Cohere embedding bodies through InvokeModel, with the token-count header', async () => {
    const { client } = await start();
    const titan = await client.send(new InvokeModelCommand({ modelId: 'amazon.titan-embed-text-v2:0', body: JSON.stringify({ inputText: 'hello', dimensions: 512 }), contentType: 'application/json' }));
    const t = JSON.parse(new TextDecoder().decode(titan.body));
    expect(t.embedding).toHaveLength(512);
    expect(t.inputTextTokenCount).toBeGreaterThan(0);
    const cohere = await client.send(new InvokeModelCommand({ modelId: 'cohere.embed-english-v3', body: JSON.stringify({ texts: ['a', 'b'], input_type: 'search_query', embedding_types: ['float'] }), contentType: 'application/json' }));
    expect(JSON.parse(new TextDecoder().decode(cohere.body)).embeddings.float).toHaveLength(2);
    const tooMany = await client.send(new InvokeModelCommand({ modelId: 'cohere.embed-english-v3', body: JSON.stringify({ texts: Array(97).fill('x'), input_type: 'search_query' }), contentType: 'application/json' })).catch((e: unknown) => e);
    expect(tooMany).toBeInstanceOf(ValidationException);
  });
});
