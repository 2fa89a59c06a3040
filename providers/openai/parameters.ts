import type OpenAI from 'openai';
import type { ProviderRequest, ThinkingTraits } from '../types.js';

type Parameters = Pick<OpenAI.ChatCompletionCreateParamsNonStreaming,
  'max_tokens' | 'max_completion_tokens' | 'temperature' | 'top_p' | 'stop' | 'seed' | 'user' | 'reasoning_effort'>;

/** OpenAI's reasoning models (o-series, gpt-5 except its chat variants): they reject sampling parameters and `stop`. */
const REASONING_MODEL = /^(o\d|gpt-5(?!.*-chat))/;

/** True for an OpenAI model that reasons, and so rejects `temperature`, `top_p` and `stop`. */
export function isReasoningModel(model: string): boolean {
  return REASONING_MODEL.test(model);
}

/**
 * `max_completion_tokens` for `openai` (set `maxTokens`): it covers reasoning and the visible answer
 * together, so a reasoning model gets the router's reasoning allowance on top (src/decide/thinking-budget.ts).
 */
export function openAIMaxTokens(maxTokens: number, request: ProviderRequest): number {
  return maxTokens + (request.thinking?.addTokens ?? 0);
}

/**
 * The sampling and control parameters. `openai`: `max_completion_tokens` (reasoning models refuse
 * `max_tokens`); `temperature`, `top_p` and `stop` dropped for reasoning models, which reject them;
 * `reasoning_effort` sent to reasoning models only (others reject it). `openai-compatible` servers
 * (vLLM, Ollama) read `max_tokens` and get everything as asked: the server decides what it takes.
 */
export function openAIParameters(request: ProviderRequest, compatible: boolean): Parameters {
  const reasoning = !compatible && isReasoningModel(request.model);
  const out: Parameters = {};
  if (request.maxTokens !== undefined) {
    if (compatible) out.max_tokens = request.maxTokens;
    else out.max_completion_tokens = openAIMaxTokens(request.maxTokens, request);
  }
  if (request.temperature !== undefined && !reasoning) out.temperature = request.temperature;
  if (request.topP !== undefined && !reasoning) out.top_p = request.topP;
  if (request.stop && request.stop.length > 0 && !reasoning) out.stop = request.stop;
  if (request.seed !== undefined) out.seed = request.seed;
  if (request.user !== undefined) out.user = request.user;
  const effort = reasoning ? request.thinking?.effort ?? request.reasoning?.effort : request.reasoning?.effort;
  if (effort && (compatible || reasoning)) out.reasoning_effort = effort;
  return out;
}

const REASONING_TRAITS: ThinkingTraits = Object.freeze({ style: 'openai-effort', byDefault: true, minBudget: 0, canDisable: false });

/** How an OpenAI model thinks, for the router's reasoning allowance: reasoning models at their effort, others not at all. */
export function openAIThinkingTraits(model: string): ThinkingTraits | undefined {
  return isReasoningModel(model) ? REASONING_TRAITS : undefined;
}
