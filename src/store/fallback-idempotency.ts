import { andThen, type MaybePromise } from './maybe-promise.js';
import type { FallbackCore } from './fallback-core.js';
import type { IdempotencyRead, IdempotencyState, IdempotencyStore } from './idempotency-store.js';

/** Past this many claims seen held elsewhere, the expired ones are dropped (tenants' keys are not bounded). */
const SWEEP_AT = 1024;

/**
 * The idempotency role behind the store's breaker: while the store is down claims are taken on
 * process-local state and written to the store once it is back, and an answer the store missed is
 * replayed from here meanwhile. A claim another process holds, once seen in the store, stays
 * pending here while the store is out of sight, until it would have expired.
 */
export class FallbackIdempotency implements IdempotencyStore {
  /** Claims the store said another call holds: key -> that request's fingerprint and the claim's latest end. */
  private readonly elsewhere = new Map<string, { fingerprint: string; untilMs: number }>();

  constructor(private readonly core: FallbackCore, private readonly primary: IdempotencyStore) {}

  claimIdempotency(key: string, fingerprint: string, pendingTtlMs: number, nowMs: number): MaybePromise<IdempotencyState> {
    const { core } = this;
    // An answer the store missed is replayed from here, whether the store is back or not.
    const known = core.local.readIdempotency(key, fingerprint, nowMs);
    if (known.state === 'done' || known.state === 'mismatch') return known;
    const remote = () => andThen(this.primary.claimIdempotency(key, fingerprint, pendingTtlMs, nowMs), (claim) => {
      // The other call's claim began at or before now, so it ends by now + pendingTtlMs at the latest.
      if (claim.state === 'pending' && known.state !== 'pending') this.seeElsewhere(key, fingerprint, nowMs + pendingTtlMs, nowMs);
      else this.elsewhere.delete(key);
      return claim;
    });
    return core.decide(remote, () => {
      const held = this.heldElsewhere(key, fingerprint, nowMs);
      if (held) return held;
      const claim = core.local.claimIdempotency(key, fingerprint, pendingTtlMs, nowMs);
      if (claim.state === 'claimed') core.outbox.add({ kind: 'claim', key, fingerprint, pendingTtlMs, atMs: nowMs });
      return claim;
    });
  }

  completeIdempotency(key: string, fingerprint: string, value: string, ttlMs: number, nowMs: number): MaybePromise<void> {
    const { core } = this;
    core.outbox.forgetClaim(key);
    this.elsewhere.delete(key);
    const keep = () => {
      core.local.completeIdempotency(key, fingerprint, value, ttlMs, nowMs);
      core.outbox.add({ kind: 'complete', key, fingerprint, value, ttlMs, atMs: nowMs });
    };
    if (!core.up) return keep();
    return core.health.bounded(() => this.primary.completeIdempotency(key, fingerprint, value, ttlMs, nowMs)).then(
      () => core.local.abandonIdempotency(key), // a claim this process took while the store was down
      (err: unknown) => {
        core.failed(err);
        keep();
      },
    );
  }

  abandonIdempotency(key: string): MaybePromise<void> {
    const { core } = this;
    core.local.abandonIdempotency(key);
    core.outbox.forgetClaim(key);
    this.elsewhere.delete(key);
    // While the store is down, a claim this process holds there blocks its key until its pendingTtlMs.
    if (!core.up) return;
    return core.write(() => this.primary.abandonIdempotency(key));
  }

  readIdempotency(key: string, fingerprint: string, nowMs: number): MaybePromise<IdempotencyRead> {
    const known = this.core.local.readIdempotency(key, fingerprint, nowMs);
    if (known.state === 'done' || known.state === 'mismatch') return known;
    const remote = () => andThen(this.primary.readIdempotency(key, fingerprint, nowMs), (read) => {
      if (read.state !== 'pending') this.elsewhere.delete(key);
      return read;
    });
    // While the store is down a claim held elsewhere is out of sight, not gone: still pending, so a
    // waiter does not run the key itself (its deadline and the claim's pendingTtlMs bound the wait).
    return this.core.decide(remote, () => (known.state === 'pending' ? known : this.heldElsewhere(key, fingerprint, nowMs) ?? known));
  }

  /** What a claim held elsewhere (seen while the store answered) makes of a key now: pending, a mismatch, or nothing. */
  private heldElsewhere(key: string, fingerprint: string, nowMs: number): IdempotencyState | undefined {
    const held = this.elsewhere.get(key);
    if (held === undefined) return undefined;
    if (held.untilMs <= nowMs) {
      this.elsewhere.delete(key);
      return undefined;
    }
    return held.fingerprint === fingerprint ? { state: 'pending' } : { state: 'mismatch' };
  }

  private seeElsewhere(key: string, fingerprint: string, untilMs: number, nowMs: number): void {
    this.elsewhere.set(key, { fingerprint, untilMs });
    if (this.elsewhere.size <= SWEEP_AT) return;
    for (const [k, held] of this.elsewhere) if (held.untilMs <= nowMs) this.elsewhere.delete(k);
  }
}
