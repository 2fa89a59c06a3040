import { anthropicAdapter } from './anthropic/adapter.js';
import { bedrockAdapter } from './bedrock/adapter.js';
import { fakeAdapter } from './fake/adapter.js';
import { geminiAdapter } from './gemini/adapter.js';
import { openAIAdapter } from './openai/adapter.js';
import type { AdapterContext, ProviderAdapter } from './types.js';

export type {
  AdapterContext, ProviderAdapter, ProviderCallOptions, ProviderEmbedRequest, ProviderEmbedResponse, ProviderRequest, ProviderResponse,
  ProviderResponseFormat, ProviderStreamEvent, ProviderTool, ProviderTraits,
} from './types.js';
export type { FakeAdapter } from './fake/adapter.js';
/** A Bedrock model id's traits (its vendor: Claude's thinking replays only to Claude; src/decide/reasoning-replay.ts). */
export { bedrockModelTraits } from './bedrock/adapter.js';

/** Builds the adapter for a provider's `type`. */
export function createAdapter(ctx: AdapterContext): ProviderAdapter {
  switch (ctx.provider.type) {
    case 'openai':
    case 'openai-compatible':
      return openAIAdapter(ctx);
    case 'anthropic':
      return anthropicAdapter(ctx);
    case 'gemini':
      return geminiAdapter(ctx);
    case 'bedrock':
      return bedrockAdapter(ctx);
    case 'fake':
      return fakeAdapter(ctx);
  }
}
