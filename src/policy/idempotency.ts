import { createHash } from 'node:crypto';
import type { Clock } from '../clock.js';
import { RouterError } from '../errors.js';
import type { StateStore } from '../store/state-store.js';
import type { ChatRequest, ChatResult } from '../types.js';

const POLL_MS = 25;

/** A stored result says it was replayed; the one call that ran it does not. */
export type Replayable = ChatResult & { replayed?: boolean };

/** What makes two calls "the same request": a key reused for a different one is refused. */
export function fingerprint(request: ChatRequest, chain: string): string {
  const { messages, maxTokens, temperature } = request;
  return createHash('sha256').update(JSON.stringify([chain, messages, maxTokens ?? null, temperature ?? null])).digest('base64url');
}

/**
 * Idempotency keys: concurrent calls with one key share one upstream request (in this process, one
 * promise; across processes, one claim in the store that the others poll), and a finished result is
 * replayed with `replayed: true` for `ttlMs`. Failures are not stored: the next call runs again.
 */
export class Idempotency {
  private readonly inflight = new Map<string, { fingerprint: string; result: Promise<ChatResult> }>();

  constructor(private readonly store: StateStore, private readonly clock: Clock, private readonly ttlMs: number, private readonly pendingTtlMs: number) {}

  async run(key: string, request: ChatRequest, chain: string, execute: () => Promise<ChatResult>): Promise<Replayable> {
    const print = fingerprint(request, chain);
    const storeKey = `idem:${request.tenant ?? ''}:${key}`;
    const local = this.inflight.get(storeKey);
    if (local) {
      if (local.fingerprint !== print) throw mismatch(key);
      return { ...(await local.result), replayed: true };
    }
    for (;;) {
      const claim = await this.store.claimIdempotency(storeKey, print, this.pendingTtlMs, this.clock.now());
      if (claim.state === 'mismatch') throw mismatch(key);
      if (claim.state === 'done') return { ...(JSON.parse(claim.value) as ChatResult), replayed: true };
      if (claim.state === 'claimed') return this.lead(storeKey, print, execute);
      const settled = await this.awaitOther(storeKey, print, request);
      if (settled) return settled;
      // The other caller failed (its claim was dropped): claim the key and run it ourselves.
    }
  }

  private async lead(storeKey: string, print: string, execute: () => Promise<ChatResult>): Promise<ChatResult> {
    const result = execute();
    this.inflight.set(storeKey, { fingerprint: print, result });
    try {
      const value = await result;
      await this.store.completeIdempotency(storeKey, print, JSON.stringify(value), this.ttlMs, this.clock.now());
      return value;
    } catch (err) {
      await this.store.abandonIdempotency(storeKey);
      throw err;
    } finally {
      this.inflight.delete(storeKey);
    }
  }

  /** Polls for the result of a call another process is running; undefined when it gave up. */
  private async awaitOther(storeKey: string, print: string, request: ChatRequest): Promise<Replayable | undefined> {
    const deadline = request.timeoutMs === undefined ? Infinity : this.clock.now() + request.timeoutMs;
    for (;;) {
      if (this.clock.now() >= deadline) throw new RouterError('timeout', 'call deadline passed waiting for the same idempotency key');
      try {
        await this.clock.sleep(POLL_MS, request.signal);
      } catch (err) {
        throw new RouterError('aborted', 'call aborted while waiting for the same idempotency key', { cause: err });
      }
      const state = await this.store.readIdempotency(storeKey, print, this.clock.now());
      if (state.state === 'done') return { ...(JSON.parse(state.value) as ChatResult), replayed: true };
      if (state.state === 'missing') return undefined;
      if (state.state === 'mismatch') throw mismatch(storeKey);
    }
  }
}

function mismatch(key: string): RouterError {
  return new RouterError('invalid_request', `idempotencyKey "${key}" was already used for a different request`);
}
