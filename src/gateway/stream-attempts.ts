import { AsyncLocalStorage } from 'node:async_hooks';
import type { Router } from '../router.js';

/** A count of the attempts one call has made so far, and the provider's id of the one that answered. */
export interface AttemptCount {
  n: number;
  /** The upstream request id of the attempt that answered (the stream opened), when the provider sent one. */
  requestId?: string;
}

/**
 * Counts a stream's attempts before its first token, for the `x-switchyard-attempts` header (and
 * keeps the answering attempt's upstream request id, for `x-switchyard-upstream-request-id`), which
 * must be sent before the body starts: the router's `start` event names the target but not the
 * attempts, and `attempt` events name a call id the gateway never learns. The router emits
 * `attempt` synchronously inside the call, so the call's async context tells whose it is. Listening
 * starts with the first stream, so JSON-only traffic never pays for the context.
 */
export class StreamAttempts {
  private readonly als = new AsyncLocalStorage<AttemptCount>();
  private off: (() => void) | undefined;

  constructor(private readonly router: Router) {}

  /** Runs `fn` (the first step of a stream) with `count` counting every attempt the call makes meanwhile. */
  run<T>(count: AttemptCount, fn: () => T): T {
    this.off ??= this.router.on('attempt', (attempt) => {
      const store = this.als.getStore();
      if (!store) return;
      store.n++;
      if (attempt.ok && attempt.requestId) store.requestId = attempt.requestId;
    });
    return this.als.run(count, fn);
  }

  stop(): void {
    this.off?.();
    this.off = undefined;
  }
}
