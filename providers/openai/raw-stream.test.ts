import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { adapterFor, drain } from '../test-support/adapter-harness.js';
import type { ProviderStreamEvent } from '../types.js';

// The pass-through stream reader against a server that writes its SSE in arbitrary pieces: events
// split across reads, CRLF framing, comments, a multi-byte character cut in two, no trailing blank line.

let server: Server | undefined;
afterEach(async () => {
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

/** A server answering every request with `pieces`, each written (and flushed) on its own. */
async function writing(pieces: Array<string | Buffer>): Promise<string> {
  server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    void (async () => {
      for (const piece of pieces) await new Promise<void>((resolve) => res.write(piece, () => resolve()));
      res.end();
    })();
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
}

const chunk = (delta: object, finish: string | null = null, extra: object = {}) => JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'gpt-4o-mini', choices: [{ index: 0, delta, finish_reason: finish }], ...extra });
const usageChunk = JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'gpt-4o-mini', choices: [], usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 } });
const raw = (events: ProviderStreamEvent[]) => events.filter((e) => e.type === 'raw').map((e) => (e as { bytes: string }).bytes).join('');
const text = (events: ProviderStreamEvent[]) => events.filter((e) => e.type === 'delta').map((e) => (e as { text: string }).text).join('');

describe('openai pass-through stream reader', () => {
  it('relays every byte of events split across reads, CRLF-framed, with comments, and reads their text and usage', async () => {
    const body = `: keep-alive\r\n\r\ndata: ${chunk({ role: 'assistant', content: '' })}\r\n\r\ndata: ${chunk({ content: 'Grüß' })}\r\n\r\ndata: ${chunk({}, 'stop')}\r\n\r\ndata: ${usageChunk}\r\n\r\ndata: [DONE]\r\n\r\n`;
    const bytes = Buffer.from(body);
    const cut = bytes.indexOf(Buffer.from('ü')) + 1; // inside the two bytes of ü
    const url = await writing([bytes.subarray(0, 7), bytes.subarray(7, cut), bytes.subarray(cut, cut + 40), bytes.subarray(cut + 40)]);
    const adapter = adapterFor('openai', { type: 'openai', apiKey: 'sk-test', baseURL: url });
    const { events, error } = await drain(adapter, { model: 'gpt-4o-mini', messages: [], raw: '{"model":"gpt-4o-mini","messages":[],"stream":true}' });
    expect(error).toBeUndefined();
    expect(raw(events)).toBe(body);
    expect(text(events)).toBe('Grüß');
    expect(events.at(-1)).toEqual({ type: 'finish', finishReason: 'stop', usage: { inputTokens: 3, outputTokens: 2 }, model: 'gpt-4o-mini' });
    await adapter.close();
  });

  it('keeps the usage chunk it asked for itself from the relayed bytes, and reads an event left without its blank line at the end', async () => {
    const url = await writing([`data: ${chunk({ content: 'Hi' })}\n\ndata: ${chunk({}, 'stop')}\n\n`, `data: ${usageChunk}\n\n`, 'data: [DONE]']);
    const adapter = adapterFor('openai', { type: 'openai', apiKey: 'sk-test', baseURL: url });
    const { events } = await drain(adapter, { model: 'gpt-4o-mini', messages: [], raw: '{}', rawAddsUsage: true });
    expect(raw(events)).toBe(`data: ${chunk({ content: 'Hi' })}\n\ndata: ${chunk({}, 'stop')}\n\ndata: [DONE]`);
    expect(events.at(-1)).toMatchObject({ type: 'finish', usage: { inputTokens: 3, outputTokens: 2 } });
    await adapter.close();
  });

  it('throws a stream that ends mid-event as a transport error, after relaying the whole events before it', async () => {
    const url = await writing([`data: ${chunk({ content: 'Hi' })}\n\ndata: {"id":"c","obj`]);
    const adapter = adapterFor('openai', { type: 'openai', apiKey: 'sk-test', baseURL: url });
    const { events, error } = await drain(adapter, { model: 'gpt-4o-mini', messages: [], raw: '{}' });
    expect(raw(events)).toBe(`data: ${chunk({ content: 'Hi' })}\n\n`);
    expect(error?.kind).toBe('transport');
    await adapter.close();
  });
});
