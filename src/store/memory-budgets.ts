import { DEFAULTS } from '../config/defaults.js';
import type { RateLimitSnapshot } from '../types.js';
import { costOf, markOf, setMark, Window, type Entry } from './budget-window.js';
import { configuredBurst, DIMENSIONS, holdCost, learnBurst, Pace, refreshReported, regrowBurst, reportedPace, shrinkBurst, syncPace, type Report } from './pace.js';
import type { BudgetDenial, BudgetGrant, BudgetLimits, BudgetRequest, BudgetSettlement, TokenDelta } from './state-store.js';

/** One grant for every admission: no object per call. */
const GRANTED: BudgetGrant = Object.freeze({ ok: true });
/** The reason a configured pace refuses with, per window; a pace from reports alone refuses as `provider`. */
const REASONS = ['rpm', 'tpm', 'itpm', 'otpm'] as const;

/** A limit of `limits` by window index (requests, tokens, input, output). */
function limitOf(limits: BudgetLimits, d: number): number | undefined {
  return d === 0 ? limits.rpm : d === 1 ? limits.tpm : d === 2 ? limits.itpm : limits.otpm;
}

/** A report of window `d` the pace can use: it must say what is left and when it is full again. */
function reportOf(snapshot: RateLimitSnapshot | undefined, d: number): Report | undefined {
  const w = d === 0 ? snapshot?.requests : d === 1 ? snapshot?.tokens : d === 2 ? snapshot?.inputTokens : snapshot?.outputTokens;
  return w?.remaining !== undefined && w.resetMs !== undefined ? (w as Report) : undefined;
}

/** The windows a refused request's answer reported with less left than it asked: a bit per window. */
function shortWindows(lease: Entry, snapshot: RateLimitSnapshot | undefined): number {
  let short = 0;
  for (let d = 0; d < DIMENSIONS; d++) {
    const report = reportOf(snapshot, d);
    if (report && report.remaining < costOf(lease, d)) short |= 1 << d;
  }
  return short;
}

function deltaOf(charge: TokenDelta, d: number): number {
  return (d === 1 ? charge.tokens : d === 2 ? charge.inputTokens : charge.outputTokens) ?? 0;
}

/**
 * MemoryStore's budgets: a rolling window per key (budget-window.ts) and, for each limit it paces or
 * the provider reports, a token bucket that models the provider's (pace.ts). Everything is
 * synchronous and allocates one entry per admission, which lives while the lease is in flight (the
 * window keeps its counts in columns, window-ring.ts): this runs on every call.
 */
export class MemoryBudgets {
  readonly windows = new Map<string, Window>();

