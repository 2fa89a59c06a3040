import Anthropic from '@anthropic-ai/sdk';
import type { RouterError } from '../../src/errors.js';
import { readRateLimits } from '../shared/rate-limit-snapshot.js';
import { eventData, nextEventEnd } from '../shared/sse-events.js';
import { truncatedStream } from '../shared/stream-errors.js';
import { malformedResponse } from '../shared/transport-error.js';
import type { ProviderCallOptions, ProviderRequest, ProviderResponse, ProviderStreamEvent } from '../types.js';
import type { MessagesWire } from './raw-wire.js';
import { anthropicAnswer } from './response.js';
import { AnthropicEventReader } from './stream-reader.js';
import { anthropicUsage } from './usage.js';

/** What a pass-through call needs of its adapter: the wire, the error mapping, the clock, and where it goes. */
export interface RawMessagesContext {
  wire: MessagesWire;
  map: (err: unknown) => RouterError;
  now: () => number;
  where: { provider: string; model: string };
}

/**
 * A pass-through Messages call, not streamed: the client's bytes (`request.raw`, `model` already the
 * target's) to `/v1/messages` as they are, the answer read as the SDK's is read (the same text, tool
 * calls, thinking parts, finish, usage and errors) and its body kept as it came (`raw`).
 */
export async function chatMessagesRaw(ctx: RawMessagesContext, request: ProviderRequest, options: ProviderCallOptions): Promise<ProviderResponse> {
  let text: string;
  let headers: { get(name: string): string | null | undefined };
  let data: Anthropic.Message;
  try {
    ({ text, headers } = await ctx.wire.answer(request.raw!, request.anthropicBeta, options));
    data = JSON.parse(text) as Anthropic.Message;
  } catch (err) {
    throw ctx.map(err);
  }
  if (!data || !Array.isArray(data.content)) throw malformedResponse(ctx.where, 'no content array');
  // A pass-through body never asks for the forced json tool (the decision sends such a body translated).
  const answer: ProviderResponse = Object.assign(anthropicAnswer(data, ctx.where, false), {
    usage: anthropicUsage(data.usage), model: data.model ?? request.model, requestId: headers.get('request-id') ?? undefined,
    rateLimit: readRateLimits(headers, ctx.now(), 'anthropic'), raw: text, rawApi: 'messages' as const,
  });
  return answer;
}

/**
 * A pass-through Messages stream: the client's bytes sent as they are, the upstream's SSE read as it
 * comes. Each read yields one `raw` event holding its whole SSE events as they came (pings, thinking
 * and signature deltas, cache usage fields: all of it), then the events read from them
 * (AnthropicEventReader, as on the SDK's stream), so the router commits, counts usage from
 * `message_start` and `message_delta` and ends exactly as on the translated path while the gateway
 * relays the bytes. An `event: error` is thrown as the SDK throws it (a status-less `APIError`), after
 * the events before it and without its own bytes; reading stops at `message_stop`.
 */
export async function* streamMessagesRaw(ctx: RawMessagesContext, request: ProviderRequest, options: ProviderCallOptions): AsyncGenerator<ProviderStreamEvent> {
  let response: Response;
  try {
    response = await ctx.wire.events(request.raw!, request.anthropicBeta, options);
  } catch (err) {
    throw ctx.map(err);
  }
  yield { type: 'open', requestId: response.headers.get('request-id') ?? undefined, rateLimit: readRateLimits(response.headers, ctx.now(), 'anthropic') };
  const reader = new AnthropicEventReader(false);
  const decoder = new TextDecoder();
  let buffer = '';
  /** The whole SSE events in `buffer` (at the body's end, what is left too): their `raw` event, then theirs. */
  function* drain(final: boolean): Generator<ProviderStreamEvent> {
    let from = 0;
    let relay = '';
    const events: ProviderStreamEvent[] = [];
    let failure: Error | undefined;
    while (!reader.done) {
      const end = nextEventEnd(buffer, from, final);
      if (end < 0) break;
      const event = buffer.slice(from, end);
      from = end;
      const data = eventData(event);
      if (data === undefined) {
        relay += event;
        continue;
      }
      const parsed = JSON.parse(data) as Anthropic.RawMessageStreamEvent | { type: 'error'; error?: { type?: string } };
      if (parsed.type === 'error') {
        failure = new Anthropic.APIError(undefined, parsed, undefined, response.headers, (parsed as { error?: { type?: string } }).error?.type as never);
        break;
      }
      relay += event;
      for (const out of reader.events(parsed as Anthropic.RawMessageStreamEvent)) events.push(out);
    }
    buffer = buffer.slice(from);
    if (relay !== '') yield { type: 'raw', bytes: relay };
    yield* events;
    if (failure !== undefined) throw failure;
  }
  try {
    if (!response.body) throw new Error('the response has no body');
    for await (const bytes of response.body as unknown as AsyncIterable<Uint8Array>) {
      buffer += decoder.decode(bytes, { stream: true });
      yield* drain(false);
      if (reader.done) return;
    }
    buffer += decoder.decode();
    yield* drain(true);
  } catch (err) {
    throw ctx.map(err);
  }
  if (!reader.done) throw truncatedStream(ctx.where, 'message_stop');
}
