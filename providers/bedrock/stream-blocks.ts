import type { ContentBlock, ContentBlockDeltaEvent, ContentBlockStartEvent } from '@aws-sdk/client-bedrock-runtime';
import type { ProviderStreamEvent } from '../types.js';
import { JSON_TOOL_NAME } from './tools.js';

type BlockEvent = Extract<ProviderStreamEvent, { type: 'delta' | 'thinking' | 'tool_call_start' | 'tool_call_delta' | 'tool_call_end' }>;

interface Block {
  /** The block as it will be replayed (reasoning turns): rebuilt from its start and deltas. */
  block: ContentBlock;
  /** A toolUse block: its ordinal among this answer's tool calls and its JSON so far. */
  ordinal?: number;
  json?: string;
  /** The forced `json` tool of a structured answer: its input is the answer's text. */
  answer?: boolean;
  sent?: boolean;
  /** A reasoningContent block: its ordinal among this answer's reasoning blocks. */
  thinking?: number;
}

/**
 * The content blocks of one ConverseStream, keyed by `contentBlockIndex`. Text blocks arrive as
 * deltas without a start; a toolUse block opens with `contentBlockStart.start.toolUse` and streams
 * its input as JSON fragments (`delta.toolUse.input`); a tool call given no fragment gets `{}` when
 * its block stops. Reasoning deltas (`delta.reasoningContent`: `text`, `signature`,
 * `redactedContent` bytes; the SDK's ReasoningContentBlockDelta) are `thinking` events numbered by
 * reasoning block (redacted bytes as base64), and are rebuilt so a reasoning turn can be replayed
 * verbatim.
 */
export class ConverseBlockTracker {
  private readonly blocks = new Map<number, Block>();
  private tools = 0;
  /** Reasoning blocks seen so far. */
  private thoughts = 0;

  constructor(private readonly jsonTool = false) {}

  get toolCalls(): number {
    return this.tools;
  }

  private entry(index: number, block: ContentBlock): Block {
    let entry = this.blocks.get(index);
    if (!entry) this.blocks.set(index, (entry = { block }));
    return entry;
  }

  *start(event: ContentBlockStartEvent): Generator<BlockEvent> {
    const use = event.start?.toolUse;
    if (!use) return;
    const entry = this.entry(event.contentBlockIndex ?? 0, { toolUse: { toolUseId: use.toolUseId, name: use.name, input: {} as never } });
    if (this.jsonTool && use.name === JSON_TOOL_NAME) {
      entry.answer = true;
      return;
    }
    entry.ordinal = this.tools++;
    entry.json = '';
    yield { type: 'tool_call_start', index: entry.ordinal, id: String(use.toolUseId), name: String(use.name) };
  }

  *delta(event: ContentBlockDeltaEvent): Generator<BlockEvent> {
    const index = event.contentBlockIndex ?? 0;
    const delta = event.delta;
    if (!delta) return;
    if (typeof delta.text === 'string') {
      const entry = this.entry(index, { text: '' });
      entry.block = { text: (entry.block.text ?? '') + delta.text };
      if (delta.text && !this.jsonTool) yield { type: 'delta', text: delta.text };
    } else if (delta.toolUse) {
      const entry = this.blocks.get(index);
      const fragment = delta.toolUse.input ?? '';
      if (!entry || !fragment) return;
      entry.sent = true;
      if (entry.answer) {
        yield { type: 'delta', text: fragment };
      } else if (entry.ordinal !== undefined) {
        entry.json += fragment;
        yield { type: 'tool_call_delta', index: entry.ordinal, argumentsDelta: fragment };
      }
    } else if (delta.reasoningContent) {
      const entry = this.entry(index, { reasoningContent: { reasoningText: { text: '' } } });
      entry.thinking ??= this.thoughts++;
      const r = delta.reasoningContent;
      if (r.redactedContent) entry.block = { reasoningContent: { redactedContent: r.redactedContent } };
      else {
        const current = entry.block.reasoningContent?.reasoningText ?? { text: '' };
        entry.block = { reasoningContent: { reasoningText: {
          text: (current.text ?? '') + (r.text ?? ''),
          ...(r.signature ?? current.signature ? { signature: r.signature ?? current.signature } : {}),
        } } };
      }
      if (r.redactedContent) yield { type: 'thinking', index: entry.thinking, redacted: Buffer.from(r.redactedContent).toString('base64') };
      else if (r.text) yield { type: 'thinking', index: entry.thinking, delta: r.text };
      else if (r.signature) yield { type: 'thinking', index: entry.thinking, signature: r.signature };
      else yield { type: 'thinking' };
    }
  }

  *stop(index: number): Generator<BlockEvent> {
    const entry = this.blocks.get(index);
    if (!entry) return;
    if (entry.answer) {
      if (!entry.sent) yield { type: 'delta', text: '{}' };
      return;
    }
    if (entry.ordinal === undefined) return;
    if (!entry.sent) {
      entry.json = '{}';
      yield { type: 'tool_call_delta', index: entry.ordinal, argumentsDelta: '{}' };
    }
    try {
      entry.block = { toolUse: Object.assign({}, entry.block.toolUse!, { input: JSON.parse(entry.json ?? '{}') }) };
    } catch {
      // Arguments that are not JSON are the router's to judge (invalid_output); the replay keeps {}.
    }
    yield { type: 'tool_call_end', index: entry.ordinal };
  }

  /** The answer's blocks in order when they hold reasoning (to round-trip); otherwise undefined. */
  reasoningBlocks(): ContentBlock[] | undefined {
    if (this.thoughts === 0) return undefined;
    return [...this.blocks.entries()].sort(([a], [b]) => a - b).map(([, entry]) => entry.block);
  }
}
