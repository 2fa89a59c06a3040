import { randomBytes } from 'node:crypto';
import { heldBack } from '../../decide/fleet-share.js';
import type { Logger } from '../../observe/logger.js';
import { isPromise } from '../../store/maybe-promise.js';
import type { ShareStore, ShareView } from '../../store/share-store.js';
import type { Clock, Timer } from '../../types.js';

/** The rolling window of the fleet's served counts, and its buckets. */
export const SHARE_WINDOW_MS = 10_000;
export const SHARE_BUCKET_MS = 1_000;
/** How often a process with traffic to a contended budget syncs with the fleet. */
export const SHARE_SYNC_MS = 100;
/** A process's waiting tenants count this long after its last sync (it may have died). */
const WAITING_TTL_MS = 3 * SHARE_SYNC_MS;

const PROCESS = randomBytes(6).toString('hex');

interface Tracker {
  /** The fleet's view at the last sync. */
  view: ShareView;
  /** Admitted here since the last sync (not in `view` yet). */
  pending: Map<string, number>;
  /** Tenants with calls waiting here, and how many. */
  waiting: Map<string, number>;
  timer: Timer | undefined;
  syncing: boolean;
  /** The budget counts as contended here until then: a call of this process waited for it less than a window ago. */
  contendedUntil: number;
}

/**
 * Fair shares across a fleet (issue 24, item 5). Design: leased nothing, asked nothing per queue
 * decision. A target budget is contended in a process from the moment one of its calls waits for
 * it until a window (SHARE_WINDOW_MS) after the last such wait; only then does the process count
 * what it admitted per tenant to it, and every SHARE_SYNC_MS one Lua script
 * (redis-share-scripts.ts) adds them to per-second buckets of a rolling SHARE_WINDOW_MS window in
 * Redis, notes which tenants wait here, and returns the fleet's counts and waiting tenants. Between
 * syncs a process adds its own admissions to that view. The budget's fair queue reads `holds`: a
 * tenant whose fleet-wide service (count / share) is ahead of another tenant's that waits somewhere
 * in the fleet (decide/fleet-share.ts) does not take room now, so the room goes to the one behind,
 * whichever process it waits in.
 *
 * Limits: the view lags by up to one sync (a process may overshoot by what it admits in 100 ms);
 * fairness is in attempts, not tokens; shares come from each process's own config (a fleet should
 * run one config); a process that holds a tenant back leaves room unused until the one behind, in
 * another process, polls for it (the shared store's 25 ms poll). Without the `shares` role (the
 * memory store) or while the shared store is down (`view.local`), shares hold per process, as the
 * local fair queue keeps them, and that is logged once per outage.
 */
export class FleetShares {
  private readonly trackers = new Map<string, Tracker>();
  private local = false;
  private closed = false;

  constructor(
    private readonly store: ShareStore,
    private readonly clock: Clock,
    private readonly shareOf: (tenant: string) => number,
    private readonly logger?: Logger,
  ) {}

  /**
   * One attempt of `tenant` was admitted to `budget`. Counted only for a budget contended here (a
   * call waited for it lately): an uncontended budget costs one map lookup, and no store traffic.
   */
  admitted(budget: string, tenant: string): void {
    const t = this.trackers.get(budget);
    if (!t) return;
    t.pending.set(tenant, (t.pending.get(tenant) ?? 0) + 1);
    this.schedule(budget, t);
  }

  /** A call of `tenant` started (`+1`) or stopped (`-1`) waiting for `budget` here. */
  waiting(budget: string, tenant: string, delta: 1 | -1): void {
    const t = this.tracker(budget);
    if (delta > 0) t.contendedUntil = this.clock.now() + SHARE_WINDOW_MS;
    const n = (t.waiting.get(tenant) ?? 0) + delta;
    if (n > 0) t.waiting.set(tenant, n);
    else t.waiting.delete(tenant);
    this.schedule(budget, t);
  }

  /** Whether `tenant` should leave room in `budget` to a tenant behind it in the fleet (no IO). */
  holds(budget: string, tenant: string): boolean {
    const t = this.trackers.get(budget);
    if (!t || t.view.local) return false;
    const served: Record<string, number> = { ...t.view.served };
    for (const [name, n] of t.pending) served[name] = (served[name] ?? 0) + n;
    const waiting = new Set(t.view.waiting);
    for (const name of t.waiting.keys()) waiting.add(name);
    return heldBack(tenant, served, waiting, this.shareOf);
  }

  close(): void {
    this.closed = true;
    for (const t of this.trackers.values()) {
      t.timer?.clear();
      t.timer = undefined;
    }
  }

  private tracker(budget: string): Tracker {
    let t = this.trackers.get(budget);
    if (!t) this.trackers.set(budget, (t = { view: { served: {}, waiting: [] }, pending: new Map(), waiting: new Map(), timer: undefined, syncing: false, contendedUntil: 0 }));
    return t;
  }

  private schedule(budget: string, t: Tracker): void {
    if (this.closed || t.timer || t.syncing) return;
    if (t.pending.size === 0 && t.waiting.size === 0 && this.clock.now() >= t.contendedUntil) {
      // No call waited here for a window: nothing to tell the fleet, nothing waits on its view. Forget it.
      this.trackers.delete(budget);
      return;
    }
    t.timer = this.clock.setTimer(SHARE_SYNC_MS, () => {
      t.timer = undefined;
      this.sync(budget, t);
    }, { unref: true });
  }

  private sync(budget: string, t: Tracker): void {
    const served = Object.fromEntries(t.pending);
    t.pending.clear();
    t.syncing = true;
    let reply;
    try {
      reply = this.store.syncShares({
        budget, process: PROCESS, served, waiting: [...t.waiting.keys()],
        windowMs: SHARE_WINDOW_MS, bucketMs: SHARE_BUCKET_MS, waitingTtlMs: WAITING_TTL_MS,
      }, this.clock.now());
    } catch (err) {
      reply = { served: {}, waiting: [], local: true as const };
      this.logger?.warn({ err: String(err) }, 'fleet shares: the store failed to sync');
    }
    const done = (view: ShareView) => {
      t.syncing = false;
      if (this.closed) return;
      this.noteLocal(budget, view);
      t.view = view;
      this.schedule(budget, t);
    };
    if (isPromise(reply)) reply.then(done, () => done({ served: {}, waiting: [], local: true }));
    else done(reply);
  }

  private noteLocal(budget: string, view: ShareView): void {
    if (!view.local) {
      if (this.local) this.logger?.info({ budget }, 'fleet shares: the shared store answers again; tenant shares hold across the fleet');
      this.local = false;
      return;
    }
    if (this.local) return;
    this.local = true;
    this.logger?.warn({ budget }, 'shared store unavailable: tenant shares hold per process (each fair queue by its own callers) until the store answers');
  }
}
