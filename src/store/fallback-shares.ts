import type { FallbackCore } from './fallback-core.js';
import type { MaybePromise } from './maybe-promise.js';
import type { ShareStore, ShareSync, ShareView } from './share-store.js';

/**
 * The shares role behind the store's breaker. While the shared store is down, there is no fleet to
 * see: the view is empty and says so (`local: true`), and each process's fair queue divides only
 * its own callers by their shares (under either `onUnavailable`: a share is an ordering, never a
 * reason to fail a call). The counts a process admitted meanwhile are not sent later.
 */
export class FallbackShares implements ShareStore {
  constructor(private readonly core: FallbackCore, private readonly primary: ShareStore) {}

  syncShares(sync: ShareSync, nowMs: number): MaybePromise<ShareView> {
    const local = (): ShareView => ({ served: {}, waiting: [], local: true });
    if (!this.core.up) return local();
    return this.core.health.bounded(() => this.primary.syncShares(sync, nowMs)).catch((err: unknown) => {
      this.core.failed(err);
      return local();
    });
  }
}
