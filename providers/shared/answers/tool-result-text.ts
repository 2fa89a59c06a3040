import type { Message } from '../../../src/types.js';

const MAX_SNIPPET = 200;

function snippet(content: string): string {
  const flat = content.replace(/\s+/g, ' ').trim();
  return flat.length > MAX_SNIPPET ? `${flat.slice(0, MAX_SNIPPET)}…` : flat;
}

/**
 * When the conversation ends in tool results, the text the simulated model answers with: one
 * sentence per result, in order, naming the tool (found through the call ids of the assistant turn
 * before them) and quoting its result: `Tool get_weather returned: {"temp": 22}.`, or
 * `Tool get_weather failed: timeout.` for an error result. Undefined when the last message is not a
 * tool result.
 */
export function toolResultAnswer(messages: readonly Message[]): string | undefined {
  let start = messages.length;
  while (start > 0 && messages[start - 1]!.role === 'tool') start--;
  if (start === messages.length) return undefined;
  const names = new Map<string, string>();
  for (let i = start - 1; i >= 0; i--) {
    const m = messages[i]!;
    if (m.role === 'assistant') {
      for (const call of m.toolCalls ?? []) names.set(call.id, call.name);
      break;
    }
  }
  return messages.slice(start).map((m) => {
    if (m.role !== 'tool') return '';
    const name = names.get(m.toolCallId) ?? m.toolCallId;
    return `Tool ${name} ${m.isError ? 'failed' : 'returned'}: ${snippet(m.content)}.`;
  }).join(' ');
}
