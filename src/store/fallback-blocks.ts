import { andThen, type MaybePromise } from './maybe-promise.js';
import type { Block, BlockStore } from './block-store.js';
import type { FallbackCore } from './fallback-core.js';

/** The blocks role behind the store's breaker: a block learned or set here outlives an outage. */
export class FallbackBlocks implements BlockStore {
  constructor(private readonly core: FallbackCore, private readonly primary: BlockStore) {}

  getBlock(key: string, nowMs: number): MaybePromise<Block | undefined> {
    const { local } = this.core;
    return this.core.decide(
      // A block seen in the store is remembered here too, so an outage does not forget it.
      () => andThen(this.primary.getBlock(key, nowMs), (block) => (block && local.setBlock(key, block, nowMs), block)),
      () => local.getBlock(key, nowMs),
    );
  }

  setBlock(key: string, block: Block, nowMs: number): MaybePromise<void> {
    this.core.local.setBlock(key, block, nowMs);
    return this.core.write(() => this.primary.setBlock(key, block, nowMs), { kind: 'block', key, block });
  }
}
