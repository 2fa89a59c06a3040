import type { ProviderRequest, ProviderStreamEvent } from '../../providers/types.js';
import { RouterError } from '../errors.js';
import { redactErrorChain } from '../observe/redact.js';
import type { AttemptScope } from '../policy/abort/attempt-scope.js';
import type { CallKind } from '../policy/steps/call-kind.js';
import type { AttemptSlot } from '../policy/steps/attempt-slot.js';
import { breakerVerdict } from '../decide/breaker-verdict.js';
import { runHedged, type HedgeDeps } from '../policy/chain/hedge.js';
import type { Call } from '../policy/state/call.js';
import type { Attempt, ChatRequest, ChatResult, RateLimitSnapshot, ToolCall, Usage } from '../types.js';
import { RAW_START, type RawBytes } from '../pass-through/seam.js';
import { chatTokens } from './chat.js';
import { assistantMessage, parseOutput } from './output.js';
import { providerRequest } from './provider-request.js';
import { ToolCallAssembler, type PartialToolCall } from './tool-call-assembler.js';
import { unsendableChatParam } from './unsendable-param.js';
import { inputUsageOf, showsThinking, thinkingEvent, type InputUsage, type StreamThinking } from './stream-thinking.js';

export type { PartialToolCall } from './tool-call-assembler.js';
export type { InputUsage, StreamThinking } from './stream-thinking.js';

/**
 * What `router.stream` yields: `start`, then `text` deltas and tool calls (`tool_call_delta`
 * fragments, with `id` and `name` on a call's first, and one `tool_call` once its arguments are
 * complete and parsed), then exactly one of `done` or `interrupted`. With `streamThinking: true` on
 * the request, the model's reasoning comes too, as `thinking` events: a forwarded thinking event is
 * visible output, so the first one commits the stream (a failure after it is `interrupted`, never a
 * fall-through). Without it thinking is never shown and never commits.
 */
export type StreamEvent =
  | StreamStart
  | { type: 'text'; delta: string }
  | StreamThinking
  | { type: 'tool_call_delta'; index: number; id?: string; name?: string; argumentsDelta: string }
  | { type: 'tool_call'; toolCall: ToolCall }
  | { type: 'done'; result: ChatResult }
  | {
    type: 'interrupted';
    /** The text shown before the stream stopped. */
    text: string;
    /** Tool calls that completed (each was emitted as a `tool_call`). */
    toolCalls: ToolCall[];
    /** Tool calls cut off before their end: never emitted as complete, never to be executed. */
    incompleteToolCalls: PartialToolCall[];
    error: RouterError;
  };

/**
 * The first event of a stream, at its commit point: the target that streams, every attempt the call
 * made to get here (tried or skipped; the last one is this stream's), and the facts of the
 * committed attempt's response headers, known before any text: what a proxy must send before its body.
 */
export interface StreamStart {
  type: 'start';
  provider: string;
  model: string;
  attempts: Attempt[];
  /** The provider's id of the committed request, when it sent one. */
  requestId?: string;
  /** The headroom the committed response reported, when it carried rate-limit headers. */
  rateLimit?: RateLimitSnapshot;
  /**
   * The prompt's tokens, when the provider reported them before the answer (Anthropic does, in
   * `message_start`); the final counts are `done`'s `result.usage`.
   */
  inputUsage?: InputUsage;
}

/**
 * What a stream yields to the one caller that can ask for pass-through (the gateway, through
 * src/pass-through/seam.ts): a request carrying its bytes whose committed attempt sent them gets a
 * `start` marked `startsRaw`, then `raw` events beside the usual ones. Every other caller sees `StreamEvent`s only.
 */
export type RelayEvent = StreamEvent | RawBytes;

