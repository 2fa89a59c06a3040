import { DEFAULTS } from '../config/defaults.js';
import type { RateLimitSnapshot } from '../types.js';
import { BREAKER_RECORD_TTL_MS, type BreakerStateStore, type SharedBreakerState } from './breaker-state.js';
import { ACQUIRE, RELEASE } from './redis-budget-scripts.js';
import { SETTLE } from './redis-settle-script.js';
import { connectionLost, describeClient, openRedisClient, parseRedisUrl, storeError, type RedisEndpoint } from './redis-connection.js';
import { CLOSE_BREAKER, OPEN_BREAKER, READ_BREAKER, TAKE_PROBE } from './redis-breaker-scripts.js';
import { CLAIM, COMPLETE, SET_BLOCK } from './redis-record-scripts.js';
import { runScript, type LuaScript, type RedisClient } from './redis-script.js';
import { RESERVE_SPEND, SETTLE_SPEND } from './redis-spend-scripts.js';
import { SPEND_RECORD_KEEP_MS } from './memory-spend.js';
import { SYNC_SHARES } from './redis-share-scripts.js';
import type { ShareStore, ShareSync, ShareView } from './share-store.js';
import type { SpendAlert, SpendGrant, SpendReservation, SpendRow, SpendSettlement, SpendStore, SpendWindowLimit } from './spend-store.js';
import type { Block } from './block-store.js';
import type { BudgetGrant, BudgetRequest, BudgetSettlement } from './budget-store.js';
import type { CacheStore } from './cache-store.js';
import type { ConversationStore } from './conversation-store.js';
import type { IdempotencyRead, IdempotencyState, IdempotencyStore } from './idempotency-store.js';
import type { ConnectionListener, StateStore } from './state-store.js';

/** Options for `redisStore`; all optional. */
export interface RedisStoreOptions {
  /**
   * Prepended to every key, so several apps can share one Redis (routers meant to share budgets must
   * use the same prefix). Avoid braces: they would change which keys share a cluster slot.
   * @default 'switchyard:'
   */
  keyPrefix?: string;
  /** How long connecting, or one command, may take before it fails as `transport` (own client only). @default 5000 */
  timeoutMs?: number;
}

const GRANTED: BudgetGrant = Object.freeze({ ok: true });

const opt = (n: number | undefined): number | '' => (n === undefined ? '' : n);

/** remaining, resetMs, limit of requests, tokens, input and output tokens ('' where not reported). */
function reportArgs(snapshot: RateLimitSnapshot | undefined): Array<number | ''> {
  const out: Array<number | ''> = [];
  for (const w of [snapshot?.requests, snapshot?.tokens, snapshot?.inputTokens, snapshot?.outputTokens]) {
    const usable = w?.remaining !== undefined && w.resetMs !== undefined;
    out.push(usable ? w!.remaining! : '', usable ? w!.resetMs! : '', usable ? opt(w!.limit) : '');
  }
  return out;
}

/**
 * Router state in Redis, shared by every process that points at the same server and key prefix.
 * Each budget operation is one Lua script, so concurrent processes never exceed a budget together;
 * every read compares the caller's `nowMs` (never Redis's clock), and every key expires once idle.
 * Behaves exactly like `MemoryStore` (both pass test/store/contracts/), and plays every role,
 * the cache included.
 */
export class RedisStore implements StateStore, IdempotencyStore, CacheStore, BreakerStateStore, ConversationStore, SpendStore, ShareStore {
  readonly shared = true;
  private readonly client: RedisClient;
  private readonly endpoint: RedisEndpoint;
  private readonly ownsClient: boolean;
  private readonly connectionError: () => Error | undefined;
  private readonly prefix: string;
  /** Spend budgets this process has listed in the index `switchyard spend` reads. */
  private readonly indexed = new Set<string>();

  /** Connects to `url` (a client of its own, closed by `close`) or uses the caller's client (left open). */
  constructor(urlOrClient: string | RedisClient, options: RedisStoreOptions = {}) {
    // `??`, not a spread: the router passes `keyPrefix: undefined` when the config leaves it out.
    const timeoutMs = options.timeoutMs ?? DEFAULTS.store.timeoutMs;
    this.prefix = options.keyPrefix ?? DEFAULTS.store.keyPrefix;
    if (typeof urlOrClient === 'string') {
      this.endpoint = parseRedisUrl(urlOrClient);
      const { client, lastError } = openRedisClient(urlOrClient, timeoutMs);
      this.client = client;
      this.connectionError = lastError;
      this.ownsClient = true;
    } else {
      this.endpoint = describeClient(urlOrClient);
      this.client = urlOrClient;
      this.connectionError = () => undefined;
      this.ownsClient = false;
    }
  }

