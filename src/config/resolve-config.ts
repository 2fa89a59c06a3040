import type { z } from 'zod';
import { RouterError } from '../errors.js';
import { configSchema, type ParsedConfig, type ProviderConfig } from './schema.js';
import { maskedWhenPrinted, storeMaskedWhenPrinted } from './secret-fields.js';
import { DEFAULTS } from './defaults.js';
import type { OutlierPolicy } from '../decide/outlier-verdict.js';
import { applyPreset, presetNeedsKey } from './apply-preset.js';
import { spendProblems } from './spend-config.js';
import { poolOf, type PoolOf } from './pool-config.js';

export type { PoolOf, PoolPick } from './pool-config.js';

/** One (provider, model) step of a chain, with its per-target options resolved. */
export interface Target {
  provider: string;
  model: string;
  /** `provider:model`: the key for cooling, breakers (with scope `target`) and logs. */
  key: string;
  maxTokens?: number;
  temperature?: number;
  maxAttempts: number;
  /** The retry budget's percentage for this target (`budgetPercent`, else `retry.budgetPercent`). */
  budgetPercent: number;
  /** Set on the members of a pool step: consecutive targets with one pool id form the pool. */
  pool?: PoolOf;
  /** Set on the members of a pool step with `outlier`: its settings, the unset ones at their defaults. */
  outlier?: OutlierPolicy;
  /** `promptCache.auto` of the step, else of the chain: place Anthropic's recommended breakpoints on calls that set none. */
  promptCacheAuto?: true;
}

/** A provider's config plus the API key read from its `apiKeyEnv` (never logged). */
export type ResolvedProvider = ProviderConfig & { name: string; resolvedApiKey?: string };

/** A chain's hedging, resolved: `afterMs` and/or `percentile`, and the cap on extra requests. */
export type HedgePolicy = { afterMs?: number; percentile?: number; maxExtraPercent: number };

/** A chain's shadow traffic, resolved (docs/routing.md, "Shadow traffic"). */
export interface ShadowPolicy {
  /** The candidate targets, each sent the sampled calls on its own single-target chain. */
  targets: Target[];
  /** The share of the chain's successful calls copied, in percent. */
  percent: number;
  /** Eval expectations each shadow answer is checked against (by the router's shadow grader). */
  expect?: Record<string, unknown>;
  /** A judge's rubric for each shadow answer (by the router's shadow grader). */
  judge?: { rubric: string; chain?: string; minScore?: number };
  /** Shadows of this chain in flight at once; one more is dropped. */
  maxInFlight: number;
}

/** A validated config with defaults filled in, chains split into targets and keys read. */
export interface ResolvedConfig extends Omit<ParsedConfig, 'chains' | 'providers'> {
  providers: Record<string, ResolvedProvider>;
  chains: Record<string, Target[]>;
  /** The chains that hedge (`{ steps, hedge }`), by name. */
  hedges: Record<string, HedgePolicy>;
  /** The chains with shadow traffic (`{ steps, shadow }`), by name. */
  shadows: Record<string, ShadowPolicy>;
}

/**
 * Provider types that cannot work without a key, each with the environment variable read when the
 * config names none (undefined: the config must name one).
 */
const KEYED_TYPES: Readonly<Partial<Record<ProviderConfig['type'], string>>> = { openai: undefined, anthropic: undefined, gemini: 'GEMINI_API_KEY' };

/** A zod issue path as written in messages: `providers.openai.limits`, `messages[0].content`; `(root)` when empty. */
export function formatPath(path: ReadonlyArray<PropertyKey>): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else out += out === '' ? String(part) : `.${String(part)}`;
  }
  return out || '(root)';
}

/** Every zod issue as `path: message`, one per line. */
export function formatIssues(issues: ReadonlyArray<z.core.$ZodIssue>): string[] {
  return issues.map((issue) => `${formatPath(issue.path)}: ${issue.message}`);
}

function configError(problems: string[]): RouterError {
  return new RouterError('config', `invalid Switchyard config:\n  - ${problems.join('\n  - ')}`);
}

/** Splits `provider:model` at the first colon (`local:llama3:8b` is provider `local`, model `llama3:8b`). */
export function splitTarget(ref: string): { provider: string; model: string } {
  const at = ref.indexOf(':');
  return { provider: ref.slice(0, at), model: ref.slice(at + 1) };
}

/**
 * A provider whose keys (a literal `apiKey`, the `resolvedApiKey` read from `apiKeyEnv`) are readable
 * by the adapter but hidden from `JSON.stringify`, `util.inspect` and spreads, and whose `headers`
 * and `query` (where credentials go) print with their values masked: a config printed in a log or
 * an error report must not carry a secret.
 */
function withHiddenKeys(provider: Omit<ResolvedProvider, 'resolvedApiKey'>, apiKey: string | undefined, resolvedApiKey: string | undefined): ResolvedProvider {
  const out = provider as ResolvedProvider;
  delete (out as { apiKey?: string }).apiKey;
  Object.defineProperty(out, 'apiKey', { value: apiKey, enumerable: false });
  Object.defineProperty(out, 'resolvedApiKey', { value: resolvedApiKey, enumerable: false });
  if (out.headers) maskedWhenPrinted(out.headers);
  if (out.query) maskedWhenPrinted(out.query);
  return out;
}

