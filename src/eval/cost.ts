import type { Target } from '../config/index.js';
import type { Usage } from '../types.js';
import type { Price } from './report-types.js';

/**
 * A target's price from the config's table: by `provider:model` first, then by model alone. Only the
 * table's own entries count: a model named `toString` or `constructor` is a name like any other.
 */
export function priceFor(prices: Readonly<Record<string, Price>>, target: Pick<Target, 'key' | 'model'>): Price | undefined {
  if (Object.hasOwn(prices, target.key)) return prices[target.key];
  return Object.hasOwn(prices, target.model) ? prices[target.model] : undefined;
}

/** Estimated USD cost of one call's usage at a price per million tokens. */
export function costUsd(usage: Usage, price: Price): number {
  return (usage.inputTokens * price.inputPerMTok + usage.outputTokens * price.outputPerMTok) / 1_000_000;
}
