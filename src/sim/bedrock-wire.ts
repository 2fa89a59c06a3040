import type { IncomingHttpHeaders } from 'node:http';
import { approxTokens, BASE62, idFromKey } from '../../providers/shared/answers/index.js';
import { parseConverse } from './bedrock-request.js';
import { bedrockEmbeddings } from './bedrock-embeddings.js';
import { eventFrame, exceptionFrame } from './event-stream.js';
import { randomHex } from './random.js';
import type { SimAnswer, SimError, SimRequest } from './sim-request.js';
import { thinkingSignature, thinkingText } from './thinking.js';
import type { StreamChunk, Wire, WireContext, WireError } from './wire.js';

// Converse and ConverseStream as Bedrock answers them (providers/bedrock/README.md): JSON bodies,
// errors as `x-amzn-ErrorType` plus `{"message": ...}` (the restJson1 protocol the SDK decodes), and
// the stream as binary event-stream messages. Bedrock sends no rate-limit headers and no retry-after.
const NAMESPACE = 'http://internal.amazon.com/coral/com.amazon.bedrock/';
const THROTTLED_REQUESTS = 'Too many requests, please wait before trying again.';
const THROTTLED_TOKENS = 'Too many tokens, please wait before trying again.';
const THROTTLED_DAY = 'Too many tokens per day, please wait before trying again.';
/** Every Bedrock stream event carries a `p` field of padding (its length hides the token's). */
const PADDING = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

const failure = (status: number, type: string, message: string, headers: Record<string, string> = {}): WireError => ({
  status, headers: { 'x-amzn-errortype': `${type}:${NAMESPACE}`, ...headers }, body: { message },
});

function error(err: SimError, _ctx: WireContext): WireError {
  switch (err.kind) {
    case 'server_error':
      return failure(err.status ?? 500, 'InternalServerException', 'The system encountered an unexpected error during processing. Try your request again.');
    case 'unavailable':
      return failure(err.status ?? 503, 'ServiceUnavailableException', 'Bedrock is unable to process your request.');
    case 'overloaded':
      return failure(err.status ?? 503, 'ServiceUnavailableException', 'Too many connections, please wait before trying again.');
    case 'insufficient_quota':
      // On Converse the account's daily token quota is a ThrottlingException that names the day.
      return failure(429, 'ThrottlingException', THROTTLED_DAY);
    case 'unauthorized':
      return failure(403, 'UnrecognizedClientException', 'The security token included in the request is invalid.');
    case 'missing_key':
      return failure(403, 'MissingAuthenticationTokenException', 'Missing Authentication Token');
    case 'rate_limited':
      return failure(429, 'ThrottlingException', err.window === 'requests' ? THROTTLED_REQUESTS : THROTTLED_TOKENS);
    case 'invalid_request':
      return failure(400, 'ValidationException', err.message);
    case 'context_length':
      return failure(400, 'ValidationException', `The model returned the following errors: prompt is too long: ${err.tokens} tokens > ${err.limit} maximum`);
    case 'model_not_found':
      return failure(400, 'ValidationException', 'The provided model identifier is invalid.');
    case 'invalid_url':
      return failure(404, 'UnknownOperationException', `No operation at ${err.method} ${err.path}`);
    case 'too_large':
      return failure(413, 'ValidationException', 'Request body too large.');
  }
}

function stopReason(answer: SimAnswer): string {
  return answer.finish === 'length' ? 'max_tokens' : answer.finish === 'tool_calls' ? 'tool_use' : 'end_turn';
}

/** Converse's usage: `inputTokens` is the prompt neither read from nor written to the cache. */
function usage(answer: SimAnswer) {
  const input = answer.inputTokens - answer.cachedInputTokens - answer.cacheWriteTokens;
  return {
    inputTokens: input, outputTokens: answer.outputTokens, totalTokens: answer.inputTokens + answer.outputTokens,
    ...(answer.cachedInputTokens ? { cacheReadInputTokens: answer.cachedInputTokens } : {}),
    ...(answer.cacheWriteTokens ? { cacheWriteInputTokens: answer.cacheWriteTokens, cacheDetails: cacheDetails(answer) } : {}),
  };
}

/** The writes by ttl, 1h before 5m, only those above zero (TokenUsage.cacheDetails in the SDK types). */
function cacheDetails(answer: SimAnswer) {
  const out: Array<{ ttl: '5m' | '1h'; inputTokens: number }> = [];
  if (answer.cacheWrite1hTokens) out.push({ ttl: '1h', inputTokens: answer.cacheWrite1hTokens });
  if (answer.cacheWriteTokens > answer.cacheWrite1hTokens) out.push({ ttl: '5m', inputTokens: answer.cacheWriteTokens - answer.cacheWrite1hTokens });
  return out;
}

/** Bedrock's tool-use ids: `tooluse_` and 22 base62 characters. */
const toolUseId = (key: string) => `tooluse_${idFromKey(key, 22, BASE62)}`;

