// switchyard-llm/ai-sdk: a Vercel AI SDK (ai 6.x) provider whose models are a router's chains.
export { createSwitchyard } from './create-switchyard.js';
export type { SwitchyardProvider } from './create-switchyard.js';
export { SwitchyardLanguageModel } from './language-model.js';
export { SwitchyardEmbeddingModel } from './embedding-model.js';
export type { SwitchyardEmbeddingSettings } from './embedding-model.js';
export type { SwitchyardModelSettings } from './call-options.js';
export { toApiError } from './api-error.js';
