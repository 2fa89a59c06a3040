import type OpenAI from 'openai';
import type { AssistantMessage, Message } from '../../src/types.js';
import { openAIToolId } from '../shared/tool-call-id.js';
import { openAIContentParts } from './content-parts.js';

interface Where {
  provider: string;
  model: string;
}

function assistantMessage(message: AssistantMessage): OpenAI.ChatCompletionAssistantMessageParam {
  const calls = message.toolCalls ?? [];
  // Anthropic thinking blocks (providerParts) mean nothing to OpenAI and are dropped.
  if (calls.length === 0) return { role: 'assistant', content: message.content ?? '' };
  return {
    role: 'assistant',
    // "content is required unless tool_calls is specified": a tool-only turn sends null, never "".
    content: message.content ? message.content : null,
    tool_calls: calls.map((call) => ({
      id: openAIToolId(call.id),
      type: 'function',
      function: { name: call.name, arguments: JSON.stringify(call.arguments ?? {}) },
    })),
  };
}

/**
 * The history as Chat Completions messages. `developer` stays `developer` for OpenAI and becomes
 * `system` for `openai-compatible` servers, most of which know no such role. Tool results become
 * `role: "tool"` messages; OpenAI has no error flag on them, so `isError` is dropped (the content
 * says what failed).
 */
export function openAIMessages(messages: readonly Message[], where: Where, compatible: boolean): OpenAI.ChatCompletionMessageParam[] {
  return messages.map((message): OpenAI.ChatCompletionMessageParam => {
    switch (message.role) {
      case 'system':
        return { role: 'system', content: message.content };
      case 'developer':
        return compatible ? { role: 'system', content: message.content } : { role: 'developer', content: message.content };
      case 'user':
        return typeof message.content === 'string'
          ? { role: 'user', content: message.content }
          : { role: 'user', content: openAIContentParts(message.content, where, compatible) };
      case 'assistant':
        return assistantMessage(message);
      case 'tool':
        return { role: 'tool', tool_call_id: openAIToolId(message.toolCallId), content: message.content };
    }
  });
}
