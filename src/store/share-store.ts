import type { MaybePromise } from './maybe-promise.js';

/**
 * Fleet-wide fair shares (the `shares` role, src/policy/admission/fleet-shares.ts): how many attempts each
 * tenant was admitted to one target budget across every process in a rolling window, and which
 * tenants some process has waiting for it. A process syncs what it admitted since its last sync and
 * who waits in it, and gets the fleet's view back, in one operation.
 */
export interface ShareSync {
  /** The target budget's key. */
  budget: string;
  /** This process (its waiting tenants are its own entries, refreshed or left to expire). */
  process: string;
  /** Attempts admitted per tenant since the last sync. */
  served: Readonly<Record<string, number>>;
  /** Tenants with calls waiting in this process's queue for the budget. */
  waiting: readonly string[];
  /** The rolling window served counts are summed over. */
  windowMs: number;
  /** The window's buckets are this long (a count falls out of the window a bucket at a time). */
  bucketMs: number;
  /** A process's waiting entry counts this long after its last sync. */
  waitingTtlMs: number;
}

/** The fleet's view of one budget. */
export interface ShareView {
  /** Attempts admitted per tenant in the window, by every process (this one's synced ones included). */
  served: Record<string, number>;
  /** Tenants some process has waiting. */
  waiting: string[];
  /** Set when the shared store did not answer: the view is empty, and shares hold per process. */
  local?: true;
}

export interface ShareStore {
  syncShares(sync: ShareSync, nowMs: number): MaybePromise<ShareView>;
}
