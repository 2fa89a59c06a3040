import type { WireParam } from '../error-reply.js';

const TOP_LEVEL: Readonly<Record<string, string>> = {
  maxTokens: 'max_output_tokens', topP: 'top_p', toolChoice: 'tool_choice', parallelToolCalls: 'parallel_tool_calls',
  responseFormat: 'text.format', reasoning: 'reasoning.effort', chain: 'model',
};

/**
 * The Responses wire name of a router parameter a RouterError names, so the client is told the
 * field it sent: `maxTokens` -> `max_output_tokens`, `messages[3].content` -> `input[1].content`
 * (by `paths`, where each message came from), `responseFormat.schema` -> `text.format.schema`.
 */
export function responsesParam(paths: readonly string[]): WireParam {
  return (param) => {
    const head = /^[^.[]*/.exec(param)![0];
    const rest = param.slice(head.length);
    if (head === 'messages') {
      const m = /^\[(\d+)\](.*)$/.exec(rest);
      const from = m ? paths[Number(m[1])] : undefined;
      if (!from) return 'input';
      const inner = m![2]!;
      if (!from.startsWith('input[')) return from;
      // A path inside a message maps where the item has a field for it: its content parts, a tool result's call_id.
      if (inner === '.toolCallId') return `${from}.call_id`;
      if (inner.startsWith('.content')) return `${from}${inner.replace(/^(\.content\[\d+\])\.url$/, '$1.image_url').replace(/^(\.content\[\d+\])\.data$/, '$1.file_data')}`;
      return from;
    }
    if (head === 'responseFormat') return `text.format${rest}`;
    if (head === 'reasoning') return 'reasoning.effort';
    return `${TOP_LEVEL[head] ?? head}${rest}`;
  };
}
