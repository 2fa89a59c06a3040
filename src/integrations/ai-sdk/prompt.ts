import type {
  LanguageModelV3DataContent, LanguageModelV3FilePart, LanguageModelV3Prompt, LanguageModelV3ToolResultOutput, SharedV3Warning,
} from '@ai-sdk/provider';
import type { ContentPart, Message, ProviderParts, ToolCall } from '../../types.js';

/** Where an assistant turn's opaque provider parts (Anthropic thinking blocks) ride through the AI SDK. */
export const PROVIDER_KEY = 'switchyard';

function base64(data: Uint8Array): string {
  return Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString('base64');
}

/** A file part's bytes as base64 (a URL the SDK did not download cannot be sent as bytes). */
function bytesOf(data: LanguageModelV3DataContent): string | undefined {
  if (data instanceof Uint8Array) return base64(data);
  if (typeof data === 'string') return data;
  if (data.protocol === 'data:') return data.href.slice(data.href.indexOf(',') + 1);
  return undefined;
}

/** A user file part as Switchyard content: images as an `https:` or `data:` URL, other files inline as base64. */
function filePart(part: LanguageModelV3FilePart, warnings: SharedV3Warning[]): ContentPart | undefined {
  const isImage = part.mediaType.startsWith('image/');
  if (isImage && part.data instanceof URL && part.data.protocol !== 'data:') return { type: 'image', url: part.data.href };
  const data = bytesOf(part.data);
  if (data === undefined) {
    warnings.push({ type: 'unsupported', feature: 'file URL', details: `${String(part.data)} (${part.mediaType}) was not downloaded and is dropped` });
    return undefined;
  }
  if (isImage) return { type: 'image', url: `data:${part.mediaType === 'image/*' ? 'image/png' : part.mediaType};base64,${data}` };
  return { type: 'file', data, mediaType: part.mediaType, ...(part.filename ? { filename: part.filename } : {}) };
}

/** A tool result's output as the text a tool message carries, and whether it reports a failure. */
export function toolOutputText(output: LanguageModelV3ToolResultOutput, warnings: SharedV3Warning[]): { text: string; isError: boolean } {
  switch (output.type) {
    case 'text': return { text: output.value, isError: false };
    case 'json': return { text: JSON.stringify(output.value), isError: false };
    case 'error-text': return { text: output.value, isError: true };
    case 'error-json': return { text: JSON.stringify(output.value), isError: true };
    case 'execution-denied': return { text: output.reason ?? 'The tool call was denied.', isError: true };
    case 'content': {
      const texts = output.value.flatMap((p) => (p.type === 'text' ? [p.text] : []));
      if (texts.length < output.value.length) warnings.push({ type: 'unsupported', feature: 'tool result media', details: 'only the text parts of a tool result are sent' });
      return { text: texts.join('\n'), isError: false };
    }
  }
}

function providerPartsOf(options: unknown): ProviderParts | undefined {
  const parts = (options as Record<string, { providerParts?: ProviderParts }> | undefined)?.[PROVIDER_KEY]?.providerParts;
  if (parts?.api === 'anthropic' && Array.isArray(parts.blocks)) return parts;
  if (parts?.api === 'openai-responses' && Array.isArray(parts.items)) return parts;
  if (parts?.api === 'gemini' && Array.isArray(parts.blocks)) return parts;
  return undefined;
}

/**
 * The AI SDK's prompt as Switchyard messages: system and user turns (text, images, files), assistant
 * turns with their tool calls (and the provider parts Switchyard handed out, from `providerOptions`),
 * one tool message per tool result. What Switchyard cannot carry is dropped with a warning.
 */
export function toMessages(prompt: LanguageModelV3Prompt, warnings: SharedV3Warning[]): Message[] {
  const messages: Message[] = [];
  for (const m of prompt) {
    if (m.role === 'system') {
      messages.push({ role: 'system', content: m.content });
    } else if (m.role === 'user') {
      const parts = m.content.flatMap((p): ContentPart[] => {
        if (p.type === 'text') return [{ type: 'text', text: p.text }];
        const part = filePart(p, warnings);
        return part ? [part] : [];
      });
      const onlyText = parts.every((p) => p.type === 'text');
      messages.push({ role: 'user', content: onlyText ? parts.map((p) => (p as { text: string }).text).join('') : parts });
    } else if (m.role === 'assistant') {
      let text = '';
      const toolCalls: ToolCall[] = [];
      let providerParts = providerPartsOf(m.providerOptions);
      for (const p of m.content) {
        providerParts ??= providerPartsOf(p.providerOptions);
        if (p.type === 'text') text += p.text;
        else if (p.type === 'tool-call' && !p.providerExecuted) {
          toolCalls.push({ id: p.toolCallId, name: p.toolName, arguments: toArguments(p.input) });
        } else if (p.type === 'file') warnings.push({ type: 'unsupported', feature: 'assistant file parts', details: 'dropped from the history' });
      }
      // Reasoning parts are not replayed as text; their provider's own blocks are, through providerParts.
      messages.push({
        role: 'assistant', content: text === '' && toolCalls.length > 0 ? null : text,
        ...(toolCalls.length > 0 ? { toolCalls } : {}), ...(providerParts ? { providerParts } : {}),
      });
    } else {
      for (const p of m.content) {
        if (p.type !== 'tool-result') continue;
        const { text, isError } = toolOutputText(p.output, warnings);
        messages.push({ role: 'tool', toolCallId: p.toolCallId, content: text, ...(isError ? { isError } : {}) });
      }
    }
  }
  return messages;
}

/** A tool call's input as an arguments object (the AI SDK may hand back a JSON string). */
function toArguments(input: unknown): Record<string, unknown> {
  let value = input;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      return {};
    }
  }
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}
