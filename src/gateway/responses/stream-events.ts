import type { RelayEvent } from '../../calls/stream.js';
import type { ChatResult, ToolCall } from '../../types.js';
import { itemId } from './ids.js';
import { argumentsOf, callItem, customItem, inputOf, messageItem, responseObject, responsesUsage, statusOf, type ResponseMeta } from './response-object.js';

/** One server-sent event of a Responses stream: `type` is also its `event:` line. */
export interface ResponsesEvent {
  type: string;
  sequence_number: number;
  [field: string]: unknown;
}

interface OpenMessage {
  index: number;
  id: string;
  text: string;
}

interface OpenCall {
  index: number;
  id: string;
  call: { id: string; name: string };
  args: string;
  done: boolean;
}

/**
 * Turns one answer's router stream into the Responses API's events, numbered from 0: at the start
 * `response.created` and `response.in_progress`; text as a `message` item (`output_item.added`,
 * `content_part.added`, `output_text.delta`s, then `output_text.done`, `content_part.done`,
 * `output_item.done`); each tool call as a `function_call` item (`output_item.added`,
 * `function_call_arguments.delta`s, `.done` once the router has parsed its arguments,
 * `output_item.done`); then `response.completed` (or `response.incomplete`) with the whole Response.
 * A failure after the start is an `error` event and `response.failed`. Items are numbered in the
 * order they start, and an open message closes when a tool call starts.
 */
export class ResponsesEvents {
  private seq = 0;
  /** Output items started so far: the next one's `output_index`. */
  private items = 0;
  private message: OpenMessage | undefined;
  private readonly calls = new Map<number, OpenCall>();
  /** The output items, as each ended (in output order). */
  readonly output: Array<Record<string, unknown>> = [];

  constructor(private readonly meta: ResponseMeta) {}

  /** The events that open the stream. */
  start(): ResponsesEvent[] {
    const response = responseObject(this.meta, { status: 'in_progress' }, [], null);
    return [this.ev('response.created', { response }), this.ev('response.in_progress', { response })];
  }

  /** The events one router event becomes (`text`, `tool_call_delta`, `tool_call`; a pass-through stream's `raw` bytes, none). */
  push(event: RelayEvent): ResponsesEvent[] {
    switch (event.type) {
      case 'text':
        return event.delta ? this.text(event.delta) : [];
      case 'tool_call_delta':
        return this.callDelta(event.index, event.id, event.name, event.argumentsDelta);
      case 'tool_call':
        return this.callDone(event.toolCall);
      default:
        return [];
    }
  }

  /** The closing events of an answer; `response` is what the record keeps and the non-stream answer would be. */
  finish(result: ChatResult, nowS: number): ResponsesEvent[] {
    const out = this.closeMessage(result.finishReason === 'length' || result.finishReason === 'content_filter' ? 'incomplete' : 'completed');
    for (const call of result.toolCalls) out.push(...this.callDone(call));
    const state = statusOf(result.finishReason);
    const response = responseObject(this.meta, state, this.ordered(), responsesUsage(result.usage), nowS);
    out.push(this.ev(state.status === 'completed' ? 'response.completed' : 'response.incomplete', { response }));
    return out;
  }

  /** The events that end a stream cut off after its start: an `error` event, then `response.failed`. */
  fail(code: string, message: string): ResponsesEvent[] {
    const response = responseObject(this.meta, { status: 'failed', error: { code, message } }, this.ordered(), null);
    return [this.ev('error', { code, message, param: null }), this.ev('response.failed', { response })];
  }

  private text(delta: string): ResponsesEvent[] {
    const out: ResponsesEvent[] = [];
    if (!this.message) {
      const index = this.nextIndex();
      const id = itemId(this.meta.id, 'msg', index);
      this.message = { index, id, text: '' };
      out.push(this.ev('response.output_item.added', { output_index: index, item: messageItem(id, '', 'in_progress') }));
      out.push(this.ev('response.content_part.added', { item_id: id, output_index: index, content_index: 0, part: { type: 'output_text', text: '', annotations: [], logprobs: [] } }));
    }
    const m = this.message;
    m.text += delta;
    out.push(this.ev('response.output_text.delta', { item_id: m.id, output_index: m.index, content_index: 0, delta, logprobs: [] }));
    return out;
  }

