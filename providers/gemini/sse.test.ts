import { describe, expect, it } from 'vitest';
import { sseData } from './sse.js';

async function dataOf(chunks: string[]): Promise<string[]> {
  const encoder = new TextEncoder();
  async function* body() {
    for (const chunk of chunks) yield encoder.encode(chunk);
  }
  const out: string[] = [];
  for await (const data of sseData(body())) out.push(data);
  return out;
}

describe('server-sent events', () => {
  it('reads Google\'s CRLF-framed events', async () => {
    expect(await dataOf(['data: {"a":1}\r\n\r\ndata: {"b":2}\r\n\r\n'])).toEqual(['{"a":1}', '{"b":2}']);
  });

  it('reads LF- and CR-framed events', async () => {
    expect(await dataOf(['data: one\n\ndata: two\r\rdata: three\n\n'])).toEqual(['one', 'two', 'three']);
  });

  it('joins an event split at every byte, a CRLF split between chunks included', async () => {
    const text = 'data: {"text":"héllo"}\r\n\r\ndata: {"b":2}\r\n\r\n';
    const bytes = new TextEncoder().encode(text);
    async function* body() {
      for (const byte of bytes) yield new Uint8Array([byte]);
    }
    const out: string[] = [];
    for await (const data of sseData(body())) out.push(data);
    expect(out).toEqual(['{"text":"héllo"}', '{"b":2}']);
  });

  it('joins multi-line data with \\n and ignores comments, event, id and retry lines', async () => {
    expect(await dataOf([': keep-alive\n', 'event: message\nid: 7\nretry: 10\ndata: a\ndata: b\n\n'])).toEqual(['a\nb']);
  });

  it('keeps a value without the space after the colon', async () => {
    expect(await dataOf(['data:{"x":1}\n\n'])).toEqual(['{"x":1}']);
  });

  it('drops an event the stream ends inside of', async () => {
    expect(await dataOf(['data: whole\n\ndata: {"cut'])).toEqual(['whole']);
    expect(await dataOf(['data: {"no blank line"}\n'])).toEqual([]);
  });
});
