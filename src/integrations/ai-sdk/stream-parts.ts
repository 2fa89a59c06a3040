import type { LanguageModelV3StreamPart, SharedV3ProviderMetadata } from '@ai-sdk/provider';
import type { StreamEvent } from '../../calls/stream.js';
import { toApiError } from './api-error.js';
import { contentOf, finishReasonOf, metadataOf, usageOf } from './result.js';

const TEXT_ID = 'txt-0';

/**
 * Turns Switchyard stream events into AI SDK stream parts, one event at a time: text as one text
 * block, each tool call as input start / deltas / end, then the complete `tool-call` parts at the
 * finish (where the turn's provider parts are known, to ride on the first of them), and `finish`.
 * An interrupted stream ends with an `error` part and a finish of `error`.
 */
export class StreamParts {
  private textOpen = false;
  private readonly toolIds = new Map<number, string>();
  private readonly ended = new Set<string>();

  constructor(private readonly chain: string, private readonly request: unknown) {}

  map(ev: StreamEvent): LanguageModelV3StreamPart[] {
    switch (ev.type) {
      case 'start':
        return [{ type: 'response-metadata', modelId: ev.model }];
      case 'text': {
        const open: LanguageModelV3StreamPart[] = this.textOpen ? [] : [{ type: 'text-start', id: TEXT_ID }];
        this.textOpen = true;
        return [...open, { type: 'text-delta', id: TEXT_ID, delta: ev.delta }];
      }
      case 'tool_call_delta': {
        const out: LanguageModelV3StreamPart[] = [];
        if (ev.id !== undefined && !this.toolIds.has(ev.index)) {
          this.toolIds.set(ev.index, ev.id);
          out.push({ type: 'tool-input-start', id: ev.id, toolName: ev.name ?? '' });
        }
        const id = this.toolIds.get(ev.index);
        if (id !== undefined && ev.argumentsDelta !== '') out.push({ type: 'tool-input-delta', id, delta: ev.argumentsDelta });
        return out;
      }
      case 'tool_call':
        return this.endInput(ev.toolCall.id);
      case 'done': {
        const { result } = ev;
        // The text went out as deltas (the stream keeps none of it): only its metadata is placed here.
        const parts = contentOf(result, this.textOpen);
        const textMeta = parts[0]?.type === 'text' ? parts[0].providerMetadata : undefined;
        return [
          ...this.closeText(textMeta),
          // The model the provider said answered is known only now (the start named the target's).
          ...(result.responseModel !== undefined ? [{ type: 'response-metadata' as const, modelId: result.responseModel }] : []),
          ...parts.filter((p) => p.type === 'tool-call').flatMap((p) => [...this.endInput(p.toolCallId), p]),
          { type: 'finish', finishReason: finishReasonOf(result.finishReason), usage: usageOf(result.usage), providerMetadata: metadataOf(result) },
        ];
      }
      case 'thinking':
        return []; // the provider's stream never asks for it (its reasoning rides on the finish's provider metadata)
      case 'interrupted':
        return [
          ...this.closeText(),
          // The router emitted these as complete before the cut; the ones cut off are never run.
          ...ev.toolCalls.flatMap((c): LanguageModelV3StreamPart[] => [...this.endInput(c.id), { type: 'tool-call', toolCallId: c.id, toolName: c.name, input: JSON.stringify(c.arguments) }]),
          ...this.failed(toApiError(ev.error, this.chain, this.request)),
        ];
    }
  }

  /** The parts that end a stream that failed with `error`. */
  failed(error: unknown): LanguageModelV3StreamPart[] {
    return [
      ...this.closeText(),
      { type: 'error', error },
      { type: 'finish', finishReason: { unified: 'error', raw: undefined }, usage: usageOf(undefined) },
    ];
  }

  private closeText(providerMetadata?: SharedV3ProviderMetadata): LanguageModelV3StreamPart[] {
    if (!this.textOpen) return [];
    this.textOpen = false;
    return [{ type: 'text-end', id: TEXT_ID, ...(providerMetadata ? { providerMetadata } : {}) }];
  }

  private endInput(id: string): LanguageModelV3StreamPart[] {
    if (this.ended.has(id) || ![...this.toolIds.values()].includes(id)) return [];
    this.ended.add(id);
    return [{ type: 'tool-input-end', id }];
  }
}
