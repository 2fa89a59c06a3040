import type { Gauge } from 'prom-client';
import type { RateLimitSnapshot } from '../../types.js';

type Labels = { provider: string; model: string; window: string };
type WindowGauge = Gauge<'provider' | 'model' | 'window'>;

/** The last figures a provider reported for one rate-limit window of one target. */
interface WindowFigures {
  /** Made once, so a response's headers cost no label object and no label hash. */
  readonly labels: Labels;
  remaining?: number;
  limit?: number;
  headroom?: number;
}

const WINDOWS: ReadonlyArray<[keyof RateLimitSnapshot, string]> = [['requests', 'requests'], ['tokens', 'tokens'], ['inputTokens', 'input_tokens'], ['outputTokens', 'output_tokens']];

/**
 * The rate-limit gauges' figures, kept as plain numbers per target and window as responses arrive and
 * written into the gauges when they are read (a scrape): every response carries the headers, a
 * scrape comes every few seconds. Each gauge shows the last value reported, as a `set` on every
 * response would.
 */
export class RateLimitFigures {
  /** provider → model → window → figures. */
  private readonly byTarget = new Map<string, Map<string, Map<string, WindowFigures>>>();

  /** Takes a response's rate-limit snapshot: each field it states replaces the last one. */
  record(provider: string, model: string, snapshot: RateLimitSnapshot): void {
    for (const [field, window] of WINDOWS) {
      const w = snapshot[field];
      if (!w) continue;
      const f = this.figures(provider, model, window);
      if (w.remaining !== undefined) f.remaining = w.remaining;
      if (w.limit !== undefined) f.limit = w.limit;
      if (w.remaining !== undefined && w.limit) f.headroom = Math.min(1, Math.max(0, w.remaining / w.limit));
    }
  }

  /** Writes one figure of every target and window into its gauge (from the gauge's `collect`). */
  write(gauge: WindowGauge, figure: 'remaining' | 'limit' | 'headroom'): void {
    for (const models of this.byTarget.values()) {
      for (const windows of models.values()) {
        for (const f of windows.values()) {
          const v = f[figure];
          if (v !== undefined) gauge.set(f.labels, v);
        }
      }
    }
  }

  private figures(provider: string, model: string, window: string): WindowFigures {
    let models = this.byTarget.get(provider);
    if (!models) this.byTarget.set(provider, (models = new Map()));
    let windows = models.get(model);
    if (!windows) models.set(model, (windows = new Map()));
    let f = windows.get(window);
    if (!f) windows.set(window, (f = { labels: { provider, model, window } }));
    return f;
  }
}
