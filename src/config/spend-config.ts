import { priceOf, type PricedProvider, type PricedTarget } from '../spend/prices.js';
import type { ParsedConfig } from './schema.js';

/**
 * What a spend budget needs of the rest of the config: a price for every target it can reach (the
 * config's `prices` or the shipped table). A model without a price is fine anywhere else.
 */
export function spendProblems(config: ParsedConfig, providers: Readonly<Record<string, PricedProvider>>, chains: Readonly<Record<string, readonly PricedTarget[]>>): string[] {
  const problems: string[] = [];
  const check = (path: string, chainNames: readonly string[]) => {
    const missing = new Set<string>();
    for (const name of chainNames) {
      for (const target of chains[name] ?? []) {
        if (Object.hasOwn(providers, target.provider) && !priceOf(config.prices, providers, target)) missing.add(target.key);
      }
    }
    if (missing.size > 0) {
      problems.push(`${path}: no price for ${[...missing].join(', ')} (a spend budget prices every target it may reach: add each to \`prices\` as { inputPerMTok, outputPerMTok })`);
    }
  };
  const allChains = Object.keys(chains);
  for (const [name, tenant] of Object.entries(config.tenants)) if (tenant.spend) check(`tenants.${name}.spend`, allChains);
  config.gateway.keys.forEach((k, i) => {
    if (k.spend) check(`gateway.keys[${i}].spend`, k.chains ?? allChains);
  });
  return problems;
}
