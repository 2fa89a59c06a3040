// Float drift must never turn "you waited exactly as long as we said" into another 429.
const EPSILON = 1e-9;

/**
 * A continuously refilled bucket: the algorithm both providers document ("capacity is continuously
 * replenished up to your maximum limit, rather than being reset at fixed intervals"). OpenAI's own
 * numbers agree: "Limit 10000, Used 9348, Requested 5086. Please try again in 26.604s" is exactly the
 * 4,434 missing tokens at 10,000 per minute.
 */
export class TokenBucket {
  private level: number;
  private lastMs: number;

  /** Starts full. `refillPerMs` is the limit divided by its window. */
  constructor(readonly capacity: number, readonly refillPerMs: number, nowMs: number) {
    this.level = capacity;
    this.lastMs = nowMs;
  }

  /** What is in the bucket at `nowMs`. */
  available(nowMs: number): number {
    if (nowMs > this.lastMs) {
      this.level = Math.min(this.capacity, this.level + (nowMs - this.lastMs) * this.refillPerMs);
      this.lastMs = nowMs;
    }
    return this.level;
  }

  /** True when `amount` fits at `nowMs`. */
  has(amount: number, nowMs: number): boolean {
    return this.available(nowMs) + EPSILON >= amount;
  }

  /** Empties the bucket at `nowMs`: it refills from nothing from then on. */
  drain(nowMs: number): void {
    this.level = 0;
    this.lastMs = Math.max(this.lastMs, nowMs);
  }

  /** Takes `amount` (the caller checked `has`). */
  take(amount: number): void {
    this.level = Math.max(0, this.level - amount);
  }

  /** Puts `amount` back (never beyond the capacity): what was charged and then not used. */
  give(amount: number): void {
    this.level = Math.min(this.capacity, this.level + Math.max(0, amount));
  }

  /** Milliseconds until `amount` fits, rounded up; Infinity when it never can. */
  msUntil(amount: number, nowMs: number): number {
    if (amount > this.capacity) return Infinity;
    const missing = amount - this.available(nowMs);
    return missing <= EPSILON ? 0 : Math.ceil(missing / this.refillPerMs);
  }

  /** Milliseconds until the bucket is full again (what the reset headers report), rounded up. */
  msUntilFull(nowMs: number): number {
    const missing = this.capacity - this.available(nowMs);
    return missing <= EPSILON ? 0 : Math.ceil(missing / this.refillPerMs);
  }
}
