import { messageText } from '../../../src/types.js';
import type { ContentPart, Message } from '../../../src/types.js';

/** Tokens an image costs: OpenAI's price of one 512 px tile at `detail: 'low'`, of a 1024×1024 image otherwise. */
export const IMAGE_TOKENS = { low: 85, high: 765 } as const;
/** A file costs one token per this many bytes of its decoded content, and never less than an image at low detail. */
export const FILE_BYTES_PER_TOKEN = 16;

/** Roughly four characters a token, the heuristic OpenAI documents for English text; at least 1. */
export function approxTokens(text: string): number {
  return Math.max(1, Math.ceil(text.length / 4));
}

/** Bytes a base64 string decodes to (padding and whitespace not counted). */
function decodedBytes(base64: string): number {
  const clean = base64.replace(/[\s=]/g, '');
  return Math.floor((clean.length * 3) / 4);
}

/**
 * Prompt tokens of one non-text part: an image is a flat `IMAGE_TOKENS.low` (detail `low`) or
 * `IMAGE_TOKENS.high` (any other detail), whatever its size; a file one token per
 * `FILE_BYTES_PER_TOKEN` decoded bytes, at least `IMAGE_TOKENS.low`. Text parts count as text.
 */
export function partTokens(part: ContentPart): number {
  if (part.type === 'image') return part.detail === 'low' ? IMAGE_TOKENS.low : IMAGE_TOKENS.high;
  if (part.type === 'file') return Math.max(IMAGE_TOKENS.low, Math.ceil(decodedBytes(part.data) / FILE_BYTES_PER_TOKEN));
  return 0;
}

/** Tokens of one message beyond its framing: its text, its images and files, its tool calls. */
function messageTokens(m: Message): number {
  let total = approxTokens(messageText(m));
  if (m.role === 'user' && Array.isArray(m.content)) for (const part of m.content) total += partTokens(part);
  if (m.role === 'assistant') for (const call of m.toolCalls ?? []) total += approxTokens(call.name) + approxTokens(JSON.stringify(call.arguments));
  return total;
}

/**
 * Prompt tokens the way chat APIs count them: 3 for the reply's priming, then every message's text
 * plus 4 tokens of framing each; images, files and tool calls add what `partTokens` and the JSON of
 * their arguments say. A text-only conversation counts exactly as it always has.
 */
export function promptTokens(messages: readonly Message[]): number {
  let total = 3;
  for (const m of messages) total += 4 + messageTokens(m);
  return total;
}

/** Prompt tokens a tool list adds (its JSON, as the provider renders the definitions into the prompt). */
export function toolsTokens(tools: readonly { name: string; description?: string; parameters?: unknown }[] | undefined): number {
  if (!tools?.length) return 0;
  let total = 0;
  for (const tool of tools) total += approxTokens(JSON.stringify({ name: tool.name, description: tool.description ?? '', parameters: tool.parameters ?? {} }));
  return total;
}

/**
 * Prompt tokens of a whole request: its messages (`promptTokens`), its tool definitions
 * (`toolsTokens`) and a response schema's JSON, at 4 characters a token.
 */
export function requestPromptTokens(request: {
  messages: readonly Message[];
  tools?: readonly { name: string; description?: string; parameters?: unknown }[];
  responseFormat?: { type: string; schema?: unknown };
}): number {
  const schema = request.responseFormat?.type === 'json_schema' ? approxTokens(JSON.stringify(request.responseFormat.schema ?? {})) : 0;
  return promptTokens(request.messages) + toolsTokens(request.tools) + schema;
}
