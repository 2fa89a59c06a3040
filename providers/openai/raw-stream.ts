import type OpenAI from 'openai';
import { APIError } from 'openai';
import type { ProviderCallOptions, ProviderRequest, ProviderStreamEvent } from '../types.js';
import type { OpenAIStreamContext } from './stream.js';
import { OpenAIChunkReader } from './stream-chunks.js';
import type { Wire } from './wire.js';
import { readRateLimits } from '../shared/rate-limit-snapshot.js';
import { eventData, nextEventEnd } from '../shared/sse-events.js';

export { eventData, eventEnd, nextEventEnd } from '../shared/sse-events.js';

/** What a pass-through stream needs besides the SDK stream's context: the wire its bytes go on. */
export interface RawStreamContext extends Omit<OpenAIStreamContext, 'client'> {
  wire: Wire;
}

/**
 * A pass-through Chat Completions stream: the client's bytes (`request.raw`) sent as they are, and the
 * upstream's SSE read as it comes. Each read yields one `raw` event holding its whole SSE events as
 * they came, then the events read from them (the SDK stream's own reading: see OpenAIChunkReader),
 * so the router sees text, thinking, the finish and usage exactly as on the translated path, and the
 * gateway relays the bytes. A `data: {"error": ...}` event is thrown as the SDK would (a status-less
 * `APIError`), after the events before it and without its own bytes. With `rawAddsUsage` the
 * `choices: []` usage chunk is read and not passed on.
 */
export async function* streamRaw(ctx: RawStreamContext, request: ProviderRequest, options: ProviderCallOptions): AsyncGenerator<ProviderStreamEvent> {
  let response: Response;
  try {
    response = await ctx.wire.events(request.raw!, options);
  } catch (err) {
    throw ctx.map(err);
  }
  yield { type: 'open', requestId: response.headers.get('x-request-id') ?? undefined, rateLimit: readRateLimits(ctx.headers ? ctx.headers(response.headers) : response.headers, ctx.now(), ctx.compatible ? 'any' : 'openai') };
  const reader = new OpenAIChunkReader();
  const strip = request.rawAddsUsage === true;
  const decoder = new TextDecoder();
  let buffer = '';
  /** The whole SSE events in `buffer` (at the body's end, what is left too, as the SDK reads it): their `raw` event, then theirs. */
  function* drain(final: boolean): Generator<ProviderStreamEvent> {
    let from = 0;
    let relay = '';
    let events: ProviderStreamEvent[] | undefined;
    let failure: APIError | undefined;
    for (;;) {
      const end = nextEventEnd(buffer, from, final);
      if (end < 0) break;
      const event = buffer.slice(from, end);
      from = end;
      const data = eventData(event);
      if (data === undefined || data === '[DONE]') {
        relay += event;
        continue;
      }
      const chunk = JSON.parse(data) as OpenAI.ChatCompletionChunk & { error?: unknown };
      if (chunk.error) {
        failure = new APIError(undefined, chunk.error as object, undefined, response.headers);
        break;
      }
      if (!(strip && chunk.usage && (chunk.choices?.length ?? 0) === 0)) relay += event;
      for (const out of reader.events(chunk)) (events ??= []).push(out);
    }
    buffer = buffer.slice(from);
    if (relay !== '') yield { type: 'raw', bytes: relay };
    if (events) yield* events;
    if (failure) throw failure;
  }
  try {
    if (!response.body) throw new Error('the response has no body');
    for await (const bytes of response.body as unknown as AsyncIterable<Uint8Array>) {
      buffer += decoder.decode(bytes, { stream: true });
      yield* drain(false);
    }
    buffer += decoder.decode();
    yield* drain(true);
  } catch (err) {
    // Past the finish_reason only the usage chunk and [DONE] were to come: the answer is whole.
    if (!reader.finishReason) throw ctx.map(err);
  }
  yield reader.finish(ctx.where);
}