/**
 * Validates a config and resolves it for the router. Throws `RouterError` kind `config` naming every
 * failing path: schema errors, chains naming unknown providers, API key variables that are not set.
 */
export function resolveConfig(input: unknown, env: NodeJS.ProcessEnv = process.env): ResolvedConfig {
  const parsed = configSchema.safeParse(input);
  if (!parsed.success) throw configError(formatIssues(parsed.error.issues));
  const config = parsed.data;
  const problems: string[] = [];

  // Names come from the config: a provider named `toString` or `constructor` is a name like any other.
  const providers: Record<string, ResolvedProvider> = Object.create(null);
  for (const [name, given] of Object.entries(config.providers)) {
    const provider = given.type === 'openai-compatible' ? applyPreset(name, given, problems) : given;
    const needsKey = Object.hasOwn(KEYED_TYPES, provider.type) || presetNeedsKey(provider);
    let resolvedApiKey = provider.apiKey;
    const keyEnv = provider.apiKeyEnv ?? KEYED_TYPES[provider.type];
    if (!resolvedApiKey && keyEnv) {
      resolvedApiKey = env[keyEnv] || undefined;
      if (!resolvedApiKey && needsKey) {
        problems.push(provider.apiKeyEnv
          ? `providers.${name}.apiKeyEnv: environment variable ${provider.apiKeyEnv} is not set`
          : `providers.${name}: environment variable ${keyEnv} (the ${provider.type} key) is not set; set it, or apiKeyEnv / apiKey`);
      }
    } else if (!resolvedApiKey && needsKey) {
      problems.push(`providers.${name}: needs apiKeyEnv (or apiKey) for a ${provider.type} provider`);
    }
    providers[name] = withHiddenKeys({ ...provider, name }, provider.apiKey, resolvedApiKey);
  }

  type Step = string | { provider: string; model: string; maxTokens?: number; temperature?: number; maxAttempts?: number; budgetPercent?: number; promptCache?: { auto?: boolean } };
  const target = (step: Step, path: string, pool?: Target['pool'], chainCache?: { auto?: boolean }): Target => {
    const ref = typeof step === 'string' ? splitTarget(step) : step;
    if (!Object.hasOwn(providers, ref.provider)) {
      problems.push(`${path}: unknown provider "${ref.provider}" (declared: ${Object.keys(providers).join(', ')})`);
    }
    const options: Exclude<Step, string> | Record<string, undefined> = typeof step === 'string' ? {} : step;
    const out: Target = {
      provider: ref.provider, model: ref.model, key: `${ref.provider}:${ref.model}`,
      maxTokens: options.maxTokens, temperature: options.temperature, maxAttempts: options.maxAttempts ?? config.retry.maxAttempts,
      budgetPercent: options.budgetPercent ?? config.retry.budgetPercent,
    };
    if (pool) out.pool = pool;
    if ((options.promptCache ?? chainCache)?.auto === true) out.promptCacheAuto = true;
    return out;
  };
  const chains: Record<string, Target[]> = {};
  const hedges: Record<string, HedgePolicy> = {};
  const shadows: Record<string, ShadowPolicy> = {};
  for (const [chainName, chain] of Object.entries(config.chains)) {
    const steps = Array.isArray(chain) ? chain : chain.steps;
    const base = Array.isArray(chain) ? `chains.${chainName}` : `chains.${chainName}.steps`;
    if (!Array.isArray(chain) && chain.hedge) hedges[chainName] = chain.hedge;
    const chainCache = Array.isArray(chain) ? undefined : chain.promptCache;
    chains[chainName] = steps.flatMap((step, i) => {
      if (typeof step === 'object' && 'pool' in step) {
        const pool = poolOf(`${chainName}[${i}]`, step, `${base}[${i}]`, problems);
        const members = step.pool.map((member, j) => target(member, `${base}[${i}].pool[${j}]`, pool, chainCache));
        if (step.outlier) {
          const o = step.outlier;
          const d = DEFAULTS.outlier;
          const outlier: OutlierPolicy = Object.freeze({
            consecutiveFailures: o.consecutiveFailures ?? d.consecutiveFailures, successRateBelow: o.successRateBelow ?? d.successRateBelow,
            latencyAboveMedianX: o.latencyAboveMedianX ?? d.latencyAboveMedianX, ejectMs: o.ejectMs ?? d.ejectMs, maxEjectedPercent: o.maxEjectedPercent ?? d.maxEjectedPercent,
          });
          for (const member of members) member.outlier = outlier;
        }
        return members;
      }
      return [target(step, `${base}[${i}]`, undefined, chainCache)];
    });
    if (!Array.isArray(chain) && chain.shadow) {
      const { targets, ...rest } = chain.shadow;
      shadows[chainName] = Object.assign(rest, { targets: targets.map((t, i) => target(t, `chains.${chainName}.shadow.targets[${i}]`)) });
    }
    if (hedges[chainName] && chains[chainName]!.length < 2) {
      problems.push(`chains.${chainName}.hedge: a hedge needs a second step or pool member to try, and the chain has one target`);
    }
  }

  if (problems.length === 0) problems.push(...spendProblems(config, providers, chains));
  if (problems.length > 0) throw configError(problems);
  // A Redis URL may carry its password: printed, it is masked; the store still connects with it.
  if (config.store.type === 'redis') storeMaskedWhenPrinted(config.store);
  return { ...config, providers, chains, hedges, shadows };
}
