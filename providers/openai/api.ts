import type { ProviderCallOptions, ProviderRequest, ProviderResponse, ProviderStreamEvent } from '../types.js';

/**
 * One OpenAI API as the adapter calls it (Chat Completions, or the Responses API), chosen once when
 * the adapter is built: its calls read top to bottom, each asking only whether the router handed
 * the body over as bytes (pass-through, on the API's `Wire`) or as fields (through the SDK).
 */
export interface OpenAIApi {
  chat(request: ProviderRequest, options: ProviderCallOptions): Promise<ProviderResponse>;
  stream(request: ProviderRequest, options: ProviderCallOptions): AsyncIterable<ProviderStreamEvent>;
}
