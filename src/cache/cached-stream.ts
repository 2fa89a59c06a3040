import type { StreamEvent } from '../calls/stream.js';
import type { ChatRequest, ChatResult } from '../types.js';
import type { ResponseCache } from './response-cache.js';

/** A cached answer replayed as the stream it would have been: start, its text, its tool calls, done. */
function* replay(result: ChatResult): Generator<StreamEvent> {
  yield { type: 'start', provider: result.provider, model: result.model, attempts: result.attempts, ...(result.requestId !== undefined ? { requestId: result.requestId } : {}) };
  if (result.text) yield { type: 'text', delta: result.text };
  for (let index = 0; index < result.toolCalls.length; index++) {
    const toolCall = result.toolCalls[index]!;
    yield { type: 'tool_call_delta', index, id: toolCall.id, name: toolCall.name, argumentsDelta: '' };
    yield { type: 'tool_call_delta', index, argumentsDelta: JSON.stringify(toolCall.arguments) };
    yield { type: 'tool_call', toolCall };
  }
  yield { type: 'done', result };
}

/**
 * A stream through the response cache: a hit replays as a stream and sends nothing; a miss streams
 * as usual and its result is stored once it is `done` and complete.
 */
export async function* cachedStream(cache: ResponseCache, request: ChatRequest, chain: string, startedAtMs: number, live: () => AsyncGenerator<StreamEvent>): AsyncGenerator<StreamEvent> {
  const key = cache.keyOf(request, chain);
  const hit = await cache.lookup(key, startedAtMs);
  if (hit) {
    yield* replay({ ...hit, timeToFirstTokenMs: hit.latencyMs });
    return;
  }
  for await (const ev of live()) {
    if (ev.type === 'done') await cache.store(key, ev.result);
    yield ev;
  }
}