/** Options of `router.stream`. */
export interface StreamOptions {
  /**
   * Whether `done` (and `interrupted`) carry the whole text of the answer. With `false` the router
   * keeps nothing of the text it passes on, so a stream costs the same memory at any length:
   * `result.text` and `interrupted.text` are `''` and `result.message.content` holds no text (the
   * deltas were the text). A `responseFormat` answer is still read whole, to parse it. Relays (the
   * gateway, the AI SDK provider) pass `false`. @default true
   */
  keepText?: boolean;
}

/** A provider stream that has produced its first visible event (or finished without any): committed. */
export interface OpenStream {
  first: ProviderStreamEvent;
  events: AsyncIterator<ProviderStreamEvent>;
  scope: AttemptScope;
  requestId?: string;
  rateLimit?: RateLimitSnapshot;
  /** The provider's `usage` event, when it sent one before the commit point. */
  inputUsage?: InputUsage;
  /** Pass-through: the upstream's bytes up to the commit point (held until the stream starts). */
  raw?: string;
  /** Whether `endStream` gave the attempt back (a field of this object, not a closure or an owner object per stream). */
  ended: boolean;
}

/**
 * How a committed stream ends: `done` (the provider finished: its usage settles the lease), `failed`
 * (it broke off: the provider's iterator is closed), `left` (the consumer, or a hedge that lost, stopped
 * reading: the request is aborted first, then the same).
 */
type StreamEnd = 'done' | 'failed' | 'left';

/**
 * Gives back everything a committed stream's attempt holds, exactly once whichever way it ends: its
 * scope (timers, abort), its slot (lease, in-flight count) and the provider's iterator. The one
 * ending of a stream: `streamTarget`'s try/finally calls it last (as cockatiel's `execute` releases
 * in its finally), and a hedge's loser calls it; every later call does nothing.
 */
async function endStream(open: OpenStream, slot: AttemptSlot | undefined, how: StreamEnd, usage?: Usage): Promise<void> {
  if (open.ended) return;
  open.ended = true;
  if (how === 'left') open.scope.release();
  open.scope.dispose();
  // A cut stream's outlier verdict is its failure, given with the breaker's (`judgeAfterCommit`).
  if (how !== 'failed') slot?.settleOutlier(how === 'done' ? 'success' : 'neutral');
  await slot?.end(how === 'done' ? { sent: true, usage, rateLimit: open.rateLimit } : { sent: true, rateLimit: open.rateLimit });
  if (how !== 'done') await open.events.return?.(undefined).catch(() => {});
}

/**
 * Opens a provider stream and reads it up to the commit point: the first event the caller can see,
 * non-empty text, the start of a tool call, the finish, or (with `showThinking`, the request's
 * `streamThinking`) thinking that carries text, a signature or redacted data. Role-only chunks and
 * pings never reach us; thinking the caller is not shown proves the provider alive (the first-token
 * timer starts over) but does not commit. Anything that fails before the commit point is an
 * ordinary failed attempt, so the whole decision table applies; the attempt's scope is handed to
 * the stream after.
 */
async function openUntilVisible(events: AsyncIterable<ProviderStreamEvent>, scope: AttemptScope, showThinking: boolean): Promise<OpenStream> {
  const it = events[Symbol.asyncIterator]();
  let open: Extract<ProviderStreamEvent, { type: 'open' }> | undefined;
  let raw: string | undefined;
  let inputUsage: InputUsage | undefined;
  try {
    for (;;) {
      const next = await it.next();
      if (next.done) throw new RouterError('transport', 'stream ended without content or a terminal event', { code: 'stream_truncated' });
      const event = next.value;
      if (event.type === 'open') open = event;
      else if (event.type === 'raw') raw = raw === undefined ? event.bytes : raw + event.bytes;
      else if (event.type === 'usage') inputUsage = event;
      else if (event.type === 'thinking' && !(showThinking && showsThinking(event))) scope.alive();
      else if (event.type === 'delta' || event.type === 'tool_call_start' || event.type === 'finish' || event.type === 'thinking') {
        return { first: event, events: it, scope, requestId: open?.requestId, rateLimit: open?.rateLimit, inputUsage, raw, ended: false };
      }
    }
  } catch (err) {
    await it.return?.().catch(() => {});
    throw err;
  }
}

