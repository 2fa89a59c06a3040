import { bedrockModelTraits } from '../../providers/index.js';
import type { AssistantMessage, Message, ProviderParts } from '../types.js';

/**
 * The families of reasoning an assistant turn's `providerParts` can come from, and a target can be
 * of. Claude is one family on two APIs: the Messages API (`anthropic`) and Converse (`bedrock-claude`),
 * whose thinking signatures are the same model's and verify on either ("signature values are
 * compatible across platforms": Anthropic's extended-thinking guide,
 * https://docs.claude.com/en/docs/build-with-claude/extended-thinking).
 */
export type ReasoningFamily = 'anthropic' | 'bedrock-claude' | 'bedrock-other' | 'openai-chat' | 'openai-responses' | 'gemini' | 'other';

/**
 * What a target does with a turn's parts: `verbatim` (its own API made them: sent back as they
 * came), `translate` (the same model on the other API: Anthropic thinking blocks as Converse
 * `reasoningContent` and back, signatures unchanged, order kept), or `drop` (the turn goes as its
 * plain text and tool calls; nothing the target would refuse).
 */
export type ReplayVerdict = 'verbatim' | 'translate' | 'drop';

/**
 * The one table, source family by target family; a pair not in it drops. Bedrock models other than
 * Claude take no reasoning back (their reasoning text carries no signature; DeepSeek's own API
 * refuses `reasoning_content` in the input), so their parts drop everywhere, their own model too.
 * OpenAI's `encrypted_content` decrypts only on the Responses API, Gemini's thought signatures only
 * on Gemini.
 */
const TABLE: Readonly<Record<ReasoningFamily, Partial<Record<ReasoningFamily, ReplayVerdict>>>> = {
  'anthropic': { 'anthropic': 'verbatim', 'bedrock-claude': 'translate' },
  'bedrock-claude': { 'bedrock-claude': 'verbatim', 'anthropic': 'translate' },
  'bedrock-other': {},
  'openai-responses': { 'openai-responses': 'verbatim' },
  'gemini': { 'gemini': 'verbatim' },
  'openai-chat': {},
  'other': {},
};

/** The verdict for parts of one family sent to a target of another; the fake provider (`other`, a test double) is given what the caller sent. */
export function replayVerdict(source: ReasoningFamily, target: ReasoningFamily): ReplayVerdict {
  if (target === 'other') return 'verbatim';
  return TABLE[source][target] ?? 'drop';
}

/** A target's family from its provider type, its OpenAI API and its model id. */
export function targetFamily(type: string, model: string, api?: string): ReasoningFamily {
  switch (type) {
    case 'anthropic':
      return 'anthropic';
    case 'bedrock':
      return bedrockModelTraits(model).vendor === 'anthropic' ? 'bedrock-claude' : 'bedrock-other';
    case 'openai':
      return api === 'responses' ? 'openai-responses' : 'openai-chat';
    case 'openai-compatible':
      return 'openai-chat';
    case 'gemini':
      return 'gemini';
    default:
      return 'other';
  }
}

function signedReasoning(block: unknown): boolean {
  const reasoning = (block as { reasoningContent?: { reasoningText?: { signature?: unknown }; redactedContent?: unknown } } | null)?.reasoningContent;
  if (reasoning === undefined) return true;
  return typeof reasoning.reasoningText?.signature === 'string' || reasoning.redactedContent !== undefined;
}

/**
 * The family of a turn's parts. Converse parts carry no model name: Claude's reasoning is always
 * signed (or redacted), other Bedrock models' is plain text, so signed reasoning throughout is Claude's.
 */
export function partsFamily(parts: ProviderParts): ReasoningFamily {
  if (parts.api !== 'bedrock') return parts.api;
  return Array.isArray(parts.blocks) && parts.blocks.every(signedReasoning) ? 'bedrock-claude' : 'bedrock-other';
}

/**
 * The history a target is sent: the caller's own array when every turn's parts are kept (verbatim
 * or to translate: the adapter does that), else a copy whose turns with parts the target drops go
 * without them (their text and tool calls unchanged, so later tool results still pair up).
 */
export function keptHistory(messages: Message[], type: string, model: string, api?: string): Message[] {
  let target: ReasoningFamily | undefined;
  let out: Message[] | undefined;
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i]!;
    if (m.role !== 'assistant' || m.providerParts === undefined) continue;
    target ??= targetFamily(type, model, api);
    if (replayVerdict(partsFamily(m.providerParts), target) !== 'drop') continue;
    out ??= messages.slice();
    const plain: AssistantMessage = { role: 'assistant', content: m.content };
    if (m.toolCalls !== undefined) plain.toolCalls = m.toolCalls;
    if (m.cache !== undefined) plain.cache = m.cache;
    out[i] = plain;
  }
  return out ?? messages;
}
