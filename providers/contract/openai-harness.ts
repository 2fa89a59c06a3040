import { expect } from 'vitest';
import { compatibleInsufficientCredits, compatibleRateLimitNullCode, openaiBodies, openaiCompletion, openaiSuccessHeaders } from '../../test/support/fixtures.js';
import { openaiErrorFrame, openaiSse } from '../../test/support/sse.js';
import type { Reply } from '../../test/support/upstream.js';
import {
  openaiEmbeddings, openaiFinishChunk, openaiRoleChunk, openaiTextChunk, openaiToolChunk, openaiToolCompletion, openaiUsageChunk,
} from '../test-support/wire.js';
import { CONTRACT_NOW_MS, EXPECT, type ContractCase, type ContractHarness } from './cases.js';
import { loopbackHarness } from './loopback-harness.js';

const PATH = '/v1/chat/completions';
const EMBED_PATH = '/v1/embeddings';
/** Vectors answered out of order (index 2 first), so the suite sees them put back in input order. */
const VECTORS = [[1, 0], [0, 1], [0.5, 0.25]];

/**
 * The `openai` and `openai-compatible` adapters in the contract: the real openai SDK against a
 * loopback server answering with the recorded bodies and headers of the wire-format reference.
 * The compatible flavour answers as OpenAI-shaped servers do (null codes, `insufficient_credits`,
 * a bare `x-ratelimit-reset` in Unix seconds).
 */
export function openAIHarness(type: 'openai' | 'openai-compatible'): ContractHarness {
  const compatible = type === 'openai-compatible';
  const rateLimitBody = compatible ? compatibleRateLimitNullCode : openaiBodies.rateLimitRequests;

  function replyFor(c: ContractCase): Reply | undefined {
    switch (c) {
      case 'success': return { status: 200, headers: openaiSuccessHeaders, body: openaiCompletion(EXPECT.text) };
      case 'stream_success': return { sse: openaiSse([...EXPECT.streamTexts]), headers: { 'x-request-id': 'req_stream' } };
      case 'rate_limited_retry_after_ms': return { status: 429, headers: { 'retry-after-ms': '1500' }, body: rateLimitBody };
      case 'rate_limited_retry_after_seconds': return { status: 429, headers: { 'retry-after': '7' }, body: rateLimitBody };
      case 'rate_limited_retry_after_date': return { status: 429, headers: { 'retry-after': new Date(CONTRACT_NOW_MS + 30_000).toUTCString() }, body: rateLimitBody };
      case 'rate_limited_reset_headers':
        return compatible
          ? { status: 429, headers: { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String((CONTRACT_NOW_MS + 3000) / 1000) }, body: rateLimitBody }
          : { status: 429, headers: { 'x-ratelimit-remaining-requests': '0', 'x-ratelimit-reset-requests': '3s', 'x-ratelimit-remaining-tokens': '39000', 'x-ratelimit-reset-tokens': '1.5s' }, body: rateLimitBody };
      case 'rate_limited_try_again_in': return { status: 429, body: openaiBodies.rateLimitRequests };
      case 'quota': return { status: 429, body: compatible ? compatibleInsufficientCredits : openaiBodies.insufficientQuota };
      case 'server_error': return { status: 500, body: openaiBodies.serverError };
      case 'overloaded': return { status: 503, body: openaiBodies.serverIsOverloaded };
      case 'auth': return { status: 401, body: openaiBodies.invalidApiKey };
      case 'context_length': return { status: 400, body: openaiBodies.contextLength };
      case 'reset_connection': return { reset: true };
      case 'abort': return undefined; // unscripted: the server holds the request until the client gives up
      case 'cut_stream': return { sse: openaiSse([...EXPECT.streamTexts]), cutAfter: 2 };
      case 'stream_error_frame': return { sse: [openaiRoleChunk(), openaiTextChunk('Hello'), openaiErrorFrame()] };
      case 'tool_call': return { status: 200, body: openaiToolCompletion([{ id: 'call_c1', name: 'get_weather', arguments: '{"city":"Paris"}' }]) };
      case 'stream_tool_call': return { sse: [
        openaiRoleChunk(),
        openaiToolChunk([{ index: 0, id: 'call_c1', type: 'function', function: { name: 'get_weather', arguments: '' } }]),
        openaiToolChunk([{ index: 0, function: { arguments: '{"city":' } }]),
        openaiToolChunk([{ index: 0, function: { arguments: '"Paris"}' } }]),
        openaiFinishChunk('tool_calls'),
        openaiUsageChunk({ prompt_tokens: 60, completion_tokens: 12, total_tokens: 72 }),
        'data: [DONE]',
      ] };
      case 'json_output': return { status: 200, body: openaiCompletion(JSON.stringify(EXPECT.object)) };
      case 'cached_usage': {
        const body = openaiCompletion('ok');
        Object.assign(body.usage, { prompt_tokens: 1200, completion_tokens: 20, total_tokens: 1220, prompt_tokens_details: { cached_tokens: 1000, audio_tokens: 0 } });
        return { status: 200, body };
      }
      case 'embed':
        return { status: 200, body: openaiEmbeddings([{ index: 2, embedding: VECTORS[2]! }, { index: 0, embedding: VECTORS[0]! }, { index: 1, embedding: VECTORS[1]! }]) };
    }
  }

  const pathOf = (c: ContractCase) => (c === 'embed' ? EMBED_PATH : PATH);

  return loopbackHarness({
    name: type,
    model: compatible ? 'llama3:8b' : 'gpt-4o-mini',
    held: [PATH],
    provider: (url) => ({ type, apiKey: 'sk-contract-0123456789', baseURL: `${url}/v1` }),
    script(upstream, c) {
      const reply = replyFor(c);
      if (reply) upstream.script(pathOf(c), reply);
    },
    sent: (upstream, c) => upstream.count(pathOf(c)),
    usage: { success: { inputTokens: 19, outputTokens: 10 }, stream_success: { inputTokens: 17, outputTokens: 10 } },
    vectors: VECTORS,
    checkSent(first, c) {
      const body = first?.body;
      if (c === 'json_output') expect(body.response_format).toMatchObject({ type: 'json_schema', json_schema: { name: 'weather', strict: true } });
      if (c === 'tool_call' || c === 'stream_tool_call') expect(body.tools[0]).toMatchObject({ type: 'function', function: { name: 'get_weather' } });
      if (c === 'stream_success') expect(body).toMatchObject({ stream: true, stream_options: { include_usage: true } });
    },
  });
}
