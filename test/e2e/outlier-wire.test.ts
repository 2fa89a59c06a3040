import { describe, expect, it } from 'vitest';
import { createRouter, type Router } from '../../src/router.js';
import type { RouterEvents } from '../../src/observe/events.js';
import { captureLogger } from '../support/capture-logger.js';
import { openaiCompletion } from '../support/fixtures.js';
import type { Upstream } from '../support/upstream.js';
import { upstreamPerTest } from '../support/upstream-per-test.js';
import { ask } from '../support/wire-router.js';

// A bad-but-200 member over the wire: the openai adapter reads a 200 whose body has no choices as a
// malformed response (transport), which outlier ejection counts while the breaker's threshold is far off.

const EAST = '/east/v1/chat/completions';
const WEST = '/west/v1/chat/completions';

let up: Upstream;
const routers = upstreamPerTest<Router>((u) => (up = u));

describe('outlier ejection over the wire', () => {
  it('ejects a member answering 200 with a malformed body, and sends it nothing more', async () => {
    up.otherwise(EAST, () => ({ status: 200, body: { id: 'x', object: 'chat.completion', choices: [] } }));
    up.otherwise(WEST, () => ({ status: 200, body: openaiCompletion() }));
    const router = createRouter({
      providers: {
        east: { type: 'openai', apiKey: 'sk-east-key', baseURL: `${up.url}/east/v1` },
        west: { type: 'openai', apiKey: 'sk-west-key', baseURL: `${up.url}/west/v1` },
      },
      chains: { default: [{ pool: ['east:gpt-4o', 'west:gpt-4o'], outlier: { consecutiveFailures: 2 } }] },
      retry: { maxAttempts: 1 },
      breaker: { consecutiveFailures: 1_000, errorThresholdPercentage: 100 },
    }, { logger: captureLogger().logger });
    routers.push(router);
    const events: Array<RouterEvents['outlier']> = [];
    router.on('outlier', (e) => events.push(e));
    for (let i = 0; i < 6; i++) expect((await router.chat(ask())).provider).toBe('west');
    expect([up.count(EAST), up.count(WEST)]).toEqual([2, 6]);
    expect(events).toMatchObject([{ action: 'eject', provider: 'east', reason: 'consecutive_failures' }]);
  });
});
