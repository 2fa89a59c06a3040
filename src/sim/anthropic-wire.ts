import type { IncomingHttpHeaders } from 'node:http';
import { approxTokens, BASE58, toolCallId } from '../../providers/shared/answers/index.js';
import { parseAnthropicMessages } from './anthropic-request.js';
import { formatRfc3339 } from './go-duration.js';
import { randomChars } from './random.js';
import type { LimitSnapshot, WindowState } from './rate-limiter.js';
import type { SimAnswer, SimError, SimRequest } from './sim-request.js';
import { thinkingSignature, thinkingText } from './thinking.js';
import { retryAfterSeconds, sseFrame, withCommas, type StreamChunk, type Wire, type WireContext, type WireError } from './wire.js';

// Bodies follow ../shared/reference/provider-wire-formats.md §2.2-2.5 and -wave2.md §1.3, §2.2, §6.
// Messages the reference marks synthetic (401, 404, 503) are plausible, not recorded.
const CREDIT = 'Your credit balance is too low to access the Anthropic API. Please go to Plans & Billing to upgrade or purchase credits.';
const RATE_LIMIT_TAIL = 'For details, refer to: https://docs.anthropic.com/en/api/rate-limits. You can see the response headers for current usage. Please reduce the prompt length or the maximum tokens requested, or try again later. You may also contact sales at https://www.anthropic.com/contact-sales to discuss your options for a rate limit increase.';
const WINDOW_WORDS = { requests: 'requests', tokens: 'tokens', input_tokens: 'input tokens', output_tokens: 'output tokens' } as const;

const body = (type: string, message: string, requestId: string | null) => ({ type: 'error', error: { type, message }, request_id: requestId });

/**
 * The `tokens` family reports "the most restrictive limit currently in effect": with input and
 * output windows, whichever of the three has the least remaining.
 */
function mostRestrictive(s: LimitSnapshot): WindowState {
  return [s.inputTokens, s.outputTokens].reduce<WindowState>((best, w) => (w && w.remaining < best.remaining ? w : best), s.tokens);
}

function rateLimitHeaders(s: LimitSnapshot, nowMs: number): Record<string, string> {
  const family = (name: string, w: WindowState) => ({
    [`anthropic-ratelimit-${name}-limit`]: String(w.limit),
    [`anthropic-ratelimit-${name}-remaining`]: String(w.remaining),
    [`anthropic-ratelimit-${name}-reset`]: formatRfc3339(nowMs + w.resetMs),
  });
  return {
    ...family('requests', s.requests),
    ...family('tokens', mostRestrictive(s)),
    ...(s.inputTokens ? family('input-tokens', s.inputTokens) : {}),
    ...(s.outputTokens ? family('output-tokens', s.outputTokens) : {}),
  };
}

function error(err: SimError, ctx: WireContext): WireError {
  const id = ctx.requestId;
  const retry = (ms?: number): Record<string, string> => ({ 'x-should-retry': 'true', ...(ms !== undefined ? { 'retry-after': retryAfterSeconds(ms) } : {}) });
  switch (err.kind) {
    case 'server_error':
      return { status: err.status ?? 500, headers: retry(err.retryAfterMs), body: body('api_error', 'Internal server error', id) };
    case 'unavailable':
      return { status: err.status ?? 503, headers: retry(err.retryAfterMs), body: body('api_error', 'Service unavailable', id) };
    case 'overloaded':
      return { status: err.status ?? 529, headers: retry(err.retryAfterMs), body: body('overloaded_error', 'Overloaded', id) };
    case 'insufficient_quota':
      return { status: 400, headers: {}, body: body('invalid_request_error', CREDIT, id) };
    case 'unauthorized':
      return { status: 401, headers: {}, body: body('authentication_error', 'invalid x-api-key', id) };
    case 'missing_key':
      return { status: 401, headers: {}, body: body('authentication_error', 'x-api-key header is required', id) };
    case 'rate_limited': {
      const message = `This request would exceed the rate limit for your organization (${ctx.org}) of ${withCommas(err.limit)} ${WINDOW_WORDS[err.window]} per minute. ${RATE_LIMIT_TAIL}`;
      return { status: 429, headers: err.tooLarge ? { 'x-should-retry': 'false' } : retry(err.waitMs), body: body('rate_limit_error', message, id) };
    }
    case 'invalid_request':
      return { status: 400, headers: {}, body: body('invalid_request_error', err.message, id) };
    case 'context_length':
      return { status: 400, headers: {}, body: body('invalid_request_error', `prompt is too long: ${err.tokens} tokens > ${err.limit} maximum`, id) };
    case 'model_not_found':
      return { status: 404, headers: {}, body: body('not_found_error', `model: ${err.model}`, id) };
    case 'invalid_url':
      return { status: 404, headers: {}, body: body('not_found_error', 'Not Found', id) };
    case 'too_large':
      // Cloudflare answers this one, before the API: no request id.
      return { status: 413, headers: {}, body: body('request_too_large', 'Request exceeds the maximum allowed number of bytes.', null) };
  }
}

