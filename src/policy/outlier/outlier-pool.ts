import type { BreakerOutcome } from '../../decide/breaker-verdict.js';
import {
  MIN_RATE_VOLUME, ejectionMs, ejectionsAfterService, mayEject, medianOfSorted, outlierReason, probeVerdict,
  type OutlierPolicy, type OutlierReason, type PeersRecord,
} from '../../decide/outlier-verdict.js';
import { targetEvent, type CallFacts, type TargetFacts } from '../../observe/event-refs.js';
import type { EventHub } from '../../observe/events.js';
import type { Logger } from '../../observe/logger.js';
import type { Clock } from '../../types.js';
import { MemberWindow } from './member-window.js';

/** The `code` of the skip of an ejected member (kind `circuit_open`: a sick member, back in a known time). */
export const OUTLIER_EJECTED = 'outlier_ejected';

/**
 * One pool step's outlier state, per process (not shared through the store): its members' windows
 * and ejections, how many are out now, and where their `outlier` events go. The decisions are
 * src/decide/outlier-verdict.ts's; this keeps the counts and the clock.
 */
export class OutlierPool {
  readonly members: OutlierMember[] = [];
  /** Members ejected now (their time may be up, their probe not yet answered). */
  ejected = 0;
  /** The peers' figures, filled for one member at a time (no object per verdict). */
  private readonly peersOf: { successRate: number | undefined; medianP50Ms: number | undefined } = { successRate: undefined, medianP50Ms: undefined };
  private p50s = new Float64Array(0);

  constructor(readonly id: string, readonly policy: OutlierPolicy, readonly clock: Clock, private readonly events: EventHub, private readonly logger: Logger) {}

  /** A new member; `probeLeaseMs` is how long its return probe holds the member for itself before another call may probe. */
  add(probeLeaseMs: number): OutlierMember {
    const member = new OutlierMember(this, probeLeaseMs);
    this.members.push(member);
    this.p50s = new Float64Array(this.members.length);
    return member;
  }

  /** What the members in service other than `member` show together (their windows; an ejected member's is empty). */
  peers(member: OutlierMember): PeersRecord {
    let outcomes = 0;
    let failures = 0;
    let n = 0;
    const p50s = this.p50s;
    for (const m of this.members) {
      if (m === member || m.isEjected) continue;
      outcomes += m.window.outcomes;
      failures += m.window.failures;
      const p50 = m.window.p50Ms;
      if (p50 === undefined) continue;
      let j = n++;
      while (j > 0 && p50s[j - 1]! > p50) {
        p50s[j] = p50s[j - 1]!;
        j--;
      }
      p50s[j] = p50;
    }
    this.peersOf.successRate = outcomes >= MIN_RATE_VOLUME ? (outcomes - failures) / outcomes : undefined;
    this.peersOf.medianP50Ms = n > 0 ? medianOfSorted(p50s, n) : undefined;
    return this.peersOf;
  }

  /** Reports an ejection or a return: the `outlier` event and a log line. */
  notify(member: OutlierMember, call: CallFacts, target: TargetFacts, action: 'eject' | 'return', reason?: OutlierReason, forMs?: number): void {
    const { provider, model } = target.target;
    if (action === 'eject') this.logger.warn({ pool: this.id, provider, model, reason, ejectedForMs: forMs, callId: call.id }, 'pool member ejected as an outlier');
    else this.logger.info({ pool: this.id, provider, model, callId: call.id }, 'ejected pool member returned');
    if (!this.events.has('outlier')) return;
    this.events.emit('outlier', targetEvent(call, target, {
      pool: this.id, action, reason, ejectedForMs: forMs, ejections: member.ejections, ejectedMembers: this.ejected,
    }));
  }
}

/**
 * One member's outlier state: in service, or ejected until a time; when that time is up, one call
 * at a time may send it a request (the probe), whose verdict returns it or ejects it again for
 * longer. Fed every sent attempt's verdict and latency (record-outcome; a committed stream at its end).
 */
export class OutlierMember {
  readonly window = new MemberWindow();
  /** Ejections counted towards the next one's length (forgiven one by one while it serves). */
  ejections = 0;
  private ejectedUntilMs = 0;
  private returnedAtMs = 0;
  private probeUntilMs = 0;
  private ejected = false;

  constructor(private readonly pool: OutlierPool, private readonly probeLeaseMs: number) {}

  get isEjected(): boolean {
    return this.ejected;
  }

  /**
   * Whether a call may send this member a request now: in service, yes; ejected, no until its time
   * is up, then yes to one call (the probe), whose request holds the member until it has a verdict
   * or for `probeLeaseMs` at most (a probe that was never sent frees it by then).
   */
  admits(nowMs: number): boolean {
    if (!this.ejected) return true;
    if (nowMs < this.ejectedUntilMs || nowMs < this.probeUntilMs) return false;
    this.probeUntilMs = nowMs + this.probeLeaseMs;
    return true;
  }

  /** Milliseconds until an ejected member may be probed (0 when it may now). */
  returnsInMs(nowMs: number): number {
    return Math.max(0, this.ejectedUntilMs - nowMs, this.probeUntilMs - nowMs);
  }

  /** One sent attempt's verdict (`neutral` for a 429, a caller's 4xx, an abort) and, for an answer, its latency. */
  record(outcome: BreakerOutcome, latencyMs: number | undefined, call: CallFacts, target: TargetFacts): void {
    const pool = this.pool;
    const now = pool.clock.now();
    if (this.ejected) {
      // A request sent before the ejection that ends within it says nothing new.
      if (now < this.ejectedUntilMs) return;
      const verdict = probeVerdict(outcome, latencyMs, pool.peers(this).medianP50Ms, pool.policy);
      if (verdict === undefined) {
        this.probeUntilMs = 0; // no verdict: the next call probes
      } else if (verdict === 'return') {
        this.ejected = false;
        this.returnedAtMs = now;
        pool.ejected--;
        this.take(outcome, latencyMs);
        pool.notify(this, call, target, 'return');
      } else {
        this.eject(now, verdict, call, target);
      }
      return;
    }
    this.take(outcome, latencyMs);
    if (outcome === 'neutral') return;
    const reason = outlierReason(this.window, pool.peers(this), pool.policy);
    if (reason === undefined || !mayEject(pool.ejected, pool.members.length, pool.policy.maxEjectedPercent)) return;
    this.ejections = ejectionsAfterService(this.ejections, now - this.returnedAtMs, pool.policy.ejectMs);
    pool.ejected++;
    this.ejected = true;
    this.eject(now, reason, call, target);
  }

  private take(outcome: BreakerOutcome, latencyMs: number | undefined): void {
    if (outcome !== 'neutral') this.window.outcome(outcome === 'success');
    if (latencyMs !== undefined && outcome !== 'failure') this.window.latency(latencyMs);
  }

  private eject(now: number, reason: OutlierReason, call: CallFacts, target: TargetFacts): void {
    this.ejections++;
    const forMs = ejectionMs(this.ejections, this.pool.policy.ejectMs);
    this.ejectedUntilMs = now + forMs;
    this.probeUntilMs = 0;
    this.window.clear();
    this.pool.notify(this, call, target, 'eject', reason, forMs);
  }
}
