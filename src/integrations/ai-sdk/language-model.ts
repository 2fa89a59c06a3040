import type {
  LanguageModelV3, LanguageModelV3CallOptions, LanguageModelV3GenerateResult, LanguageModelV3StreamPart, LanguageModelV3StreamResult,
} from '@ai-sdk/provider';
import type { StreamEvent } from '../../calls/stream.js';
import type { Router } from '../../router.js';
import type { ChatRequest } from '../../types.js';
import { failure } from './api-error.js';
import { toChatRequest, type SwitchyardModelSettings } from './call-options.js';
import { contentOf, finishReasonOf, metadataOf, usageOf } from './result.js';
import { StreamParts } from './stream-parts.js';

/** The request as the AI SDK's telemetry shows it: everything but the signal. */
function bodyOf(request: ChatRequest): Omit<ChatRequest, 'signal'> {
  const { signal: _signal, ...body } = request;
  return body;
}

/**
 * A Switchyard chain as an AI SDK language model (specification v3): every call goes through the
 * chain's retries, fall-throughs, breakers and budgets. `modelId` is the chain's name.
 */
export class SwitchyardLanguageModel implements LanguageModelV3 {
  readonly specificationVersion = 'v3' as const;
  readonly provider = 'switchyard';
  /** Images at https: URLs go to the providers as URLs; the AI SDK downloads anything else and hands over the bytes. */
  readonly supportedUrls: Record<string, RegExp[]> = { 'image/*': [/^https:\/\//] };

  constructor(private readonly router: Router, readonly modelId: string, private readonly settings: SwitchyardModelSettings = {}) {}

  async doGenerate(options: LanguageModelV3CallOptions): Promise<LanguageModelV3GenerateResult> {
    const { request, warnings } = toChatRequest(this.modelId, this.settings, options);
    let result;
    try {
      result = await this.router.chat(request);
    } catch (err) {
      throw failure(err, this.modelId, request);
    }
    return {
      content: contentOf(result),
      finishReason: finishReasonOf(result.finishReason),
      usage: usageOf(result.usage),
      providerMetadata: metadataOf(result),
      request: { body: bodyOf(request) },
      response: { modelId: result.responseModel ?? result.model, ...(result.requestId ? { id: result.requestId } : {}) },
      warnings,
    };
  }

  /**
   * Resolves once the chain has committed to a target (its first token): a failure before that
   * rejects here, as the AI SDK expects of a provider; after it the stream ends with an `error` part.
   */
  async doStream(options: LanguageModelV3CallOptions): Promise<LanguageModelV3StreamResult> {
    const { request, warnings } = toChatRequest(this.modelId, this.settings, options);
    if (request.idempotencyKey !== undefined) {
      delete request.idempotencyKey;
      warnings.push({ type: 'unsupported', feature: 'idempotencyKey', details: 'a stream cannot be replayed; it is sent without one' });
    }
    let events: AsyncIterator<StreamEvent>;
    let first: IteratorResult<StreamEvent>;
    try {
      // The parts carry the text as it comes; `done` need not (the stream then holds none of it).
      events = this.router.stream(request, { keepText: false })[Symbol.asyncIterator]();
      first = await events.next();
    } catch (err) {
      throw failure(err, this.modelId, request);
    }
    const mapper = new StreamParts(this.modelId, bodyOf(request));
    const chain = this.modelId;
    let pending: IteratorResult<StreamEvent> | undefined = first;
    const stream = new ReadableStream<LanguageModelV3StreamPart>({
      start(controller) {
        controller.enqueue({ type: 'stream-start', warnings });
      },
      async pull(controller) {
        try {
          const next = pending ?? (await events.next());
          pending = undefined;
          if (next.done) {
            controller.close();
            return;
          }
          for (const part of mapper.map(next.value)) controller.enqueue(part);
          if (next.value.type === 'done' || next.value.type === 'interrupted') {
            controller.close();
            // Let the router's stream run to its end (its bookkeeping of the call ends there).
            await events.return?.();
          }
        } catch (err) {
          for (const part of mapper.failed(failure(err, chain, request))) controller.enqueue(part);
          controller.close();
        }
      },
      async cancel() {
        // The reader went away: stop the upstream request and free its budget.
        await events.return?.();
      },
    });
    return { stream, request: { body: bodyOf(request) } };
  }
}
