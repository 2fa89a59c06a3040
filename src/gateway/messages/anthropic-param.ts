/** ChatRequest fields whose name in an Anthropic Messages body differs (fromAnthropic's mapping, reversed). */
const TOP_LEVEL: Readonly<Record<string, string>> = {
  maxTokens: 'max_tokens', topP: 'top_p', stop: 'stop_sequences', toolChoice: 'tool_choice', parallelToolCalls: 'tool_choice.disable_parallel_tool_use',
  reasoning: 'thinking', responseFormat: 'output_config.format', user: 'metadata.user_id', chain: 'model',
};

/**
 * The Anthropic Messages name of a `ChatRequest` parameter path (a RouterError's `param`), so a
 * client is told the field it sent: `maxTokens` -> `max_tokens`, `tools[0].parameters` ->
 * `tools[0].input_schema`, `messages[3].toolCallId` -> `messages[2].content[0].tool_use_id` (the
 * router's messages are not the body's: `paths` says where each came from).
 */
export function anthropicParam(param: string, paths: readonly string[]): string {
  const message = /^messages\[(\d+)\](.*)$/.exec(param);
  if (message) {
    const from = paths[Number(message[1])];
    if (from === undefined) return 'messages';
    const rest = message[2]!;
    if (/^\.toolCallId/.test(rest)) return `${from}.tool_use_id`;
    if (/^\.toolCalls/.test(rest) || /^\.content\[/.test(rest) && from === 'system') return `${from}.content`;
    if (from === 'system' || /\.content\[\d+\]$/.test(from)) return from;
    return `${from}${rest.startsWith('.content') ? '.content' : rest}`;
  }
  const tool = /^tools(\[\d+\])\.parameters(.*)$/.exec(param);
  if (tool) return `tools${tool[1]}.input_schema${tool[2]}`;
  const head = /^[^.[]*/.exec(param)![0];
  // A path into a field whose shape differs on the wire names the field itself.
  const whole = head === 'reasoning' || head === 'responseFormat' || head === 'user' || head === 'parallelToolCalls';
  return `${TOP_LEVEL[head] ?? head}${whole ? '' : param.slice(head.length)}`;
}
