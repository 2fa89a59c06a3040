import { afterEach, describe, expect, it } from 'vitest';
import { mulberry32 } from '../../providers/shared/answers/prng.js';
import type { SwitchyardConfig } from '../../src/config/index.js';
import { RouterError } from '../../src/errors.js';
import { createRouter, type Router } from '../../src/router.js';
import { fakeRequests } from '../../src/testing/index.js';
import { captureLogger } from '../support/capture-logger.js';
import { VirtualClock } from '../support/virtual-clock.js';

// `pick: 'weighted'` through router.chat on fake providers: weighted draws of the router's seeded
// random, and rendezvous stickiness per tenant or user.

let routers: Router[] = [];
afterEach(async () => {
  for (const r of routers) await r.close();
  routers = [];
});

const ask = (extra: { tenant?: string; user?: string } = {}) => Object.assign({ messages: [{ role: 'user' as const, content: 'Say hello' }] }, extra);
type Pool = { pool: string[]; pick: 'weighted'; weights: Record<string, number>; sticky?: 'tenant' | 'user' | false };

function weightedRouter(pool: Omit<Pool, 'pool' | 'pick'>, options: { seed?: number; providers?: SwitchyardConfig['providers']; clock?: VirtualClock } = {}) {
  const config = {
    providers: options.providers ?? { a: { type: 'fake' }, b: { type: 'fake' }, c: { type: 'fake' } },
    chains: { default: [Object.assign({ pool: ['a:m', 'b:m', 'c:m'], pick: 'weighted' }, pool)] },
    retry: { maxAttempts: 1 },
  } as SwitchyardConfig;
  const router = createRouter(config, { logger: captureLogger().logger, clock: options.clock ?? new VirtualClock(), random: mulberry32(options.seed ?? 7) });
  routers.push(router);
  return router;
}

const counts = (router: Router) => ['a', 'b', 'c'].map((p) => fakeRequests(router, p).length);

describe("a pool with pick: 'weighted'", () => {
  it('splits calls by weight: 70/20/10 over 10,000 calls, within a point, exactly so for the seed', async () => {
    const router = weightedRouter({ weights: { 'a:m': 70, 'b:m': 20, 'c:m': 10 } });
    for (let i = 0; i < 10_000; i++) await router.chat(ask());
    const [a, b, c] = counts(router) as [number, number, number];
    expect(a + b + c).toBe(10_000);
    expect(Math.abs(a! - 7_000)).toBeLessThanOrEqual(100);
    expect(Math.abs(b! - 2_000)).toBeLessThanOrEqual(100);
    expect(Math.abs(c! - 1_000)).toBeLessThanOrEqual(100);
    // Exactly the draws of the seeded random, one per call, each landing on the cumulative weights.
    const random = mulberry32(7);
    const expected = [0, 0, 0];
    for (let i = 0; i < 10_000; i++) {
      const r = random() * 100;
      expected[r < 70 ? 0 : r < 90 ? 1 : 2]!++;
    }
    expect([a, b, c]).toEqual(expected);
    expect(expected).toEqual([7_081, 1_963, 956]);
  });

  it('sends nothing to a member of weight 0 while the others can take the call', async () => {
    const router = weightedRouter({ weights: { 'a:m': 1, 'b:m': 1, 'c:m': 0 } });
    for (let i = 0; i < 200; i++) await router.chat(ask());
    expect(counts(router)[2]).toBe(0);
    expect(counts(router)[0]! + counts(router)[1]!).toBe(200);
  });
});

/** Which member answered each of `names`' calls (`as`: the request field the name goes in). */
async function membersOf(router: Router, names: string[], as: 'tenant' | 'user', callsEach = 1): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  for (const name of names) {
    const seen: string[] = [];
    for (let i = 0; i < callsEach; i++) seen.push((await router.chat(ask({ [as]: name }))).provider);
    out.set(name, seen);
  }
  return out;
}

