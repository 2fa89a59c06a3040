import type { ProviderRequest } from '../../providers/types.js';
import type { TargetRuntime } from '../policy/target-runtime.js';
import type { ChatRequest } from '../types.js';

/** The request one target is sent: the call's request with the chain step's own defaults. */
export function providerRequest(request: ChatRequest, target: TargetRuntime): ProviderRequest {
  return {
    model: target.target.model,
    messages: request.messages,
    maxTokens: request.maxTokens ?? target.target.maxTokens,
    temperature: request.temperature ?? target.target.temperature,
  };
}
