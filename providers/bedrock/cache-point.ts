import type { CachePointBlock } from '@aws-sdk/client-bedrock-runtime';
import type { CacheBreakpoint } from '../../src/types.js';
import { bedrockModelTraits } from './model-family.js';

/**
 * The router's cache breakpoints as Converse `cachePoint` blocks: one goes right after the system
 * block, content block or tool it marks (a message's: after its last block), with the breakpoint's
 * `ttl` when it has one. Only for models with prompt caching on Bedrock (`promptCache` in
 * model-family.ts); for the others there is none, since Converse refuses a cachePoint there.
 * https://docs.aws.amazon.com/bedrock/latest/userguide/prompt-caching.html
 * https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_CachePointBlock.html
 */
export function cachePointsFor(model: string): (cache: CacheBreakpoint | undefined) => Array<{ cachePoint: CachePointBlock }> {
  if (!bedrockModelTraits(model).promptCache) return () => [];
  return (cache) => (cache ? [{ cachePoint: { type: 'default', ...(cache.ttl ? { ttl: cache.ttl } : {}) } }] : []);
}