function stopReason(answer: SimAnswer): string {
  return answer.finish === 'length' ? 'max_tokens' : answer.finish === 'tool_calls' ? 'tool_use' : 'end_turn';
}

/** Anthropic's `input_tokens` is the uncached remainder; cache reads and writes are counted apart (wave2 §6). */
function inputUsage(answer: SimAnswer) {
  return {
    input_tokens: answer.inputTokens - answer.cachedInputTokens - answer.cacheWriteTokens,
    cache_creation_input_tokens: answer.cacheWriteTokens,
    cache_read_input_tokens: answer.cachedInputTokens,
  };
}

/** The writes by lifetime (`usage.cache_creation`, on a message and on `message_start`'s). */
const cacheCreation = (answer: SimAnswer) => ({
  ephemeral_5m_input_tokens: answer.cacheWriteTokens - answer.cacheWrite1hTokens, ephemeral_1h_input_tokens: answer.cacheWrite1hTokens,
});

/** The thinking block, when the request turned thinking on: its shown text ('' when omitted) and signature. */
function thinkingOf(request: SimRequest): { shown: string; signature: string } | undefined {
  if (!request.thinking) return undefined;
  const full = thinkingText(request.messages);
  return { shown: request.thinking.display === 'omitted' ? '' : full, signature: thinkingSignature(full) };
}

/** A text block is sent when there is text, or when there is nothing else to send. */
const hasTextBlock = (answer: SimAnswer, thinking: boolean) => answer.text !== '' || (!answer.toolCalls.length && !thinking);

