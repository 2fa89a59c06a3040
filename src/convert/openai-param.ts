/** ChatRequest fields whose name in an OpenAI Chat Completions body differs (fromOpenAI's mapping, reversed). */
const TOP_LEVEL: Readonly<Record<string, string>> = {
  topP: 'top_p', toolChoice: 'tool_choice', parallelToolCalls: 'parallel_tool_calls', responseFormat: 'response_format',
  reasoning: 'reasoning_effort', chain: 'model',
};

/**
 * The OpenAI Chat Completions name of a `ChatRequest` parameter path (a RouterError's `param`), so a
 * client of the gateway is told the field it sent: `maxTokens` -> `max_tokens` (or
 * `max_completion_tokens`, when `body` used that), `tools[0].name` -> `tools[0].function.name`,
 * `messages[2].toolCallId` -> `messages[2].tool_call_id`, `providerOptions.openai.metadata` -> `metadata`. A path with no other name passes as it is.
 */
export function openAIParam(param: string, body: Readonly<Record<string, unknown>> = {}): string {
  const head = /^[^.[]*/.exec(param)![0];
  const rest = param.slice(head.length);
  switch (head) {
    case 'maxTokens':
      return `${body.max_completion_tokens !== undefined ? 'max_completion_tokens' : 'max_tokens'}${rest}`;
    case 'reasoning':
      return 'reasoning_effort';
    case 'responseFormat':
      return `response_format${rest.replace(/^\.(schema|name|strict)/, '.json_schema.$1')}`;
    case 'tools':
      return `tools${rest.replace(/^(\[\d+\])\.(name|description|parameters|strict)/, '$1.function.$2')}`;
    case 'messages':
      return `messages${rest
        .replace(/^(\[\d+\])\.toolCallId/, '$1.tool_call_id')
        .replace(/^(\[\d+\])\.toolCalls(\[\d+\])\.(name|arguments)/, '$1.tool_calls$2.function.$3')
        .replace(/^(\[\d+\])\.toolCalls/, '$1.tool_calls')}`;
    case 'providerOptions': {
      // fromOpenAI passes OpenAI-only fields (`metadata`, `logit_bias`, ...) under both of these keys.
      const passed = /^\.(?:openai|openai-compatible)\.(.+)$/.exec(rest);
      return passed ? passed[1]! : param;
    }
    default:
      return `${TOP_LEVEL[head] ?? head}${rest}`;
  }
}
