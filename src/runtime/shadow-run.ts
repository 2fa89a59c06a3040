import type { ShadowPolicy, Target } from '../config/index.js';
import { shadowAgreement } from '../decide/shadow-agreement.js';
import { RouterError } from '../errors.js';
import type { ShadowEvent } from '../observe/events.js';
import type { Call } from '../policy/state/call.js';
import type { ChatRequest, ChatResult } from '../types.js';
import type { ShadowGrader } from './shadow-grader.js';

/**
 * The request a shadow target is sent: what the caller asked the model, and nothing of how the call
 * runs (no chain, tenant, signal, deadline, idempotency key, cache flag, gateway key or pass-through
 * bytes: those are the caller's), so a shadow never runs on the caller's time or budget.
 */
export function shadowRequest(request: ChatRequest, chain: string): ChatRequest {
  const r: ChatRequest = { chain, messages: request.messages, tenant: 'shadow', cache: false };
  if (request.maxTokens !== undefined) r.maxTokens = request.maxTokens;
  if (request.temperature !== undefined) r.temperature = request.temperature;
  if (request.tools !== undefined) r.tools = request.tools;
  if (request.toolChoice !== undefined) r.toolChoice = request.toolChoice;
  if (request.parallelToolCalls !== undefined) r.parallelToolCalls = request.parallelToolCalls;
  if (request.responseFormat !== undefined) r.responseFormat = request.responseFormat;
  if (request.stop !== undefined) r.stop = request.stop;
  if (request.topP !== undefined) r.topP = request.topP;
  if (request.seed !== undefined) r.seed = request.seed;
  if (request.user !== undefined) r.user = request.user;
  if (request.reasoning !== undefined) r.reasoning = request.reasoning;
  if (request.providerOptions !== undefined) r.providerOptions = request.providerOptions;
  return r;
}

/** The fields of a shadow event every outcome carries. */
export function shadowEventBase(call: Call<ChatRequest>, real: ChatResult, target: Target, outcome: ShadowEvent['outcome']): ShadowEvent {
  const event: ShadowEvent = {
    callId: call.id, tenant: call.tenant.name, chain: call.chain, operation: call.operation,
    real: { provider: real.provider, model: real.model, latencyMs: real.latencyMs },
    provider: target.provider, model: target.model, outcome,
  };
  if (real.costUsd !== undefined) event.real.costUsd = real.costUsd;
  return event;
}

/** Whether a shadow's failure is its target's budget being full: every attempt skipped for a local limit, none sent. */
export function budgetFull(shadow: Call): boolean {
  return shadow.attempts.length > 0 && shadow.attempts.every((a) => a.skipped && a.kind === 'local_limit');
}

/** Scores a shadow's answer into its event: agreement always; expectations and judge when the chain asks. */
export async function scoreShadow(event: ShadowEvent, policy: ShadowPolicy, request: ChatRequest, real: ChatResult, answer: ChatResult, grader: ShadowGrader | undefined, signal: AbortSignal): Promise<void> {
  event.agreement = shadowAgreement(real.text, answer.text);
  if (policy.expect === undefined && policy.judge === undefined) return;
  if (!grader) {
    event.graderError = 'no shadow grader: give createRouter a shadowGrader (switchyard serve gives evalShadowGrader)';
    return;
  }
  const problems: string[] = [];
  if (policy.expect !== undefined) {
    try {
      const results = await grader.expect(policy.expect, answer, request);
      event.expect = { pass: results.every((r) => r.pass), failed: results.filter((r) => !r.pass).map((r) => (r.reason === undefined ? { name: r.name } : { name: r.name, reason: r.reason })) };
    } catch (err) {
      problems.push(`expect: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  if (policy.judge !== undefined) {
    const { rubric, chain, minScore } = policy.judge;
    try {
      const verdict = await grader.judge({ chain, rubric, question: request.messages, answer: answer.text, reference: real.text, signal });
      event.judge = { score: verdict.score, reason: verdict.reason };
      if (minScore !== undefined) event.judge.pass = verdict.score >= minScore;
      if (verdict.costUsd !== undefined) event.judge.costUsd = verdict.costUsd;
    } catch (err) {
      problems.push(`judge: ${err instanceof RouterError || err instanceof Error ? err.message : String(err)}`);
    }
  }
  if (problems.length > 0) event.graderError = problems.join('; ');
}
