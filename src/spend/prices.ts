import { SHIPPED_PRICES, type Price } from './price-table.js';

export type { Price } from './price-table.js';
export { PRICES_AS_OF, SHIPPED_PRICES } from './price-table.js';

/** What a price is looked up by: a provider's type (and preset), a target's names. */
export interface PricedProvider {
  type: string;
  preset?: string;
}
export interface PricedTarget {
  /** `provider:model` */
  key: string;
  provider: string;
  model: string;
}
type Providers = Readonly<Record<string, PricedProvider>>;

/** Bedrock's cross-region inference profiles prefix the model id with where they route. */
const BEDROCK_REGION_PREFIX = /^(?:us|eu|apac|global|us-gov|ca|jp|au)\./;

/** A Bedrock model id as the price table names it: an ARN's last path segment, without a cross-region prefix. */
export function bedrockModelId(model: string): string {
  const last = model.slice(model.lastIndexOf('/') + 1);
  return last.replace(BEDROCK_REGION_PREFIX, '');
}

/** The shipped table a provider's models are priced from: its preset's, else its type's. */
function shippedTable(provider: PricedProvider | undefined): Readonly<Record<string, Price>> | undefined {
  if (!provider) return undefined;
  const name = provider.type === 'openai-compatible' ? provider.preset : provider.type;
  return name !== undefined && Object.hasOwn(SHIPPED_PRICES, name) ? SHIPPED_PRICES[name] : undefined;
}

/**
 * A target's price: the config's `prices` by `provider:model`, then by model alone, then the
 * shipped table of the provider's type or preset (Bedrock by its bare model id; a preset's `*`
 * entry prices every model of a local server). Only own entries count: a model named `toString`
 * is a name like any other. Undefined: nobody priced it.
 */
export function priceOf(
  prices: Readonly<Record<string, Price>>,
  providers: Providers,
  target: PricedTarget,
): Price | undefined {
  if (Object.hasOwn(prices, target.key)) return prices[target.key];
  if (Object.hasOwn(prices, target.model)) return prices[target.model];
  const provider = Object.hasOwn(providers, target.provider) ? providers[target.provider] : undefined;
  const table = shippedTable(provider);
  if (!table) return undefined;
  const model = provider!.type === 'bedrock' ? bedrockModelId(target.model) : target.model;
  if (Object.hasOwn(table, model)) return table[model];
  return Object.hasOwn(table, '*') ? table['*'] : undefined;
}

/** Every target's price, looked up once per target key. */
export class Prices {
  private readonly cache = new Map<string, Price | null>();

  constructor(private readonly config: { prices: Readonly<Record<string, Price>>; providers: Providers }) {}

  of(target: PricedTarget): Price | undefined {
    let price = this.cache.get(target.key);
    if (price === undefined) this.cache.set(target.key, (price = priceOf(this.config.prices, this.config.providers, target) ?? null));
    return price ?? undefined;
  }
}
