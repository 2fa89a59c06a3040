import type OpenAI from 'openai';
import { isRouterError, type ErrorKind } from '../../errors.js';

/** The `code` of a failed Response (`response.error.code`): the SDK types name each word it may be. */
export type ResponsesFailureCode = OpenAI.Responses.ResponseError['code'];

/**
 * The Responses wire's word for each kind, for a stream that fails after its commit point: the
 * `code` of its `error` event and of the `response.failed` event's `response.error`. Unlike Chat
 * Completions, a Responses stream failure carries no `type` word, and `response.error.code` is a
 * closed set (node_modules/openai/resources/responses/responses.d.ts `ResponseError.code`:
 * `server_error`, `rate_limit_exceeded`, `invalid_prompt` and image and vector-store words); the
 * `error` event's own `code` is a free string (`ResponseErrorEvent`), and says the same word here,
 * so a client reads one word from either. Throttling is `rate_limit_exceeded`, a refused prompt
 * `invalid_prompt`, everything else `server_error`, the code OpenAI's own failed streams carry
 * (src/sim/openai-responses-wire.ts copies a real one; provider-wire-formats-wave2.md §2.3). Before
 * the commit point a failure is an ordinary HTTP error in OpenAI's envelope
 * (src/convert/openai-errors.ts). The openai SDK yields both events, it never throws on them
 * (its stream throws only on a `data` object with a top-level `error` key, core/streaming.js).
 */
export const RESPONSES_FAILURE_CODE: Readonly<Record<ErrorKind, ResponsesFailureCode>> = Object.freeze({
  rate_limited: 'rate_limit_exceeded', local_limit: 'rate_limit_exceeded', quota_exhausted: 'rate_limit_exceeded', budget_exceeded: 'rate_limit_exceeded',
  content_filter: 'invalid_prompt',
  invalid_request: 'server_error', bad_request: 'server_error', context_length: 'server_error', unsupported: 'server_error',
  exhausted: 'server_error', circuit_open: 'server_error', server: 'server_error', transport: 'server_error', timeout: 'server_error',
  auth: 'server_error', not_found: 'server_error', invalid_output: 'server_error', config: 'server_error', aborted: 'server_error',
});

/** The code and message that end a Responses stream after its commit point, whatever ended it (anything but a RouterError told without its message). */
export function responsesFailure(err: unknown): { code: ResponsesFailureCode; message: string } {
  if (!isRouterError(err)) return { code: 'server_error', message: 'the gateway failed to handle the request' };
  return { code: RESPONSES_FAILURE_CODE[err.kind] ?? 'server_error', message: err.message };
}
