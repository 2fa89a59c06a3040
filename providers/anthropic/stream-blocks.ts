import type Anthropic from '@anthropic-ai/sdk';
import type { ProviderStreamEvent } from '../types.js';
import { JSON_TOOL_NAME } from './json-tool.js';

type BlockEvent = Extract<ProviderStreamEvent, { type: 'delta' | 'thinking' | 'tool_call_start' | 'tool_call_delta' | 'tool_call_end' }>;

interface Block {
  /** The content block as it will be replayed (for thinking turns): rebuilt from its start and deltas. */
  block: Record<string, unknown>;
  /** For a tool_use block: its ordinal among this answer's tool calls, and its JSON so far. */
  ordinal?: number;
  /** The forced `json` tool's block: its input is the answer, streamed as text. */
  answer?: boolean;
  json?: string;
  sentArguments?: boolean;
  /** For a thinking or redacted_thinking block: its ordinal among this answer's thinking blocks. */
  thinking?: number;
}

/**
 * The content blocks of one Anthropic stream, keyed by the events' content-block `index` (never "the
 * current block"). Tool calls get a per-stream ordinal (a text block at index 0 makes the first
 * tool_use index 1, which is tool call 0); a tool call with only `""` of input (or none) gets `{}`
 * when its block stops. The blocks are rebuilt as they were sent, so a turn with thinking can be
 * replayed verbatim. The forced `json` tool of a structured answer streams its input as text.
 * Thinking blocks get an ordinal of their own (the router's `thinking` index): a thinking block's
 * `thinking_delta` and `signature_delta` come as `thinking` events with `delta` and `signature`, a
 * redacted_thinking block whole at its start as `redacted` (its `data`), as Anthropic streams them
 * (https://docs.claude.com/en/docs/build-with-claude/extended-thinking#streaming-thinking; the SDK's
 * RawContentBlockStartEvent, ThinkingDelta and SignatureDelta types).
 */
export class AnthropicBlockTracker {
  private readonly blocks = new Map<number, Block>();
  private tools = 0;
  /** Thinking blocks seen so far (redacted ones included). */
  private thoughts = 0;

  /** `jsonTool`: the request's schema went as the forced `json` tool, whose input is the answer's text. */
  constructor(private readonly jsonTool = false) {}

  /** Tool calls seen so far (the `json` tool of a structured answer is not one). */
  get toolCalls(): number {
    return this.tools;
  }

  *start(event: Anthropic.RawContentBlockStartEvent): Generator<BlockEvent> {
    const block = { ...(event.content_block as unknown as Record<string, unknown>) };
    const entry: Block = { block };
    this.blocks.set(event.index, entry);
    switch (block.type) {
      case 'text':
        // With the json tool the answer is the tool's input; any prose around it is not part of it.
        if (typeof block.text === 'string' && block.text && !this.jsonTool) yield { type: 'delta', text: block.text };
        break;
      case 'tool_use': {
        // Input is normally `{}` here and streamed as JSON; programmatic calls may carry it whole.
        const given = block.input && typeof block.input === 'object' && Object.keys(block.input).length > 0 ? JSON.stringify(block.input) : '';
        if (this.jsonTool && block.name === JSON_TOOL_NAME) {
          entry.answer = true;
          if (given) {
            entry.sentArguments = true;
            yield { type: 'delta', text: given };
          }
          break;
        }
        entry.ordinal = this.tools++;
        entry.json = '';
        yield { type: 'tool_call_start', index: entry.ordinal, id: String(block.id), name: String(block.name) };
        if (given) yield* this.arguments(entry, given);
        break;
      }
      case 'thinking':
        entry.thinking = this.thoughts++;
        // Its text and signature normally come as deltas; a start that carries them is shown too.
        if (typeof block.thinking === 'string' && block.thinking) yield { type: 'thinking', index: entry.thinking, delta: block.thinking };
        else yield { type: 'thinking' };
        if (typeof block.signature === 'string' && block.signature) yield { type: 'thinking', index: entry.thinking, signature: block.signature };
        break;
      case 'redacted_thinking':
        entry.thinking = this.thoughts++;
        yield { type: 'thinking', index: entry.thinking, redacted: String(block.data ?? '') };
        break;
      default:
        break;
    }
  }

  *delta(event: Anthropic.RawContentBlockDeltaEvent): Generator<BlockEvent> {
    const entry = this.blocks.get(event.index);
    const delta = event.delta;
    switch (delta.type) {
      case 'text_delta':
        if (entry) entry.block.text = String(entry.block.text ?? '') + delta.text;
        if (delta.text && !this.jsonTool) yield { type: 'delta', text: delta.text };
        break;
      case 'input_json_delta':
        if (entry?.answer) {
          if (delta.partial_json) {
            entry.sentArguments = true;
            yield { type: 'delta', text: delta.partial_json };
          }
        } else if (entry && entry.ordinal !== undefined) yield* this.arguments(entry, delta.partial_json);
        break;
      case 'thinking_delta':
        if (entry) entry.block.thinking = String(entry.block.thinking ?? '') + delta.thinking;
        yield entry?.thinking !== undefined && delta.thinking ? { type: 'thinking', index: entry.thinking, delta: delta.thinking } : { type: 'thinking' };
        break;
      case 'signature_delta':
        if (entry) entry.block.signature = delta.signature;
        yield entry?.thinking !== undefined && delta.signature ? { type: 'thinking', index: entry.thinking, signature: delta.signature } : { type: 'thinking' };
        break;
      default:
        break; // citations and delta types Anthropic may add later
    }
  }

  *stop(event: Anthropic.RawContentBlockStopEvent): Generator<BlockEvent> {
    const entry = this.blocks.get(event.index);
    // A json tool with no input at all answered `{}`.
    if (entry?.answer && !entry.sentArguments) yield { type: 'delta', text: '{}' };
    if (!entry || entry.ordinal === undefined) return;
    if (!entry.sentArguments) yield* this.arguments(entry, '{}');
    try {
      entry.block.input = JSON.parse(entry.json ?? '{}');
    } catch {
      entry.block.input = {};
    }
    yield { type: 'tool_call_end', index: entry.ordinal };
  }

  /** The answer's blocks in order, when they hold thinking (to round-trip); otherwise undefined. */
  thinkingBlocks(): unknown[] | undefined {
    if (this.thoughts === 0) return undefined;
    return [...this.blocks.entries()].sort(([a], [b]) => a - b).map(([, entry]) => entry.block);
  }

  private *arguments(entry: Block, json: string): Generator<BlockEvent> {
    if (!json) return;
    entry.json = (entry.json ?? '') + json;
    entry.sentArguments = true;
    yield { type: 'tool_call_delta', index: entry.ordinal!, argumentsDelta: json };
  }
}