  acquire(req: BudgetRequest, nowMs: number): BudgetGrant {
    const { limits, tokens } = req;
    const input = req.inputTokens ?? tokens;
    const output = req.outputTokens ?? 0;
    const windowMs = limits.windowMs ?? DEFAULTS.limits.windowMs;
    let w = this.windows.get(req.key);
    if (!w) this.windows.set(req.key, (w = new Window()));
    w.windowMs = windowMs;
    w.trim(nowMs, windowMs);

    if ((limits.tpm !== undefined && tokens > limits.tpm) || (limits.itpm !== undefined && input > limits.itpm) || (limits.otpm !== undefined && output > limits.otpm)) {
      return { ok: false, reason: 'too_large' };
    }
    // Paces first: each limit's bucket, and the provider's own as its headers reported it.
    let waitMs = 0;
    let reason: BudgetDenial['reason'] = 'provider';
    for (let d = 0; d < DIMENSIONS; d++) {
      const limit = limitOf(limits, d);
      let p = w.paces[d];
      if (limit !== undefined && limits.burstMs !== undefined) {
        const initial = configuredBurst(limit, windowMs, limits.burstMs);
        if (!p?.configured) w.paces[d] = p = new Pace(limit / windowMs, initial, initial, limit, true, Infinity, nowMs);
        else {
          p.rate = limit / windowMs;
          p.initial = initial;
          p.ceiling = limit;
        }
      } else if (p && !p.active(nowMs)) w.paces[d] = p = undefined;
      if (!p) continue;
      const wait = p.waitFor(d === 0 ? 1 : d === 1 ? tokens : d === 2 ? input : output, nowMs);
      if (wait > waitMs) {
        waitMs = wait;
        reason = p.configured ? REASONS[d]! : 'provider';
      }
    }
    if (waitMs > 0) return { ok: false, reason, retryInMs: waitMs };
    if (limits.concurrency !== undefined && w.inflight.size >= limits.concurrency) {
      w.expireLeases(nowMs);
      if (w.inflight.size >= limits.concurrency) return { ok: false, reason: 'concurrency' };
    }
    if (limits.rpm !== undefined && w.requests >= limits.rpm) return { ok: false, reason: 'rpm', retryInMs: w.roomInMs(0, 1, limits.rpm, nowMs, windowMs) };
    if (limits.tpm !== undefined && w.sums[1]! + tokens > limits.tpm) return { ok: false, reason: 'tpm', retryInMs: w.roomInMs(1, tokens, limits.tpm, nowMs, windowMs) };
    if (limits.itpm !== undefined && w.sums[2]! + input > limits.itpm) return { ok: false, reason: 'itpm', retryInMs: w.roomInMs(2, input, limits.itpm, nowMs, windowMs) };
    if (limits.otpm !== undefined && w.sums[3]! + output > limits.otpm) return { ok: false, reason: 'otpm', retryInMs: w.roomInMs(3, output, limits.otpm, nowMs, windowMs) };

    const e: Entry = {
      at: nowMs, id: req.leaseId, tokens, input, output, slot: -1,
      seq: ++w.seq, until: nowMs + req.leaseTtlMs, m0: Number.NaN, m1: Number.NaN, m2: Number.NaN, m3: Number.NaN,
    };
    for (let d = 0; d < DIMENSIONS; d++) {
      const p = w.paces[d];
      if (p) setMark(e, d, p.take(costOf(e, d)));
    }
    // A budget that counts nothing over its window (paces or headroom only) keeps no entries: memory stays flat.
    w.counts = limits.rpm !== undefined || limits.tpm !== undefined || limits.itpm !== undefined || limits.otpm !== undefined;
    if (w.counts) w.add(e);
    w.inflight.set(req.leaseId, e);
    return GRANTED;
  }

  release(key: string, leaseId: string, sent: boolean, nowMs: number): void {
    const w = this.windows.get(key);
    if (!w) return;
    if (sent) {
      w.endLease(leaseId, nowMs);
      return;
    }
    const known = w.inflight.get(leaseId);
    const lease = w.endLease(leaseId, nowMs);
    w.forget(known ? known.slot : w.find(leaseId));
    if (!lease) return;
    for (let d = 0; d < DIMENSIONS; d++) {
      const p = w.paces[d];
      if (p && p.active(nowMs) && !Number.isNaN(markOf(lease, d))) {
        p.refill(nowMs);
        p.giveBack(costOf(lease, d));
      }
    }
  }

