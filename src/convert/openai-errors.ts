import { answerStatus } from '../decide/exhausted-status.js';
import { isRouterError, type ErrorKind, type RouterError } from '../errors.js';

/**
 * OpenAI's error `type` word for each kind: the one table every OpenAI-envelope answer reads (the
 * gateway's error replies on /v1/chat/completions, /v1/responses and /v1/embeddings, and the error
 * frame that ends an interrupted Chat Completions stream). The status and the retry headers are the
 * kind's facts (ERROR_FACTS, src/errors.ts); this table is wire vocabulary only.
 *
 * The words are OpenAI's own, by the status the gateway answers:
 * - 400 `invalid_request_error`, 429 `rate_limit_error` (`requests`/`tokens` on older bodies) and
 *   `insufficient_quota`, and `server_error` for every 5xx: OpenAI's real 500 and 503 bodies and its
 *   mid-stream error frame all say `server_error` (/work/shared/reference/provider-wire-formats.md
 *   §1.2 and §1.4; https://platform.openai.com/docs/guides/error-codes; a mid-stream frame
 *   `{type:'server_error', code:'server_error'}` in https://github.com/openai/openai-node/issues/1730).
 *   The openai SDK chooses its error class by status alone (`APIError.generate`: 400
 *   BadRequestError ... >=500 InternalServerError) and copies `type` and `code` through
 *   (node_modules/openai/core/error.js), so the word informs, it never steers a retry.
 * - `exhausted` keeps the gateway's own `upstream_error` (`rate_limit_error` when every failure was
 *   throttling): a chain's end has no OpenAI counterpart, and docs/gateway.md's status table names the
 *   word (test/gateway/status-table.test.ts, status-by-cause.test.ts and limits.test.ts hold it).
 *   By OpenAI's vocabulary alone it would be `server_error` too.
 */
export const OPENAI_ERROR_TYPE: Readonly<Record<ErrorKind, string>> = Object.freeze({
  invalid_request: 'invalid_request_error', bad_request: 'invalid_request_error', context_length: 'invalid_request_error',
  content_filter: 'invalid_request_error', unsupported: 'invalid_request_error',
  rate_limited: 'rate_limit_error', local_limit: 'rate_limit_error',
  quota_exhausted: 'insufficient_quota', budget_exceeded: 'insufficient_quota',
  exhausted: 'upstream_error',
  circuit_open: 'server_error', server: 'server_error', transport: 'server_error', timeout: 'server_error',
  auth: 'server_error', not_found: 'server_error', invalid_output: 'server_error', config: 'server_error', aborted: 'server_error',
});

/** The `type` word of an error answered with `status` (`answerStatus`): an exhausted chain that was only throttled reads as throttling. */
export function openAIErrorType(err: RouterError, status: number): string {
  if (err.kind === 'exhausted' && status === 429) return 'rate_limit_error';
  return OPENAI_ERROR_TYPE[err.kind] ?? OPENAI_ERROR_TYPE.server;
}

/** The frame that ends an interrupted stream: the openai SDK throws on a `data:` object with an `error` key. */
export interface OpenAIErrorFrame {
  error: { message: string; type: string; param: null; code: string | null };
}

/**
 * The one frame that ends a Chat Completions stream after its commit point, whatever ended it:
 * the `type` word of the table and the kind as `code` (the SDK throws a status-less `APIError`
 * whose `code` and `type` are these, node_modules/openai/core/streaming.js `if (data && data.error)
 * throw new APIError(undefined, data.error, ...)`). Anything but a RouterError is the gateway's own
 * failure, told without its message.
 */
export function openAIErrorFrame(err: unknown): OpenAIErrorFrame {
  if (!isRouterError(err)) return { error: { message: 'the gateway failed to handle the request', type: 'server_error', param: null, code: 'internal_error' } };
  return { error: { message: err.message, type: openAIErrorType(err, answerStatus(err)), param: null, code: err.kind } };
}
