import type { AbortSignalLike } from '../../../providers/types.js';
import type { Capability } from './capabilities.js';
import type { TargetRuntime } from './target-runtime.js';
import type { TenantRuntime } from './tenants.js';
import type { Attempt } from '../../types.js';

// On the policies' floor, beside the target's runtime it names: admission, the slots and the steps
// read a call, and the router's Runtime (src/runtime/, above the call kinds) only composes them.

/** One call to `chat`, `stream` or `embed`, from validation to result. */
export interface Call<R = unknown> {
  /** Unique per call within this process; every event of the call carries it. */
  id: string;
  operation: 'chat' | 'stream' | 'embed';
  chain: string;
  targets: readonly TargetRuntime[];
  /** The caller's request, as given. */
  request: R;
  tenant: TenantRuntime;
  /** The caller's abort: its `signal`, or the gateway's link (src/policy/abort/abort-link.ts). */
  signal?: AbortSignalLike;
  /** The caller's `timeoutMs`, for messages. */
  timeoutMs?: number;
  startedAtMs: number;
  /** Epoch ms after which the call must end (the caller's `timeoutMs`). */
  deadlineAtMs?: number;
  /** Every target tried or skipped, in order; returned on the result or the error. */
  attempts: Attempt[];
  /** What the request needs beyond plain text; a target lacking one is skipped (`unsupported`). */
  needs: readonly Capability[];
  /**
   * USD the call's answered attempts cost at their targets' prices (`usd` undefined: none priced).
   * An object, so an embed call's batches (copies of the call) add to one total.
   */
  cost: { usd?: number };
  /** The gateway key the call came with (its id), whose own spend budget applies. */
  gatewayKey?: string;
  /** The rest of the chain, started as a hedge (src/policy/chain/hedge.ts): its attempts say so. */
  hedge?: boolean;
}
