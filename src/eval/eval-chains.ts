import { resolveConfig, type SwitchyardConfig, type Target } from '../config/index.js';
import { RouterError } from '../errors.js';

/** The single-target chain eval sends a target's calls down, so a failure never falls through. */
export function evalChainName(target: Pick<Target, 'key'>): string {
  return `eval:${target.key}`;
}

/**
 * The targets of a chain to evaluate, in chain order without duplicates. A selector picks a target
 * by `provider:model`, by provider name or by model name; one that picks nothing is an error.
 */
export function selectTargets(chainTargets: readonly Target[], chain: string, selectors?: readonly string[]): Target[] {
  const unique = chainTargets.filter((t, i) => chainTargets.findIndex((o) => o.key === t.key) === i);
  if (!selectors || selectors.length === 0) return unique;
  const picked = new Set<string>();
  for (const selector of selectors) {
    const matches = unique.filter((t) => t.key === selector || t.provider === selector || t.model === selector);
    if (matches.length === 0) {
      throw new RouterError('invalid_request', `no target "${selector}" in chain "${chain}" (targets: ${unique.map((t) => t.key).join(', ')})`);
    }
    for (const t of matches) picked.add(t.key);
  }
  return unique.filter((t) => picked.has(t.key));
}

/**
 * The user's config plus one single-target chain per evaluated target (`eval:provider:model`), so
 * each target is called directly, with the router's retries, breakers and budgets but no fall-through.
 * Throws `RouterError` kind `config` for an invalid config, `invalid_request` for an unknown chain or target.
 */
export function withEvalChains(config: SwitchyardConfig, chain: string, selectors?: readonly string[], env?: NodeJS.ProcessEnv): { config: SwitchyardConfig; targets: Target[] } {
  const resolved = resolveConfig(config, env);
  // A chain name comes from the caller (`--chain constructor`): only the config's own chains count.
  const chainTargets = Object.hasOwn(resolved.chains, chain) ? resolved.chains[chain] : undefined;
  if (!chainTargets) {
    throw new RouterError('invalid_request', `unknown chain "${chain}" (declared: ${Object.keys(resolved.chains).join(', ')})`);
  }
  const targets = selectTargets(chainTargets, chain, selectors);
  const chains = { ...config.chains };
  for (const t of targets) {
    chains[evalChainName(t)] = [{
      provider: t.provider, model: t.model, maxAttempts: t.maxAttempts, budgetPercent: t.budgetPercent,
      ...(t.maxTokens !== undefined ? { maxTokens: t.maxTokens } : {}),
      ...(t.temperature !== undefined ? { temperature: t.temperature } : {}),
    }];
  }
  return { config: { ...config, chains }, targets };
}
