import type OpenAI from 'openai';
import type { ProviderRequest } from '../types.js';
import { openAIMessages } from './messages.js';
import { openAIParameters } from './parameters.js';
import { openAIResponseFormat } from './response-format.js';
import { openAITools } from './tools.js';

/**
 * The Chat Completions body for one request: messages, tools, `response_format` and parameters,
 * each mapped in its own module; `openai-compatible` servers (vLLM, Ollama) take `max_tokens` and
 * `system` for `developer`. The request's `extraBody` is merged last, verbatim, so it wins.
 */
export function openAIBody(request: ProviderRequest, compatible: boolean, provider = compatible ? 'openai-compatible' : 'openai'): OpenAI.ChatCompletionCreateParamsNonStreaming {
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
  return request.extraBody ? { ...body, ...request.extraBody } : body;
}
