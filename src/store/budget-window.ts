import { DEFAULTS } from '../config/defaults.js';
import { DIMENSIONS, type Pace } from './pace.js';

/**
 * One admitted request (or a later token charge) in a budget's rolling window, and, while its lease
 * is in flight, what the budget needs to settle it.
 */
export interface Entry {
  at: number;
  id: string;
  tokens: number;
  input: number;
  output: number;
  /** False for a later token charge: it counts for tokens, not RPM. */
  request: boolean;
  /** In the rolling window (the budget counts requests or tokens over it). */
  counted: boolean;
  /** Expired, or given back: no longer counted. */
  dead?: boolean;
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
  return d === 0 ? (e.request ? 1 : 0) : d === 1 ? e.tokens : d === 2 ? e.input : e.output;
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
 * One budget: its rolling window (entries by time, read from a moving `head`: expiring the oldest
 * costs nothing per call, and the array is compacted only once most of it is behind the head), the
 * leases in flight, and a pace per limit it paces or the provider reported.
 */
export class Window {
  /** Slots behind `head` are emptied as they expire, so an expired entry is garbage at once, not at the next compaction. */
  private items: Array<Entry | undefined> = [];
  private head = 0;
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

  /** Live entries, oldest first. */
  *entries(): IterableIterator<Entry> {
    for (let i = this.head; i < this.items.length; i++) if (!this.items[i]!.dead) yield this.items[i]!;
  }

  get size(): number {
    return this.items.length - this.head;
  }

  trim(nowMs: number, windowMs: number): void {
    const items = this.items;
    while (this.head < items.length && items[this.head]!.at <= nowMs - windowMs) {
      this.forget(items[this.head]!);
      items[this.head++] = undefined;
    }
    if (this.head > 1024 && this.head * 2 > items.length) {
      this.items = items.slice(this.head);
      this.head = 0;
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

  add(entry: Entry): void {
    entry.counted = true;
    this.items.push(entry);
    this.sums[1]! += entry.tokens;
    this.sums[2]! += entry.input;
    this.sums[3]! += entry.output;
    if (entry.request) this.requests++;
  }

  /** Takes `amount` of window `d` off a live entry (a reservation the provider did not charge in full). */
  reduce(entry: Entry, d: number, amount: number): void {
    if (d === 1) entry.tokens -= amount;
    else if (d === 2) entry.input -= amount;
    else entry.output -= amount;
    if (entry.counted && !entry.dead) this.sums[d]! -= amount;
  }

  /** The live entry of a lease, looked for from the newest (a lease no longer in flight). */
  find(leaseId: string): Entry | undefined {
    for (let i = this.items.length - 1; i >= this.head; i--) {
      const e = this.items[i]!;
      if (e.id === leaseId && !e.dead) return e;
    }
    return undefined;
  }

  /** Stops counting an entry (expired, or given back). */
  forget(entry: Entry): void {
    if (entry.dead || !entry.counted) return;
    entry.dead = true;
    this.sums[1]! -= entry.tokens;
    this.sums[2]! -= entry.input;
    this.sums[3]! -= entry.output;
    if (entry.request) this.requests--;
  }

  /** Milliseconds until window `d` has room for `need` more under `limit`, from its oldest entries' expiry. */
  roomInMs(d: number, need: number, limit: number, nowMs: number, windowMs: number): number {
    if (d === 0) {
      for (const e of this.entries()) if (e.request) return e.at + windowMs - nowMs;
      return windowMs;
    }
    let freed = 0;
    for (const e of this.entries()) {
      freed += d === 1 ? e.tokens : d === 2 ? e.input : e.output;
      if (this.sums[d]! - freed + need <= limit) return e.at + windowMs - nowMs;
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
