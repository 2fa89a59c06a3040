import type OpenAI from 'openai';
import type { ProviderRequest } from '../types.js';
import { openAIMessages } from './messages.js';
import { isReasoningModel, openAIMaxTokens, openAIParameters } from './parameters.js';
import { promptCacheKey } from './prompt-cache-key.js';
import { openAIResponseFormat } from './response-format.js';
import { openAITools } from './tools.js';

/**
 * The Chat Completions body for one request: messages, tools, `response_format` and parameters,
 * each mapped in its own module; `openai-compatible` servers (vLLM, Ollama) take `max_tokens` and
 * `system` for `developer`. Breakpoints become `prompt_cache_key` on OpenAI itself. The request's
 * `extraBody` is merged last, verbatim, so it wins.
 */
export function openAIBody(request: ProviderRequest, compatible: boolean, provider = compatible ? 'openai-compatible' : 'openai'): OpenAI.ChatCompletionCreateParamsNonStreaming {
  if (isPlainText(request, compatible)) return plainBody(request, compatible);
  const where = { provider, model: request.model };
  const messages = openAIMessages(request.messages, where, compatible);
  const { response_format, instruction } = openAIResponseFormat(request.responseFormat, request.messages);
  if (instruction) messages.unshift({ role: 'system', content: instruction });
  const body: OpenAI.ChatCompletionCreateParamsNonStreaming = {
    model: request.model,
    messages,
    ...openAITools(request),
    ...(response_format ? { response_format } : {}),
    ...openAIParameters(request, compatible),
  };
  // Cache breakpoints become OpenAI's routing key (prompt-cache-key.ts); compatible servers may refuse the field.
  const key = compatible ? undefined : promptCacheKey(request);
  if (key !== undefined) body.prompt_cache_key = key;
  return request.extraBody ? Object.assign({}, body, request.extraBody) : body;
}

/**
 * A request with nothing but text messages OpenAI takes as they are, and the two common parameters.
 * Every message must be exactly `{role, content}`: an assistant turn carrying `providerParts`
 * (Anthropic thinking from `result.message`) or even `toolCalls: []` takes the full mapping, which
 * drops what OpenAI refuses ("Additional properties are not allowed").
 */
function isPlainText(request: ProviderRequest, compatible: boolean): boolean {
  if (request.tools || request.responseFormat || request.stop || request.topP !== undefined || request.seed !== undefined
    || request.user !== undefined || request.reasoning || request.extraBody) return false;
  for (const m of request.messages) {
    if (typeof m.content !== 'string' || m.role === 'tool' || (m.role === 'developer' && compatible)) return false;
    for (const key in m) if (key !== 'role' && key !== 'content') return false;
  }
  return true;
}

/**
 * The common case, built without copying the history: the caller's text messages already have the
 * shape Chat Completions takes (`role` and `content`, nothing else, checked by the router).
 */
function plainBody(request: ProviderRequest, compatible: boolean): OpenAI.ChatCompletionCreateParamsNonStreaming {
  const body: OpenAI.ChatCompletionCreateParamsNonStreaming = { model: request.model, messages: request.messages as OpenAI.ChatCompletionMessageParam[] };
  if (request.maxTokens !== undefined) {
    if (compatible) body.max_tokens = request.maxTokens;
    else body.max_completion_tokens = openAIMaxTokens(request.maxTokens, request);
  }
  if (request.temperature !== undefined && (compatible || !isReasoningModel(request.model))) body.temperature = request.temperature;
  return body;
}
