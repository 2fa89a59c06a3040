import type { ShadowPolicy } from '../config/index.js';
import type { RelayEvent } from '../calls/stream.js';
import type { Call } from '../policy/state/call.js';
import type { ChatRequest } from '../types.js';
import type { ShadowBook } from './shadow-book.js';

/**
 * A stream of a shadowed chain, passed through unchanged: at its `done` (never at an `interrupted`
 * or a throw) the result is offered to the shadows, which start on a later turn, after the caller
 * has the event. The shadow copy is a chat call: only its whole answer is compared.
 */
export async function* shadowedStream(book: ShadowBook, policy: ShadowPolicy, call: Call<ChatRequest>, events: AsyncGenerator<RelayEvent>): AsyncGenerator<RelayEvent> {
  for await (const event of events) {
    if (event.type === 'done') book.offer(policy, call, event.result);
    yield event;
  }
}