  async getBlock(key: string, nowMs: number): Promise<Block | undefined> {
    const json = await this.call(() => this.client.get(this.blockKey(key)));
    if (json === null) return undefined;
    const block = parseBlock(json);
    return block && block.untilMs > nowMs ? block : undefined;
  }

  async setBlock(key: string, block: Block, nowMs: number): Promise<void> {
    const json = JSON.stringify({ reason: block.reason, untilMs: block.untilMs, cause: block.cause });
    await this.run(SET_BLOCK, [this.blockKey(key)], [json, block.untilMs, nowMs]);
  }

  async acquireBudget(req: BudgetRequest, nowMs: number): Promise<BudgetGrant> {
    const { limits } = req;
    const reply = (await this.run(ACQUIRE, this.budgetKeys(req.key), [
      nowMs, limits.windowMs ?? DEFAULTS.limits.windowMs, req.tokens, req.inputTokens ?? req.tokens, req.outputTokens ?? 0, req.leaseId, req.leaseTtlMs,
      opt(limits.rpm), opt(limits.tpm), opt(limits.itpm), opt(limits.otpm), opt(limits.concurrency), opt(limits.burstMs),
    ])) as [string, string?];
    const [reason, retryIn] = reply;
    if (reason === 'ok') return GRANTED;
    if (reason === 'too_large') return { ok: false, reason };
    const denial = { ok: false as const, reason: reason as 'rpm' | 'tpm' | 'itpm' | 'otpm' | 'concurrency' | 'provider' };
    return retryIn === undefined ? denial : Object.assign({}, denial, { retryInMs: Number(retryIn) });
  }

  async releaseBudget(key: string, leaseId: string, sent: boolean, nowMs: number): Promise<void> {
    await this.run(RELEASE, this.budgetKeys(key), [leaseId, sent ? '1' : '0', nowMs]);
  }

  async settleBudget(key: string, leaseId: string, settlement: BudgetSettlement, nowMs: number): Promise<void> {
    const { charge } = settlement;
    await this.run(SETTLE, this.budgetKeys(key), [
      nowMs, leaseId, opt(charge?.tokens), opt(charge?.inputTokens), opt(charge?.outputTokens), settlement.rateLimited ? '1' : '0',
      DEFAULTS.limits.windowMs, ...reportArgs(settlement.snapshot),
    ]);
  }

  async syncShares(sync: ShareSync, nowMs: number): Promise<ShareView> {
    const base = `${this.prefix}shares:{${sync.budget}}`;
    const served = Object.entries(sync.served).filter(([, n]) => n > 0);
    const reply = (await this.run(SYNC_SHARES, [`${base}:b:`, `${base}:wait`], [
      nowMs, sync.windowMs, sync.bucketMs, sync.waitingTtlMs, sync.process,
      served.length, ...served.flat(), sync.waiting.length, ...sync.waiting,
    ])) as string[];
    const bar = reply.indexOf('|');
    const view: ShareView = { served: {}, waiting: reply.slice(bar + 1) };
    for (let i = 0; i < bar; i += 2) view.served[reply[i]!] = Number(reply[i + 1]);
    return view;
  }

  async reserveSpend(req: SpendReservation, nowMs: number): Promise<SpendGrant> {
    if (!this.indexed.has(req.budget)) {
      await this.call(() => this.client.sadd(`${this.prefix}spend:budgets`, req.budget));
      this.indexed.add(req.budget);
    }
    const reply = (await this.run(RESERVE_SPEND, this.spendKeys(req.budget, req.windows), [
      nowMs, req.usd, req.holdId, req.holdTtlMs, req.windows.length, ...windowArgs(req.windows, nowMs),
    ])) as string[];
    if (reply[0] === 'ok') return { ok: true, totalsUsd: reply.slice(1).map(Number) };
    const w = req.windows[Number(reply[1]) - 1]!;
    return { ok: false, window: w.window, totalUsd: Number(reply[2]), limitUsd: w.limitUsd };
  }

