import type Anthropic from '@anthropic-ai/sdk';
import { anthropicToolId } from '../shared/tool-call-id.js';

type Json = Record<string, any>;

/**
 * One Converse block of a Claude turn as the Messages API's: `reasoningContent.reasoningText`
 * `{text, signature}` is a `thinking` block, `redactedContent` (carried as `{base64}`, see
 * ../bedrock/reasoning-parts.ts) a `redacted_thinking` block whose `data` is that base64 text, `text`
 * a text block, `toolUse` a `tool_use` block (its id made as the tool result's will be); a
 * `cachePoint` has no block of its own (null). Anything else has no Messages form (undefined).
 * Shapes: @aws-sdk/client-bedrock-runtime `ContentBlock`, `ReasoningContentBlock`; @anthropic-ai/sdk
 * `ThinkingBlockParam`, `RedactedThinkingBlockParam`.
 */
function anthropicBlock(block: Json): Anthropic.ContentBlockParam | null | undefined {
  const reasoning = block.reasoningContent as Json | undefined;
  if (reasoning?.reasoningText && typeof reasoning.reasoningText.signature === 'string') {
    return { type: 'thinking', thinking: String(reasoning.reasoningText.text ?? ''), signature: reasoning.reasoningText.signature };
  }
  if (typeof reasoning?.redactedContent?.base64 === 'string') return { type: 'redacted_thinking', data: reasoning.redactedContent.base64 };
  if (typeof block.text === 'string') return { type: 'text', text: block.text };
  if (block.toolUse && typeof block.toolUse.toolUseId === 'string') {
    return { type: 'tool_use', id: anthropicToolId(block.toolUse.toolUseId), name: String(block.toolUse.name ?? ''), input: block.toolUse.input ?? {} };
  }
  if (block.cachePoint) return null;
  return undefined;
}

/**
 * A Bedrock Claude turn's blocks as Anthropic content blocks, in their order (interleaved thinking
 * stays where it was), signatures unchanged: the same model's thinking verifies on either API.
 * Undefined when a block has no Messages form: the turn then goes as its text and tool calls.
 */
export function anthropicFromConverse(blocks: readonly unknown[]): Anthropic.ContentBlockParam[] | undefined {
  const out: Anthropic.ContentBlockParam[] = [];
  for (const block of blocks) {
    if (typeof block !== 'object' || block === null) return undefined;
    const mapped = anthropicBlock(block as Json);
    if (mapped === undefined) return undefined;
    if (mapped !== null) out.push(mapped);
  }
  return out;
}
