import { APICallError } from '@ai-sdk/provider';
import { isRouterError, type RouterError } from '../../errors.js';

/** An HTTP status for errors the router raised without one of its own. */
const STATUS: Partial<Record<RouterError['kind'], number>> = {
  exhausted: 503, rate_limited: 429, quota_exhausted: 429, local_limit: 429, circuit_open: 503, server: 503, timeout: 504,
  transport: 502, bad_request: 400, invalid_request: 400, context_length: 400, content_filter: 400, unsupported: 400,
  invalid_output: 502, auth: 401, not_found: 404, config: 500,
};

/**
 * A RouterError as the AI SDK's `APICallError`, the error its callers check for: status, the wait
 * hint as `retry-after-ms` / `retry-after` headers, the RouterError as `cause` and its facts as
 * `data`. Always `isRetryable: false`: the router already retried and fell through as far as its
 * config allows, so the AI SDK never sends the call again, whatever its `maxRetries`.
 */
export function toApiError(err: unknown, chain: string, request: unknown): unknown {
  if (!isRouterError(err)) return err;
  const statusCode = err.status ?? (err.kind === 'exhausted' && err.retryAfterMs !== undefined ? 429 : STATUS[err.kind]);
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
