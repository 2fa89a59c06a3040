import type { ProviderRequest, ProviderResponse } from '../../providers/types.js';
import { promptTokenEstimate } from '../decide/token-estimate.js';
import type { TokenEstimate } from '../policy/admission/budget.js';
import type { CallKind } from '../policy/steps/call-kind.js';
import { runHedged, type HedgeDeps } from '../policy/chain/hedge.js';
import type { TargetRuntime } from '../policy/state/target-runtime.js';
import type { Call } from '../policy/state/call.js';
import type { ChatRequest, ChatResult } from '../types.js';
import { withRawAnswer, type RawAnswer } from '../pass-through/seam.js';
import { RouterError } from '../errors.js';
import { ANSWER_MAX_DEPTH, nestsDeeperThan } from './input-bounds.js';
import { assistantMessage, parseOutput } from './output.js';
import { providerRequest } from './provider-request.js';
import { unsendableChatParam } from './unsendable-param.js';

/**
 * Prompt tokens (a real tokenizer only when a token budget needs it) and the output reservation:
 * `maxTokens` plus the thinking budget the router added (thinking is billed as output), or the target's default.
 */
export function chatTokens(call: Call, target: TargetRuntime, payload: ProviderRequest): TokenEstimate {
  const { limits } = target.chat.budget;
  const needsTokenizer = limits.tpm !== undefined || limits.itpm !== undefined || call.tenant.budget?.limits.tpm !== undefined;
  const output = payload.maxTokens === undefined ? target.reserveOutputTokens : payload.maxTokens + (payload.thinking?.addTokens ?? 0);
  return { input: promptTokenEstimate(payload, needsTokenizer ? target.tokenCount() : undefined), output };
}

/** Throws `invalid_output` when a tool call's arguments nest deeper than ANSWER_MAX_DEPTH. */
function boundedToolCalls(response: ProviderResponse, target: TargetRuntime): void {
  const { provider, model } = target.target;
  for (const call of response.toolCalls) {
    if (nestsDeeperThan(call.arguments, ANSWER_MAX_DEPTH)) {
      throw new RouterError('invalid_output', `${provider}:${model} answered a call of tool "${call.name}" whose arguments nest deeper than ${ANSWER_MAX_DEPTH} levels`, {
        provider, model, code: 'invalid_tool_arguments',
      });
    }
  }
}

/** A chat answer with its `responseFormat` object, parsed inside the attempt so the decision table sees `invalid_output`. */
export type ChatValue = ProviderResponse & { object?: unknown };

/** `router.chat` on the per-target pipeline: one answer, or a thrown RouterError. */
export const chatKind: CallKind<ProviderRequest, ChatValue> = {
  name: 'chat',
  keepsAttempt: false,
  payload: (call, target) => providerRequest(call.request as ChatRequest, target),
  endpoint: (target) => target.chat,
  estimateTokens: chatTokens,
  send: (adapter, payload, handle) => adapter.chat(payload, handle),
  accept(response, call, target): ChatValue {
    if (response.toolCalls.length > 0) boundedToolCalls(response, target);
    const format = (call.request as ChatRequest).responseFormat;
    if (!format) return response;
    // An answer cut short (`length`) or refused is reported as it is, not as malformed output.
    if (response.finishReason !== 'stop' && response.finishReason !== 'tool_calls') return response;
    if (response.toolCalls.length > 0) return response;
    return Object.assign({}, response, { object: parseOutput(response.text, format, { provider: target.target.provider, model: target.target.model }) });
  },
  attemptTimeoutMs: (_call, target) => target.attemptTimeoutMs,
  timeoutLabel: (ms) => `attempt timed out after ${ms} ms`,
  leaseTtlMs: (target) => target.leaseTtlMs,
  unsendableParam: unsendableChatParam,
};

/** Sends a chat call down its chain and shapes the answer; it reads of the router what a hedged chain reads. */
export async function chatCall(rt: HedgeDeps, call: Call<ChatRequest>): Promise<ChatResult> {
  rt.active.enter();
  try {
    return shape(rt, call, await runHedged(rt, call, chatKind));
  } finally {
    rt.active.leave();
  }
}

function shape(rt: Pick<HedgeDeps, 'clock'>, call: Call<ChatRequest>, { value, target, hedged }: { value: ChatValue; target: TargetRuntime; hedged?: boolean }): ChatResult {
  const result: ChatResult = {
    text: value.text,
    toolCalls: value.toolCalls,
    message: assistantMessage(value),
    provider: target.target.provider,
    model: target.target.model,
    ...(value.model ? { responseModel: value.model } : {}),
    finishReason: value.finishReason,
    usage: value.usage,
    attempts: call.attempts,
    latencyMs: rt.clock.now() - call.startedAtMs,
    requestId: value.requestId,
  };
  if (call.cost.usd !== undefined) result.costUsd = call.cost.usd;
  if ('object' in value) result.object = value.object;
  if (hedged) result.hedged = true;
  // Pass-through: the adapter's answer carries the upstream's body (the seam's member, not the public result's).
  if (value.raw !== undefined) withRawAnswer(result, value as RawAnswer);
  return result;
}
