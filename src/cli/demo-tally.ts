import type { ErrorKind } from '../errors.js';
import type { Router } from '../router.js';

/** What happened at one target over the run, from the router's events. */
export interface TargetTally {
  target: string;
  /** Requests sent (attempts that were not skipped). */
  requests: number;
  ok: number;
  rateLimited: number;
  serverErrors: number;
  otherErrors: number;
  /** Attempts skipped without a request, by why. */
  skipped: Partial<Record<ErrorKind, number>>;
  /** Times a call moved on from this target to the next (after failing, or skipping it). */
  fallThroughs: number;
  /** Calls this target answered. */
  answered: number;
  latenciesMs: number[];
}

/** A breaker's state change, `atMs` from the start of the run. */
export interface BreakerChange {
  key: string;
  state: 'open' | 'halfOpen' | 'closed';
  atMs: number;
}

/**
 * Listens to a router's `attempt`, `fallback` and `breaker` events and keeps the per-target counts the
 * demo's table shows. Call `answered(target)` for each call's result.
 */
export class DemoTally {
  readonly targets = new Map<string, TargetTally>();
  readonly breakers: BreakerChange[] = [];
  private readonly off: Array<() => void> = [];

  constructor(router: Router, targets: readonly string[], private readonly startedAtMs: number, private readonly now: () => number = Date.now) {
    for (const target of targets) this.row(target);
    this.off.push(router.on('attempt', (e) => {
      const row = this.row(`${e.provider}:${e.model}`);
      if (e.skipped) {
        row.skipped[e.kind!] = (row.skipped[e.kind!] ?? 0) + 1;
        return;
      }
      row.requests++;
      row.latenciesMs.push(e.latencyMs);
      if (e.ok) row.ok++;
      else if (e.status === 429 || e.kind === 'rate_limited') row.rateLimited++;
      else if (e.status !== undefined && e.status >= 500) row.serverErrors++;
      else row.otherErrors++;
    }));
    this.off.push(router.on('fallback', (e) => void this.row(`${e.provider}:${e.model}`).fallThroughs++));
    this.off.push(router.on('breaker', (e) => void this.breakers.push({ key: e.key, state: e.state, atMs: this.now() - this.startedAtMs })));
  }

  answered(target: string): void {
    this.row(target).answered++;
  }

  /** Breaker changes of the provider of `target` (scope `provider`) or of the target itself. */
  transitionsOf(target: string): BreakerChange[] {
    const provider = target.split(':')[0];
    return this.breakers.filter((b) => b.key === target || b.key === provider);
  }

  stop(): void {
    for (const off of this.off) off();
  }

  private row(target: string): TargetTally {
    let row = this.targets.get(target);
    if (!row) {
      row = { target, requests: 0, ok: 0, rateLimited: 0, serverErrors: 0, otherErrors: 0, skipped: {}, fallThroughs: 0, answered: 0, latenciesMs: [] };
      this.targets.set(target, row);
    }
    return row;
  }
}