  async settleSpend(s: SpendSettlement, nowMs: number): Promise<SpendAlert[]> {
    const reply = (await this.run(SETTLE_SPEND, this.spendKeys(s.budget, s.windows), [
      s.holdId, Math.max(0, s.actualUsd), s.model, s.alertAt.join(','), s.windows.length, ...windowArgs(s.windows, nowMs),
    ])) as string[];
    const alerts: SpendAlert[] = [];
    for (let i = 0; i + 2 < reply.length; i += 3) {
      const w = s.windows[Number(reply[i]) - 1]!;
      alerts.push({ window: w.window, threshold: Number(reply[i + 1]), spentUsd: Number(reply[i + 2]), limitUsd: w.limitUsd });
    }
    return alerts;
  }

  async readSpend(windows: readonly string[], budget?: string): Promise<SpendRow[]> {
    const budgets = budget !== undefined ? [budget] : await this.call(() => this.client.smembers(`${this.prefix}spend:budgets`));
    const rows: SpendRow[] = [];
    for (const b of budgets.sort()) {
      for (const window of windows) {
        const fields = await this.call(() => this.client.hgetall(this.spendBase(b, window)));
        for (const [field, value] of Object.entries(fields)) {
          if (field.startsWith('m:')) rows.push({ budget: b, window, model: field.slice(2), usd: Number(value) });
        }
      }
    }
    return rows;
  }

  /** The response cache's answer for `key`, shared by every process on this Redis and prefix. */
  async readCached(key: string): Promise<string | undefined> {
    return (await this.call(() => this.client.get(this.cacheKey(key)))) ?? undefined;
  }

  /** Stores an answer for `ttlMs` (Redis expires it: `SET PX`). */
  async writeCached(key: string, value: string, ttlMs: number): Promise<void> {
    await this.call(() => this.client.set(this.cacheKey(key), value, 'PX', Math.max(1, Math.round(ttlMs))));
  }

  /** A conversation record (`previous_response_id`), shared by every process on this Redis and prefix. */
  async readConversation(key: string): Promise<string | undefined> {
    return (await this.call(() => this.client.get(this.conversationKey(key)))) ?? undefined;
  }

  /** Stores a conversation record for `ttlMs` (Redis expires it: `SET PX`). */
  async writeConversation(key: string, value: string, ttlMs: number): Promise<void> {
    await this.call(() => this.client.set(this.conversationKey(key), value, 'PX', Math.max(1, Math.round(ttlMs))));
  }

  async claimIdempotency(key: string, fingerprint: string, pendingTtlMs: number, nowMs: number): Promise<IdempotencyState> {
    const [state, value] = (await this.run(CLAIM, [this.idempotencyKey(key)], [fingerprint, pendingTtlMs, nowMs])) as [string, string?];
    if (state === 'done') return { state, value: value! };
    return { state: state as 'claimed' | 'pending' | 'mismatch' };
  }

  async completeIdempotency(key: string, fingerprint: string, value: string, ttlMs: number, nowMs: number): Promise<void> {
    await this.run(COMPLETE, [this.idempotencyKey(key)], [fingerprint, value, ttlMs, nowMs]);
  }

  async abandonIdempotency(key: string): Promise<void> {
    await this.call(() => this.client.del(this.idempotencyKey(key)));
  }

  async readIdempotency(key: string, fingerprint: string, nowMs: number): Promise<IdempotencyRead> {
    const [f, v, u] = await this.call(() => this.client.hmget(this.idempotencyKey(key), 'f', 'v', 'u'));
    if (f === null || f === undefined || !(Number(u) > nowMs)) return { state: 'missing' };
    if (f !== fingerprint) return { state: 'mismatch' };
    return v === null || v === undefined ? { state: 'pending' } : { state: 'done', value: v };
  }

  async readBreaker(key: string): Promise<SharedBreakerState> {
    return breakerState(await this.run(READ_BREAKER, [this.breakerKey(key)], []));
  }

  async openBreaker(key: string, by: string, untilMs: number, nowMs: number): Promise<SharedBreakerState> {
    return breakerState(await this.run(OPEN_BREAKER, [this.breakerKey(key)], [by, untilMs, nowMs, BREAKER_RECORD_TTL_MS]));
  }

  async closeBreaker(key: string, by: string): Promise<SharedBreakerState> {
    return breakerState(await this.run(CLOSE_BREAKER, [this.breakerKey(key)], [by]));
  }