  private closeMessage(status: 'completed' | 'incomplete'): ResponsesEvent[] {
    const m = this.message;
    if (!m) return [];
    this.message = undefined;
    const item = messageItem(m.id, m.text, status);
    this.output[m.index] = item;
    return [
      this.ev('response.output_text.done', { item_id: m.id, output_index: m.index, content_index: 0, text: m.text, logprobs: [] }),
      this.ev('response.content_part.done', { item_id: m.id, output_index: m.index, content_index: 0, part: item.content[0] }),
      this.ev('response.output_item.done', { output_index: m.index, item }),
    ];
  }

  private callDelta(ordinal: number, id: string | undefined, name: string | undefined, delta: string): ResponsesEvent[] {
    const out: ResponsesEvent[] = [];
    let open = this.calls.get(ordinal);
    if (!open) {
      out.push(...this.closeMessage('completed'));
      const index = this.nextIndex();
      open = { index, id: itemId(this.meta.id, 'fc', index), call: { id: id ?? `call_${this.meta.id.slice(5, 29)}_${index}`, name: name ?? '' }, args: '', done: false };
      this.calls.set(ordinal, open);
      const item = this.isCustom(open.call.name) ? customItem(open.id, open.call, '', 'in_progress') : callItem(open.id, open.call, '', 'in_progress');
      out.push(this.ev('response.output_item.added', { output_index: index, item }));
    }
    // A freeform call's text is known once its arguments are whole (the router streams them as JSON): it goes at its end.
    if (delta && this.isCustom(open.call.name)) open.args += delta;
    else if (delta) {
      open.args += delta;
      out.push(this.ev('response.function_call_arguments.delta', { item_id: open.id, output_index: open.index, delta }));
    }
    return out;
  }

  private callDone(call: ToolCall): ResponsesEvent[] {
    let open = [...this.calls.values()].find((c) => c.call.id === call.id);
    const out: ResponsesEvent[] = [];
    if (!open) {
      // A call that came whole, never in fragments: its start and its arguments in one go.
      out.push(...this.callDelta(-1 - this.items, call.id, call.name, argumentsOf(call)));
      open = [...this.calls.values()].find((c) => c.call.id === call.id)!;
    }
    if (open.done) return out;
    open.done = true;
    if (this.isCustom(call.name)) {
      const input = inputOf(call);
      const item = customItem(open.id, { id: call.id, name: call.name }, input, 'completed');
      this.output[open.index] = item;
      out.push(this.ev('response.custom_tool_call_input.done', { item_id: open.id, output_index: open.index, input }));
      out.push(this.ev('response.output_item.done', { output_index: open.index, item }));
      return out;
    }
    if (!open.args) {
      open.args = argumentsOf(call);
      out.push(this.ev('response.function_call_arguments.delta', { item_id: open.id, output_index: open.index, delta: open.args }));
    }
    const item = callItem(open.id, { id: call.id, name: call.name }, open.args, 'completed');
    this.output[open.index] = item;
    out.push(this.ev('response.function_call_arguments.done', { item_id: open.id, output_index: open.index, name: call.name, arguments: open.args }));
    out.push(this.ev('response.output_item.done', { output_index: open.index, item }));
    return out;
  }

  private isCustom(name: string): boolean {
    return this.meta.custom?.has(name) === true;
  }

  private nextIndex(): number {
    return this.items++;
  }

  private ordered(): Array<Record<string, unknown>> {
    return this.output.filter(Boolean);
  }

  private ev(type: string, data: Record<string, unknown>): ResponsesEvent {
    return { type, sequence_number: this.seq++, ...data };
  }
}