/** Why a committed stream stopped early, as the error the `interrupted` event carries. */
function interruption(err: unknown, scope: AttemptScope, call: Call, where: { provider: string; model: string }, idleMs: number): RouterError {
  const facts = Object.assign({}, where, { attempts: call.attempts, cause: err });
  if (scope.cause === 'caller') return new RouterError('aborted', 'stream aborted by the caller', facts);
  if (scope.cause === 'deadline') return new RouterError('timeout', `call deadline of ${call.timeoutMs} ms passed mid-stream`, facts);
  if (scope.cause === 'closed') return new RouterError('aborted', 'router closed mid-stream', facts);
  if (scope.cause === 'attempt_timeout') return new RouterError('timeout', `stream stalled: no chunk for ${idleMs} ms`, facts);
  const error = err instanceof RouterError ? err : new RouterError('transport', String(err), facts);
  return error.with({ attempts: call.attempts });
}

/** `router.stream` on the per-target pipeline: a success is a stream read up to its commit point. */
export const streamKind: CallKind<ProviderRequest, OpenStream> = {
  name: 'stream',
  keepsAttempt: true,
  payload: (call, target) => providerRequest(call.request as ChatRequest, target),
  endpoint: (target) => target.chat,
  estimateTokens: chatTokens,
  send: (adapter, payload, handle, call) => openUntilVisible(adapter.stream(payload, handle), handle.scope!, (call.request as ChatRequest).streamThinking === true),
  attemptTimeoutMs: (call, target) => (call.request as ChatRequest).firstTokenTimeoutMs ?? target.firstTokenTimeoutMs ?? Infinity,
  timeoutLabel: () => 'no first token in time',
  leaseTtlMs: (target) => target.streamLeaseTtlMs,
  unsendableParam: unsendableChatParam,
  // A hedge's loser that opened after the winner: abort its request, free its slot, settle its lease.
  discard: (open, slot) => endStream(open, slot, 'left'),
};

/**
 * Streams one call. Before the commit point every rule of the decision table applies (retries,
 * waits, fall-through, breakers); after it nothing is retried and no other target is tried: a
 * failure ends the stream with `interrupted`, carrying the text shown so far and the tool calls that
 * completed. A stream that ends without its provider's terminal event is never `done`; a tool call
 * cut off before its end is never emitted as complete.
 */
export async function* streamCall(rt: HedgeDeps, call: Call<ChatRequest>, options: StreamOptions = {}): AsyncGenerator<RelayEvent> {
  rt.active.enter();
  let active = true;
  // The call counts as in flight until its last event is handed over, not until the consumer asks
  // for more: one that stops reading at `done` must not keep close() waiting.
  const leave = () => {
    if (active) {
      active = false;
      rt.active.leave();
    }
  };
  try {
    yield* streamTarget(rt, call, leave, options.keepText !== false);
  } finally {
    leave();
  }
}

