import type { AbortSignalLike } from '../../../providers/types.js';
import { callerAbortOf, realSignal } from '../abort/abort-link.js';
import { createHash } from 'node:crypto';
import type { Clock } from '../../types.js';
import { RouterError } from '../../errors.js';
import { toJSONSchema } from '../../convert/schema-input.js';
import { restoredResult, storedResult } from '../../pass-through/seam.js';
import type { IdempotencyState, IdempotencyStore } from '../../store/idempotency-store.js';
import type { ChatRequest, ChatResult } from '../../types.js';
import { waitWithin } from '../../time/wait-within.js';
import { DEFAULT_TENANT } from '../state/tenants.js';

const POLL_MS = 25;

/** A stored result says it was replayed; the one call that ran it does not. */
export type Replayable = ChatResult & { replayed?: boolean };

/** What makes two calls "the same request" (everything that shapes the answer): a key reused for a different one is refused. */
export function fingerprint(request: ChatRequest, chain: string): string {
  const { messages, maxTokens, temperature, tools, toolChoice, parallelToolCalls, responseFormat, stop, topP, seed, user, reasoning, providerOptions } = request;
  const format = responseFormat?.type === 'json_schema' ? Object.assign({}, responseFormat, { schema: toJSONSchema(responseFormat.schema) }) : responseFormat;
  const shaped = [chain, messages, maxTokens ?? null, temperature ?? null, tools?.map((t) => (Object.assign({}, t, { parameters: toJSONSchema(t.parameters) }))) ?? null,
    toolChoice ?? null, parallelToolCalls ?? null, format ?? null, stop ?? null, topP ?? null, seed ?? null, user ?? null, reasoning ?? null, providerOptions ?? null];
  return createHash('sha256').update(JSON.stringify(shaped)).digest('base64url');
}

/**
 * The store key of an idempotency key, scoped by tenant. The tenant is length-prefixed, so no
 * tenant and key can spell another pair's scope (`a` + `b:c` is `1:a:b:c`, `a:b` + `c` is `3:a:b:c`).
 */
export function scopedKey(tenant: string | undefined, key: string): string {
  const name = tenant ?? DEFAULT_TENANT;
  return `idem:${name.length}:${name}:${key}`;
}

/** How a call waiting on another's claim ends on its own terms: its own signal and deadline. */
interface Terms {
  signal?: AbortSignalLike;
  deadlineAtMs: number;
  timeoutMs?: number;
}

/** How a leader in this process ended, as its followers learn it (after its record was written or dropped). */
type Outcome = { ok: true; value: ChatResult } | { ok: false };

interface Flight {
  fingerprint: string;
  done: Promise<Outcome>;
}

/**
 * Idempotency keys: concurrent calls with one key share one upstream request (in this process, one
 * leader the others follow; across processes, one claim in the store that the others poll), and a
 * finished result is replayed with `replayed: true` for `ttlMs`. A follower keeps its own signal and
 * deadline, and never inherits the leader's failure: when the leader gives up (aborted, timed out,
 * failed), its claim is dropped and a follower claims the key and runs it itself. Failures are not stored.
 */
export class Idempotency {
  private readonly inflight = new Map<string, Flight>();
  private readonly claiming = new Map<string, Promise<void>>();

  /** `store`: the state store's idempotency role; undefined when it plays none (a call with a key then fails as `config`). */
  constructor(private readonly store: IdempotencyStore | undefined, private readonly clock: Clock, private readonly ttlMs: number, private readonly pendingTtlMs: number) {}

  run(key: string, request: ChatRequest, chain: string, execute: () => Promise<ChatResult>): Promise<Replayable> {
    if (!this.store) return Promise.reject(new RouterError('config', 'idempotencyKey needs a state store that keeps idempotency records: options.store has no claimIdempotency, completeIdempotency, abandonIdempotency, readIdempotency'));
    return this.runOn(this.store, key, request, chain, execute);
  }

