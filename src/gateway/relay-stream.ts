import type { RelayEvent, StreamOptions } from '../calls/stream.js';
import type { Router } from '../router.js';
import type { ChatRequest } from '../types.js';

/**
 * `router.stream` as the gateway reads it: a request carrying pass-through bytes
 * (src/pass-through/seam.ts) whose target took them also yields `raw` events, which the public
 * `StreamEvent` type never shows a caller that cannot ask for them.
 */
export function relayStream(router: Router, request: ChatRequest, options?: StreamOptions): AsyncIterator<RelayEvent> {
  return router.stream(request, options)[Symbol.asyncIterator]() as AsyncIterator<RelayEvent>;
}
