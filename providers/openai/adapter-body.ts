import type OpenAI from 'openai';
import type { ProviderRequest } from '../types.js';

/** Reasoning models reject any `temperature` but the default; the router drops it for them. */
const NO_TEMPERATURE = /^(o\d|gpt-5)/;

/** The Chat Completions body for one request; `openai-compatible` servers (vLLM, Ollama) take `max_tokens`. */
export function openAIBody(request: ProviderRequest, compatible: boolean): OpenAI.ChatCompletionCreateParamsNonStreaming {
  const body: OpenAI.ChatCompletionCreateParamsNonStreaming = { model: request.model, messages: request.messages as OpenAI.ChatCompletionMessageParam[] };
  if (request.maxTokens !== undefined) {
    if (compatible) body.max_tokens = request.maxTokens;
    else body.max_completion_tokens = request.maxTokens;
  }
  if (request.temperature !== undefined && (compatible || !NO_TEMPERATURE.test(request.model))) {
    body.temperature = request.temperature;
  }
  return body;
}