  async takeProbe(key: string, by: string, leaseMs: number, nowMs: number): Promise<SharedBreakerState> {
    return breakerState(await this.run(TAKE_PROBE, [this.breakerKey(key)], [by, leaseMs, nowMs, BREAKER_RECORD_TTL_MS]));
  }

  /** One round trip to the server: resolves when it answers, fails as `transport` when it does not. */
  async ping(): Promise<void> {
    await this.call(() => this.client.ping());
  }

  /** Hears the connection drop (`lost`) and come back (`ready`) as the client sees it, before any command fails. */
  watchConnection(listener: ConnectionListener): () => void {
    const lost = () => listener('lost', connectionLost(this.endpoint, this.connectionError()));
    const ready = () => listener('ready');
    this.client.on('close', lost);
    this.client.on('ready', ready);
    return () => {
      this.client.off('close', lost);
      this.client.off('ready', ready);
    };
  }

  /** Quits the client if the store opened it; a client the caller passed in stays open. */
  async close(): Promise<void> {
    if (!this.ownsClient) return;
    const client = this.client;
    if (client.status === 'end') return;
    if (client.status !== 'ready') return client.disconnect();
    // QUIT waits for replies still in flight; if the connection is already gone, just drop it.
    await client.quit().catch(() => client.disconnect());
  }

  private blockKey(key: string): string {
    return `${this.prefix}block:${key}`;
  }

  private breakerKey(key: string): string {
    return `${this.prefix}breaker:${key}`;
  }

  private idempotencyKey(key: string): string {
    return `${this.prefix}idempotency:${key}`;
  }

  private conversationKey(key: string): string {
    return `${this.prefix}conversation:${key}`;
  }

  private cacheKey(key: string): string {
    return `${this.prefix}${key}`;
  }

  private spendBase(budget: string, window: string): string {
    return `${this.prefix}spend:{${budget}}:${window}`;
  }

  /** The keys of a spend budget's windows: w, holds, amt each (see redis-spend-scripts.ts), in one slot. */
  private spendKeys(budget: string, windows: readonly SpendWindowLimit[]): string[] {
    return windows.flatMap((w) => {
      const base = this.spendBase(budget, w.window);
      return [base, `${base}:holds`, `${base}:amt`];
    });
  }

  /** The keys of one budget: req, tok, amt, lease, meta, inf (see redis-budget-scripts.ts). */
  private budgetKeys(key: string): string[] {
    // The braces are a cluster hash tag: all keys of one budget land in one slot, as a script needs.
    const base = `${this.prefix}budget:{${key}}`;
    return [`${base}:req`, `${base}:tok`, `${base}:amt`, `${base}:lease`, `${base}:meta`, `${base}:inf`];
  }

  private run(script: LuaScript, keys: string[], args: Array<string | number>): Promise<unknown> {
    return this.call(() => runScript(this.client, script, keys, args));
  }

  private async call<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      throw storeError(err, this.endpoint, this.connectionError());
    }
  }
}

/** Each window's limit and how long its keys are kept from now. */
function windowArgs(windows: readonly SpendWindowLimit[], nowMs: number): number[] {
  return windows.flatMap((w) => [w.limitUsd, Math.max(0, w.endsAtMs + SPEND_RECORD_KEEP_MS - nowMs)]);
}

function breakerState(reply: unknown): SharedBreakerState {
  const [state, untilMs, prober, probeUntilMs] = reply as [string, string, string, string];
  if (state !== 'open') return { state: 'closed' };
  return prober === '' ? { state, untilMs: Number(untilMs) } : { state, untilMs: Number(untilMs), prober, probeUntilMs: Number(probeUntilMs) };
}

function parseBlock(json: string): Block | undefined {
  try {
    const b = JSON.parse(json) as Partial<Block>;
    if ((b.reason !== 'cooling' && b.reason !== 'parked') || typeof b.untilMs !== 'number') return undefined;
    return b.cause === undefined ? { reason: b.reason, untilMs: b.untilMs } : { reason: b.reason, untilMs: b.untilMs, cause: b.cause };
  } catch {
    return undefined;
  }
}

/**
 * The shared store for routers running in several processes.
 * @example
 * const store = redisStore(process.env.REDIS_URL!, { keyPrefix: 'myapp:switchyard:' });
 * const router = createRouter(config, { store });
 * // ...
 * await router.close(); // also closes the store's connection
 */
export function redisStore(urlOrClient: string | RedisClient, options?: RedisStoreOptions): RedisStore {
  return new RedisStore(urlOrClient, options);
}
