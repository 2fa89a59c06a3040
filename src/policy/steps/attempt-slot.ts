import type { BreakerOutcome } from '../../decide/breaker-verdict.js';
import type { Call } from '../state/call.js';
import type { Price } from '../../spend/prices.js';
import type { TokenEstimate } from '../admission/budget.js';
import type { Lease, SettleOutcome } from '../admission/admission.js';
import type { BreakerPermit } from '../breaker/circuit-breaker.js';
import { addCallCost } from './call-cost.js';
import type { EndpointLoad, TargetRuntime } from '../state/target-runtime.js';

/**
 * Everything one attempt holds, in one owner: its room in the budgets (the lease), its count in
 * the endpoint's in-flight load (what a pool's headroom reads), and, once the breaker let it through,
 * its pass (the permit). `admit` opens it; `end` gives it all back, exactly once (a second `end` does
 * nothing). A chat attempt ends when its answer (or failure) is recorded; a stream that committed
 * keeps its slot, in flight, until its last chunk, its interruption or its consumer leaving.
 *
 * The breaker's verdict is a separate, earlier fact: a stream is judged at its commit point (a
 * success), while it goes on holding its slot. `judge` spends the permit once; a slot ended unjudged
 * (nothing was sent) hands its permit back as no verdict, so a half-open probe is never lost.
 */
export class AttemptSlot {
  private permit: BreakerPermit | undefined;
  private judged = false;
  private judgedAfterCommit = false;
  private ended = false;
  /** What this attempt took from its endpoint's local level (given back if it ends unsent). */
  private tookTokens: TokenEstimate | undefined;
  /** The target's price, when no spend budget settles the attempt: its usage is priced into the call's cost at `end`. */
  private price: Price | undefined;
  /** A committed stream's latency to its first token, held for its outlier verdict at its end (-1: none held). */
  private outlierLatencyMs = -1;

  constructor(private readonly lease: Lease, private readonly target: TargetRuntime, private readonly load: EndpointLoad, private readonly call: Call) {
    load.inflight++;
  }

  /** The lease's id (a spend hold is named after it). */
  get leaseId(): string {
    return this.lease.id;
  }

  /** Runs `fn` with the outcome when the lease settles (spend pricing and holds). */
  onSettle(fn: NonNullable<Lease['onSettle']>): void {
    this.lease.onSettle = fn;
  }

  /** Prices the answer's usage into the call's `costUsd` when the slot ends (a call under no spend budget). */
  priceAt(price: Price): void {
    this.price = price;
  }

  /** Whether `end` has run. */
  get isEnded(): boolean {
    return this.ended;
  }

  /** Takes the breaker's pass for this attempt (admit, once the budgets had room). */
  hold(permit: BreakerPermit): void {
    this.permit = permit;
  }

  /** Charges the endpoint's local pacing level (pool ordering) with this attempt, once the breaker let it through. */
  took(tokens: TokenEstimate, nowMs: number): void {
    if (!this.load.level) return;
    this.load.level.took(tokens, nowMs);
    this.tookTokens = tokens;
  }

  /**
   * Records the attempt's verdict into its breaker and the adaptive throttle, spending the permit:
   * the first verdict counts, later ones do nothing.
   */
  judge(outcome: BreakerOutcome, nowMs: number): void {
    if (this.judged || this.permit === undefined) return;
    this.judged = true;
    this.verdict(this.permit, outcome, nowMs);
  }

  /**
   * A committed stream that broke off after its commit point: its second verdict, through the same
   * judge, once. Its own pass was spent at the commit (a probe's success closed the breaker then), so
   * this one counts as a pass from a closed breaker's.
   */
  judgeAfterCommit(outcome: 'failure' | 'neutral', nowMs: number): void {
    if (this.judgedAfterCommit) return;
    this.judgedAfterCommit = true;
    this.verdict('closed', outcome, nowMs);
    this.settleOutlier(outcome);
  }

  /** A committed stream of a pool member with outlier ejection: its verdict there waits for the stream's end. */
  deferOutlier(latencyMs: number): void {
    this.outlierLatencyMs = latencyMs;
  }

  /**
   * The held outlier verdict, once: `success` for a stream that finished, `failure` for one cut off
   * (through `judgeAfterCommit`), `neutral` for one its consumer left (its first token's latency still counts).
   */
  settleOutlier(outcome: BreakerOutcome): void {
    if (this.outlierLatencyMs < 0) return;
    const latencyMs = this.outlierLatencyMs;
    this.outlierLatencyMs = -1;
    this.target.outlier?.record(outcome, latencyMs, this.call, this.target);
  }

  /** The one place a verdict enters the adaptive throttle and the breaker. */
  private verdict(permit: BreakerPermit, outcome: BreakerOutcome, nowMs: number): void {
    this.target.throttle.record(outcome !== 'failure', nowMs);
    this.target.breaker.record(permit, outcome, this.call);
  }

  /**
   * Gives everything back: the in-flight count, the lease (settled with `outcome`: `sent: false`
   * returns its requests and tokens, to the store and to the local level) and an unjudged permit
   * (as no verdict). Idempotent: only the
   * first call acts, so every path that may end an attempt can call it. Synchronous (undefined)
   * with the memory store.
   */
  end(outcome: SettleOutcome): Promise<void> | undefined {
    if (this.ended) return undefined;
    this.ended = true;
    this.load.inflight--;
    if (!outcome.sent && this.tookTokens) this.load.level?.gaveBack(this.tookTokens);
    if (!this.judged && this.permit !== undefined) {
      this.judged = true;
      this.target.breaker.record(this.permit, 'neutral', this.call);
    }
    if (this.price) addCallCost(this.call, this.price, outcome);
    return this.lease.settle(outcome);
  }
}
