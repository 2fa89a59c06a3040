import { expect } from 'vitest';
import { openaiBodies, openaiSuccessHeaders } from '../../test/support/fixtures.js';
import type { Reply } from '../../test/support/upstream.js';
import { openaiEmbeddings } from '../test-support/wire.js';
import {
  RESPONSES_PATH, functionCallItem, messageItem, responseObject, responsesErrorEvent, responsesTextSse, responsesToolSse, responsesUsageOf,
} from '../test-support/responses-wire.js';
import { CONTRACT_NOW_MS, EXPECT, type ContractCase, type ContractHarness } from './cases.js';
import { loopbackHarness } from './loopback-harness.js';

const EMBED_PATH = '/v1/embeddings';
const VECTORS = [[1, 0], [0, 1], [0.5, 0.25]];
const rateLimitBody = openaiBodies.rateLimitRequests;

function replyFor(c: ContractCase): Reply | undefined {
  switch (c) {
    case 'success': return { status: 200, headers: openaiSuccessHeaders, body: responseObject([messageItem(EXPECT.text)]) };
    case 'stream_success': return { sse: responsesTextSse([...EXPECT.streamTexts]), headers: { 'x-request-id': 'req_stream' } };
    case 'rate_limited_retry_after_ms': return { status: 429, headers: { 'retry-after-ms': '1500' }, body: rateLimitBody };
    case 'rate_limited_retry_after_seconds': return { status: 429, headers: { 'retry-after': '7' }, body: rateLimitBody };
    case 'rate_limited_retry_after_date': return { status: 429, headers: { 'retry-after': new Date(CONTRACT_NOW_MS + 30_000).toUTCString() }, body: rateLimitBody };
    case 'rate_limited_reset_headers':
      return { status: 429, headers: { 'x-ratelimit-remaining-requests': '0', 'x-ratelimit-reset-requests': '3s', 'x-ratelimit-remaining-tokens': '39000', 'x-ratelimit-reset-tokens': '1.5s' }, body: rateLimitBody };
    case 'rate_limited_try_again_in': return { status: 429, body: openaiBodies.rateLimitRequests };
    case 'quota': return { status: 429, body: openaiBodies.insufficientQuota };
    case 'server_error': return { status: 500, body: openaiBodies.serverError };
    case 'overloaded': return { status: 503, body: openaiBodies.serverIsOverloaded };
    case 'auth': return { status: 401, body: openaiBodies.invalidApiKey };
    case 'context_length': return { status: 400, body: openaiBodies.contextLength };
    case 'reset_connection': return { reset: true };
    case 'abort': return undefined;
    case 'cut_stream': return { sse: responsesTextSse([...EXPECT.streamTexts]), cutAfter: 4 };
    case 'stream_error_frame': return { sse: [...responsesTextSse(['Hello']).slice(0, 4), responsesErrorEvent()] };
    case 'tool_call': return { status: 200, body: responseObject([functionCallItem('get_weather', '{"city":"Paris"}', 'call_c1')]) };
    case 'stream_tool_call': return { sse: responsesToolSse('get_weather', ['{"city":', '"Paris"}']) };
    case 'json_output': return { status: 200, body: responseObject([messageItem(JSON.stringify(EXPECT.object))]) };
    case 'cached_usage': return { status: 200, body: responseObject([messageItem('ok')], { usage: responsesUsageOf(1200, 20, 1000) }) };
    case 'embed':
      return { status: 200, body: openaiEmbeddings([{ index: 2, embedding: VECTORS[2]! }, { index: 0, embedding: VECTORS[0]! }, { index: 1, embedding: VECTORS[1]! }]) };
  }
}

const pathOf = (c: ContractCase) => (c === 'embed' ? EMBED_PATH : RESPONSES_PATH);

/**
 * The `openai` adapter with `api: 'responses'` in the contract: the real openai SDK calling
 * `/v1/responses` on a loopback server that answers Response objects and the Responses SSE events;
 * errors are OpenAI's (the same envelope and headers as Chat Completions), so they map alike.
 */
export function openAIResponsesHarness(): ContractHarness {
  return loopbackHarness({
    name: 'openai (api: responses)',
    model: 'gpt-5.4',
    held: [RESPONSES_PATH],
    provider: (url) => ({ type: 'openai', api: 'responses', apiKey: 'sk-contract-0123456789', baseURL: `${url}/v1` }),
    script(upstream, c) {
      const reply = replyFor(c);
      if (reply) upstream.script(pathOf(c), reply);
    },
    sent: (upstream, c) => upstream.count(pathOf(c)),
    usage: { success: { inputTokens: 19, outputTokens: 10 }, stream_success: { inputTokens: 17, outputTokens: 10 } },
    vectors: VECTORS,
    checkSent(first, c) {
      const body = first?.body;
      if (c === 'embed' || !body) return;
      // Stateless every time: nothing is stored upstream, reasoning comes back encrypted.
      expect(body).toMatchObject({ model: 'gpt-5.4', store: false, include: ['reasoning.encrypted_content'] });
      if (c === 'json_output') expect(body.text).toEqual({ format: { type: 'json_schema', name: 'weather', schema: expect.objectContaining({ type: 'object' }), strict: true } });
      if (c === 'tool_call' || c === 'stream_tool_call') expect(body.tools[0]).toMatchObject({ type: 'function', name: 'get_weather', strict: false });
      if (c === 'stream_success') expect(body.stream).toBe(true);
    },
  });
}