const names = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}-${i}`);
const share = (members: Map<string, string[]>, p: string) => [...members.values()].filter((m) => m[0] === p).length;

describe('a sticky weighted pool', () => {
  it("keeps each tenant on one member, the tenants split by weight", async () => {
    const router = weightedRouter({ weights: { 'a:m': 1, 'b:m': 1, 'c:m': 2 }, sticky: 'tenant' });
    const members = await membersOf(router, names('tenant', 400), 'tenant', 3);
    for (const seen of members.values()) expect(new Set(seen).size).toBe(1);
    const split = ['a', 'b', 'c'].map((p) => share(members, p));
    // 25% / 25% / 50% of 400 tenants, within 5 points (the hash is fixed, so the split is too).
    expect(Math.abs(split[0]! - 100)).toBeLessThanOrEqual(20);
    expect(Math.abs(split[1]! - 100)).toBeLessThanOrEqual(20);
    expect(Math.abs(split[2]! - 200)).toBeLessThanOrEqual(20);
    expect(split).toEqual(TENANT_SPLIT);
    expect(counts(router)).toEqual(split.map((n) => n * 3));
  });

  it("keeps each request's user on one member with sticky: 'user', and draws by weight when a call names none", async () => {
    const router = weightedRouter({ weights: { 'a:m': 1, 'b:m': 1, 'c:m': 2 }, sticky: 'user' });
    const members = await membersOf(router, names('user', 200), 'user', 2);
    for (const seen of members.values()) expect(new Set(seen).size).toBe(1);
    // A tenant is no user: with sticky 'user' it does not stick (a weighted draw, so not all on one member).
    const byTenant = await membersOf(router, ['one-tenant'], 'tenant', 40);
    expect(new Set(byTenant.get('one-tenant')).size).toBeGreaterThan(1);
    expect(counts(router).reduce((x, y) => x + y, 0)).toBe(440);
  });

  it('moves only the users a changed weight gives to its member', async () => {
    const users = names('user', 600);
    const before = await membersOf(weightedRouter({ weights: { 'a:m': 1, 'b:m': 1, 'c:m': 1 }, sticky: 'user' }), users, 'user');
    const after = await membersOf(weightedRouter({ weights: { 'a:m': 1, 'b:m': 1, 'c:m': 2 }, sticky: 'user' }), users, 'user');
    const moved = users.filter((u) => before.get(u)![0] !== after.get(u)![0]);
    // c's share grows from a third to a half: about a sixth of the users move, every one of them to c.
    expect(moved.map((u) => after.get(u)![0]).filter((p) => p !== 'c')).toEqual([]);
    expect(Math.abs(moved.length - 100)).toBeLessThanOrEqual(30);
  });

  it('sends a tenant to its next member while its own is cooling, and back once it is not', async () => {
    const clock = new VirtualClock();
    // a's 2nd request is a 429 asking for 30 s.
    const providers = {
      a: { type: 'fake', respond: (_r: unknown, n: number) => (n === 2 ? { fail: 'rate_limited', retryAfterMs: 30_000 } : 'ok') },
      b: { type: 'fake' },
      c: { type: 'fake' },
    } as SwitchyardConfig['providers'];
    const router = weightedRouter({ weights: { 'a:m': 1, 'b:m': 1, 'c:m': 1 }, sticky: 'tenant' }, { providers, clock });
    const tenant = await tenantOnA();
    expect((await router.chat(ask({ tenant }))).provider).toBe('a');
    const limited = await router.chat(ask({ tenant }));
    const next = limited.provider;
    expect(limited.attempts.map((x) => [x.provider, x.ok, x.kind])).toEqual([['a', false, 'rate_limited'], [next, true, undefined]]);
    // While a cools, the tenant's calls skip it without a request and stay on that same next member.
    for (let i = 0; i < 5; i++) {
      const r = await router.chat(ask({ tenant }));
      expect([r.provider, r.attempts[0]!.provider, r.attempts[0]!.skipped]).toEqual([next, 'a', true]);
    }
    await clock.advance(30_000);
    expect((await router.chat(ask({ tenant }))).provider).toBe('a');
    expect(fakeRequests(router, 'a').length).toBe(3);
    expect(fakeRequests(router, next).length).toBe(6);
  });

  it('passes over a member whose breaker is open, without a request, and returns once it closes', async () => {
    const clock = new VirtualClock();
    // a fails its 2nd and 3rd requests: with consecutiveFailures 2 its breaker opens.
    const providers = {
      a: { type: 'fake', respond: (_r: unknown, n: number) => (n === 2 || n === 3 ? { fail: 'server' } : 'ok') },
      b: { type: 'fake' },
      c: { type: 'fake' },
    } as SwitchyardConfig['providers'];
    const router = createRouter({
      providers,
      chains: { default: [{ pool: ['a:m', 'b:m', 'c:m'], pick: 'weighted', weights: { 'a:m': 1, 'b:m': 1, 'c:m': 1 }, sticky: 'tenant' }] },
      retry: { maxAttempts: 1 },
      breaker: { consecutiveFailures: 2, resetTimeoutMs: 10_000 },
    } as SwitchyardConfig, { logger: captureLogger().logger, clock, random: mulberry32(7) });
    routers.push(router);
    const tenant = await tenantOnA();
    const seen: string[][] = [];
    for (let i = 0; i < 5; i++) seen.push((await router.chat(ask({ tenant }))).attempts.map((x) => `${x.provider}${x.ok ? '' : x.skipped ? ' skipped' : ' failed'}`));
    const next = seen[1]!.at(-1)!;
    // Open after two failures: ordered after the members that may be sent to, never reached.
    expect(seen).toEqual([['a'], ['a failed', next], ['a failed', next], [next], [next]]);
    await clock.advance(10_000);
    expect((await router.chat(ask({ tenant }))).provider).toBe('a');
    expect(fakeRequests(router, 'a').length).toBe(4);
  });
});

const TENANT_SPLIT = [99, 104, 197];

/** A tenant whose member, in an even three-way sticky split, is `a` (found through a router whose members all answer). */
async function tenantOnA(): Promise<string> {
  const probe = weightedRouter({ weights: { 'a:m': 1, 'b:m': 1, 'c:m': 1 }, sticky: 'tenant' });
  for (const tenant of names('tenant', 20)) if ((await probe.chat(ask({ tenant }))).provider === 'a') return tenant;
  throw new Error('no tenant of 20 lands on a');
}

describe('weighted pool config', () => {
  const configWith = (step: Record<string, unknown>) => ({
    providers: { a: { type: 'fake' }, b: { type: 'fake' } },
    chains: { default: [Object.assign({ pool: ['a:m', 'b:m'] }, step)] },
  }) as SwitchyardConfig;
  const problem = (step: Record<string, unknown>): string => {
    try {
      createRouter(configWith(step), { logger: captureLogger().logger });
    } catch (err) {
      expect(err).toBeInstanceOf(RouterError);
      expect((err as RouterError).kind).toBe('config');
      return (err as RouterError).message;
    }
    throw new Error('the config was accepted');
  };

  it('names an unknown member, a negative weight, a missing one and all zero', () => {
    expect(problem({ pick: 'weighted', weights: { 'a:m': 1, 'b:m': 1, 'c:m': 1 } }))
      .toContain("chains.default[0].weights: 'c:m' is not a member of this pool (members: a:m, b:m)");
    expect(problem({ pick: 'weighted', weights: { 'a:m': -1, 'b:m': 1 } }))
      .toContain("chains.default[0].weights['a:m']: a weight is a number of 0 or more (got -1)");
    expect(problem({ pick: 'weighted', weights: { 'a:m': 1 } }))
      .toContain("chains.default[0].weights: no weight for member 'b:m'");
    expect(problem({ pick: 'weighted', weights: { 'a:m': 0, 'b:m': 0 } }))
      .toContain('chains.default[0].weights: every weight is 0, so no member would get a call');
  });

  it("refuses weights without pick: 'weighted', sticky without it, and pick: 'weighted' without weights", () => {
    expect(problem({ weights: { 'a:m': 1, 'b:m': 1 } })).toContain("chains.default[0].weights: weights need pick: 'weighted' (this pool picks by 'headroom')");
    expect(problem({ pick: 'latency', sticky: 'user' })).toContain("chains.default[0].sticky: sticky needs pick: 'weighted' (this pool picks by 'latency')");
    expect(problem({ pick: 'weighted' })).toContain("chains.default[0].weights: pick 'weighted' needs weights, one per member: { 'a:m': 1, 'b:m': 1 }");
    // A value of the wrong shape fails the step's schema, reported (as for any step) at the chain.
    expect(problem({ pick: 'weighted', weights: { 'a:m': 1, 'b:m': 1 }, sticky: 'session' })).toContain('chains.default: Invalid input');
  });

  it('accepts a valid weighted pool, with sticky false as without it', () => {
    for (const sticky of [false, 'tenant', 'user', undefined]) {
      const router = createRouter(configWith({ pick: 'weighted', weights: { 'a:m': 3, 'b:m': 0 }, sticky }), { logger: captureLogger().logger });
      routers.push(router);
    }
  });
});

describe("a pool member's identity on the call event", () => {
  it('names the pool and the member that answered, for chats and streams; a step outside a pool has none', async () => {
    const router = createRouter({
      providers: { a: { type: 'fake' }, b: { type: 'fake', script: [{ fail: 'server' }] }, solo: { type: 'fake' } },
      chains: {
        default: [{ pool: ['b:m', 'a:m'], pick: 'weighted', weights: { 'b:m': 1, 'a:m': 0 } }],
        plain: ['solo:m'],
      },
      retry: { maxAttempts: 1 },
    } as SwitchyardConfig, { logger: captureLogger().logger, clock: new VirtualClock(), random: mulberry32(7) });
    routers.push(router);
    const calls: Array<{ provider?: string; model?: string; pool?: unknown }> = [];
    router.on('call', (e) => calls.push({ provider: e.provider, model: e.model, pool: e.pool }));
    // b (weight 1) fails its first request, so a answers: the event names a, the member that answered.
    await router.chat(ask());
    for await (const _ of router.stream(ask())) { /* drain */ }
    await router.chat(Object.assign(ask(), { chain: 'plain' }));
    expect(calls).toEqual([
      { provider: 'a', model: 'm', pool: { id: 'default[0]', member: 'a:m' } },
      { provider: 'b', model: 'm', pool: { id: 'default[0]', member: 'b:m' } },
      { provider: 'solo', model: 'm', pool: undefined },
    ]);
  });
});
