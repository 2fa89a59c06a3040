import type { AbortSignalLike } from '../../providers/types.js';
import type { Clock } from '../types.js';
import type { ResolvedConfig } from '../config/index.js';
import type { NextStepPolicy } from '../decide/next-step.js';
import type { EventHub } from '../observe/events.js';
import type { Logger } from '../observe/logger.js';
import type { Admission } from '../policy/admission.js';
import type { Spend } from '../policy/spend-budgets.js';
import type { StallGuard } from '../policy/stall-guard.js';
import type { TargetRuntime } from '../policy/target-runtime.js';
import type { Hedging } from '../policy/hedge-book.js';
import type { BlockStore } from '../store/block-store.js';

/** What the policies share for the life of a router. */
export interface Runtime {
  config: ResolvedConfig;
  /** Every chain's targets, built once with the router. */
  chains: ReadonlyMap<string, readonly TargetRuntime[]>;
  admission: Admission;
  /** Prices, `costUsd`, and the tenants' and gateway keys' USD budgets. */
  spend: Spend;
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
  /** Aborted when the router closes (an AbortLink: every attempt listens, and no AbortSignal is made for it). */
  closing: AbortSignalLike;
  /** Calls running now; `close()` waits for them. */
  active: ActiveCalls;
  /** The hedged chains' budgets and latency samples. */
  hedging: Hedging;
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
