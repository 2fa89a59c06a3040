import { messageText } from '../types.js';
import type { Message } from '../types.js';

/** A tokenizer's count for one text. */
export type CountTokens = (text: string) => number;

/** The tiktoken encoding an OpenAI model uses, or undefined when no public tokenizer fits the model. */
export function encodingFor(model: string): 'o200k_base' | 'cl100k_base' | undefined {
  const m = model.toLowerCase().replace(/^openai\//, '');
  if (/^(gpt-4o|gpt-4\.1|gpt-4\.5|gpt-5|o1|o3|o4|chatgpt-4o|gpt-oss)/.test(m)) return 'o200k_base';
  if (/^(gpt-4|gpt-3\.5|text-embedding-3|text-embedding-ada)/.test(m)) return 'cl100k_base';
  return undefined;
}

/**
 * The documented heuristic for models without a public tokenizer (Claude, Llama, ...): 3.5 ASCII
 * characters a token (denser than OpenAI's 4, so it errs high for Claude) and one token for every
 * other character (CJK text runs close to a token a character). Errs high on purpose: an
 * over-estimate costs a little headroom, an under-estimate costs a 429.
 */
export function heuristicTokens(text: string): number {
  let ascii = 0;
  let other = 0;
  for (let i = 0; i < text.length; i++) {
    if (text.charCodeAt(i) < 128) ascii++;
    else other++;
  }
  return Math.ceil(ascii / 3.5 + other);
}

/**
 * What OpenAI's rate limiter charges for a text: it does not tokenize, it counts about 4 characters a
 * token (OpenAI's own rule of thumb; "the rate limit calculation is just a guess based on
 * characters", community.openai.com/t/360359). An estimate below this draws 429s.
 */
export function openAILimiterTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/** Images are billed by size, which the router does not know: each counts this much (OpenAI's largest tile set is ~1,100). */
export const IMAGE_TOKENS = 1_000;
/** Files (PDFs) are billed by pages: estimated at a token per this many bytes. */
export const FILE_BYTES_PER_TOKEN = 16;

/** What a prompt is made of, for its estimate: the messages, and the tool and schema definitions sent with them. */
export interface Prompt {
  messages: readonly Message[];
  tools?: ReadonlyArray<{ name: string; description?: string; parameters: unknown }>;
  responseFormat?: { type: string; schema?: unknown };
}

function messageTokens(m: Message, count: CountTokens): number {
  let n = 4 + count(messageText(m));
  if (m.role === 'user' && typeof m.content !== 'string') {
    for (const part of m.content) {
      if (part.type === 'image') n += IMAGE_TOKENS;
      else if (part.type === 'file') n += Math.ceil((part.data.length * 3) / 4 / FILE_BYTES_PER_TOKEN);
    }
  } else if (m.role === 'assistant' && m.toolCalls) {
    for (const call of m.toolCalls) n += count(call.name) + count(JSON.stringify(call.arguments));
  }
  return n;
}

/**
 * Prompt tokens the way chat APIs bill them: every message's content plus 4 tokens of framing, plus
 * 3 to prime the reply (OpenAI's published accounting; close enough for Anthropic), plus the tool
 * definitions and the output schema, which are part of the prompt too.
 */
export function promptTokenEstimate(prompt: readonly Message[] | Prompt, count: CountTokens = heuristicTokens): number {
  const p: Prompt = Array.isArray(prompt) ? { messages: prompt as readonly Message[] } : (prompt as Prompt);
  let total = 3;
  for (const m of p.messages) total += messageTokens(m, count);
  if (p.tools) for (const t of p.tools) total += 8 + count(t.name) + count(t.description ?? '') + count(JSON.stringify(t.parameters));
  if (p.responseFormat?.schema !== undefined) total += count(JSON.stringify(p.responseFormat.schema));
  return total;
}
