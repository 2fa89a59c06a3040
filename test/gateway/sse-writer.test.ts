import type { ServerResponse } from 'node:http';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { SseWriter } from '../../src/gateway/sse-writer.js';

// The writer every gateway stream goes through (chat completions, /v1/messages, /v1/responses'
// named events): a client that reads slowly holds its own stream back. The response here is a
// Writable whose reader (the "socket") takes chunks only when the test says so.

function slowReader(highWaterMark = 64) {
  const taken: string[] = [];
  const pending: Array<() => void> = [];
  const res = new Writable({
    highWaterMark,
    write(chunk: Buffer, _enc, callback) {
      taken.push(chunk.toString());
      pending.push(() => callback());
    },
  });
  /** Lets the reader take every chunk written so far. */
  const read = async () => {
    while (pending.length > 0) {
      pending.shift()!();
      await new Promise<void>((r) => setImmediate(r));
    }
  };
  return { res: res as unknown as ServerResponse & Writable, taken, read };
}

const delta = (n: number) => ({ type: 'response.output_text.delta', sequence_number: n, delta: 'x'.repeat(100) });

describe('SseWriter.named (the /v1/responses stream)', () => {
  it('frames each value as a named event, all in one write', () => {
    const { res, taken } = slowReader(1_000_000);
    expect(new SseWriter(res).named([delta(0), delta(1)])).toBeUndefined();
    expect(taken).toEqual([`event: response.output_text.delta\ndata: ${JSON.stringify(delta(0))}\n\nevent: response.output_text.delta\ndata: ${JSON.stringify(delta(1))}\n\n`]);
  });

  it('makes the writer wait while the reader is slow: the promise settles only once the reader drained', async () => {
    const { res, taken, read } = slowReader();
    const out = new SseWriter(res);
    const wait = out.named([delta(0)]);
    expect(wait).toBeInstanceOf(Promise);
    let drained = false;
    void wait!.then(() => (drained = true));
    for (let i = 0; i < 5; i++) await new Promise<void>((r) => setImmediate(r));
    expect(drained).toBe(false);
    expect(res.writableNeedDrain).toBe(true);
    await read();
    await wait;
    expect(drained).toBe(true);
    expect(taken).toHaveLength(1);
  });

  it('lets a waiting writer go when the client leaves, and drops every write after', async () => {
    const { res, taken } = slowReader();
    const out = new SseWriter(res);
    const wait = out.named([delta(0)]);
    res.destroy();
    await wait;
    expect(out.gone).toBe(true);
    expect(out.named([delta(1)])).toBeUndefined();
    expect(taken).toHaveLength(1);
  });
});
