// switchyard-llm/otel: OpenTelemetry spans and GenAI client metrics for every call of a router.
export { instrument } from './instrument.js';
export type { InstrumentOptions } from './instrument.js';
