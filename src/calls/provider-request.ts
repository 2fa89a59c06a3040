import type { ProviderRequest, ProviderResponseFormat, ProviderTool } from '../../providers/types.js';
import type { TargetRuntime } from '../policy/state/target-runtime.js';
import { autoBreakpoints } from '../decide/auto-breakpoints.js';
import { passThroughSend } from '../decide/pass-through-send.js';
import { keptHistory } from '../decide/reasoning-replay.js';
import { thinkingPlan } from '../decide/thinking-budget.js';
import { maxTokensIncludeThinking } from '../convert/max-tokens-meaning.js';
import { anthropicBetaOf } from '../pass-through/anthropic-beta.js';
import { passThroughOf, responsesFieldsOf } from '../pass-through/seam.js';
import { toJSONSchema } from '../convert/schema-input.js';
import type { ChatRequest, ResponseFormat, Tool } from '../types.js';

function providerTool(tool: Tool): ProviderTool {
  const out: ProviderTool = { name: tool.name, parameters: toJSONSchema(tool.parameters) };
  if (tool.description !== undefined) out.description = tool.description;
  if (tool.strict !== undefined) out.strict = tool.strict;
  if (tool.cache) out.cache = tool.cache;
  return out;
}

/** `responseFormat` for adapters: JSON Schema, named (`response` unless given), strict unless turned off. */
export function providerResponseFormat(format: ResponseFormat): ProviderResponseFormat {
  if (format.type === 'json') return { type: 'json' };
  return { type: 'json_schema', name: format.name ?? 'response', schema: toJSONSchema(format.schema), strict: format.strict ?? true };
}

/** The call's `providerOptions` for this target: those for its provider type, then those for its provider name. */
function extraBody(request: ChatRequest, target: TargetRuntime): Record<string, unknown> | undefined {
  const options = request.providerOptions;
  if (!options) return undefined;
  const { type, name } = target.provider;
  const byType = Object.hasOwn(options, type) ? options[type] : undefined;
  const byName = name !== type && Object.hasOwn(options, name) ? options[name] : undefined;
  if (!byType && !byName) return undefined;
  return Object.assign({}, byType, byName);
}

/**
 * Provider types `promptCache.auto` places breakpoints for: those that cache by breakpoints
 * (Anthropic `cache_control`, Bedrock `cachePoint`) and OpenAI, whose `prompt_cache_key` is made
 * from them (docs/prompt-caching.md). Gemini caches implicitly; OpenAI-compatible servers get none.
 */
const AUTO_CACHE_TYPES: ReadonlySet<string> = new Set(['anthropic', 'bedrock', 'openai']);

/** The request one target is sent: the call's request with the chain step's own defaults, schemas as JSON Schema. */
export function providerRequest(request: ChatRequest, target: TargetRuntime): ProviderRequest {
  const out: ProviderRequest = {
    model: target.target.model,
    // Reasoning parts of another family are dropped here; the adapter replays or translates the rest.
    messages: keptHistory(request.messages, target.provider.type, target.target.model, (target.provider as { api?: string }).api),
    maxTokens: request.maxTokens ?? target.target.maxTokens,
    temperature: request.temperature ?? target.target.temperature,
  };
  if (request.tools && request.tools.length > 0) out.tools = request.tools.map(providerTool);
  if (request.toolChoice !== undefined) out.toolChoice = request.toolChoice;
  if (request.parallelToolCalls !== undefined) out.parallelToolCalls = request.parallelToolCalls;
  if (request.responseFormat) out.responseFormat = providerResponseFormat(request.responseFormat);
  if (request.stop !== undefined) out.stop = typeof request.stop === 'string' ? [request.stop] : request.stop;
  if (request.topP !== undefined) out.topP = request.topP;
  if (request.seed !== undefined) out.seed = request.seed;
  if (request.user !== undefined) out.user = request.user;
  if (request.reasoning) out.reasoning = request.reasoning;
  // maxTokens is the visible answer's: a thinking model gets its thinking budget on top (docs/providers.md).
  if (target.thinking && out.maxTokens !== undefined) {
    const plan = thinkingPlan(target.thinking, request.reasoning, maxTokensIncludeThinking(request, target.thinking));
    if (plan) out.thinking = plan;
  }
  const extra = extraBody(request, target);
  if (extra) out.extraBody = extra;
  // The gateway client's anthropic-beta header: Anthropic's API (and Claude on Bedrock) only.
  const beta = anthropicBetaOf(request);
  if (beta !== undefined && (target.provider.type === 'anthropic' || target.provider.type === 'bedrock')) out.anthropicBeta = beta;
  const fields = responsesFieldsOf(request);
  if (fields) out.responsesFields = fields;
  // promptCache.auto: breakpoints where Anthropic recommends them, on a call that set none.
  let placed = false;
  if (target.target.promptCacheAuto && AUTO_CACHE_TYPES.has(target.provider.type)) {
    const auto = autoBreakpoints(out.messages, out.tools);
    if (auto) {
      placed = true;
      out.messages = auto.messages;
      if (auto.tools) out.tools = auto.tools;
    }
  }
  // Pass-through (the gateway's seam): the client's bytes when this target takes them as they are;
  // never when auto breakpoints were placed for a target that caches by them (bytes cannot carry them).
  const pass = placed && target.provider.type !== 'openai' ? undefined : passThroughOf(request);
  if (pass && target.adapter.rawTarget) {
    const raw = passThroughSend(pass, target.adapter.rawTarget(out.model), { maxTokens: out.thinking && out.maxTokens !== undefined ? out.maxTokens + out.thinking.addTokens : out.maxTokens, temperature: out.temperature, extraBody: extra }, request.chain ?? 'default', out.model);
    if (raw !== undefined) {
      out.raw = raw;
      if (pass.addsUsage) out.rawAddsUsage = true;
    }
  }
  return out;
}
