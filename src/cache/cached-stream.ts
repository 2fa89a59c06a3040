import { assistantMessage } from '../calls/output.js';
import type { RelayEvent, StreamEvent } from '../calls/stream.js';
import type { ChatRequest, ChatResult } from '../types.js';
import type { ResponseCache } from './response-cache.js';

/**
 * The most text a stream whose caller keeps no text (`keepText: false`) gathers to store its answer:
 * a longer answer is streamed but not stored, so a relay's stream stays in bounded memory.
 */
export const STREAM_CACHE_MAX_CHARS = 1_048_576;

/** A cached answer replayed as the stream it would have been: start, its text, its tool calls, done. */
function* replay(result: ChatResult, keepText: boolean): Generator<StreamEvent> {
  yield { type: 'start', provider: result.provider, model: result.model, attempts: result.attempts, ...(result.requestId !== undefined ? { requestId: result.requestId } : {}) };
  if (result.text) yield { type: 'text', delta: result.text };
  for (let index = 0; index < result.toolCalls.length; index++) {
    const toolCall = result.toolCalls[index]!;
    yield { type: 'tool_call_delta', index, id: toolCall.id, name: toolCall.name, argumentsDelta: '' };
    yield { type: 'tool_call_delta', index, argumentsDelta: JSON.stringify(toolCall.arguments) };
    yield { type: 'tool_call', toolCall };
  }
  yield { type: 'done', result: keepText ? result : withText(result, '') };
}

/** The result with `text` (and its message's content) set to `text`. */
function withText(result: ChatResult, text: string): ChatResult {
  return Object.assign({}, result, { text, message: assistantMessage({ text, toolCalls: result.toolCalls, providerParts: result.message.providerParts }) });
}

/**
 * A stream through the response cache: a hit replays as a stream and sends nothing; a miss streams
 * as usual and its result is stored once it is `done` and complete. When the caller keeps no text
 * (`keepText: false`), the text to store is gathered here, up to STREAM_CACHE_MAX_CHARS; a longer
 * answer is not stored.
 */
export async function* cachedStream(cache: ResponseCache, request: ChatRequest, chain: string, startedAtMs: number, live: () => AsyncGenerator<RelayEvent>, keepText = true): AsyncGenerator<RelayEvent> {
  const key = cache.keyOf(request, chain);
  const hit = await cache.lookup(key, startedAtMs);
  if (hit) {
    yield* replay(Object.assign({}, hit, { timeToFirstTokenMs: hit.latencyMs }), keepText);
    return;
  }
  let gathered: string[] | undefined = keepText ? undefined : [];
  let chars = 0;
  for await (const ev of live()) {
    if (gathered && ev.type === 'text') {
      chars += ev.delta.length;
      if (chars > STREAM_CACHE_MAX_CHARS) gathered = undefined;
      else gathered.push(ev.delta);
    }
    if (ev.type === 'done') {
      if (keepText) await cache.store(key, ev.result);
      else if (gathered && chars <= STREAM_CACHE_MAX_CHARS) await cache.store(key, withText(ev.result, gathered.join('')));
    }
    yield ev;
  }
}
