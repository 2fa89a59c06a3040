import type { EmbeddingModelV3, EmbeddingModelV3CallOptions, EmbeddingModelV3Result, JSONValue } from '@ai-sdk/provider';
import type { Router } from '../../router.js';
import type { EmbedRequest } from '../../types.js';
import { failure } from './api-error.js';
import { PROVIDER_KEY } from './prompt.js';

/** Switchyard's own options for an embedding model; all optional. */
export interface SwitchyardEmbeddingSettings {
  tenant?: string;
  /** Vector length, for models that can shorten theirs. */
  dimensions?: number;
  timeoutMs?: number;
}

/**
 * A Switchyard embeddings chain as an AI SDK embedding model: `router.embed`, which batches past a
 * provider's per-request ceiling itself and never mixes vectors of two models in one answer.
 */
export class SwitchyardEmbeddingModel implements EmbeddingModelV3 {
  readonly specificationVersion = 'v3' as const;
  readonly provider = 'switchyard';
  readonly maxEmbeddingsPerCall = undefined;
  readonly supportsParallelCalls = true;

  constructor(private readonly router: Router, readonly modelId: string, private readonly settings: SwitchyardEmbeddingSettings = {}) {}

  async doEmbed(options: EmbeddingModelV3CallOptions): Promise<EmbeddingModelV3Result> {
    const perCall = (options.providerOptions?.[PROVIDER_KEY] ?? {}) as SwitchyardEmbeddingSettings;
    const settings = Object.assign({}, this.settings, perCall);
    const request: EmbedRequest = {
      chain: this.modelId, input: options.values,
      ...(settings.tenant !== undefined ? { tenant: settings.tenant } : {}),
      ...(settings.dimensions !== undefined ? { dimensions: settings.dimensions } : {}),
      ...(settings.timeoutMs !== undefined ? { timeoutMs: settings.timeoutMs } : {}),
      ...(options.abortSignal ? { signal: options.abortSignal } : {}),
    };
    try {
      const result = await this.router.embed(request);
      const facts = { provider: result.provider, model: result.model, attempts: result.attempts, latencyMs: result.latencyMs };
      return {
        embeddings: result.embeddings,
        usage: { tokens: result.usage.inputTokens },
        providerMetadata: { [PROVIDER_KEY]: JSON.parse(JSON.stringify(facts)) as Record<string, JSONValue> },
        warnings: [],
      };
    } catch (err) {
      throw failure(err, this.modelId, request);
    }
  }
}
