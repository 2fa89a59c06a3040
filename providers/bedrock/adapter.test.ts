import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { resolveConfig } from '../../src/config/index.js';
import { RouterError } from '../../src/errors.js';
import { adapterFor, drain } from '../test-support/adapter-harness.js';
import { converseBody, eventFrame } from '../test-support/bedrock-wire.js';
import { checkBedrockSdk, loadBedrockSdk } from './load-sdk.js';
import { maxEmbeddingInputsFor } from './embed.js';

const MODEL = 'anthropic.claude-3-7-sonnet-20250219-v1:0';

let closeServer: (() => Promise<void>) | undefined;
afterEach(async () => {
  await closeServer?.();
  closeServer = undefined;
});

/** A loopback server that answers one fixed JSON body and tracks its open sockets. */
async function server(answer: (path: string) => { status?: number; body?: unknown; frames?: Buffer[] }): Promise<{ url: string; sockets: Set<Socket>; paths: string[] }> {
  const sockets = new Set<Socket>();
  const paths: string[] = [];
  const srv: Server = createServer(async (req, res) => {
    for await (const _ of req) { /* drain */ }
    paths.push(req.url ?? '');
    const a = answer(req.url ?? '');
    if (a.frames) {
      res.writeHead(200, { 'content-type': 'application/vnd.amazon.eventstream' });
      for (const f of a.frames) res.write(f);
      res.end();
      return;
    }
    res.writeHead(a.status ?? 200, { 'content-type': 'application/json', 'x-amzn-requestid': 'req-1' });
    res.end(JSON.stringify(a.body));
  });
  srv.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  closeServer = () => new Promise((r) => {
    srv.closeAllConnections();
    srv.close(() => r());
  });
  return { url: `http://127.0.0.1:${(srv.address() as AddressInfo).port}`, sockets, paths };
}

