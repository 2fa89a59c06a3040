import type { AbortSignalLike } from '../../providers/types.js';
import type { Capability } from '../calls/capabilities.js';
import type { TargetRuntime } from '../policy/target-runtime.js';
import type { TenantRuntime } from '../policy/tenants.js';
import type { Attempt } from '../types.js';

// Apart from the router's Runtime: admission and the call kinds name a call, and the Runtime names
// admission, so one file holding both made a circle of imports.

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
  /** The caller's abort: its `signal`, or the gateway's link (src/policy/abort-link.ts). */
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
  /** The rest of the chain, started as a hedge (src/policy/hedge.ts): its attempts say so. */
  hedge?: boolean;
}
