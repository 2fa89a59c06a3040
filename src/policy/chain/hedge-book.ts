import type { HedgePolicy } from '../../config/resolve-config.js';
import { HEDGE_WINDOW_MS, MAX_SAMPLES, hedgeAllowed } from '../../decide/hedge-delay.js';

/** Per chain: the rolling counts the cap reads, and the first targets' recent latencies. */
export class HedgeBook {
  private readonly buckets = new Map<number, { calls: number; hedges: number }>();
  private readonly latencies = new Map<string, number[]>();

  private bucket(now: number) {
    const id = Math.floor(now / 1_000);
    for (const key of this.buckets.keys()) if (key <= id - HEDGE_WINDOW_MS / 1_000) this.buckets.delete(key);
    let b = this.buckets.get(id);
    if (!b) this.buckets.set(id, (b = { calls: 0, hedges: 0 }));
    return b;
  }

  countCall(now: number): void {
    this.bucket(now).calls++;
  }

  /** Takes one hedge from the budget, if it has one. */
  takeHedge(now: number, maxExtraPercent: number): boolean {
    const current = this.bucket(now);
    let calls = 0;
    let hedges = 0;
    for (const b of this.buckets.values()) {
      calls += b.calls;
      hedges += b.hedges;
    }
    if (!hedgeAllowed(calls, hedges, maxExtraPercent)) return false;
    current.hedges++;
    return true;
  }

  samples(target: string): readonly number[] {
    return this.latencies.get(target) ?? [];
  }

  observe(target: string, ms: number): void {
    let s = this.latencies.get(target);
    if (!s) this.latencies.set(target, (s = []));
    s.push(ms);
    if (s.length > MAX_SAMPLES) s.shift();
  }
}

/** The hedge books of a router's chains. */
export class Hedging {
  private readonly books = new Map<string, HedgeBook>();

  constructor(private readonly policies: Readonly<Record<string, HedgePolicy>>) {}

  policy(chain: string): HedgePolicy | undefined {
    return Object.hasOwn(this.policies, chain) ? this.policies[chain] : undefined;
  }

  book(chain: string): HedgeBook {
    let b = this.books.get(chain);
    if (!b) this.books.set(chain, (b = new HedgeBook()));
    return b;
  }
}

