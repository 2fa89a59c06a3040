import { expect } from 'vitest';
import type { Reply } from '../../test/support/upstream.js';
import {
  bedrockError, bedrockPath, converseBody, converseOk, eventFrame, exceptionFrame, streamEndFrames, textStreamFrames, THROTTLED, toolStreamFrames,
} from '../test-support/bedrock-wire.js';
import { CONTRACT_NOW_MS, EXPECT, type ContractCase, type ContractHarness } from './cases.js';
import { loopbackHarness } from './loopback-harness.js';

/** A cross-region inference profile id, as most accounts call Claude on Bedrock. */
const MODEL = 'us.anthropic.claude-sonnet-4-5-20250929-v1:0';
const EMBED_MODEL = 'cohere.embed-english-v3';
const CONVERSE = bedrockPath(MODEL, 'converse');
const STREAM = bedrockPath(MODEL, 'converse-stream');
const INVOKE = bedrockPath(EMBED_MODEL, 'invoke');
const VECTORS = [[1, 0], [0, 1], [0.5, 0.25]];

// Bedrock itself sends no wait hint on a ThrottlingException; these cases are a proxy in front of
// it (or a Bedrock that starts sending one): the adapter reads the hint the same way (synthetic).
const throttled = (headers: Record<string, string>, message = THROTTLED.requests) => bedrockError(429, 'ThrottlingException', message, headers);

/** Replies that answer whichever operation the case's mode calls. */
function replyFor(c: ContractCase): { converse?: Reply; stream?: Reply; invoke?: Reply } | undefined {
  const both = (reply: Reply) => ({ converse: reply, stream: reply });
  switch (c) {
    case 'success': return { converse: converseOk(converseBody([{ text: EXPECT.text }], 'end_turn', { inputTokens: 505, outputTokens: 41, totalTokens: 546 })) };
    case 'stream_success': return { stream: { frames: textStreamFrames(EXPECT.streamTexts), headers: { 'x-amzn-requestid': 'stream-req-1' } } };
    case 'rate_limited_retry_after_ms': return both(throttled({ 'retry-after-ms': '1500' }));
    case 'rate_limited_retry_after_seconds': return both(throttled({ 'retry-after': '7' }));
    case 'rate_limited_retry_after_date': return both(throttled({ 'retry-after': new Date(CONTRACT_NOW_MS + 30_000).toUTCString() }));
    case 'rate_limited_reset_headers': return both(throttled({ 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String((CONTRACT_NOW_MS + 3000) / 1000) }));
    case 'rate_limited_try_again_in': return both(throttled({}, 'Too many requests, please try again in 20s.'));
    // The daily token quota comes as a ThrottlingException that names the day.
    case 'quota': return both(bedrockError(429, 'ThrottlingException', THROTTLED.perDay));
    case 'server_error': return both(bedrockError(500, 'InternalServerException', 'The system encountered an unexpected error during processing. Try your request again.'));
    case 'overloaded': return both(bedrockError(503, 'ServiceUnavailableException', 'Bedrock is unable to process your request.'));
    case 'auth': return both(bedrockError(403, 'AccessDeniedException', "You don't have access to the model with the specified model ID."));
    case 'context_length': return both(bedrockError(400, 'ValidationException', 'Input is too long for requested model.'));
    case 'reset_connection': return both({ reset: true });
    case 'abort': return undefined; // unscripted: the server holds the request until the client gives up
    case 'cut_stream': return { stream: { frames: textStreamFrames(EXPECT.streamTexts), cutAfter: 3 } };
    case 'stream_error_frame': return { stream: { frames: [
      eventFrame('messageStart', { role: 'assistant' }),
      eventFrame('contentBlockDelta', { contentBlockIndex: 0, delta: { text: 'Hello' } }),
      exceptionFrame('modelStreamErrorException', 'An error occurred while streaming the response. Retry your request.'),
    ] } };
    case 'tool_call': return { converse: converseOk(converseBody([{ toolUse: { toolUseId: 'tooluse_c1', name: 'get_weather', input: { city: 'Paris' } } }], 'tool_use')) };
    case 'stream_tool_call': return { stream: { frames: [
      eventFrame('messageStart', { role: 'assistant' }),
      ...toolStreamFrames(0, 'tooluse_c1', 'get_weather', ['{"city":', '"Paris"}']),
      ...streamEndFrames('tool_use'),
    ] } };
    case 'json_output': return { converse: converseOk(converseBody([{ text: JSON.stringify(EXPECT.object) }])) };
    case 'cached_usage': return { converse: converseOk(converseBody([{ text: 'ok' }], 'end_turn', { inputTokens: 200, outputTokens: 20, totalTokens: 1220, cacheReadInputTokens: 1000, cacheWriteInputTokens: 0 })) };
    // Answered out of order would be Cohere's bug, not a case: vectors come back in input order.
    case 'embed': return { invoke: { status: 200, headers: { 'x-amzn-requestid': 'embed-req-1', 'x-amzn-bedrock-input-token-count': '3' }, body: { id: 'emb-1', texts: [...EXPECT.embedInput], embeddings: { float: VECTORS }, response_type: 'embeddings_by_type' } } };
  }
}

/** The `bedrock` adapter in the contract: the real AWS SDK (SigV4, event-stream decoding) against a loopback Bedrock runtime. */
export function bedrockHarness(): ContractHarness {
  return loopbackHarness({
    name: 'bedrock',
    model: MODEL,
    embedModel: EMBED_MODEL,
    held: [CONVERSE, STREAM],
    provider: (url) => ({ type: 'bedrock', region: 'us-east-1', baseURL: url }),
    script(upstream, c) {
      const reply = replyFor(c);
      if (reply?.converse) upstream.script(CONVERSE, reply.converse);
      if (reply?.stream) upstream.script(STREAM, reply.stream);
      if (reply?.invoke) upstream.script(INVOKE, reply.invoke);
    },
    usage: { success: { inputTokens: 505, outputTokens: 41 }, stream_success: { inputTokens: 11, outputTokens: 6 } },
    vectors: VECTORS,
    checkSent(seen, c) {
      if (!seen) return;
      // Every request is SigV4-signed by the SDK, for the bedrock service in the configured region.
      expect(seen.headers.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=[^/]+\/\d{8}\/us-east-1\/bedrock\/aws4_request/);
      const body = seen.body;
      if (c === 'json_output') expect(body.outputConfig.textFormat).toMatchObject({ type: 'json_schema', structure: { jsonSchema: { name: 'weather' } } });
      if (c === 'tool_call' || c === 'stream_tool_call') expect(body.toolConfig.tools[0]).toMatchObject({ toolSpec: { name: 'get_weather', inputSchema: { json: { type: 'object' } } } });
      if (c === 'stream_success') expect(seen.path).toBe(STREAM);
      if (c === 'embed') expect(body).toMatchObject({ texts: EXPECT.embedInput, input_type: 'search_document' });
    },
  });
}
