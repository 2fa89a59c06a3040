import type { ProviderRequest, ProviderResponse } from '../../providers/types.js';
import { promptTokenEstimate } from '../decide/token-estimate.js';
import type { CallKind } from '../policy/call-kind.js';
import { runChain } from '../policy/run-chain.js';
import type { Call, Runtime } from '../runtime.js';
import type { ChatRequest, ChatResult } from '../types.js';
import { providerRequest } from './provider-request.js';

/** Prompt tokens (a real tokenizer only when a TPM budget needs it) plus the output reservation. */
export function chatTokens(call: Call<ChatRequest>, target: Call['targets'][number], payload: ProviderRequest): number {
  const needsTokenizer = target.chat.budget.limits.tpm !== undefined || call.tenant.budget?.limits.tpm !== undefined;
  return promptTokenEstimate(payload.messages, needsTokenizer ? target.countTokens : undefined) + (payload.maxTokens ?? target.reserveOutputTokens);
}

/** `router.chat` on the per-target pipeline: one answer, or a thrown RouterError. */
export const chatKind: CallKind<ProviderRequest, ProviderResponse> = {
  name: 'chat',
  keepsAttempt: false,
  payload: (call, target) => providerRequest(call.request as ChatRequest, target),
  endpoint: (target) => target.chat,
  estimateTokens: (call, target, payload) => chatTokens(call as Call<ChatRequest>, target, payload),
  send: (adapter, payload, handle) => adapter.chat(payload, handle),
  attemptTimeoutMs: (_call, target) => target.attemptTimeoutMs,
  timeoutLabel: (ms) => `attempt timed out after ${ms} ms`,
  leaseTtlMs: (target) => target.leaseTtlMs,
};

/** Sends a chat call down its chain and shapes the answer. */
export async function chatCall(rt: Runtime, call: Call<ChatRequest>): Promise<ChatResult> {
  const { value, target } = await runChain(rt, call, chatKind);
  return {
    text: value.text,
    toolCalls: value.toolCalls,
    message: { role: 'assistant', content: value.text },
    provider: target.target.provider,
    model: target.target.model,
    finishReason: value.finishReason,
    usage: value.usage,
    attempts: call.attempts,
    latencyMs: rt.clock.now() - call.startedAtMs,
    requestId: value.requestId,
  };
}