  /** Settles a sent lease already released (`lease`: its entry as it was in flight). */
  settle(key: string, lease: Entry | undefined, settlement: BudgetSettlement, nowMs: number): void {
    let w = this.windows.get(key);
    if (!w) this.windows.set(key, (w = new Window()));
    const { charge, snapshot, rateLimited } = settlement;
    // Which windows a 429 ran out of, by what the request asked (before reconciling shrinks its entry).
    const short = rateLimited && lease ? shortWindows(lease, snapshot) : 0;
    const costs = lease ? [costOf(lease, 0), costOf(lease, 1), costOf(lease, 2), costOf(lease, 3)] : undefined;
    if (charge) this.reconcile(w, lease, charge, snapshot, nowMs);
    const win = w;
    for (let d = 0; d < DIMENSIONS; d++) {
      const report = reportOf(snapshot, d);
      if (!report) continue;
      let p = win.paces[d];
      if (!p || !p.active(nowMs)) win.paces[d] = p = reportedPace(nowMs);
      if (!p.configured && !(lease && lease.at < p.syncedAt)) refreshReported(p, report, nowMs);
      // The bucket's size first: the level it reports must not be cut to the burst it had before.
      learnBurst(p, report, win.windowMs, rateLimited === true);
      if (lease) {
        const mark = markOf(lease, d);
        syncPace(p, report, lease.at, mark, Number.isNaN(mark) ? win.inflightAfter(lease, d, nowMs) : 0, nowMs, d === 0);
      } else syncPace(p, report, undefined, Number.NaN, 0, nowMs, d === 0);
    }
    if (!lease) return;
    if (rateLimited) this.surprise(win, lease, short, snapshot, nowMs);
    else for (let d = 0; d < DIMENSIONS; d++) if (win.paces[d]?.configured && !reportOf(snapshot, d)) regrowBurst(win.paces[d]!);
    for (let d = 0; d < DIMENSIONS; d++) {
      const report = reportOf(snapshot, d);
      if (report && win.paces[d]) holdCost(win.paces[d]!, report, costs![d]!, win.windowMs);
    }
  }

  /**
   * Usage against the reservation: what the estimate missed is charged from now on; what the
   * provider did not charge is given back from the lease's own entry. A pace hears of it only when
   * no report of its window came with the answer (a report already counts it).
   */
  private reconcile(w: Window, lease: Entry | undefined, charge: TokenDelta, snapshot: RateLimitSnapshot | undefined, nowMs: number): void {
    const extra = [0, 0, 0, 0];
    let any = false;
    for (let d = 1; d < DIMENSIONS; d++) {
      const delta = deltaOf(charge, d);
      const p = w.paces[d];
      const paced = p !== undefined && p.active(nowMs) && !reportOf(snapshot, d);
      if (delta > 0) {
        extra[d] = delta;
        any = true;
        if (paced) {
          p!.refill(nowMs);
          p!.take(delta);
        }
      } else if (delta < 0 && lease) {
        const back = Math.min(-delta, costOf(lease, d));
        w.reduce(lease, d, back);
        if (paced && !Number.isNaN(markOf(lease, d))) {
          p!.refill(nowMs);
          p!.giveBack(back);
        }
      }
    }
    if (any && w.counts) w.charge(nowMs, extra[1]!, extra[2]!, extra[3]!);
  }

  /** A 429 on a request the budget admitted: halve the burst of every window it ran out of (`short`, a bit per window). */
  private surprise(w: Window, lease: Entry, short: number, snapshot: RateLimitSnapshot | undefined, nowMs: number): void {
    for (let d = 0; d < DIMENSIONS; d++) {
      const p = w.paces[d];
      // Told which window ran out: that one. Not told: every window the budget paces.
      if (!p?.configured || (short && (short & (1 << d)) === 0)) continue;
      shrinkBurst(p, lease.at, nowMs);
      if (!reportOf(snapshot, d)) {
        const mark = markOf(lease, d);
        syncPace(p, { remaining: 0, resetMs: 0 }, lease.at, mark, Number.isNaN(mark) ? w.inflightAfter(lease, d, nowMs) : 0, nowMs);
      }
    }
  }

  /** Leases currently held on a budget (for tests and diagnostics). */
  heldLeases(key: string): number {
    return this.windows.get(key)?.inflight.size ?? 0;
  }

  /** The burst and level of each pace of a budget, as of now (for tests and diagnostics). */
  paces(key: string, nowMs: number): Array<{ burst: number; level: number } | undefined> {
    const w = this.windows.get(key);
    return (w?.paces ?? []).map((p) => {
      if (!p || !p.active(nowMs)) return undefined;
      p.refill(nowMs);
      return { burst: p.burst, level: p.level };
    });
  }

  /** Forgets idle budgets (tenant keys come from callers, so their number is not bounded). */
  sweep(nowMs: number, windowMs: number): void {
    for (const [key, w] of this.windows) {
      w.trim(nowMs, windowMs);
      w.expireLeases(nowMs);
      if (w.idle(nowMs)) this.windows.delete(key);
    }
  }
}
