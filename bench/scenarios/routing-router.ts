import type { SwitchyardConfig } from '../../src/config/index.js';
import type { Router, RouterOptions } from '../../src/router.js';
import { API_KEY, MODEL, ROOMY_LIMITS, benchRouter } from '../lib/arms.js';
import { MEMBERS, type Member, type PoolUpstream } from '../lib/pool-upstream.js';

/** A pool member's target, `'<member>:gpt-4o-mini'`: each member is a provider of its own at the upstream. */
export const target = (member: Member): string => `${member}:${MODEL}`;

/**
 * The routing scenario's router: the three members as OpenAI providers at the pool upstream, and one
 * chain `default` (steps, or a chain object with `shadow`). Everything else at its defaults. Throws
 * the config error when the router does not know a setting (a `pick` or `outlier` not yet built).
 */
export async function buildRouter(upstream: PoolUpstream, chain: SwitchyardConfig['chains'][string], options?: RouterOptions): Promise<Router> {
  const providers: SwitchyardConfig['providers'] = {};
  for (const m of MEMBERS) providers[m] = { type: 'openai', apiKey: API_KEY, baseURL: upstream.baseURL(m), timeoutMs: 10_000, limits: ROOMY_LIMITS };
  const config = { providers, chains: { default: chain }, log: { level: 'silent' } } as SwitchyardConfig;
  return benchRouter(config, undefined, options);
}

/** The first line of a config error, for the report of an arm that could not run. */
export const notBuilt = (err: unknown): string => String((err as Error)?.message ?? err).replace(/\s+/g, ' ').trim().slice(0, 300);

/** Warms a router's code and connections with `n` calls one after another on an upstream with no brownout (reset afterwards by the caller). */
export async function warmUp(router: Router, upstream: PoolUpstream, call: () => Promise<unknown>, n = 40): Promise<void> {
  await upstream.reset({ seed: 1, baseMs: 0, jitterMs: 0 });
  for (let i = 0; i < n; i++) await call().catch(() => undefined);
}
