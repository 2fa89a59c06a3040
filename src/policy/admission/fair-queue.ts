import type { Clock, Timer } from '../../types.js';
import type { BudgetGrant } from '../../store/state-store.js';

/** One call waiting for room in a budget. */
export interface Waiter {
  tenant: string;
  /** The tenant's weight: a tenant with share 2 is served twice as often as one with share 1. */
  share: number;
  /** Tries to take room for this waiter (one atomic store operation). */
  attempt(): Promise<BudgetGrant> | BudgetGrant;
  /** Hands the waiter its grant (or a refusal it cannot wait out, such as `too_large`). */
  settle(grant: BudgetGrant): void;
  /** Gives back room taken for a waiter that left while its attempt was in flight. */
  undo(): void;
  /** Set once the waiter has left (granted, timed out, aborted). */
  done: boolean;
}

/** A waiter with the virtual start and finish tags it got on arrival. */
interface Tagged {
  waiter: Waiter;
  start: number;
  finish: number;
}

interface TenantLane {
  waiters: Tagged[];
  lastFinish: number;
}

/**
 * A start-time fair queue over tenants for one budget: when room frees, the tenant with the
 * smallest virtual finish time goes next, so a flooding tenant gets its share and no more; within a
 * tenant, first come first served. It retries on a local release (`notify`), at the moment the
 * store says room returns, or, for a store shared with other processes, every `pollMs`.
 */
export class FairQueue {
  private readonly lanes = new Map<string, TenantLane>();
  private virtualTime = 0;
  private pumping = false;
  private again = false;
  private wake: Timer | undefined;
  private count = 0;

  constructor(
    private readonly clock: Clock,
    private readonly pollMs: number | undefined,
    /** Fleet-wide shares (fleet-shares.ts): a tenant it holds back takes no room for now, and the next tenant goes. */
    private readonly held?: (tenant: string) => boolean,
  ) {}

  get size(): number {
    return this.count;
  }

  enqueue(waiter: Waiter): void {
    let lane = this.lanes.get(waiter.tenant);
    if (!lane) this.lanes.set(waiter.tenant, (lane = { waiters: [], lastFinish: 0 }));
    // Tags are fixed on arrival: a tenant that queues a flood has its later waiters tagged far ahead,
    // while one arriving now starts at the current virtual time.
    const start = Math.max(this.virtualTime, lane.lastFinish);
    const finish = start + 1 / waiter.share;
    lane.lastFinish = finish;
    lane.waiters.push({ waiter, start, finish });
    this.count++;
    this.notify();
  }

  /** Takes a waiter out (it timed out or its caller aborted). */
  remove(waiter: Waiter): void {
    const lane = this.lanes.get(waiter.tenant);
    const i = lane ? lane.waiters.findIndex((t) => t.waiter === waiter) : -1;
    if (i < 0) return;
    lane!.waiters.splice(i, 1);
    this.count--;
    if (lane!.waiters.length === 0 && lane!.lastFinish <= this.virtualTime) this.lanes.delete(waiter.tenant);
    if (this.count === 0) this.stopWake();
    else if (i === 0) this.notify(); // a smaller waiter behind it may fit
  }

  /** Room may have freed: try the next waiters now. */
  notify(): void {
    if (this.count === 0) return;
    if (this.pumping) {
      this.again = true;
      return;
    }
    void this.pump();
  }

  /** The head waiter with the smallest finish tag (ties go to the tenant that queued first), of the tenants not held back. */
  private pick(): Tagged | undefined {
    let best: Tagged | undefined;
    for (const [tenant, lane] of this.lanes) {
      const head = lane.waiters[0];
      if (head && (!best || head.finish < best.finish) && !this.held?.(tenant)) best = head;
      // An idle tenant whose credit has run out is forgotten (tenant names come from callers).
      if (!head && lane.lastFinish <= this.virtualTime) this.lanes.delete(tenant);
    }
    return best;
  }

  private async pump(): Promise<void> {
    this.pumping = true;
    this.stopWake();
    try {
      for (;;) {
        const next = this.pick();
        if (!next) {
          // Every waiting tenant is held back for the fleet's others: look again when the view may have moved.
          if (this.count > 0 && this.pollMs !== undefined) this.wakeIn(this.pollMs);
          return;
        }
        const waiter = next.waiter;
        let grant: BudgetGrant;
        try {
          grant = await waiter.attempt();
        } catch {
          grant = { ok: false, reason: 'concurrency' }; // a store hiccup: try again on the next wake
        }
        if (waiter.done) {
          if (grant.ok) waiter.undo();
          continue;
        }
        if (grant.ok || grant.reason === 'too_large') {
          this.remove(waiter);
          if (grant.ok) this.virtualTime = Math.max(this.virtualTime, next.start);
          waiter.settle(grant);
          continue;
        }
        const inMs = grant.retryInMs ?? this.pollMs;
        if (inMs !== undefined) this.wakeIn(inMs);
        return;
      }
    } finally {
      this.pumping = false;
      if (this.again) {
        this.again = false;
        this.notify();
      }
    }
  }

  private wakeIn(ms: number): void {
    this.stopWake();
    this.wake = this.clock.setTimer(Math.max(1, Math.ceil(ms)), () => {
      this.wake = undefined;
      this.notify();
    });
  }

  private stopWake(): void {
    this.wake?.clear();
    this.wake = undefined;
  }
}
