import type { FakeStep } from '../../src/config/index.js';
import type { FakeAdapter } from '../fake/adapter.js';
import { adapterFor, fixedClock } from '../test-support/adapter-harness.js';
import { CONTRACT_NOW_MS, EXPECT, type Arranged, type ContractCase, type ContractHarness } from './cases.js';

const FAKE_CACHED = 4;

/**
 * The in-process `fake` adapter in the contract, scripted with its stable `script` steps. It has no
 * wire, so every wait-hint form is the one scripted `retryAfterMs`, and a reset connection is a
 * scripted `transport` failure; tool calls and cache reads are scripted steps too.
 */
export function fakeHarness(): ContractHarness {
  function stepsFor(c: ContractCase): FakeStep[] {
    const limited = (ms: number): FakeStep[] => [{ fail: 'rate_limited', retryAfterMs: ms }];
    switch (c) {
      case 'success': return [{ text: EXPECT.text }];
      case 'stream_success': return [{ text: EXPECT.streamTexts.join('') }];
      case 'rate_limited_retry_after_ms':
      case 'rate_limited_retry_after_seconds':
      case 'rate_limited_retry_after_date':
      case 'rate_limited_reset_headers':
      case 'rate_limited_try_again_in':
        return limited(EXPECT.retryAfterMs[c]);
      case 'quota': return [{ fail: 'quota_exhausted' }];
      case 'server_error': return [{ fail: 'server', status: 500 }];
      case 'overloaded': return [{ fail: 'server', status: 529, code: 'overloaded_error' }];
      case 'auth': return [{ fail: 'auth' }];
      case 'context_length': return [{ fail: 'context_length' }];
      case 'reset_connection': return [{ fail: 'transport', code: 'ECONNRESET' }];
      case 'abort': return ['hang'];
      case 'cut_stream': return [{ text: EXPECT.streamTexts.join(''), cutAfterChunks: 1 }];
      case 'stream_error_frame': return [{ fail: 'server', afterChunks: 1 }];
      case 'json_output': return [{ text: JSON.stringify(EXPECT.object) }];
      case 'tool_call':
      case 'stream_tool_call':
        return [{ toolCalls: [{ id: 'call_f1', ...EXPECT.toolCall }] }];
      // The fake counts the prompt itself ("Say hello." is about 10 tokens): 4 of them read from the cache.
      case 'cached_usage': return [{ text: 'ok', usage: { cachedInputTokens: FAKE_CACHED } }];
      case 'embed': return ['ok'];
    }
  }

  return {
    name: 'fake',
    model: 'fake-model',
    arrange(c: ContractCase): Arranged {
      const adapter = adapterFor('fake', { type: 'fake', script: stepsFor(c) }, fixedClock(CONTRACT_NOW_MS)) as FakeAdapter;
      return { adapter, sent: () => adapter.requests.length + adapter.embedRequests.length, whenSent: Promise.resolve(), ...(c === 'cached_usage' ? { cachedInputTokens: FAKE_CACHED } : {}) };
    },
    cannotExpress: {},
  };
}
