import { randomUUID } from 'node:crypto';
import type OpenAI from 'openai';
import type { ProviderStreamEvent } from '../types.js';

type ToolEvent = Extract<ProviderStreamEvent, { type: 'tool_call_start' | 'tool_call_delta' | 'tool_call_end' }>;

interface OpenCall {
  ordinal: number;
  id?: string;
  name?: string;
  started: boolean;
  /** Argument fragments that came before the call could start (before its name). */
  pending: string;
  sentArguments: boolean;
}

/**
 * Tool-call fragments of one streamed choice, keyed by their `index` (never routed to "the latest
 * call", which merges parallel calls). A call starts at the first fragment that carries its name
 * (with the id, which comes on the same fragment from OpenAI; a server that sends none gets one id
 * minted once for the call, never one per fragment). Calls end together, at the finish.
 */
export class OpenAIToolCallTracker {
  private readonly calls = new Map<number, OpenCall>();

  /** The events one chunk's `delta.tool_calls` yields, in order. */
  *fragments(deltas: OpenAI.ChatCompletionChunk.Choice.Delta.ToolCall[]): Generator<ToolEvent> {
    for (const delta of deltas) {
      let call = this.calls.get(delta.index);
      if (!call) {
        call = { ordinal: this.calls.size, started: false, pending: '', sentArguments: false };
        this.calls.set(delta.index, call);
      }
      call.id ??= delta.id || undefined;
      call.name ??= delta.function?.name || undefined;
      const args = delta.function?.arguments ?? '';
      if (!call.started) {
        call.pending += args;
        if (!call.name) continue;
        call.started = true;
        yield { type: 'tool_call_start', index: call.ordinal, id: call.id ?? `call_${randomUUID().replace(/-/g, '')}`, name: call.name };
        if (call.pending) yield* this.argumentsOf(call, call.pending);
        call.pending = '';
      } else if (args) {
        yield* this.argumentsOf(call, args);
      }
    }
  }

  /** True once any call has started. */
  get any(): boolean {
    return [...this.calls.values()].some((c) => c.started);
  }

  /** Ends every started call, in ordinal order; a call that streamed no arguments gets `{}`. */
  *endAll(): Generator<ToolEvent> {
    for (const call of [...this.calls.values()].sort((a, b) => a.ordinal - b.ordinal)) {
      if (!call.started) continue;
      if (!call.sentArguments) yield { type: 'tool_call_delta', index: call.ordinal, argumentsDelta: '{}' };
      yield { type: 'tool_call_end', index: call.ordinal };
    }
    this.calls.clear();
  }

  private *argumentsOf(call: OpenCall, args: string): Generator<ToolEvent> {
    if (!args) return;
    call.sentArguments = true;
    yield { type: 'tool_call_delta', index: call.ordinal, argumentsDelta: args };
  }
}
