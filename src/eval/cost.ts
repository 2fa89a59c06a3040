import type { Target } from '../config/index.js';
import { priceOf, type PricedProvider, type Price } from '../spend/prices.js';

export { costUsd } from '../decide/cost.js';

/**
 * A target's price, from the one table the router prices with (src/spend/prices.ts): the config's
 * `prices` by `provider:model`, then by model alone, then (given the config's `providers`) the
 * shipped table of the provider's type or preset. Only the table's own entries count: a model
 * named `toString` or `constructor` is a name like any other.
 */
export function priceFor(
  prices: Readonly<Record<string, Price>>,
  target: Pick<Target, 'key' | 'model'> & { provider?: string },
  providers: Readonly<Record<string, PricedProvider>> = {},
): Price | undefined {
  return priceOf(prices, providers, { key: target.key, model: target.model, provider: target.provider ?? target.key.slice(0, target.key.indexOf(':')) });
}