  private async runOn(store: IdempotencyStore, key: string, request: ChatRequest, chain: string, execute: () => Promise<ChatResult>): Promise<Replayable> {
    const print = fingerprint(request, chain);
    const storeKey = scopedKey(request.tenant, key);
    const terms: Terms = { signal: callerAbortOf(request), timeoutMs: request.timeoutMs, deadlineAtMs: request.timeoutMs === undefined ? Infinity : this.clock.now() + request.timeoutMs };
    for (;;) {
      const flight = this.inflight.get(storeKey);
      if (flight) {
        if (flight.fingerprint !== print) throw mismatch(key);
        const outcome = await this.follow(flight, terms);
        if (outcome.ok) return Object.assign({}, outcome.value, { replayed: true });
        continue; // the leader gave up: take the key over
      }
      // Another call here is asking the store for this key right now: wait for its answer, then follow
      // it as a leader (or read its record), instead of polling the store as if it ran elsewhere.
      const asking = this.claiming.get(storeKey);
      if (asking) {
        await asking;
        continue;
      }
      this.checkTerms(terms);
      let asked!: () => void;
      this.claiming.set(storeKey, new Promise<void>((resolve) => (asked = resolve)));
      let claim: IdempotencyState;
      try {
        claim = await store.claimIdempotency(storeKey, print, this.pendingTtlMs, this.clock.now());
      } finally {
        this.claiming.delete(storeKey);
        asked();
      }
      if (claim.state === 'mismatch') throw mismatch(key);
      if (claim.state === 'done') return Object.assign(restoredResult(claim.value), { replayed: true });
      if (claim.state === 'claimed') return this.lead(store, storeKey, print, execute);
      const settled = await this.awaitOther(store, storeKey, key, print, terms);
      if (settled) return settled;
      // The other caller gave up (its claim was dropped or outlived pendingTtlMs), or a leader started here: go round.
    }
  }

  private async lead(store: IdempotencyStore, storeKey: string, print: string, execute: () => Promise<ChatResult>): Promise<ChatResult> {
    let finish!: (outcome: Outcome) => void;
    this.inflight.set(storeKey, { fingerprint: print, done: new Promise<Outcome>((resolve) => (finish = resolve)) });
    let outcome: Outcome = { ok: false };
    try {
      const value = await execute();
      outcome = { ok: true, value };
      // An answer the provider gave is never reported as a failure: a store that cannot record it
      // keeps it locally and writes it later (FallbackStore), or it is lost to replays, not to this caller.
      await Promise.resolve(store.completeIdempotency(storeKey, print, storedResult(value), this.ttlMs, this.clock.now())).catch(() => {});
      return value;
    } catch (err) {
      await Promise.resolve(store.abandonIdempotency(storeKey)).catch(() => {});
      throw err;
    } finally {
      this.inflight.delete(storeKey);
      finish(outcome);
    }
  }

  /** Waits for a leader in this process, within the follower's own signal and deadline. */
  private follow(flight: Flight, terms: Terms): Promise<Outcome> {
    return waitWithin(flight.done, {
      clock: this.clock, signal: terms.signal,
      inMs: terms.deadlineAtMs === Infinity ? Infinity : terms.deadlineAtMs - this.clock.now(),
      aborted,
      timedOut: () => timedOut(terms),
    });
  }


  /** Polls for the result of a call another process is running; undefined when it gave up or a leader started here. */
  private async awaitOther(store: IdempotencyStore, storeKey: string, key: string, print: string, terms: Terms): Promise<Replayable | undefined> {
    const since = this.clock.now();
    for (;;) {
      const now = this.clock.now();
      this.checkTerms(terms, now);
      try {
        await this.clock.sleep(Math.min(POLL_MS, terms.deadlineAtMs - now), realSignal(terms.signal));
      } catch (err) {
        throw aborted(err);
      }
      this.checkTerms(terms);
      // A call here lost the race to claim the key to a leader in this same process: follow it.
      if (this.inflight.has(storeKey)) return undefined;
      const state = await store.readIdempotency(storeKey, print, this.clock.now());
      if (state.state === 'done') return Object.assign(restoredResult(state.value), { replayed: true });
      if (state.state === 'missing') return undefined;
      if (state.state === 'mismatch') throw mismatch(key);
      // A claim that outlived its own lifetime belongs to a caller that died, or to a store out of reach.
      if (this.clock.now() - since >= this.pendingTtlMs) return undefined;
    }
  }

  private checkTerms(terms: Terms, now = this.clock.now()): void {
    if (terms.signal?.aborted) throw aborted(terms.signal.reason);
    if (now >= terms.deadlineAtMs) throw timedOut(terms);
  }
}

function mismatch(key: string): RouterError {
  return new RouterError('invalid_request', `idempotencyKey "${key}" was already used for a different request`);
}

function aborted(reason: unknown): RouterError {
  return new RouterError('aborted', 'call aborted while waiting for another call with the same idempotency key', { cause: reason });
}

function timedOut(terms: Terms): RouterError {
  return new RouterError('timeout', `call deadline of ${terms.timeoutMs} ms passed while waiting for another call with the same idempotency key`);
}