async function* streamTarget(rt: HedgeDeps, call: Call<ChatRequest>, leave: () => void, keepText: boolean): AsyncGenerator<RelayEvent> {
  const { clock } = rt;
  const { value: open, target: runtime, slot, hedged } = await runHedged(rt, call, streamKind);
  const target = runtime.target;

  const timeToFirstTokenMs = clock.now() - call.startedAtMs;
  const where = { provider: target.provider, model: target.model };
  const idleMs = runtime.attemptTimeoutMs;
  const { scope, events } = open;
  scope.commit(idleMs);
  scope.pause();
  const tools = new ToolCallAssembler(where);
  // What the stream holds of the text: all of it only when the caller wants it back, or a
  // responseFormat answer must be parsed at the end; otherwise a count, so memory does not grow with it.
  const holdsText = keepText || call.request.responseFormat !== undefined;
  const showThinking = call.request.streamThinking === true;
  let text = '';
  let chars = 0;
  let finished = false;
  let event: ProviderStreamEvent = open.first;
  try {
    yield {
      type: 'start', ...where, attempts: call.attempts,
      ...(open.requestId !== undefined ? { requestId: open.requestId } : {}), ...(open.rateLimit ? { rateLimit: open.rateLimit } : {}),
      ...(open.inputUsage ? { inputUsage: inputUsageOf(open.inputUsage) } : {}),
      ...(open.raw !== undefined ? RAW_START : {}),
    };
    if (open.raw !== undefined) yield { type: 'raw', bytes: open.raw };
    for (;;) {
      if (event.type === 'finish') break;
      if (event.type === 'delta') {
        if (holdsText) text += event.text;
        chars += event.text.length;
        yield { type: 'text', delta: event.text };
      } else if (event.type === 'raw') {
        yield event;
      } else if (event.type === 'thinking') {
        if (showThinking && showsThinking(event)) yield thinkingEvent(event);
      } else if (event.type === 'tool_call_start' || event.type === 'tool_call_delta' || event.type === 'tool_call_end') {
        for (const out of tools.take(event)) yield out;
      }
      scope.touch();
      const next = await events.next();
      scope.pause();
      // Aborted (by the caller, the deadline, a close) while a chunk was already buffered: nothing more is shown.
      if (scope.cause) throw new RouterError('aborted', `stream ended: ${scope.cause}`, where);
      if (next.done) throw new RouterError('transport', 'stream ended before its terminal event', Object.assign({}, where, { code: 'stream_truncated' }));
      event = next.value;
    }
    const end = tools.finish(event.finishReason);
    finished = true;
    await endStream(open, slot, 'done', event.usage);
    const request = call.request;
    const shown = keepText ? text : '';
    const result: ChatResult = {
      text: shown, toolCalls: end.toolCalls,
      message: assistantMessage({ text: shown, toolCalls: end.toolCalls, providerParts: event.providerParts }),
      ...where, ...(event.model ? { responseModel: event.model } : {}), finishReason: end.finishReason, usage: event.usage, attempts: call.attempts,
      latencyMs: clock.now() - call.startedAtMs, requestId: open.requestId, timeToFirstTokenMs,
      ...(call.cost.usd !== undefined ? { costUsd: call.cost.usd } : {}),
      ...(hedged ? { hedged } : {}),
    };
    leave();
    if (end.error) {
      yield { type: 'interrupted', text: shown, toolCalls: end.toolCalls, incompleteToolCalls: tools.incomplete(), error: end.error.with({ attempts: call.attempts }) };
      return;
    }
    if (request.responseFormat && end.finishReason === 'stop' && end.toolCalls.length === 0) {
      try {
        result.object = parseOutput(text, request.responseFormat, where);
      } catch (err) {
        yield { type: 'interrupted', text: shown, toolCalls: [], incompleteToolCalls: [], error: (err as RouterError).with({ attempts: call.attempts }) };
        return;
      }
    }
    yield { type: 'done', result };
  } catch (err) {
    if (finished) throw err;
    finished = true;
    const error = redactErrorChain(interruption(redactErrorChain(err, rt.redact), scope, call, where, idleMs), rt.redact);
    await endStream(open, slot, 'failed');
    // Nothing is retried now, but the breaker and the throttle hear of a server failure (a caller's abort is no verdict).
    slot?.judgeAfterCommit(scope.cause === 'caller' ? 'neutral' : breakerVerdict(error.kind), rt.clock.now());
    rt.logger.warn(Object.assign({}, where, { chain: call.chain, kind: error.kind, code: error.code, chars }), 'stream interrupted after its first visible event; not retried');
    leave();
    yield { type: 'interrupted', text: keepText ? text : '', toolCalls: tools.completed(), incompleteToolCalls: tools.incomplete(), error };
  } finally {
    // The one owner's release: does nothing after `done` or `failed`; else the consumer stopped reading.
    await endStream(open, slot, 'left');
  }
}
