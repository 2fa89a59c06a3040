// switchyard-llm/prometheus: prom-client metrics named switchyard_* for every call of a router.
export { collectMetrics } from './collect-metrics.js';
export type { CollectMetricsOptions } from './collect-metrics.js';
