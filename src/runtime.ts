import type { Capability } from './calls/capabilities.js';
import type { Clock } from './clock.js';
import type { ResolvedConfig } from './config/index.js';
import type { NextStepPolicy } from './decide/next-step.js';
import type { EventHub } from './observe/events.js';
import type { Logger } from './observe/logger.js';
import type { Admission } from './policy/admission.js';
import type { StallGuard } from './policy/stall-guard.js';
import type { TargetRuntime } from './policy/target-runtime.js';
import type { TenantRuntime } from './policy/tenants.js';
import type { BlockStore } from './store/block-store.js';
import type { Attempt } from './types.js';

/** What the policies share for the life of a router. */
export interface Runtime {
  config: ResolvedConfig;
  /** Every chain's targets, built once with the router. */
  chains: ReadonlyMap<string, readonly TargetRuntime[]>;
  admission: Admission;
  /** The state store's blocks role: cooling targets and parked providers. */
  store: BlockStore;
  clock: Clock;
  events: EventHub;
  logger: Logger;
  random: () => number;
  stallGuard: StallGuard;
  /** The decision table's settings (`retry` plus `quota.parkMs`), made once. */
  retryPolicy: NextStepPolicy;
  /** Hides every configured API key (and anything shaped like one) in a text. */
  redact: (text: string) => string;
  /** Fires when the router closes: waits and abortable attempts end at once (`aborted`). */
  closing: AbortSignal;
  /** Calls running now; `close()` waits for them. */
  active: ActiveCalls;
}

/** Counts the calls in flight, and tells `close()` when the last one ends. */
export class ActiveCalls {
  private count = 0;
  private idle: (() => void) | undefined;

  enter(): void {
    this.count++;
  }

  leave(): void {
    if (--this.count === 0 && this.idle) {
      this.idle();
      this.idle = undefined;
    }
  }

  /** Resolves once no call is in flight. */
  drained(): Promise<void> {
    if (this.count === 0) return Promise.resolve();
    return new Promise((resolve) => (this.idle = resolve));
  }
}

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
  signal?: AbortSignal;
  /** The caller's `timeoutMs`, for messages. */
  timeoutMs?: number;
  startedAtMs: number;
  /** Epoch ms after which the call must end (the caller's `timeoutMs`). */
  deadlineAtMs?: number;
  /** Every target tried or skipped, in order; returned on the result or the error. */
  attempts: Attempt[];
  /** What the request needs beyond plain text; a target lacking one is skipped (`unsupported`). */
  needs: readonly Capability[];
}