function reasoningOf(request: SimRequest): { text: string; signature: string } | undefined {
  if (!request.thinking) return undefined;
  const text = thinkingText(request.messages);
  return { text, signature: thinkingSignature(text) };
}

const binary = (frame: Buffer) => frame.toString('latin1');
const event = (type: string, payload: Record<string, unknown>) => binary(eventFrame(type, { ...payload, p: PADDING.slice(0, 8 + (JSON.stringify(payload).length % 40)) }));

/** The SigV4 access key id (`Credential=AKID/date/region/bedrock/aws4_request`), or a Bedrock API key (`Bearer`). */
function keyOf(headers: IncomingHttpHeaders): string | undefined {
  const auth = headers.authorization;
  if (typeof auth !== 'string') return undefined;
  if (auth.startsWith('Bearer ') && auth.length > 7) return auth.slice(7);
  return /Credential=([^/,\s]+)\//.exec(auth)?.[1];
}

/**
 * Amazon Bedrock's Converse API: SigV4-signed requests (the signature is not checked; the access key
 * id stands for the key), `x-amzn-requestid`, errors by `x-amzn-ErrorType`, ConverseStream as
 * `application/vnd.amazon.eventstream`, InvokeModel for Titan and Cohere embeddings.
 */
export const bedrockWire: Wire = {
  type: 'bedrock',
  requestIdHeader: 'x-amzn-requestid',
  keyOf,
  parse: (raw, _headers, route) => parseConverse(raw, route ?? { model: '', stream: false }),
  // Claude writes a sentence before its tool calls unless the tool use is forced; other models do not.
  textBeforeToolCalls: (request) => request.model.includes('anthropic.') && (request.toolChoice === undefined || request.toolChoice === 'auto'),
  headers(ctx) {
    return { 'x-amzn-requestid': ctx.requestId };
  },
  error,
  completion(request, answer, ids) {
    const content: unknown[] = [];
    const reasoning = reasoningOf(request);
    if (reasoning) content.push({ reasoningContent: { reasoningText: { text: reasoning.text, signature: reasoning.signature } } });
    if (answer.text !== '' || !answer.toolCalls.length) content.push({ text: answer.text });
    for (const call of answer.toolCalls) content.push({ toolUse: { toolUseId: toolUseId(call.key), name: call.name, input: call.complete ? call.arguments : {} } });
    return {
      output: { message: { role: 'assistant', content } },
      stopReason: stopReason(answer),
      usage: usage(answer),
      metrics: { latencyMs: Math.max(1, ids.createdS % 1000) },
    };
  },
  stream(request, answer, ids) {
    const head = [event('messageStart', { role: 'assistant' })];
    let index = 0;
    const reasoning = reasoningOf(request);
    if (reasoning) {
      head.push(event('contentBlockDelta', { contentBlockIndex: index, delta: { reasoningContent: { text: reasoning.text } } }));
      head.push(event('contentBlockDelta', { contentBlockIndex: index, delta: { reasoningContent: { signature: reasoning.signature } } }));
      head.push(event('contentBlockStop', { contentBlockIndex: index }));
      index++;
    }
    const textIndex = index;
    let open: number | undefined = answer.text !== '' || !answer.toolCalls.length ? textIndex : undefined;
    const toolBase = open !== undefined ? textIndex + 1 : textIndex;
    const chunks: StreamChunk[] = [];
    for (const c of answer.chunks) {
      if (c.type === 'text') {
        chunks.push({ data: event('contentBlockDelta', { contentBlockIndex: textIndex, delta: { text: c.text } }), tokens: approxTokens(c.text) });
      } else if (c.type === 'tool_start') {
        const i = toolBase + c.index;
        const stop = open !== undefined ? event('contentBlockStop', { contentBlockIndex: open }) : '';
        chunks.push({ data: stop + event('contentBlockStart', { contentBlockIndex: i, start: { toolUse: { toolUseId: toolUseId(c.call.key), name: c.call.name } } }), tokens: 1 });
        open = i;
      } else if (c.fragment !== '') {
        chunks.push({ data: event('contentBlockDelta', { contentBlockIndex: toolBase + c.index, delta: { toolUse: { input: c.fragment } } }), tokens: approxTokens(c.fragment) });
      }
    }
    return {
      head,
      chunks,
      tail: [
        ...(open !== undefined ? [event('contentBlockStop', { contentBlockIndex: open })] : []),
        event('messageStop', { stopReason: stopReason(answer) }),
        event('metadata', { usage: usage(answer), metrics: { latencyMs: Math.max(1, ids.createdS % 1000) } }),
      ],
      error: binary(exceptionFrame('modelStreamErrorException', 'An error occurred while streaming the response. Retry your request.')),
      encoding: 'latin1',
      contentType: 'application/vnd.amazon.eventstream',
    };
  },
  ids(random) {
    const uuid = [8, 4, 4, 4, 12].map((n) => randomHex(random, n)).join('-');
    return { requestId: uuid, answerId: uuid };
  },
  embeddings: bedrockEmbeddings,
};
