import type { ReasoningOptions } from '../types.js';

/** The effort words every provider family has: the router maps these itself, the rest go to OpenAI as written. */
export const SHARED_EFFORTS: ReadonlySet<string> = new Set(['minimal', 'low', 'medium', 'high']);

/**
 * An OpenAI reasoning effort (Chat Completions' `reasoning_effort`, Responses' `reasoning.effort`) as
 * the router's `reasoning`: the four shared levels map; `none`, `xhigh` and `max`, which only OpenAI
 * has, also go to OpenAI as written, into `openai` (the request's `providerOptions.openai`). Absent or
 * null is no reasoning. `false` for any other value: the caller refuses it in its own wire's words.
 */
export function reasoningEffortOf(effort: unknown, openai: Record<string, unknown>): ReasoningOptions | undefined | false {
  if (effort === null || effort === undefined) return undefined;
  if (typeof effort === 'string' && SHARED_EFFORTS.has(effort)) return { effort: effort as ReasoningOptions['effort'] };
  if (effort === 'none') {
    openai.reasoning_effort = 'none';
    return undefined;
  }
  if (effort === 'xhigh' || effort === 'max') {
    openai.reasoning_effort = effort;
    return { effort: 'high' };
  }
  return false;
}
