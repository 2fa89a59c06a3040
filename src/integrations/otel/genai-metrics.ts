import type { Attributes, Histogram, Meter } from '@opentelemetry/api';
import { GEN_AI } from './genai-attributes.js';

// Bucket boundaries the GenAI semantic conventions advise for these two histograms.
const DURATION_BUCKETS_S = [0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56, 5.12, 10.24, 20.48, 40.96, 81.92];
const TOKEN_BUCKETS = [1, 4, 16, 64, 256, 1024, 4096, 16384, 65536, 262144, 1048576, 4194304, 16777216, 67108864];

/** The GenAI client metrics: `gen_ai.client.operation.duration` (s) and `gen_ai.client.token.usage`. */
export class GenAiMetrics {
  private readonly duration: Histogram;
  private readonly tokens: Histogram;

  constructor(meter: Meter) {
    this.duration = meter.createHistogram('gen_ai.client.operation.duration', {
      unit: 's', description: 'GenAI operation duration', advice: { explicitBucketBoundaries: DURATION_BUCKETS_S },
    });
    this.tokens = meter.createHistogram('gen_ai.client.token.usage', {
      unit: '{token}', description: 'Number of input and output tokens used', advice: { explicitBucketBoundaries: TOKEN_BUCKETS },
    });
  }

  /** One request to a provider: how long it took, with `error.type` when it failed. */
  operation(attributes: Attributes, latencyMs: number): void {
    this.duration.record(latencyMs / 1000, attributes);
  }

  /** Tokens one answer used (the error-free attributes of its operation). */
  usage(attributes: Attributes, input: number | undefined, output: number | undefined): void {
    if (input !== undefined) this.tokens.record(input, Object.assign({}, attributes, { [GEN_AI.tokenType]: 'input' }));
    if (output !== undefined) this.tokens.record(output, Object.assign({}, attributes, { [GEN_AI.tokenType]: 'output' }));
  }
}
