import { callerAbortOf } from '../policy/abort/abort-link.js';
import { createHash } from 'node:crypto';
import type { Clock } from '../types.js';
import { isRouterError, RouterError } from '../errors.js';
import type { Logger } from '../observe/logger.js';
import { fingerprint } from '../policy/idempotency/idempotency.js';
import { DEFAULT_TENANT } from '../policy/state/tenants.js';
import type { ChatRequest, ChatResult } from '../types.js';
import { waitWithin } from '../time/wait-within.js';
import type { CacheBackend } from './cache-backend.js';
import { restoredResult, storedResult } from '../pass-through/seam.js';

/** Only complete answers are worth replaying: one cut at a limit or filtered is not the answer. */
const COMPLETE = new Set(['stop', 'tool_calls']);

/** How the call a follower waits on ended: its answer, or its error. */
type Led = { ok: true; result: ChatResult } | { ok: false; error: unknown };

/** A leader that gave up on its own terms (its caller aborted, its deadline passed) says nothing of the answer. */
const gaveUp = (err: unknown): boolean => isRouterError(err) && (err.kind === 'aborted' || err.kind === 'timeout');

/**
 * The response cache: an exact match on everything that shapes the answer (chain, messages, tools,
 * responseFormat, sampling parameters) and the tenant. A hit sends nothing and takes no budget;
 * concurrent identical misses in this process share one request: the followers wait for the
 * leader's answer within their own signal and deadline, share its failure, but run the request
 * themselves when the leader gave up on its own terms (aborted, timed out). Only complete answers
 * are stored, for `ttlMs`. A backend failure is logged and the call goes on without the cache.
 */
export class ResponseCache {
  private readonly inflight = new Map<string, Promise<ChatResult>>();

  constructor(private readonly backend: CacheBackend, private readonly ttlMs: number, private readonly clock: Clock, private readonly logger: Logger) {}

  /** The cache key of a call: the request's fingerprint and its tenant, hashed. */
  keyOf(request: ChatRequest, chain: string): string {
    const tenant = request.tenant ?? DEFAULT_TENANT;
    return `cache:${createHash('sha256').update(`${tenant.length}:${tenant}:${fingerprint(request, chain)}`).digest('base64url')}`;
  }

  /** A stored answer for the key, marked `cached`, or undefined. */
  async lookup(key: string, startedAtMs: number): Promise<ChatResult | undefined> {
    let raw: string | undefined;
    try {
      raw = await this.backend.get(key, this.clock.now());
    } catch (err) {
      this.logger.warn({ err: String(err) }, 'response cache unavailable: reading skipped');
      return undefined;
    }
    if (raw === undefined) return undefined;
    const stored = restoredResult(raw);
    return this.served(stored, startedAtMs);
  }

  /** An answer served without a request of this call's own: no attempts, no cost, its own latency, cached. */
  private served(answer: ChatResult, startedAtMs: number): ChatResult {
    const { costUsd: _paidBefore, ...rest } = answer;
    return Object.assign({}, rest, { attempts: [], latencyMs: this.clock.now() - startedAtMs, cached: true });
  }

  /** Stores a complete answer (its attempts are this call's, not the replay's). */
  async store(key: string, result: ChatResult): Promise<void> {
    if (!COMPLETE.has(result.finishReason)) return;
    const { attempts: _attempts, latencyMs: _latency, replayed: _replayed, cached: _cached, timeToFirstTokenMs: _ttft, ...answer } = result;
    try {
      await this.backend.set(key, storedResult(answer), this.ttlMs, this.clock.now());
    } catch (err) {
      this.logger.warn({ err: String(err) }, 'response cache unavailable: answer not stored');
    }
  }

  /** A chat through the cache: a hit, a share of an identical call in flight, or `fetch` (stored when complete). */
  async chat(request: ChatRequest, chain: string, startedAtMs: number, fetch: () => Promise<ChatResult>): Promise<ChatResult> {
    const key = this.keyOf(request, chain);
    const hit = await this.lookup(key, startedAtMs);
    if (hit) return hit;
    for (let shared = this.inflight.get(key); shared; shared = this.inflight.get(key)) {
      const led = await this.follow(shared, request, startedAtMs);
      if (led.ok) return this.served(led.result, startedAtMs);
      if (!gaveUp(led.error)) throw led.error;
      // The leader's caller gave up, not the provider: this call runs (or follows) the request anew.
    }
    return this.lead(key, fetch);
  }

  /** Sends the request for every identical call that comes while it runs; stores a complete answer. */
  private async lead(key: string, fetch: () => Promise<ChatResult>): Promise<ChatResult> {
    const pending = fetch();
    this.inflight.set(key, pending);
    try {
      const result = await pending;
      await this.store(key, result);
      return result;
    } finally {
      this.inflight.delete(key);
    }
  }

  /** Waits for the leader, within the follower's own signal and deadline (`timeoutMs` from its start). */
  private follow(shared: Promise<ChatResult>, request: ChatRequest, startedAtMs: number): Promise<Led> {
    const { timeoutMs } = request;
    const signal = callerAbortOf(request);
    const led = shared.then((result): Led => ({ ok: true, result }), (error: unknown): Led => ({ ok: false, error }));
    return waitWithin(led, {
      clock: this.clock, signal,
      inMs: timeoutMs === undefined ? Infinity : startedAtMs + timeoutMs - this.clock.now(),
      aborted: followerAborted,
      timedOut: () => followerTimedOut(timeoutMs!),
    });
  }

  async close(): Promise<void> {
    await this.backend.close?.();
  }
}

function followerAborted(reason: unknown): RouterError {
  return new RouterError('aborted', 'call aborted by the caller while it waited for an identical call in flight', { cause: reason });
}

function followerTimedOut(timeoutMs: number): RouterError {
  return new RouterError('timeout', `call deadline of ${timeoutMs} ms passed while it waited for an identical call in flight`);
}
