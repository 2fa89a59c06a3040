import type { MaybePromise } from '../maybe-promise.js';
import type { FallbackCore } from './fallback-core.js';
import type { IdempotencyRead, IdempotencyState, IdempotencyStore } from './idempotency-store.js';

/**
 * The idempotency role behind the store's breaker: while the store is down claims are taken on
 * process-local state and written to the store once it is back, and an answer the store missed is
 * replayed from here meanwhile.
 */
export class FallbackIdempotency implements IdempotencyStore {
  constructor(private readonly core: FallbackCore, private readonly primary: IdempotencyStore) {}

  claimIdempotency(key: string, fingerprint: string, pendingTtlMs: number, nowMs: number): MaybePromise<IdempotencyState> {
    const { core } = this;
    // An answer the store missed is replayed from here, whether the store is back or not.
    const known = core.local.readIdempotency(key, fingerprint, nowMs);
    if (known.state === 'done' || known.state === 'mismatch') return known;
    return core.decide(() => this.primary.claimIdempotency(key, fingerprint, pendingTtlMs, nowMs), () => {
      const claim = core.local.claimIdempotency(key, fingerprint, pendingTtlMs, nowMs);
      if (claim.state === 'claimed') core.outbox.add({ kind: 'claim', key, fingerprint, pendingTtlMs, atMs: nowMs });
      return claim;
    });
  }

  completeIdempotency(key: string, fingerprint: string, value: string, ttlMs: number, nowMs: number): MaybePromise<void> {
    const { core } = this;
    core.outbox.forgetClaim(key);
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
    // While the store is down, a claim this process holds there blocks its key until its pendingTtlMs.
    if (!core.up) return;
    return core.write(() => this.primary.abandonIdempotency(key));
  }

  readIdempotency(key: string, fingerprint: string, nowMs: number): MaybePromise<IdempotencyRead> {
    const known = this.core.local.readIdempotency(key, fingerprint, nowMs);
    if (known.state === 'done' || known.state === 'mismatch') return known;
    // Only a caller waiting for another process's claim reads: while the store is down that claim is
    // out of sight, not gone, so it still counts as pending (the waiter's deadline and pendingTtlMs bound it).
    return this.core.decide(() => this.primary.readIdempotency(key, fingerprint, nowMs), () => (known.state === 'missing' ? { state: 'pending' as const } : known));
  }
}
