import { APICallError } from '@ai-sdk/provider';
import { answerStatus } from '../../decide/exhausted-status.js';
import { isRouterError } from '../../errors.js';

/**
 * A RouterError as the AI SDK's `APICallError`, the error its callers check for: status, the wait
 * hint as `retry-after-ms` / `retry-after` headers, the RouterError as `cause` and its facts as
 * `data`. Always `isRetryable: false`: the router already retried and fell through as far as its
 * config allows, so the AI SDK never sends the call again, whatever its `maxRetries`.
 */
export function toApiError(err: unknown, chain: string, request: unknown): unknown {
  if (!isRouterError(err)) return err;
  // An upstream's own status stays as it came: in-process the keys and models are the caller's, so
  // a 401 is theirs to act on. An error the router raised itself answers as a proxy would (the
  // gateway's status: an exhausted chain's by its cause, any other kind's from its facts in src/errors.ts).
  const statusCode = err.status ?? answerStatus(err);
  const headers = err.retryAfterMs !== undefined
    ? { 'retry-after-ms': String(Math.ceil(err.retryAfterMs)), 'retry-after': String(Math.ceil(err.retryAfterMs / 1000)) }
    : undefined;
  return new APICallError({
    message: err.message,
    url: `switchyard:${chain}`,
    requestBodyValues: request,
    statusCode,
    responseHeaders: headers,
    responseBody: err.raw,
    cause: err,
    isRetryable: false,
    data: err.toJSON(),
  });
}

/** How a failed call surfaces: the caller's own abort as the signal's reason (the AI SDK treats it as an abort), anything else as an APICallError. */
export function failure(err: unknown, chain: string, request: { signal?: AbortSignal }): unknown {
  if (isRouterError(err) && err.kind === 'aborted' && request.signal?.aborted) return request.signal.reason ?? err;
  const { signal: _signal, ...body } = request;
  return toApiError(err, chain, body);
}
