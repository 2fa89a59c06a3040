import { expect } from 'vitest';
import type { Reply } from '../../test/support/upstream.js';
import { geminiBodies, geminiChunk, geminiEmbeddings, geminiPath, geminiResponse, geminiSse, geminiText } from '../test-support/gemini-wire.js';
import { CONTRACT_NOW_MS, EXPECT, type ContractCase, type ContractHarness } from './cases.js';
import { loopbackHarness } from './loopback-harness.js';

const MODEL = 'gemini-2.5-flash';
const CHAT = geminiPath(MODEL, 'generateContent');
const STREAM = geminiPath(MODEL, 'streamGenerateContent');
const EMBED = geminiPath(MODEL, 'batchEmbedContents');
const VECTORS = [[1, 0], [0, 1], [0.5, 0.25]];
/** A 429 as Gemini sends one when its message names the wait and no RetryInfo does (the older bodies). */
const retryInMessage = { error: { code: 429, message: 'Quota exceeded for metric: generativelanguage.googleapis.com/generate_content_free_tier_requests, limit: 10, model: gemini-2.5-flash\nPlease retry in 20s.', status: 'RESOURCE_EXHAUSTED' } };
const weatherCall = { functionCall: { name: 'get_weather', args: { city: 'Paris' } }, thoughtSignature: 'CikBcsjafFK168IbtVto' };

function replyFor(c: ContractCase): Reply | undefined {
  switch (c) {
    case 'success': return { status: 200, body: geminiText(EXPECT.text, { usage: { promptTokenCount: 8, candidatesTokenCount: 9, thoughtsTokenCount: 21 } }) };
    case 'stream_success': return { sse: geminiSse([...EXPECT.streamTexts]) };
    case 'rate_limited_retry_after_ms': return { status: 429, headers: { 'retry-after-ms': '1500' }, body: geminiBodies.exhausted };
    case 'rate_limited_retry_after_seconds': return { status: 429, headers: { 'retry-after': '7' }, body: geminiBodies.exhausted };
    case 'rate_limited_retry_after_date': return { status: 429, headers: { 'retry-after': new Date(CONTRACT_NOW_MS + 30_000).toUTCString() }, body: geminiBodies.exhausted };
    case 'rate_limited_reset_headers': return { status: 429, body: geminiBodies.rateLimit('3s') };
    case 'rate_limited_try_again_in': return { status: 429, body: retryInMessage };
    // The per-day violation listed last (map-error.test has it first): the day is found wherever it stands.
    case 'quota': return { status: 429, body: geminiBodies.perDayQuotaLast };
    case 'server_error': return { status: 500, body: geminiBodies.internal };
    case 'overloaded': return { status: 503, body: geminiBodies.overloaded };
    case 'auth': return { status: 400, body: geminiBodies.invalidKey };
    case 'context_length': return { status: 400, body: geminiBodies.contextLength };
    case 'reset_connection': return { reset: true };
    case 'abort': return undefined; // unscripted: the server holds the request until the client gives up
    case 'cut_stream': return { sse: geminiSse([...EXPECT.streamTexts]), cutAfter: 2 };
    case 'stream_error_frame': return { sse: [geminiChunk([{ text: 'Hello' }]), `data: ${JSON.stringify(geminiBodies.overloaded)}`] };
    case 'tool_call': return { status: 200, body: geminiResponse([weatherCall]) };
    case 'stream_tool_call': return { sse: [geminiChunk([weatherCall], { finishReason: 'STOP' })] };
    case 'json_output': return { status: 200, body: geminiText(JSON.stringify(EXPECT.object)) };
    case 'cached_usage': return { status: 200, body: geminiText('ok', { usage: { promptTokenCount: 1200, candidatesTokenCount: 20, cachedContentTokenCount: 1000 } }) };
    case 'embed': return { status: 200, body: geminiEmbeddings(VECTORS) };
  }
}

const streaming = (c: ContractCase) => c === 'stream_success' || c === 'cut_stream' || c === 'stream_error_frame' || c === 'stream_tool_call';

/**
 * The `gemini` adapter in the contract: plain HTTP on the router's transport against a loopback
 * server answering in the Gemini API's wire format (error envelopes, SSE chunks, usageMetadata).
 * Gemini sends no rate-limit headers: its reset is `RetryInfo.retryDelay`, which is what the
 * reset-headers case scripts; the `retry-after` cases are a proxy's headers in front of it.
 */
export function geminiHarness(): ContractHarness {
  return loopbackHarness({
    name: 'gemini',
    model: MODEL,
    held: [CHAT, STREAM],
    provider: (url) => ({ type: 'gemini', apiKey: 'AIzaSyContract0123456789abcdefghijklmn', baseURL: `${url}/v1beta` }),
    script(upstream, c) {
      const reply = replyFor(c);
      const failure = reply !== undefined && ('reset' in reply || ('status' in reply && reply.status !== 200));
      const paths = c === 'embed' ? [EMBED] : streaming(c) ? [STREAM] : failure ? [CHAT, STREAM] : [CHAT];
      // A failure case runs through chat and through stream: either path gets the scripted failure.
      if (reply) for (const path of paths) upstream.script(path, reply);
    },
    usage: { success: { inputTokens: 8, outputTokens: 30, reasoningTokens: 21 }, stream_success: { inputTokens: 4, outputTokens: 28, reasoningTokens: 21 } },
    vectors: VECTORS,
    checkSent(seen, c) {
      if (!seen) return;
      expect(seen.headers['x-goog-api-key']).toBe('AIzaSyContract0123456789abcdefghijklmn');
      expect(`${seen.path}?${seen.query}`).not.toContain('AIza');
      if (c === 'json_output') expect(seen.body.generationConfig).toMatchObject({ responseMimeType: 'application/json', responseJsonSchema: { type: 'object' } });
      if (c === 'tool_call' || c === 'stream_tool_call') expect(seen.body.tools[0].functionDeclarations[0]).toMatchObject({ name: 'get_weather', parametersJsonSchema: { type: 'object' } });
      if (streaming(c)) expect(seen.query).toBe('alt=sse');
      if (c === 'embed') expect(seen.body.requests.map((r: { content: { parts: Array<{ text: string }> } }) => r.content.parts[0]!.text)).toEqual(EXPECT.embedInput);
    },
  });
}
