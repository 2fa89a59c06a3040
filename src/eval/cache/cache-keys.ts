import type { Target } from '../../config/index.js';
import type { Message } from '../../types.js';
import type { EvalCase } from '../case-types.js';

/** What of a target changes its answers: who answers, and the config that shapes the answer. */
export function targetIdentity(t: Pick<Target, 'key' | 'provider' | 'model' | 'maxTokens' | 'temperature'>): unknown {
  return { key: t.key, provider: t.provider, model: t.model, maxTokens: t.maxTokens ?? null, temperature: t.temperature ?? null };
}

/** A chain's identity for the graders' entries: its targets in order, as `targetIdentity`. */
export function chainIdentity(chains: Record<string, readonly Target[]>, chain: string): unknown {
  return (Object.hasOwn(chains, chain) ? chains[chain]! : []).map(targetIdentity);
}

/**
 * The key of a target's answer to one case: the target, the case's content as sent (messages after
 * templating, tools, tool choice, options, response format), the prompt and the repeat index. The
 * case's id and its expectations are not in it: editing an expectation re-grades, never re-asks.
 */
export function answerKey(target: Target, evalCase: EvalCase, messages: readonly Message[], prompt: string | undefined, repeat: number): unknown {
  return {
    kind: 'answer', target: targetIdentity(target), messages, tools: evalCase.tools ?? null, toolChoice: evalCase.toolChoice ?? null,
    options: evalCase.options, responseFormat: evalCase.responseFormat ?? null, prompt: prompt ?? null, repeat,
  };
}
