import type { Target } from './resolve-config.js';

/**
 * The runtime chain a shadow target's calls go down: the one target, with the router's retries and
 * breakers but no fall-through (as eval's `eval:provider:model`). Not a config chain: a caller
 * cannot name it, so only shadows are sent down it.
 */
export function shadowChainName(target: Pick<Target, 'key'>): string {
  return `shadow:${target.key}`;
}
