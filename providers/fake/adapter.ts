import {
  answerChunks, approxTokens, breakJson, embeddingFor, embeddingTokens, planAnswer, requestPromptTokens, stableHashHex,
  toolCallId, truncateToTokens, valueForSchema, type Answer, type PlannedToolCall,
} from '../shared/answers/index.js';
import { RouterError } from '../../src/errors.js';
import type { FinishReason, ToolCall, Usage } from '../../src/types.js';
import { truncatedStream } from '../shared/stream-errors.js';
import { abortedError } from '../shared/transport-error.js';
import type {
  AdapterContext, FakeStep, ProviderAdapter, ProviderCallOptions, ProviderEmbedRequest, ProviderEmbedResponse, ProviderRequest,
  ProviderResponse, ProviderStreamEvent,
} from '../types.js';

const DEFAULT_STATUS: Readonly<Record<string, number>> = {
  rate_limited: 429, quota_exhausted: 429, server: 503, bad_request: 400, context_length: 400,
  content_filter: 400, auth: 401, not_found: 404,
};

/** Most inputs one fake embeddings request takes (OpenAI's ceiling). */
export const FAKE_MAX_EMBEDDING_INPUTS = 2_048;

/** The in-process `fake` adapter, with its request logs exposed for tests. */
export interface FakeAdapter extends ProviderAdapter {
  /** Every chat and stream request received, in order (including ones that then failed). */
  readonly requests: ProviderRequest[];
  /** Every embeddings request received, in order (including ones that then failed). */
  readonly embedRequests: ProviderEmbedRequest[];
  embed(request: ProviderEmbedRequest, options: ProviderCallOptions): Promise<ProviderEmbedResponse>;
}

type Failure = Extract<FakeStep, { fail: string }>;
type Scripted = Exclude<FakeStep, 'ok' | 'hang' | Failure>;
type Where = { provider: string; model: string };

function waitForAbort(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    if (signal.aborted) reject(signal.reason);
    else signal.addEventListener('abort', () => reject(signal.reason), { once: true });
  });
}

/** A tool call's arguments parsed the way a real adapter parses them: what does not parse is `invalid_output`. */
function parseArguments(call: PlannedToolCall, where: Where): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = call.argumentsJson.trim() === '' ? {} : JSON.parse(call.argumentsJson);
  } catch {
    parsed = undefined;
  }
  if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
  throw new RouterError('invalid_output', `${where.provider} answered a call of tool "${call.name}" whose arguments are not a JSON object`, Object.assign({}, where, { code: 'invalid_tool_arguments', raw: call.argumentsJson }));
}

/**
 * An offline provider: deterministic answers with honest token counts (the same rules as the
 * simulator, from providers/shared/answers: tool calls for requests with tools, JSON for `responseFormat`, an
 * answer quoting tool results after them, reasoning tokens for `reasoning`), deterministic embeddings,
 * and scriptable outcomes (`script` for successive requests of any kind, chat, stream or embed, or
 * `respond(request, n)`), for tests and running without keys. Streams send the text a word at a time
 * and each tool call as a start, 16-character argument fragments and an end; `cutAfterChunks` and
 * `afterChunks` count those chunks, so a cut can fall inside a tool call's arguments. Every wait
 * runs on the injected clock.
 * @example providers: { local: { type: 'fake', script: [{ fail: 'rate_limited', retryAfterMs: 300 }, 'ok'] } }
 */
