import type { ContentBlock } from '@aws-sdk/client-bedrock-runtime';
import type { AssistantMessage, ProviderParts } from '../../src/types.js';
import { converseFromAnthropic } from './from-anthropic.js';

/**
 * A turn's content blocks in a JSON-safe form: `reasoningContent.redactedContent` is bytes in the
 * SDK, and provider parts go through JSON (the response cache, the idempotency store, the gateway),
 * so it travels as base64 and is turned back into bytes when the turn is replayed.
 */
type JsonBlock = Record<string, unknown>;

function toJson(block: ContentBlock): JsonBlock {
  const redacted = block.reasoningContent?.redactedContent;
  if (redacted instanceof Uint8Array) return { reasoningContent: { redactedContent: { base64: Buffer.from(redacted).toString('base64') } } };
  return block as unknown as JsonBlock;
}

function fromJson(block: JsonBlock): ContentBlock {
  const redacted = (block.reasoningContent as { redactedContent?: { base64?: unknown } } | undefined)?.redactedContent;
  if (redacted && typeof redacted.base64 === 'string') return { reasoningContent: { redactedContent: new Uint8Array(Buffer.from(redacted.base64, 'base64')) } };
  return block as unknown as ContentBlock;
}

/** The answer's blocks as provider parts when they hold reasoning (Claude needs them back in a tool loop); otherwise undefined. */
export function reasoningParts(blocks: readonly ContentBlock[]): ProviderParts | undefined {
  if (!blocks.some((b) => b.reasoningContent !== undefined)) return undefined;
  return { api: 'bedrock', blocks: blocks.map(toJson) };
}

/**
 * The blocks of an assistant turn to send back: Bedrock's own as they came; for a Claude model, an
 * Anthropic (Messages API) Claude turn's translated (from-anthropic.ts: the same model, signatures
 * kept); undefined for a turn from elsewhere, or one that does not translate (sent as text and tool calls).
 */
export function replayedBlocks(message: AssistantMessage, claude: boolean): ContentBlock[] | undefined {
  const parts = message.providerParts;
  if (parts === undefined || parts.api === 'openai-responses' || parts.api === 'gemini' || !Array.isArray(parts.blocks)) return undefined;
  const blocks = parts.api === 'bedrock' ? parts.blocks : claude ? converseFromAnthropic(parts.blocks) : undefined;
  return blocks?.map((b) => fromJson(b as JsonBlock));
}
