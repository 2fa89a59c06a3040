import type OpenAI from 'openai';
import type { AssistantMessage, ContentPart, Message } from '../../../src/types.js';
import { imageSource } from '../../shared/content-source.js';
import { openAIToolId } from '../../shared/tool-call-id.js';

type Input = OpenAI.Responses.ResponseInputItem;

interface Where {
  provider: string;
  model: string;
}

const EXTENSIONS: Readonly<Record<string, string>> = { 'application/pdf': 'pdf', 'text/plain': 'txt' };

function userContent(parts: ContentPart[], where: Where): OpenAI.Responses.ResponseInputContent[] {
  return parts.map((part): OpenAI.Responses.ResponseInputContent => {
    switch (part.type) {
      case 'text':
        return { type: 'input_text', text: part.text };
      case 'image':
        imageSource(part.url, where);
        return { type: 'input_image', image_url: part.url, detail: part.detail ?? 'auto' };
      case 'file':
        // The Responses API takes PDFs, documents, spreadsheets and code as `input_file` (wave2 §4.2).
        return { type: 'input_file', file_data: `data:${part.mediaType};base64,${part.data}`, filename: part.filename ?? `file.${EXTENSIONS[part.mediaType] ?? 'bin'}` };
    }
  });
}

/** The output items of an earlier Responses turn, replayed as they came: reasoning before its calls. */
export function replayedItems(message: AssistantMessage): Input[] | undefined {
  const parts = message.providerParts;
  return parts?.api === 'openai-responses' && Array.isArray(parts.items) ? (parts.items as Input[]) : undefined;
}

function assistantItems(message: AssistantMessage): Input[] {
  const replayed = replayedItems(message);
  if (replayed) return replayed;
  // Anthropic thinking blocks mean nothing here and are dropped; text and calls are rebuilt.
  const items: Input[] = [];
  if (message.content) items.push({ role: 'assistant', content: message.content });
  for (const call of message.toolCalls ?? []) {
    items.push({ type: 'function_call', call_id: openAIToolId(call.id), name: call.name, arguments: JSON.stringify(call.arguments ?? {}) });
  }
  return items;
}

/**
 * The history as Responses input, stateless (every turn, every time): the leading system and
 * developer messages become `instructions`, later ones stay in place as messages of their role;
 * user parts become `input_text` / `input_image` / `input_file`; an assistant turn that came from
 * the Responses API replays its own output items (reasoning with `encrypted_content` included),
 * any other is rebuilt as a message and `function_call` items; tool results become
 * `function_call_output` items (no error flag on the wire: the content says what failed), or
 * `custom_tool_call_output` ones for the replayed freeform calls (a gateway client's `custom` tools).
 */
export function responsesInput(messages: readonly Message[], where: Where): { instructions?: string; input: Input[] } {
  let start = 0;
  const leading: string[] = [];
  while (start < messages.length && (messages[start]!.role === 'system' || messages[start]!.role === 'developer')) {
    leading.push(messages[start]!.content as string);
    start++;
  }
  const input: Input[] = [];
  /** call_ids of replayed freeform calls: their results are `custom_tool_call_output`, not function outputs. */
  let custom: Set<string> | undefined;
  for (const message of messages.slice(start)) {
    switch (message.role) {
      case 'system':
      case 'developer':
        input.push({ role: message.role, content: message.content });
        break;
      case 'user':
        input.push({ role: 'user', content: typeof message.content === 'string' ? message.content : userContent(message.content, where) });
        break;
      case 'assistant': {
        const items = assistantItems(message);
        for (const item of items) if (item.type === 'custom_tool_call') (custom ??= new Set()).add(item.call_id);
        input.push(...items);
        break;
      }
      case 'tool':
        input.push(custom?.has(message.toolCallId)
          ? { type: 'custom_tool_call_output', call_id: message.toolCallId, output: message.content }
          : { type: 'function_call_output', call_id: openAIToolId(message.toolCallId), output: message.content });
        break;
    }
  }
  return Object.assign({}, (leading.length > 0 ? { instructions: leading.join('\n\n') } : {}), { input });
}
