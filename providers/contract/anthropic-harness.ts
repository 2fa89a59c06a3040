import { expect } from 'vitest';
import { anthropicBodies, anthropicMessage, anthropicSuccessHeaders } from '../../test/support/fixtures.js';
import { anthropicDelta, anthropicOverloadedEvent, anthropicSse, anthropicSseHead } from '../../test/support/sse.js';
import type { Reply } from '../../test/support/upstream.js';
import { anthropicMessageStart, anthropicSseEnd, anthropicToolBlockSse, anthropicToolMessage } from '../test-support/wire.js';
import { CONTRACT_NOW_MS, EXPECT, type ContractCase, type ContractHarness } from './cases.js';
import { loopbackHarness } from './loopback-harness.js';

const PATH = '/v1/messages';
const rfc3339 = (ms: number) => new Date(ms).toISOString().replace(/\.\d+Z$/, 'Z');
/** Synthetic: Anthropic's real 429 messages say "try again later" without a duration; a proxy's may carry one. */
const tryAgainIn = { type: 'error', error: { type: 'rate_limit_error', message: 'Rate limited. Please try again in 20s.' }, request_id: 'req_011TESTTRY' };

function replyFor(c: ContractCase): Reply | undefined {
  switch (c) {
    case 'success': return { status: 200, headers: anthropicSuccessHeaders, body: anthropicMessage(EXPECT.text) };
    case 'stream_success': return { sse: anthropicSse([...EXPECT.streamTexts]), headers: { 'request-id': 'req_stream' } };
    case 'rate_limited_retry_after_ms': return { status: 429, headers: { 'retry-after-ms': '1500' }, body: anthropicBodies.rateLimit };
    case 'rate_limited_retry_after_seconds': return { status: 429, headers: { 'retry-after': '7' }, body: anthropicBodies.rateLimit };
    case 'rate_limited_retry_after_date': return { status: 429, headers: { 'retry-after': new Date(CONTRACT_NOW_MS + 30_000).toUTCString() }, body: anthropicBodies.rateLimit };
    case 'rate_limited_reset_headers': return { status: 429, body: anthropicBodies.rateLimit, headers: {
      'anthropic-ratelimit-requests-remaining': '0', 'anthropic-ratelimit-requests-reset': rfc3339(CONTRACT_NOW_MS + 3000),
      'anthropic-ratelimit-tokens-remaining': '16000', 'anthropic-ratelimit-tokens-reset': rfc3339(CONTRACT_NOW_MS + 60_000),
    } };
    case 'rate_limited_try_again_in': return { status: 429, body: tryAgainIn };
    case 'quota': return { status: 400, body: anthropicBodies.creditTooLow };
    case 'server_error': return { status: 500, body: anthropicBodies.apiError };
    case 'overloaded': return { status: 529, body: anthropicBodies.overloaded };
    case 'auth': return { status: 401, body: anthropicBodies.authentication };
    case 'context_length': return { status: 400, body: anthropicBodies.promptTooLong };
    case 'reset_connection': return { reset: true };
    case 'abort': return undefined; // unscripted: the server holds the request until the client gives up
    case 'cut_stream': return { sse: anthropicSse([...EXPECT.streamTexts]), cutAfter: 4 };
    case 'stream_error_frame': return { sse: [...anthropicSseHead(), anthropicDelta('Hello'), anthropicOverloadedEvent] };
    case 'tool_call': return { status: 200, body: anthropicToolMessage([{ type: 'tool_use', id: 'toolu_c1', name: 'get_weather', input: { city: 'Paris' }, caller: { type: 'direct' } }]) };
    case 'stream_tool_call': return { sse: [anthropicMessageStart(), ...anthropicToolBlockSse(0, 'toolu_c1', 'get_weather', ['', '{"city":', '"Paris"}']), ...anthropicSseEnd('tool_use')] };
    case 'json_output': return { status: 200, body: anthropicMessage(JSON.stringify(EXPECT.object)) };
    case 'cached_usage': {
      const body = anthropicMessage('ok');
      Object.assign(body.usage, { input_tokens: 200, cache_read_input_tokens: 1000, cache_creation_input_tokens: 0, output_tokens: 20 });
      return { status: 200, body };
    }
    case 'embed':
      return undefined; // not expressible (see cannotExpress): the adapter is only checked for what it lacks
  }
}

/** The `anthropic` adapter in the contract: the real SDK 1.14 against a loopback server answering in the Messages wire format. */
export function anthropicHarness(): ContractHarness {
  return loopbackHarness({
    name: 'anthropic',
    model: 'claude-sonnet-4-6',
    held: [PATH],
    provider: (url) => ({ type: 'anthropic', apiKey: 'sk-ant-contract-0123456789', baseURL: url }),
    script(upstream, c) {
      const reply = replyFor(c);
      if (reply) upstream.script(PATH, reply);
    },
    sent: (upstream) => upstream.count(PATH),
    usage: { success: { inputTokens: 505, outputTokens: 41 }, stream_success: { inputTokens: 11, outputTokens: 6 } },
    checkSent(first, c) {
      const body = first?.body;
      if (c === 'json_output') expect(body.output_config).toMatchObject({ format: { type: 'json_schema' } });
      if (c === 'tool_call' || c === 'stream_tool_call') expect(body.tools[0]).toMatchObject({ name: 'get_weather', input_schema: { type: 'object' } });
      if (c === 'stream_success') expect(body).toMatchObject({ stream: true });
    },
    cannotExpress: {
      embed: 'Anthropic has no embeddings API: the adapter has no embed() and its traits no maxEmbeddingInputs',
    },
  });
}