/** Anthropic Messages: `x-api-key` or Bearer, `request-id`, `anthropic-ratelimit-*` with RFC 3339 resets. */
export const anthropicWire: Wire = {
  type: 'anthropic',
  requestIdHeader: 'request-id',
  keyOf(headers: IncomingHttpHeaders) {
    const key = headers['x-api-key'];
    if (typeof key === 'string' && key) return key;
    const auth = headers.authorization;
    return auth?.startsWith('Bearer ') && auth.length > 7 ? auth.slice(7) : undefined;
  },
  parse: parseAnthropicMessages,
  // Claude writes a sentence before its tool calls unless the tool use is forced (the API then prefills the turn).
  textBeforeToolCalls: (request) => request.toolChoice === undefined || request.toolChoice === 'auto',
  headers(ctx, snapshot) {
    return {
      'request-id': ctx.requestId,
      'anthropic-organization-id': ctx.org,
      ...(snapshot ? rateLimitHeaders(snapshot, ctx.nowMs) : {}),
    };
  },
  error,
  completion(request, answer, ids) {
    const thinking = thinkingOf(request);
    const content: unknown[] = [];
    if (thinking) content.push({ type: 'thinking', thinking: thinking.shown, signature: thinking.signature });
    if (hasTextBlock(answer, !!thinking)) content.push({ type: 'text', text: answer.text });
    for (const call of answer.toolCalls) {
      // A JSON body can only carry an object: a call cut short by max_tokens arrives with what parsed, i.e. {}.
      content.push({ type: 'tool_use', id: toolCallId(call.key, 'anthropic'), name: call.name, input: call.complete ? call.arguments : {}, caller: { type: 'direct' } });
    }
    return {
      id: ids.id,
      type: 'message',
      role: 'assistant',
      model: request.model,
      content,
      stop_reason: stopReason(answer),
      stop_sequence: null,
      usage: {
        ...inputUsage(answer),
        cache_creation: cacheCreation(answer),
        output_tokens: answer.outputTokens,
        ...(thinking ? { output_tokens_details: { thinking_tokens: answer.reasoningTokens } } : {}),
        service_tier: 'standard',
      },
    };
  },
  stream(request, answer, ids) {
    const message = {
      id: ids.id, type: 'message', role: 'assistant', content: [], model: request.model, stop_reason: null, stop_sequence: null,
      usage: { ...inputUsage(answer), cache_creation: cacheCreation(answer), output_tokens: 1, service_tier: 'standard' },
    };
    const thinking = thinkingOf(request);
    const head = [sseFrame({ type: 'message_start', message }, 'message_start')];
    let index = 0;
    if (thinking) {
      head.push(sseFrame({ type: 'content_block_start', index, content_block: { type: 'thinking', thinking: '', signature: '' } }, 'content_block_start'));
      if (thinking.shown) head.push(sseFrame({ type: 'content_block_delta', index, delta: { type: 'thinking_delta', thinking: thinking.shown } }, 'content_block_delta'));
      head.push(sseFrame({ type: 'content_block_delta', index, delta: { type: 'signature_delta', signature: thinking.signature } }, 'content_block_delta'));
      head.push(sseFrame({ type: 'content_block_stop', index }, 'content_block_stop'));
      index++;
    }
    let open: number | undefined;
    const textIndex = index;
    if (hasTextBlock(answer, !!thinking)) {
      head.push(sseFrame({ type: 'content_block_start', index, content_block: { type: 'text', text: '' } }, 'content_block_start'));
      open = index++;
    }
    head.push(sseFrame('{"type": "ping"}', 'ping'));
    const toolIndex = (ordinal: number) => index + ordinal;
    const delta = (i: number, d: object) => sseFrame({ type: 'content_block_delta', index: i, delta: d }, 'content_block_delta');
    const chunks: StreamChunk[] = [];
    for (const c of answer.chunks) {
      if (c.type === 'text') {
        chunks.push({ data: delta(textIndex, { type: 'text_delta', text: c.text }), tokens: approxTokens(c.text) });
      } else if (c.type === 'tool_start') {
        const i = toolIndex(c.index);
        const stop = open !== undefined ? sseFrame({ type: 'content_block_stop', index: open }, 'content_block_stop') : '';
        const start = sseFrame({ type: 'content_block_start', index: i, content_block: { type: 'tool_use', id: toolCallId(c.call.key, 'anthropic'), name: c.call.name, input: {} } }, 'content_block_start');
        chunks.push({ data: stop + start + delta(i, { type: 'input_json_delta', partial_json: '' }), tokens: 1 });
        open = i;
      } else if (c.fragment !== '' && answer.toolCalls[c.index]!.argumentsJson !== '{}') {
        // A call without arguments sends only the empty fragment of its start (wave2 §2.2).
        chunks.push({ data: delta(toolIndex(c.index), { type: 'input_json_delta', partial_json: c.fragment }), tokens: approxTokens(c.fragment) });
      }
    }
    return {
      head,
      chunks,
      tail: [
        ...(open !== undefined ? [sseFrame({ type: 'content_block_stop', index: open }, 'content_block_stop')] : []),
        // Usage in message_delta is cumulative: the whole answer's output tokens, and the input side again.
        sseFrame({ type: 'message_delta', delta: { stop_reason: stopReason(answer), stop_sequence: null }, usage: { ...inputUsage(answer), output_tokens: answer.outputTokens } }, 'message_delta'),
        sseFrame({ type: 'message_stop' }, 'message_stop'),
      ],
      error: sseFrame('{"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}', 'error'),
    };
  },
  ids(random) {
    return { requestId: `req_011C${randomChars(random, 20, BASE58)}`, answerId: `msg_01${randomChars(random, 22, BASE58)}` };
  },
};
