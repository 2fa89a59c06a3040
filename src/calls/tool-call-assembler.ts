import type { ProviderStreamEvent } from '../../providers/types.js';
import { RouterError } from '../errors.js';
import type { FinishReason, ToolCall } from '../types.js';
import { ANSWER_MAX_DEPTH, nestsDeeperThan } from './input-bounds.js';

/** A tool call seen in a stream but not complete: cut off, or its arguments never parsed. */
export interface PartialToolCall {
  index: number;
  id: string;
  name: string;
  /** The argument text received so far. */
  argumentsText: string;
}

interface Open extends PartialToolCall {
  ended: boolean;
  call?: ToolCall;
}

type ToolEvent = Extract<ProviderStreamEvent, { type: 'tool_call_start' | 'tool_call_delta' | 'tool_call_end' }>;
type Out =
  | { type: 'tool_call_delta'; index: number; id?: string; name?: string; argumentsDelta: string }
  | { type: 'tool_call'; toolCall: ToolCall };

/** How a stream's tool calls ended, at its finish. */
export interface ToolCallsEnd {
  toolCalls: ToolCall[];
  finishReason: FinishReason;
  /** A call that ended with arguments that are not a JSON object (and the answer was not cut at `length`). */
  error?: RouterError;
}

/**
 * Assembles streamed tool calls by their per-answer index (never a content-block index): forwards
 * each fragment as a `tool_call_delta`, and emits a `tool_call` only when the provider said the
 * call's arguments are complete and they parse. A call still open at the end, or one whose arguments
 * do not parse, is never emitted as complete; at a `length` finish every call is simply cut off.
 */
export class ToolCallAssembler {
  private readonly calls = new Map<number, Open>();

  constructor(private readonly where: { provider: string; model: string }) {}

  take(event: ToolEvent): Out[] {
    if (event.type === 'tool_call_start') {
      this.calls.set(event.index, { index: event.index, id: event.id, name: event.name, argumentsText: '', ended: false });
      return [{ type: 'tool_call_delta', index: event.index, id: event.id, name: event.name, argumentsDelta: '' }];
    }
    const open = this.calls.get(event.index);
    if (!open || open.ended) return [];
    if (event.type === 'tool_call_delta') {
      open.argumentsText += event.argumentsDelta;
      return event.argumentsDelta ? [{ type: 'tool_call_delta', index: event.index, argumentsDelta: event.argumentsDelta }] : [];
    }
    open.ended = true;
    const args = parseArguments(open.argumentsText);
    if (!args) return [];
    open.call = { id: open.id, name: open.name, arguments: args };
    // Parsed: the text is not needed again (only a call that did not complete reports its text).
    open.argumentsText = '';
    return [{ type: 'tool_call', toolCall: open.call }];
  }

  /** Calls that completed, in index order. */
  completed(): ToolCall[] {
    return [...this.calls.values()].sort((a, b) => a.index - b.index).flatMap((c) => (c.call ? [c.call] : []));
  }

  /** Calls that did not complete, in index order. */
  incomplete(): PartialToolCall[] {
    return [...this.calls.values()].filter((c) => !c.call).sort((a, b) => a.index - b.index)
      .map(({ index, id, name, argumentsText }) => ({ index, id, name, argumentsText }));
  }

  /**
   * The outcome at the provider's finish. An answer cut at `length` holds no tool calls, like `chat`'s:
   * the turn is incomplete, so none of its calls is one to run (a `tool_call` event already sent for
   * a call whose block ended before the cut stays sent, but the result does not list it).
   */
  finish(reason: FinishReason): ToolCallsEnd {
    if (reason === 'length') return { toolCalls: [], finishReason: reason };
    const toolCalls = this.completed();
    const broken = this.incomplete();
    if (broken.length > 0) {
      const first = broken[0]!;
      const error = new RouterError('invalid_output', `${this.where.provider}:${this.where.model}: tool call ${first.name} ended with arguments that are not a JSON object`, Object.assign({}, this.where, { code: 'tool_arguments', raw: first.argumentsText }));
      return { toolCalls, finishReason: reason, error };
    }
    // OpenAI ends a forced tool call with `stop`: the answer is the tool calls all the same.
    const finishReason = toolCalls.length > 0 && reason === 'stop' ? 'tool_calls' : reason;
    return { toolCalls, finishReason };
  }
}

/** Streamed arguments as an object: `""` is a call without arguments (`{}`); anything but a JSON object (or one nested deeper than ANSWER_MAX_DEPTH) is no arguments at all. */
function parseArguments(text: string): Record<string, unknown> | undefined {
  if (text.trim() === '') return {};
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value !== 'object' || value === null || Array.isArray(value) || nestsDeeperThan(value, ANSWER_MAX_DEPTH)) return undefined;
    return value as Record<string, unknown>;
  } catch {
    return undefined;
  }
}
