/** Why a target or provider is out of rotation, and until when (epoch ms). */
export interface Block {
  reason: 'cooling' | 'parked';
  untilMs: number;
  /** What caused it (for logs and `attempts`): e.g. `rate_limited`, `insufficient_quota`. */
  cause?: string;
}

type MaybePromise<T> = T | Promise<T>;

/**
 * Router state that must be shared by every process using the same providers: which targets are
 * cooling after a rate limit and which providers are parked after a quota error. The memory store
 * answers synchronously; a networked store returns promises.
 */
export interface StateStore {
  /** The active block for `key`, if any (expired blocks are never returned). */
  getBlock(key: string, nowMs: number): MaybePromise<Block | undefined>;
  /** Blocks `key` until `block.untilMs`; an existing block that lasts longer is kept. */
  setBlock(key: string, block: Block, nowMs: number): MaybePromise<void>;
  close(): MaybePromise<void>;
}
