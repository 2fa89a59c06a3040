import { DEFAULTS } from '../config/defaults.js';
import { DIMENSIONS, type Pace } from './pace.js';
import { WindowRing } from './window-ring.js';

/**
 * One admitted request while its lease is in flight: what the budget needs to settle it. What it holds of the rolling window is kept apart, in the window's ring
 * (window-ring.ts), at `slot`: a lease's object lives as long as its request, not as its window.
 */
export interface Entry {
  at: number;
  id: string;
  tokens: number;
  input: number;
  output: number;
  /** Its slot in the window's ring; -1: not counted (the budget counts nothing over its window). */
  slot: number;
  /** Admission order within the budget. */
  seq: number;
  /** The lease is forgotten after this (its process died holding it). */
  until: number;
  /** Each pace's mark for this lease (requests, tokens, input, output: see Pace.taken); NaN: no pace then. */
  m0: number;
  m1: number;
  m2: number;
  m3: number;
}

/** What an entry costs a window: 0 requests, 1 tokens, 2 input tokens, 3 output tokens. */
export function costOf(e: Entry, d: number): number {
  return d === 0 ? 1 : d === 1 ? e.tokens : d === 2 ? e.input : e.output;
}

export function markOf(e: Entry, d: number): number {
  return d === 0 ? e.m0 : d === 1 ? e.m1 : d === 2 ? e.m2 : e.m3;
}

export function setMark(e: Entry, d: number, level: number): void {
  if (d === 0) e.m0 = level;
  else if (d === 1) e.m1 = level;
  else if (d === 2) e.m2 = level;
  else e.m3 = level;
}

/**
 * One budget: its rolling window (what each counted request holds, oldest first, in a ring of
 * columns: expiring the oldest costs nothing per call and keeps no object per request), the leases
 * in flight, and a pace per limit it paces or the provider reported.
 */
export class Window {
  private readonly ring = new WindowRing();
  requests = 0;
  /** Live amounts per window: index 1 tokens, 2 input, 3 output (0 unused: `requests`). */
  readonly sums = [0, 0, 0, 0];
  /** Leases in flight, in admission order. */
  readonly inflight = new Map<string, Entry>();
  readonly paces: Array<Pace | undefined> = new Array<Pace | undefined>(DIMENSIONS).fill(undefined);
  seq = 0;
  /** The window the budget was last acquired with (reports need it to turn a limit into a rate). */
  windowMs: number = DEFAULTS.limits.windowMs;
  /** The budget was last acquired with a limit it counts over the window (charges are then kept too). */
  counts = false;

  /** Counted slots, live or given back. */
  get size(): number {
    return this.ring.size;
  }

  trim(nowMs: number, windowMs: number): void {
    const ring = this.ring;
    while (ring.size > 0 && ring.atOf(ring.head) <= nowMs - windowMs) {
      this.forget(ring.head);
      ring.shift();
    }
  }

  /** Forgets leases whose process died holding them (only worth it when a concurrency budget is full, and when sweeping). */
  expireLeases(nowMs: number): void {
    for (const [id, e] of this.inflight) if (e.until <= nowMs) this.inflight.delete(id);
  }

  /** Takes a lease out of flight; undefined when it is unknown or has outlived its TTL. */
  endLease(leaseId: string, nowMs: number): Entry | undefined {
    const e = this.inflight.get(leaseId);
    if (e === undefined) return undefined;
    this.inflight.delete(leaseId);
    return e.until > nowMs ? e : undefined;
  }

  /** What the live leases admitted after `after` hold of window `d`. */
  inflightAfter(after: Entry, d: number, nowMs: number): number {
    let n = 0;
    for (const e of this.inflight.values()) if (e.seq > after.seq && e.until > nowMs) n += costOf(e, d);
    return n;
  }

  /** Counts an admitted request in the window, at the slot its lease keeps. */
  add(entry: Entry): void {
    entry.slot = this.count(entry.at, entry.id, entry.tokens, entry.input, entry.output, true);
  }

  /** Counts tokens a settled request's estimate missed, from `at` on: tokens, not a request, and no lease to find again. */
  charge(at: number, tokens: number, input: number, output: number): void {
    this.count(at, undefined, tokens, input, output, false);
  }

  private count(at: number, id: string | undefined, tokens: number, input: number, output: number, request: boolean): number {
    this.sums[1]! += tokens;
    this.sums[2]! += input;
    this.sums[3]! += output;
    if (request) this.requests++;
    return this.ring.push(at, id, tokens, input, output, request);
  }

  /** Takes `amount` of window `d` off a lease (a reservation the provider did not charge in full), and off the window while it counts it. */
  reduce(entry: Entry, d: number, amount: number): void {
    if (d === 1) entry.tokens -= amount;
    else if (d === 2) entry.input -= amount;
    else entry.output -= amount;
    if (this.ring.live(entry.slot)) {
      this.ring.subtract(entry.slot, d, amount);
      this.sums[d]! -= amount;
    }
  }

  /** The slot a lease no longer in flight still counts in, looked for from the newest; -1: none. */
  find(leaseId: string): number {
    return this.ring.findLive(leaseId);
  }

  /** Stops counting a slot (expired, or given back); a slot no longer live, or -1, is left alone. */
  forget(slot: number): void {
    const ring = this.ring;
    if (!ring.live(slot)) return;
    ring.kill(slot);
    this.sums[1]! -= ring.amountOf(slot, 1);
    this.sums[2]! -= ring.amountOf(slot, 2);
    this.sums[3]! -= ring.amountOf(slot, 3);
    if (ring.isRequest(slot)) this.requests--;
  }

  /** Milliseconds until window `d` has room for `need` more under `limit`, from its oldest entries' expiry. */
  roomInMs(d: number, need: number, limit: number, nowMs: number, windowMs: number): number {
    const ring = this.ring;
    let freed = 0;
    for (let s = ring.head; s < ring.tail; s++) {
      if (!ring.live(s)) continue;
      if (d === 0) {
        if (ring.isRequest(s)) return ring.atOf(s) + windowMs - nowMs;
        continue;
      }
      freed += ring.amountOf(s, d);
      if (this.sums[d]! - freed + need <= limit) return ring.atOf(s) + windowMs - nowMs;
    }
    return windowMs;
  }

  /** Nothing counted, nothing in flight, nothing learned: the budget can be forgotten. */
  idle(nowMs: number): boolean {
    if (this.size > 0 || this.inflight.size > 0) return false;
    for (const p of this.paces) if (p && !p.idle(nowMs)) return false;
    return true;
  }
}
