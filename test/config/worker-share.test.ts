import { describe, expect, it } from 'vitest';
import { countedShare, storeIsLocal, WorkerShareError, workerShare } from '../../src/config/worker-share.js';
import type { SwitchyardConfig } from '../../src/config/index.js';

// `serve --workers N` on the memory store: each worker runs with its share of every budget, and the
// shares add up to the limit exactly.

const base = (): SwitchyardConfig => ({
  providers: {
    openai: {
      type: 'openai', apiKey: 'sk-test',
      limits: { rpm: 5, tpm: 100_000, concurrency: 4, maxQueueMs: 2_000, windowMs: 60_000, models: { 'gpt-4o': { rpm: 3 } }, embeddings: { rpm: 7 } },
    },
    claude: { type: 'anthropic', apiKey: 'sk-ant-test', limits: { rpm: 50, itpm: 30_000, otpm: 8_000 } },
  },
  chains: { default: ['openai:gpt-4o-mini', 'claude:claude-haiku-4-5'] },
  tenants: { acme: { share: 3, rpm: 9 }, '*': { share: 1 } },
});

describe('a worker\'s share of the limits', () => {
  it('splits a whole-number limit so the workers\' shares add up to it exactly', () => {
    for (const [total, count] of [[5, 2], [7, 3], [100, 8], [3, 3]] as const) {
      const shares = Array.from({ length: count }, (_, i) => countedShare(total, i, count));
      expect(shares.reduce((a, b) => a + b, 0)).toBe(total);
      expect(Math.max(...shares) - Math.min(...shares)).toBeLessThanOrEqual(1);
    }
  });

  it('divides every budget (provider, per-model, embeddings, Anthropic ITPM/OTPM, tenants) and nothing else', () => {
    const input = base();
    const first = workerShare(input, 0, 2);
    const second = workerShare(input, 1, 2);
    expect(first.config.providers.openai).toMatchObject({ limits: { rpm: 3, tpm: 50_000, concurrency: 2, maxQueueMs: 2_000, windowMs: 60_000, models: { 'gpt-4o': { rpm: 2 } }, embeddings: { rpm: 4 } } });
    expect(second.config.providers.openai).toMatchObject({ limits: { rpm: 2, tpm: 50_000, concurrency: 2, models: { 'gpt-4o': { rpm: 1 } }, embeddings: { rpm: 3 } } });
    expect(first.config.providers.claude).toMatchObject({ limits: { rpm: 25, itpm: 15_000, otpm: 4_000 } });
    // A tenant's share is a weight, not a budget: it stays.
    expect(first.config.tenants).toEqual({ acme: { share: 3, rpm: 5 }, '*': { share: 1 } });
    expect(second.config.tenants).toEqual({ acme: { share: 3, rpm: 4 }, '*': { share: 1 } });
    expect(first.divided.map((d) => d.path)).toEqual([
      'providers.openai.limits.rpm', 'providers.openai.limits.tpm', 'providers.openai.limits.concurrency',
      'providers.openai.limits.embeddings.rpm', 'providers.openai.limits.models.gpt-4o.rpm',
      'providers.claude.limits.rpm', 'providers.claude.limits.itpm', 'providers.claude.limits.otpm',
      'tenants.acme.rpm',
    ]);
    // The input is left as it was.
    expect(input).toEqual(base());
  });

  it('divides money exactly, in tenants\' and gateway keys\' spend', () => {
    const input = { ...base(), tenants: { acme: { spend: { usdPerDay: 10, usdPerMonth: 250 } } }, gateway: { keys: [{ keyEnv: 'K', tenant: 'acme', spend: { usdPerDay: 3 } }] } } as unknown as SwitchyardConfig;
    const { config, divided } = workerShare(input, 1, 2);
    expect((config.tenants as any).acme.spend).toEqual({ usdPerDay: 5, usdPerMonth: 125 });
    expect((config.gateway as any).keys[0].spend).toEqual({ usdPerDay: 1.5 });
    expect(divided.filter((d) => d.path.includes('spend')).map((d) => [d.path, d.share])).toEqual([
      ['tenants.acme.spend.usdPerDay', 5], ['tenants.acme.spend.usdPerMonth', 125], ['gateway.keys[0].spend.usdPerDay', 1.5],
    ]);
  });

  it('refuses a limit smaller than the worker count, naming it, since some worker would hold 0', () => {
    expect(() => workerShare(base(), 0, 4)).toThrow(WorkerShareError);
    expect(() => workerShare(base(), 0, 4)).toThrow(/^providers\.openai\.limits\.models\.gpt-4o\.rpm is 3, less than the 4 workers: a worker's share would be 0\. Use a Redis store/);
  });

  it('keeps what is not plain data (a fake provider\'s functions) by reference', () => {
    const respond = () => 'hi';
    const input = { providers: { fake: { type: 'fake', respond, limits: { rpm: 4 } } }, chains: { default: ['fake:m'] } } as unknown as SwitchyardConfig;
    const { config } = workerShare(input, 0, 2);
    expect((config.providers as any).fake.respond).toBe(respond);
    expect((config.providers as any).fake.limits.rpm).toBe(2);
  });

  it('with one worker, or on a Redis store, nothing is divided', () => {
    expect(workerShare(base(), 0, 1).divided).toEqual([]);
    expect(storeIsLocal(base())).toBe(true);
    expect(storeIsLocal({ ...base(), store: { type: 'redis', url: 'redis://127.0.0.1:6379' } })).toBe(false);
  });
});
