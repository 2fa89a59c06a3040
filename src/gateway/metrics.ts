import type { Router } from '../router.js';

/** Where `/metrics` reads its text from: prom-client's registry by default, or anything that renders Prometheus text. */
export interface GatewayMetrics {
  /** The `content-type` of the text (prom-client's registry names it). */
  readonly contentType: string;
  metrics(): Promise<string> | string;
  /** Stops collecting (called when the gateway closes). */
  stop?(): void;
}

/**
 * The default `/metrics`: the router's `switchyard_*` metrics (`collectMetrics` of
 * `switchyard-llm/prometheus`) in a registry of this gateway's own. Undefined when prom-client, an
 * optional peer dependency, is not installed.
 */
export async function prometheusMetrics(router: Router): Promise<GatewayMetrics | undefined> {
  let client: typeof import('prom-client');
  try {
    client = await import('prom-client');
  } catch {
    return undefined;
  }
  const { collectMetrics } = await import('../integrations/prometheus/index.js');
  const registry = new client.Registry();
  const stop = collectMetrics(router, { registry });
  return { contentType: registry.contentType, metrics: () => registry.metrics(), stop };
}
