import type { AbortSignalLike } from '../../providers/types.js';
import type { Clock } from '../types.js';
import type { ResolvedConfig } from '../config/index.js';
import type { NextStepPolicy } from '../decide/next-step.js';
import type { EventHub } from '../observe/events.js';
import type { Logger } from '../observe/logger.js';
import type { EmbedDeps } from '../calls/embed.js';
import type { ObserveDeps } from '../calls/call-event.js';
import type { ActiveCalls } from '../policy/state/active-calls.js';
import type { Admission } from '../policy/admission/admission.js';
import type { HedgeDeps } from '../policy/chain/hedge.js';
import type { Spend } from '../policy/spend/spend-budgets.js';
import type { StallGuard } from '../policy/abort/stall-guard.js';
import type { TargetRuntime } from '../policy/state/target-runtime.js';
import type { Hedging } from '../policy/chain/hedge-book.js';
import type { BlockStore } from '../store/block-store.js';

/**
 * What a router holds for its life, built once by createRouter: the one object handed to every call
 * kind and step. None of them imports this type: each names its own dependencies (`GateDeps`,
 * `AdmitDeps`, ... `TargetDeps`, `ChainDeps`, `HedgeDeps`, `EmbedDeps`, `ObserveDeps`), which this
 * object satisfies, so imports run down the floors (docs/architecture.md) and never back up to it.
 */
export interface Runtime extends HedgeDeps, EmbedDeps, ObserveDeps {
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
  /** Aborted when the router closes (an AbortLink: every attempt listens, and no AbortSignal is made for it). */
  closing: AbortSignalLike;
  /** Calls running now; `close()` waits for them. */
  active: ActiveCalls;
  /** The hedged chains' budgets and latency samples. */
  hedging: Hedging;
}