export function fakeAdapter(ctx: AdapterContext): FakeAdapter {
  const { provider: given, clock } = ctx;
  if (given.type !== 'fake') throw new TypeError(`fakeAdapter needs a fake provider, got ${given.type}`);
  const provider = given; // narrowed once: closures below keep the fake provider's type
  const script = [...(provider.script ?? [])];
  const requests: ProviderRequest[] = [];
  const embedRequests: ProviderEmbedRequest[] = [];

  /** The signal a fake request runs under: the caller's, and its own timeout on the clock (as an SDK would do). */
  function requestSignal(options: ProviderCallOptions): { signal: AbortSignal; done(): void } {
    if (options.timeoutMs === undefined) return { signal: options.signal ?? new AbortController().signal, done() {} };
    const controller = new AbortController();
    const timer = clock.setTimer(options.timeoutMs, () => controller.abort(new Error('timed out')));
    const onAbort = () => controller.abort(options.signal!.reason);
    if (options.signal?.aborted) onAbort();
    else options.signal?.addEventListener('abort', onAbort, { once: true });
    return {
      signal: controller.signal,
      done() {
        timer.clear();
        options.signal?.removeEventListener('abort', onAbort);
      },
    };
  }

  /** Takes the next scripted step and waits out its latency (abortably, and within its timeout). */
  async function begin(request: ProviderRequest | ProviderEmbedRequest, log: unknown[], options: ProviderCallOptions) {
    const where = { provider: provider.name, model: request.model };
    // The request leaves for the (in-process) provider, which logs it on receipt.
    options.onSend?.();
    log.push(request);
    const n = requests.length + embedRequests.length;
    const step = (provider.respond?.(request, n) ?? script.shift() ?? 'ok') as FakeStep;
    const requestId = `fake_${provider.name}_${n}`;
    const stepLatency = typeof step === 'object' ? step.latencyMs : undefined;
    const latencyMs = stepLatency ?? provider.latencyMs ?? 0;
    if (options.signal?.aborted) throw abortedError(where, options.signal.reason);
    if (step !== 'hang' && latencyMs <= 0) return { where, step, requestId };
    // Only a request that waits needs a signal of its own (the caller's, plus its timeout).
    const { signal, done } = requestSignal(options);
    try {
      if (step === 'hang') await waitForAbort(signal);
      await clock.sleep(latencyMs, signal);
    } catch (err) {
      if (options.signal?.aborted) throw abortedError(where, err);
      throw new RouterError('timeout', `${provider.name} request timed out`, Object.assign({}, where, { cause: err }));
    } finally {
      done();
    }
    return { where, step, requestId };
  }

  function failure(step: Failure, where: Where, requestId: string): RouterError {
    const status = step.status ?? (step.fail === 'transport' || step.fail === 'timeout' ? undefined : DEFAULT_STATUS[step.fail]);
    const code = step.code ?? (step.fail === 'quota_exhausted' ? 'insufficient_quota' : undefined);
    const head = [provider.name, status, step.fail].filter((part) => part !== undefined).join(' ');
    return new RouterError(step.fail, `${head}: ${step.message ?? 'scripted failure'}`, Object.assign({}, where, { status, code, retryAfterMs: step.retryAfterMs, requestId }));
  }

  /** The answer a request gets: the deterministic one, or what its scripted step says instead. */
  function answer(request: ProviderRequest, step: FakeStep): Answer & { finishReason: FinishReason; usage: Usage; ids: string[] } {
    const scripted = typeof step === 'object' && !('fail' in step) ? (step as Scripted) : undefined;
    const invalidJson = scripted?.invalidJson === true;
    let planned: Answer;
    if (scripted?.toolCalls) {
      const conversation = `${request.model}\u0000${stableHashHex(JSON.stringify(request.messages))}`;
      const toolCalls = scripted.toolCalls.map((call, i): PlannedToolCall => {
        const tool = request.tools?.find((t) => t.name === call.name);
        const generated = tool ? valueForSchema(tool.parameters) : {};
        const args = call.arguments ?? (typeof generated === 'object' && generated !== null && !Array.isArray(generated) ? generated as Record<string, unknown> : {});
        const json = JSON.stringify(args);
        return { key: `${conversation}\u0000${i}\u0000${call.name}`, name: call.name, arguments: args, argumentsJson: invalidJson ? breakJson(json) : json, complete: true };
      });
      const text = scripted.text ?? '';
      const chars = text.length + toolCalls.reduce((n, c) => n + c.argumentsJson.length, 0);
      planned = { text, toolCalls, finish: 'tool_calls', forcedTool: false, outputTokens: chars ? Math.ceil(chars / 4) : 0, reasoningTokens: 0 };
    } else if (scripted?.text !== undefined) {
      const { text, truncated } = truncateToTokens(invalidJson ? breakJson(scripted.text) : scripted.text, request.maxTokens);
      planned = { text, toolCalls: [], finish: truncated ? 'length' : 'stop', forcedTool: false, outputTokens: text ? approxTokens(text) : 0, reasoningTokens: 0 };
    } else {
      planned = planAnswer(request, { invalidJson });
    }
    const extra = scripted?.usage ?? {};
    const reasoningTokens = extra.reasoningTokens ?? planned.reasoningTokens;
    const usage: Usage = {
      inputTokens: requestPromptTokens(request),
      outputTokens: planned.outputTokens - planned.reasoningTokens + reasoningTokens,
      ...(extra.cachedInputTokens !== undefined ? { cachedInputTokens: extra.cachedInputTokens } : {}),
      ...(extra.cacheWriteTokens !== undefined ? { cacheWriteTokens: extra.cacheWriteTokens } : {}),
      ...(reasoningTokens > 0 ? { reasoningTokens } : {}),
    };
    // A call's id: the scripted one, or `call_` and 24 characters derived from the conversation.
    const ids = planned.toolCalls.map((call, i) => scripted?.toolCalls?.[i]?.id ?? toolCallId(call.key, 'openai'));
    return Object.assign({}, planned, { finishReason: scripted?.finishReason ?? planned.finish, usage, ids });
  }

  async function chat(request: ProviderRequest, options: ProviderCallOptions): Promise<ProviderResponse> {
    const { where, step, requestId } = await begin(request, requests, options);
    if (typeof step === 'object' && 'fail' in step) throw failure(step, where, requestId);
    const a = answer(request, step);
    const toolCalls: ToolCall[] = a.toolCalls.map((call, i) => ({ id: a.ids[i]!, name: call.name, arguments: parseArguments(call, where) }));
    return { text: a.text, toolCalls, finishReason: a.finishReason, model: request.model, requestId, usage: a.usage };
  }

  async function* stream(request: ProviderRequest, options: ProviderCallOptions): AsyncGenerator<ProviderStreamEvent> {
    const { where, step, requestId } = await begin(request, requests, options);
    const failed = typeof step === 'object' && 'fail' in step ? step : undefined;
    if (failed && !failed.afterChunks) throw failure(failed, where, requestId);
    yield { type: 'open', requestId };
    const a = answer(request, step);
    if (a.reasoningTokens > 0) yield { type: 'thinking' };
    const chunks = answerChunks(a);
    const stopAt = failed?.afterChunks ?? (typeof step === 'object' && 'cutAfterChunks' in step ? step.cutAfterChunks : undefined);
    let openCall: number | undefined;
    for (let i = 0; i < chunks.length; i++) {
      if (stopAt !== undefined && i >= stopAt) break;
      if (options.signal?.aborted) throw abortedError(where, options.signal.reason);
      const chunk = chunks[i]!;
      if (chunk.type === 'text') {
        yield { type: 'delta', text: chunk.text };
      } else if (chunk.type === 'tool_start') {
        // A call ends when the next one starts (or at the finish), as an OpenAI stream shows it.
        if (openCall !== undefined) yield { type: 'tool_call_end', index: openCall };
        openCall = chunk.call.complete ? chunk.index : undefined;
        yield { type: 'tool_call_start', index: chunk.index, id: a.ids[chunk.index]!, name: chunk.call.name };
      } else {
        yield { type: 'tool_call_delta', index: chunk.index, argumentsDelta: chunk.fragment };
      }
    }
    if (failed) throw failure(failed, where, requestId);
    if (stopAt !== undefined && stopAt < chunks.length) throw truncatedStream(where, 'its last chunk');
    if (openCall !== undefined) yield { type: 'tool_call_end', index: openCall };
    yield { type: 'finish', finishReason: a.finishReason, usage: a.usage, model: request.model };
  }

  async function embed(request: ProviderEmbedRequest, options: ProviderCallOptions): Promise<ProviderEmbedResponse> {
    const { where, step, requestId } = await begin(request, embedRequests, options);
    if (typeof step === 'object' && 'fail' in step) throw failure(step, where, requestId);
    if (request.input.length === 0 || request.input.length > FAKE_MAX_EMBEDDING_INPUTS) {
      throw new RouterError('bad_request', `${provider.name} 400 bad_request: an embeddings request takes 1 to ${FAKE_MAX_EMBEDDING_INPUTS} inputs, got ${request.input.length}`, Object.assign({}, where, { status: 400, requestId }));
    }
    return {
      embeddings: request.input.map((text) => embeddingFor(request.model, text, request.dimensions)),
      usage: { inputTokens: request.input.reduce((n, text) => n + embeddingTokens(text), 0) },
      model: request.model,
      requestId,
    };
  }

  return {
    name: provider.name, type: provider.type,
    traits: { tokenCounting: 'heuristic', maxEmbeddingInputs: FAKE_MAX_EMBEDDING_INPUTS, timeoutCoversBody: true },
    requests, embedRequests, chat, stream, embed, async close() {},
  };
}
