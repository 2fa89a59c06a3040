import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ProviderCallOptions } from '../../providers/types.js';
import { createRouter, type Router } from '../../src/router.js';
import { adapterOf } from '../../src/testing/index.js';
import { systemClock } from '../../src/time/system-clock.js';
import { captureLogger } from '../support/capture-logger.js';

// The one branch of send-attempt.ts a virtual clock never takes: a plain call on the wall clock to
// an adapter whose timeout covers the body gets no scope of ours (no controller, no timer): the SDK
// is handed `timeoutMs`, and the stall guard stays as a backstop. This file runs on the system clock.

let routers: Router[] = [];
afterEach(async () => {
  for (const r of routers) await r.close();
  routers = [];
});

function router(script: Array<'ok' | 'hang'>) {
  const r = createRouter({ providers: { p: { type: 'fake', timeoutMs: 50, script } }, chains: { default: ['p:m'] }, retry: { maxAttempts: 1 } }, { logger: captureLogger().logger });
  routers.push(r);
  const adapter = adapterOf(r, 'p');
  const chat = vi.spyOn(adapter, 'chat');
  return { router: r, chat };
}

const ask = { messages: [{ role: 'user' as const, content: 'Say hello' }] };

describe('a plain call on the wall clock', () => {
  it('hands its timeout to the adapter and runs under no signal of ours', async () => {
    const { router: r, chat } = router(['ok']);
    expect(systemClock.isWallClock).toBe(true);
    const res = await r.chat(ask);
    expect(res.provider).toBe('p');
    expect(chat).toHaveBeenCalledTimes(1);
    const options = chat.mock.calls[0]![1] as ProviderCallOptions;
    expect(options.timeoutMs).toBe(50);
    expect(options.signal).toBeUndefined();
  });

  it('reports the adapter\'s own timeout as the attempt timing out', async () => {
    const { router: r, chat } = router(['hang']);
    const err = await r.chat(ask).catch((e: unknown) => e);
    // The chain's only target timed out: the call is exhausted, its cause the attempt's timeout.
    expect(err).toMatchObject({ kind: 'exhausted', code: 'timeout', cause: { kind: 'timeout', message: 'p:m: attempt timed out after 50 ms' } });
    expect((err as { attempts: unknown[] }).attempts).toEqual([expect.objectContaining({ provider: 'p', ok: false, kind: 'timeout' })]);
    expect((chat.mock.calls[0]![1] as ProviderCallOptions).signal).toBeUndefined();
  });
});
