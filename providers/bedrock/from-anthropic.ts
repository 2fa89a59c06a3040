import { anthropicToolId, openAIToolId } from '../shared/tool-call-id.js';

type Json = Record<string, any>;

/**
 * One Anthropic block of a Claude turn in Converse's JSON form (../bedrock/reasoning-parts.ts turns
 * `{base64}` into bytes): `thinking` is `reasoningContent.reasoningText {text, signature}`,
 * `redacted_thinking` is `reasoningContent.redactedContent` (its `data` taken as the base64 of the
 * bytes), `text` is `{text}`, `tool_use` is `toolUse` (its id made as the tool result's will be).
 * Other blocks (server tools, their results) have no Converse form: undefined. Shapes:
 * @anthropic-ai/sdk `ThinkingBlock`, `RedactedThinkingBlock`; @aws-sdk/client-bedrock-runtime
 * `ReasoningContentBlock` ("include the text and its signature unmodified").
 */
function converseBlock(block: Json): Json | undefined {
  switch (block.type) {
    case 'thinking':
      return typeof block.signature === 'string' ? { reasoningContent: { reasoningText: { text: String(block.thinking ?? ''), signature: block.signature } } } : undefined;
    case 'redacted_thinking':
      return typeof block.data === 'string' ? { reasoningContent: { redactedContent: { base64: block.data } } } : undefined;
    case 'text':
      return typeof block.text === 'string' ? { text: block.text } : undefined;
    case 'tool_use':
      return typeof block.id === 'string' ? { toolUse: { toolUseId: openAIToolId(anthropicToolId(block.id)), name: String(block.name ?? ''), input: block.input ?? {} } } : undefined;
    default:
      return undefined;
  }
}

/**
 * An Anthropic Claude turn's blocks as Converse blocks for a Bedrock Claude model, in their order
 * (interleaved thinking stays around its tool calls), signatures unchanged. Undefined when a block
 * has no Converse form: the turn then goes as its text and tool calls.
 */
export function converseFromAnthropic(blocks: readonly unknown[]): Json[] | undefined {
  const out: Json[] = [];
  for (const block of blocks) {
    if (typeof block !== 'object' || block === null) return undefined;
    const mapped = converseBlock(block as Json);
    if (mapped === undefined) return undefined;
    out.push(mapped);
  }
  return out;
}