describe('bedrock adapter', () => {
  it('refuses a bedrock provider whose SDK is not installed with a config error naming the package to install', () => {
    for (const fn of [() => checkBedrockSdk('aws', '@aws-sdk/not-installed-here'), () => loadBedrockSdk('aws', '@aws-sdk/not-installed-here')]) {
      let err: unknown;
      try {
        fn();
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(RouterError);
      expect(err).toMatchObject({ kind: 'config', provider: 'aws', code: 'missing_dependency', message: expect.stringContaining('npm install @aws-sdk/not-installed-here') });
    }
    expect(() => checkBedrockSdk('aws')).not.toThrow();
  });

  it('refuses the settings of other providers on a bedrock provider, naming each', () => {
    expect(() => resolveConfig({ providers: { aws: { type: 'bedrock', apiKeyEnv: 'AWS_KEY', headers: { a: 'b' } } }, chains: { default: ['aws:m'] } }))
      .toThrow(/providers\.aws\.apiKeyEnv: a bedrock provider takes no apiKeyEnv[\s\S]*providers\.aws\.headers/);
    expect(() => resolveConfig({ providers: { aws: { type: 'bedrock', region: 'US East' } }, chains: { default: ['aws:m'] } })).toThrow(/providers\.aws\.region: expected an AWS region/);
  });

  it('sends nothing until the first call, keeps its socket alive between calls, and closes it with the router', async () => {
    const up = await server(() => ({ body: converseBody([{ text: 'hi' }]) }));
    const adapter = adapterFor('aws', { type: 'bedrock', region: 'us-east-1', baseURL: up.url });
    expect(up.sockets.size).toBe(0);
    await adapter.chat({ model: MODEL, messages: [{ role: 'user', content: 'one' }] }, {});
    await adapter.chat({ model: MODEL, messages: [{ role: 'user', content: 'two' }] }, {});
    expect(up.paths).toHaveLength(2);
    expect(up.sockets.size).toBe(1);
    await adapter.close();
    await expect.poll(() => up.sockets.size).toBe(0);
  });

  it('reports 5-minute and 1-hour cache writes apart, from cacheDetails', async () => {
    const up = await server(() => ({ body: converseBody([{ text: 'hi' }], 'end_turn', {
      inputTokens: 10, outputTokens: 5, totalTokens: 1015, cacheWriteInputTokens: 1000,
      cacheDetails: [{ ttl: '1h', inputTokens: 600 }, { ttl: '5m', inputTokens: 400 }],
    }) }));
    const adapter = adapterFor('aws', { type: 'bedrock', region: 'us-east-1', baseURL: up.url });
    const res = await adapter.chat({ model: MODEL, messages: [{ role: 'user', content: 'hi' }] }, {});
    expect(res.usage).toEqual({ inputTokens: 1010, outputTokens: 5, cacheWriteTokens: 1000, cacheWrite5mTokens: 400, cacheWrite1hTokens: 600 });
    await adapter.close();
  });

  it('reads usage with cache reads and writes as total input, and says which traits the router needs', async () => {
    const up = await server(() => ({ body: converseBody([{ text: 'hi' }], 'max_tokens', { inputTokens: 10, outputTokens: 5, totalTokens: 315, cacheReadInputTokens: 200, cacheWriteInputTokens: 100 }) }));
    const adapter = adapterFor('aws', { type: 'bedrock', region: 'us-east-1', baseURL: up.url });
    const res = await adapter.chat({ model: MODEL, messages: [{ role: 'user', content: 'hi' }] }, {});
    expect(res).toMatchObject({ finishReason: 'length', usage: { inputTokens: 310, outputTokens: 5, cachedInputTokens: 200, cacheWriteTokens: 100 }, requestId: 'req-1' });
    expect(adapter.traits).toMatchObject({ timeoutCoversBody: false, maxEmbeddingInputs: 96 });
    expect([maxEmbeddingInputsFor('amazon.titan-embed-text-v2:0'), maxEmbeddingInputsFor('cohere.embed-v4:0')]).toEqual([1, 96]);
    await adapter.close();
  });

  it('streams reasoning as liveness only and finishes with the reasoning blocks to replay', async () => {
    const up = await server(() => ({ frames: [
      eventFrame('messageStart', { role: 'assistant' }),
      eventFrame('contentBlockDelta', { contentBlockIndex: 0, delta: { reasoningContent: { text: 'Let me think.' } } }),
      eventFrame('contentBlockDelta', { contentBlockIndex: 0, delta: { reasoningContent: { signature: 'sig-9' } } }),
      eventFrame('contentBlockStop', { contentBlockIndex: 0 }),
      eventFrame('contentBlockDelta', { contentBlockIndex: 1, delta: { text: 'Done.' } }),
      eventFrame('contentBlockStop', { contentBlockIndex: 1 }),
      eventFrame('messageStop', { stopReason: 'end_turn' }),
      eventFrame('metadata', { usage: { inputTokens: 3, outputTokens: 9, totalTokens: 12 } }),
    ] }));
    const adapter = adapterFor('aws', { type: 'bedrock', region: 'us-east-1', baseURL: up.url });
    const { events, error } = await drain(adapter, { model: MODEL, messages: [{ role: 'user', content: 'hi' }], reasoning: { effort: 'low' }, maxTokens: 4000 });
    expect(error).toBeUndefined();
    expect(events.map((e) => e.type)).toEqual(['open', 'thinking', 'thinking', 'delta', 'finish']);
    expect(events.at(-1)).toMatchObject({ finishReason: 'stop', usage: { inputTokens: 3, outputTokens: 9 }, providerParts: { api: 'bedrock', blocks: [
      { reasoningContent: { reasoningText: { text: 'Let me think.', signature: 'sig-9' } } }, { text: 'Done.' },
    ] } });
    await adapter.close();
  });

  it('streams reasoning text, signature and redacted bytes as thinking events numbered by reasoning block', async () => {
    const up = await server(() => ({ frames: [
      eventFrame('messageStart', { role: 'assistant' }),
      eventFrame('contentBlockDelta', { contentBlockIndex: 0, delta: { reasoningContent: { text: 'Let me ' } } }),
      eventFrame('contentBlockDelta', { contentBlockIndex: 0, delta: { reasoningContent: { text: 'think.' } } }),
      eventFrame('contentBlockDelta', { contentBlockIndex: 0, delta: { reasoningContent: { signature: 'sig-9' } } }),
      eventFrame('contentBlockStop', { contentBlockIndex: 0 }),
      eventFrame('contentBlockDelta', { contentBlockIndex: 1, delta: { reasoningContent: { redactedContent: Buffer.from('opaque').toString('base64') } } }),
      eventFrame('contentBlockStop', { contentBlockIndex: 1 }),
      eventFrame('contentBlockDelta', { contentBlockIndex: 2, delta: { text: 'Done.' } }),
      eventFrame('contentBlockStop', { contentBlockIndex: 2 }),
      eventFrame('messageStop', { stopReason: 'end_turn' }),
      eventFrame('metadata', { usage: { inputTokens: 3, outputTokens: 9, totalTokens: 12 } }),
    ] }));
    const adapter = adapterFor('aws', { type: 'bedrock', region: 'us-east-1', baseURL: up.url });
    const { events, error } = await drain(adapter, { model: MODEL, messages: [{ role: 'user', content: 'hi' }], reasoning: { effort: 'low' }, maxTokens: 4000 });
    expect(error).toBeUndefined();
    expect(events.filter((e) => e.type === 'thinking')).toEqual([
      { type: 'thinking', index: 0, delta: 'Let me ' },
      { type: 'thinking', index: 0, delta: 'think.' },
      { type: 'thinking', index: 0, signature: 'sig-9' },
      { type: 'thinking', index: 1, redacted: Buffer.from('opaque').toString('base64') },
    ]);
    expect(events.at(-1)).toMatchObject({ providerParts: { api: 'bedrock', blocks: [
      { reasoningContent: { reasoningText: { text: 'Let me think.', signature: 'sig-9' } } }, { reasoningContent: { redactedContent: { base64: Buffer.from('opaque').toString('base64') } } }, { text: 'Done.' },
    ] } });
    await adapter.close();
  });

  it('calls a stream that ends after messageStop without metadata finished, its usage unknown (never 0); one that ends before it cut short', async () => {
    let frames: Buffer[] = [];
    const up = await server(() => ({ frames }));
    const adapter = adapterFor('aws', { type: 'bedrock', region: 'us-east-1', baseURL: up.url });
    frames = [eventFrame('messageStart', { role: 'assistant' }), eventFrame('contentBlockDelta', { contentBlockIndex: 0, delta: { text: 'Hi' } }), eventFrame('messageStop', { stopReason: 'end_turn' })];
    const finish = (await drain(adapter, { model: MODEL, messages: [{ role: 'user', content: 'a' }] })).events.at(-1);
    expect(finish).toMatchObject({ type: 'finish', finishReason: 'stop' });
    expect(finish).not.toHaveProperty('usage');
    frames = frames.slice(0, 2);
    const cut = await drain(adapter, { model: MODEL, messages: [{ role: 'user', content: 'b' }] });
    expect(cut.error).toMatchObject({ kind: 'transport', code: 'stream_truncated' });
    await adapter.close();
  });
});
