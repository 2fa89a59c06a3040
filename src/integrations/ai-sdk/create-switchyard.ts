import { NoSuchModelError, type ProviderV3 } from '@ai-sdk/provider';
import type { Router } from '../../router.js';
import type { SwitchyardModelSettings } from './call-options.js';
import { SwitchyardEmbeddingModel, type SwitchyardEmbeddingSettings } from './embedding-model.js';
import { SwitchyardLanguageModel } from './language-model.js';

/** An AI SDK provider whose models are a router's chains: `switchyard('default')`. */
export interface SwitchyardProvider extends ProviderV3 {
  /** The chain `chain` as a language model. */
  (chain: string, settings?: SwitchyardModelSettings): SwitchyardLanguageModel;
  languageModel(chain: string, settings?: SwitchyardModelSettings): SwitchyardLanguageModel;
  /** The chain `chain` (for `router.embed`, usually `embeddings`) as an embedding model. */
  embeddingModel(chain: string, settings?: SwitchyardEmbeddingSettings): SwitchyardEmbeddingModel;
  textEmbeddingModel(chain: string, settings?: SwitchyardEmbeddingSettings): SwitchyardEmbeddingModel;
}

/**
 * A Vercel AI SDK (ai 6.x) provider over a router: `generateText`, `streamText`, `generateObject`
 * and `embed` with `model: switchyard('<chain>')` go through that chain, tools, images and structured
 * output included. The router retries and falls through; the AI SDK should not retry on top of it,
 * and never does for Switchyard's errors (they are `APICallError`s with `isRetryable: false`).
 * @example
 * const switchyard = createSwitchyard(router);
 * const { text } = await generateText({ model: switchyard('default'), prompt: 'Hello', maxRetries: 0 });
 */
export function createSwitchyard(router: Router): SwitchyardProvider {
  const languageModel = (chain: string, settings?: SwitchyardModelSettings) => {
    if (!Object.hasOwn(router.config.chains, chain)) throw new NoSuchModelError({ modelId: chain, modelType: 'languageModel', message: `no chain "${chain}" (declared: ${Object.keys(router.config.chains).join(', ')})` });
    return new SwitchyardLanguageModel(router, chain, settings);
  };
  const embeddingModel = (chain: string, settings?: SwitchyardEmbeddingSettings) => {
    if (!Object.hasOwn(router.config.chains, chain)) throw new NoSuchModelError({ modelId: chain, modelType: 'embeddingModel', message: `no chain "${chain}" (declared: ${Object.keys(router.config.chains).join(', ')})` });
    return new SwitchyardEmbeddingModel(router, chain, settings);
  };
  const provider = (chain: string, settings?: SwitchyardModelSettings) => languageModel(chain, settings);
  return Object.assign(provider, {
    specificationVersion: 'v3' as const,
    languageModel,
    embeddingModel,
    textEmbeddingModel: embeddingModel,
    imageModel(modelId: string): never {
      throw new NoSuchModelError({ modelId, modelType: 'imageModel', message: 'Switchyard routes chat and embeddings only' });
    },
  });
}
