/** Most failures one breaker remembers for attribution; beyond it the oldest are dropped. */
const MAX_REMEMBERED = 4_096;

/**
 * Which tenants' attempts failed on one breaker lately, so an opening can say whose requests
 * opened it (`openedBy` on the `breaker` event): a breaker opened by one tenant while the others'
 * calls succeed is worth an operator's look. Failures older than the breaker's window are
 * forgotten, and so is everything once it has been reported (each opening names its own).
 */
export class FailureTenants {
  private at: number[] = [];
  private tenants: string[] = [];

  constructor(private readonly windowMs: number) {}

  /** Notes one failure counted by the breaker. */
  note(tenant: string, nowMs: number): void {
    this.at.push(nowMs);
    this.tenants.push(tenant);
    if (this.at.length > MAX_REMEMBERED) {
      this.at.splice(0, this.at.length - MAX_REMEMBERED);
      this.tenants.splice(0, this.tenants.length - MAX_REMEMBERED);
    }
  }

  /** Failures per tenant within the window ending now, then forgets them all. */
  take(nowMs: number): Record<string, number> {
    const counts: Record<string, number> = Object.create(null) as Record<string, number>;
    for (let i = 0; i < this.at.length; i++) {
      if (this.at[i]! <= nowMs - this.windowMs) continue;
      const t = this.tenants[i]!;
      counts[t] = (counts[t] ?? 0) + 1;
    }
    this.clear();
    return { ...counts };
  }

  clear(): void {
    this.at = [];
    this.tenants = [];
  }
}
