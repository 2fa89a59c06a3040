import type { MaybePromise } from './maybe-promise.js';

/** Why a target or provider is out of rotation, and until when (epoch ms). */
export interface Block {
  reason: 'cooling' | 'parked';
  untilMs: number;
  /** What caused it (for logs and `attempts`): e.g. `rate_limited`, `insufficient_quota`. */
  cause?: string;
}

/**
 * The blocks role, played by every store: targets cooling after a rate limit and providers parked
 * after a quota or billing error, so every process sharing the store skips them. The gate reads
 * them before each attempt; the decision after a failure writes them.
 */
export interface BlockStore {
  /** The active block for `key`, if any (expired blocks are never returned). */
  getBlock(key: string, nowMs: number): MaybePromise<Block | undefined>;
  /** Blocks `key` until `block.untilMs`; an existing block that lasts longer is kept. */
  setBlock(key: string, block: Block, nowMs: number): MaybePromise<void>;
}
