import type OpenAI from 'openai';
import type { APIError } from 'openai';
import type { HeaderBag } from '../../shared/headers.js';
import { truncatedStream } from '../../shared/stream-errors.js';
import type { ProviderCallOptions, ProviderRequest, ProviderResponse, ProviderStreamEvent } from '../../types.js';
import { eventData, nextEventEnd } from '../../shared/sse-events.js';
import { responsesProviderResponse } from './chat.js';
import type { ResponsesContext } from './context.js';
import type { Wire } from '../wire.js';
import { ResponsesEventReader } from './events.js';

/**
 * A pass-through Responses call, not streamed: the client's bytes (`request.raw`, `model` already
 * the target's) to `/responses` as they are, the answer read as `chatResponses` reads the SDK's
 * (the same text, tool calls, finish, usage and errors) and its body kept as it came (`raw`).
 */
export async function chatResponsesRaw(ctx: ResponsesContext, wire: Wire, request: ProviderRequest, options: ProviderCallOptions): Promise<ProviderResponse> {
  let body: string;
  let headers: HeaderBag;
  let data: OpenAI.Responses.Response;
  try {
    ({ text: body, headers } = await wire.answer(request.raw!, options));
    data = JSON.parse(body) as OpenAI.Responses.Response;
  } catch (err) {
    throw ctx.map(request.model)(err);
  }
  const answer = responsesProviderResponse(ctx, request, data, headers);
  answer.raw = body;
  answer.rawApi = 'responses';
  // The Response as parsed here: the gateway keeps it for previous_response_id without parsing the bytes again.
  answer.rawParsed = data as unknown as Readonly<Record<string, unknown>>;
  return answer;
}

const FAILING = new Set(['error', 'response.failed']);

/**
 * A pass-through Responses stream: the client's bytes sent as they are, the upstream's SSE read as
 * it comes. Each read yields one `raw` event holding its whole SSE events as they came, then the
 * events read from them (ResponsesEventReader, as on the SDK's stream), so the router commits,
 * counts usage and ends exactly as on the translated path while the gateway relays the bytes. An
 * `error` or `response.failed` event is thrown as on the SDK's stream, after the events before it
 * and without its own bytes; reading stops at the terminal event.
 */
export async function* streamResponsesRaw(ctx: ResponsesContext, wire: Wire, request: ProviderRequest, options: ProviderCallOptions): AsyncGenerator<ProviderStreamEvent> {
  const where = ctx.where(request.model);
  const map = ctx.map(request.model);
  let response: Response;
  try {
    response = await wire.events(request.raw!, options);
  } catch (err) {
    throw map(err);
  }
  yield { type: 'open', requestId: response.headers.get('x-request-id') ?? undefined, rateLimit: ctx.rateLimits(response.headers) };
  const reader = new ResponsesEventReader(where, response.headers);
  const decoder = new TextDecoder();
  let buffer = '';
  /** The whole SSE events in `buffer` (at the body's end, what is left too): their `raw` event, then theirs. */
  function* drain(final: boolean): Generator<ProviderStreamEvent> {
    let from = 0;
    let relay = '';
    const events: ProviderStreamEvent[] = [];
    let failure: unknown;
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
      const parsed = JSON.parse(data) as OpenAI.Responses.ResponseStreamEvent;
      if (!FAILING.has(parsed.type)) relay += event;
      try {
        for (const out of reader.events(parsed)) events.push(out);
      } catch (err) {
        failure = err;
        break;
      }
    }
    buffer = buffer.slice(from);
    if (relay !== '') yield { type: 'raw', bytes: relay };
    yield* events;
    if (failure !== undefined) throw failure as APIError;
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
    throw map(err);
  }
  if (!reader.done) throw truncatedStream(where, 'response.completed');
}
