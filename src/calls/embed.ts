import type { AbortSignalLike } from '../../providers/types.js';
import { AbortLink } from '../policy/abort/abort-link.js';
import type { ProviderEmbedRequest, ProviderEmbedResponse } from '../../providers/types.js';
import { embedBatches } from '../decide/embed-batches.js';
import { embedPassThroughBlocker, passThroughBytes } from '../decide/pass-through.js';
import { heuristicTokens } from '../decide/token-estimate.js';
import { RouterError } from '../errors.js';
import type { TokenEstimate } from '../policy/admission/budget.js';
import type { CallKind } from '../policy/steps/call-kind.js';
import { runChain, type ChainAnswer, type ChainDeps } from '../policy/chain/run-chain.js';
import type { ActiveCalls } from '../policy/state/active-calls.js';
import type { TargetRuntime } from '../policy/state/target-runtime.js';
import type { Call } from '../policy/state/call.js';
import type { EmbedRequest, EmbedResult } from '../types.js';
import { passThroughOf, withRawAnswer } from '../pass-through/seam.js';

/** One batch of an embed call: what the sub-call carries as its request. */
interface Batch {
  input: string[];
  dimensions?: number;
  /** The call's pass-through body and chain, when the whole input is this one batch. */
  passThrough?: { text: string; body: Record<string, unknown>; chain: string };
}

/** Batches in flight at once after the first (which picks the model every later batch must use). */
const BATCH_CONCURRENCY = 4;

/** Input tokens as the provider's limiter counts them; embeddings reserve no output. */
function embedTokens(call: Call, target: TargetRuntime, payload: ProviderEmbedRequest): TokenEstimate {
  const needsTokenizer = target.embeddings.budget.limits.tpm !== undefined || call.tenant.budget?.limits.tpm !== undefined;
  const count = needsTokenizer ? target.tokenCount() : heuristicTokens;
  let total = 0;
  for (const text of payload.input) total += count(text);
  return { input: total, output: 0 };
}

/** `router.embed` on the per-target pipeline, counted on each target's embeddings endpoint. */
export const embedKind: CallKind<ProviderEmbedRequest, ProviderEmbedResponse> = {
  name: 'embed',
  keepsAttempt: false,
  payload: (call, target) => {
    const batch = call.request as Batch;
    const out: ProviderEmbedRequest = { model: target.target.model, input: batch.input };
    if (batch.dimensions !== undefined) out.dimensions = batch.dimensions;
    const pass = batch.passThrough;
    if (pass && embedPassThroughBlocker(pass.body, target.adapter, true, batch.dimensions) === undefined) {
      out.raw = passThroughBytes(pass.text, pass.body, pass.chain, out.model);
      out.rawEncoding = pass.body.encoding_format === 'base64' ? 'base64' : 'float';
    }
    return out;
  },
  endpoint: (target) => target.embeddings,
  estimateTokens: embedTokens,
  send(adapter, payload, handle) {
    if (!adapter.embed) return Promise.reject(new RouterError('unsupported', `${adapter.name} has no embeddings API`, { provider: adapter.name, model: payload.model }));
    return adapter.embed(payload, handle);
  },
  attemptTimeoutMs: (_call, target) => target.attemptTimeoutMs,
  timeoutLabel: (ms) => `attempt timed out after ${ms} ms`,
  leaseTtlMs: (target) => target.leaseTtlMs,
};

/** A batch as a call of its own, sharing the parent's deadline, tenant and attempt record. */
function batchCall(parent: Call<EmbedRequest>, batch: Batch, targets: readonly TargetRuntime[], signal: AbortSignalLike | undefined): Call<Batch> {
  // Object.assign, not `{ ...parent, request }`: a spread that goes on makes a hidden class per call on Node 20.
  return Object.assign({}, parent, { request: batch, targets, signal });
}


/**
 * Sends an embed call: the input split into batches within the chain's per-request ceilings (inputs,
 * and tokens summed over them by the heuristic, which errs high and tokenizes nothing), the first batch down the whole
 * chain, and every later batch only to targets of the model that answered it (one answer's vectors
 * always come from one model); vectors come back in input order.
 */
/** What an embed call reads of the router: what its chain reads, and the calls in flight. */
export interface EmbedDeps extends ChainDeps {
  readonly active: ActiveCalls;
}

export async function embedCall(rt: EmbedDeps, call: Call<EmbedRequest>): Promise<EmbedResult> {
  rt.active.enter();
  try {
    return await sendBatches(rt, call);
  } finally {
    rt.active.leave();
  }
}

async function sendBatches(rt: EmbedDeps, call: Call<EmbedRequest>): Promise<EmbedResult> {
  const { input, dimensions } = call.request;
  const inputs = typeof input === 'string' ? [input] : input;
  const ceiling = {
    maxInputs: Math.min(...call.targets.map((t) => t.adapter.traits.maxEmbeddingInputsFor?.(t.target.model) ?? t.adapter.traits.maxEmbeddingInputs ?? Infinity)),
    maxTokens: Math.min(...call.targets.map((t) => t.adapter.traits.maxEmbeddingTokens ?? Infinity)),
  };
  const batches: Batch[] = embedBatches(inputs, ceiling, heuristicTokens).map((texts) => ({ input: texts, dimensions }));
  const pass = passThroughOf(call.request);
  if (pass && batches.length === 1) batches[0]!.passThrough = Object.assign({}, pass, { chain: call.chain });

  const first = await runChain(rt, batchCall(call, batches[0]!, call.targets, call.signal), embedKind);
  const answers: Array<ChainAnswer<ProviderEmbedResponse>> = [first];
  if (batches.length > 1) {
    const model = first.target.target.model;
    const pinned = call.targets.filter((t) => t.target.model === model);
    // One batch failing ends the call: the batches still in flight are stopped, not left to run.
    const stop = new AbortLink();
    const onCallerAbort = () => stop.abort(call.signal!.reason);
    call.signal?.addEventListener('abort', onCallerAbort, { once: true });
    let next = 1;
    let failure: unknown;
    const worker = async () => {
      while (failure === undefined && next < batches.length) {
        const i = next++;
        try {
          answers[i] = await runChain(rt, batchCall(call, batches[i]!, pinned, stop), embedKind);
        } catch (err) {
          if (failure === undefined) failure = err;
          stop.abort(err);
        }
      }
    };
    try {
      await Promise.all(Array.from({ length: Math.min(BATCH_CONCURRENCY, batches.length - 1) }, worker));
    } finally {
      call.signal?.removeEventListener('abort', onCallerAbort);
    }
    if (failure !== undefined) throw failure instanceof RouterError ? failure.with({ attempts: call.attempts }) : failure;
  }

  const embeddings: number[][] = [];
  let inputTokens = 0;
  for (const answer of answers) {
    for (const vector of answer.value.embeddings) embeddings.push(vector);
    inputTokens += answer.value.usage.inputTokens;
  }
  const result: EmbedResult = {
    embeddings,
    provider: first.target.target.provider,
    model: first.target.target.model,
    usage: { inputTokens },
    attempts: call.attempts,
    latencyMs: rt.clock.now() - call.startedAtMs,
    ...(call.cost.usd !== undefined ? { costUsd: call.cost.usd } : {}),
  };
  // Pass-through: the one answer's body as it came, on the seam's member (not the public result's).
  if (answers.length === 1 && first.value.raw !== undefined) withRawAnswer(result, { raw: first.value.raw, rawApi: 'embeddings' });
  return result;
}
