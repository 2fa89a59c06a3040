import type { z, ZodType } from 'zod';
import type { ProviderAdapter } from '../providers/types.js';
import { assertCarried, needsOf, type Capability } from './policy/state/capabilities.js';
import { cachedStream } from './cache/cached-stream.js';
import { passThroughRefusal } from './pass-through/seam.js';
import { observeCall, observeStream } from './calls/call-event.js';
import { chatCall } from './calls/chat.js';
import { embedCall } from './calls/embed.js';
import { embedChainProblem } from './calls/embed-chain.js';
import { streamCall, type StreamEvent, type StreamOptions } from './calls/stream.js';
import type { Clock } from './types.js';
import { resolveConfig, type ResolvedConfig, type SwitchyardConfig } from './config/index.js';
import { RouterError } from './errors.js';
import type { Listener, RouterEventName } from './observe/events.js';
import type { Logger } from './observe/logger.js';
import type { BreakerState } from './policy/breaker/circuit-breaker.js';
import { chatEndpoint, embeddingsEndpoint } from './policy/chain/pool-order.js';
import { callerAbortOf } from './policy/abort/abort-link.js';
import { validateEmbedRequest, validateRequest } from './calls/request-schema.js';
import type { Call } from './policy/state/call.js';
import type { Runtime } from './runtime/runtime.js';
import { buildRuntime, shutdown } from './runtime/build-runtime.js';
import { NewCall } from './runtime/new-call.js';
import { ShadowBook } from './runtime/shadow-book.js';
import type { ShadowGrader } from './runtime/shadow-grader.js';
import { shadowedStream } from './runtime/shadowed-stream.js';
import type { StateStore } from './store/state-store.js';
import type { ChatRequest, ChatResult, EmbedRequest, EmbedResult } from './types.js';

/** Options for `createRouter`; all optional. */
export interface RouterOptions {
  /** A pino logger. @default pino at the config's `log.level`, to stderr */
  logger?: Logger;
  /** Time source for every wait, timer and timestamp of the router. @default the system clock */
  clock?: Clock;
  /** Source of jitter. @default Math.random */
  random?: () => number;
  /** Shared state (cooling, parked quota, budgets; idempotency, cache, breakers as it plays them). @default from the config's `store`: memory, or Redis */
  store?: StateStore;
  /** Where `apiKeyEnv` is read. @default process.env */
  env?: NodeJS.ProcessEnv;
  /** Scores shadow answers with the eval expectations and judge, made with this router (`evalShadowGrader`). @default agreement only */
  shadowGrader?: (router: Router) => ShadowGrader;
}

/** A configured router: one per process is the usual shape. */
export interface Router {
  /**
   * Sends a chat request down its chain; resolves with the first answer or throws a `RouterError`.
   * With a zod `responseFormat` schema, `result.object` is typed by it.
   */
  chat<S extends ZodType>(request: ChatRequest & { responseFormat: { type: 'json_schema'; schema: S } }): Promise<ChatResult<z.output<S>>>;
  chat(request: ChatRequest): Promise<ChatResult>;
  /**
   * Streams a chat request: `start`, `text`..., then `done` or `interrupted`. Retries and fall-through
   * happen only before the first token; a failure before it is thrown from the iteration, like `chat`.
   * `{ keepText: false }`: `done` carries no text (the deltas were the text), and the stream's memory
   * stays the same at any length (docs/limits-on-input.md).
   */
  stream(request: ChatRequest, options?: StreamOptions): AsyncIterable<StreamEvent>;
  /**
   * Embeds one text or many through a chain (default `embeddings`): vectors in input order, all from
   * one model; inputs beyond a provider's per-request ceiling are sent in batches.
   */
  embed(request: EmbedRequest): Promise<EmbedResult>;
  /** Listens to `attempt`, `retry`, `fallback`, `breaker`, `quota`, `ratelimit`, `store`, `call`, `hedge`, `spend` or `shadow`; returns an unsubscribe. */
  on<E extends RouterEventName>(event: E, fn: Listener<E>): () => void;
  /** The state of every circuit breaker. */
  breakerStates(): Record<string, BreakerState>;
  /** The validated config with defaults filled in. */
  readonly config: ResolvedConfig;
  /** Stops breakers, timers and store connections. Calls made after it throw. */
  close(): Promise<void>;
}

/** What `switchyard-llm/testing` (and the gateway, for the store's roles) reaches into: never part of the public API. */
export interface RouterInternals {
  adapters: ReadonlyMap<string, ProviderAdapter>;
  runtime: Runtime;
  /** The state store, every role it plays (the gateway keeps its conversations there). */
  store: StateStore;
}

/** The key under which a router carries its internals for `switchyard-llm/testing`. */
export const INTERNALS: unique symbol = Symbol.for('switchyard.internals') as never;

/** An iterator whose first step throws `err`. */
async function* failing(err: unknown): AsyncGenerator<StreamEvent> {
  throw err;
}

const EMBED_NEEDS: readonly Capability[] = Object.freeze(['embeddings']);

/**
 * Builds a router from a config. Throws `RouterError` kind `config` naming every failing path.
 * @example
 * const router = createRouter(config);
 * const res = await router.chat({ messages: [{ role: 'user', content: 'Hello' }] });
 */
export function createRouter(config: SwitchyardConfig, options: RouterOptions = {}): Router {
  const resolved = resolveConfig(config, options.env);
  const parts = buildRuntime(resolved, options);
  const { rt, store, breakers, adapters, tenants, pools, cache, idempotency } = parts;
  const { clock, events, logger } = rt;
  const calls = new NewCall(tenants);
  const shadows = new ShadowBook(rt, calls);
  let closed = false;
  let closing: Promise<void> = Promise.resolve();

  /** Validates a call and starts its clock; nothing is sent for a call that is invalid or already aborted. */
  function begin(request: ChatRequest, operation: 'chat' | 'stream'): Call<ChatRequest> {
    if (closed) throw new RouterError('invalid_request', 'router is closed');
    validateRequest(request, resolved.chains, resolved.input);
    const mismatch = passThroughRefusal(request, operation);
    if (mismatch) throw new RouterError('invalid_request', mismatch);
    const signal = callerAbortOf(request);
    if (signal?.aborted) throw new RouterError('aborted', 'call aborted by the caller before it started', { cause: signal.reason });
    const startedAtMs = clock.now();
    const chain = request.chain ?? 'default';
    const targets = pools.order(rt.chains.get(chain)!, startedAtMs, chatEndpoint, operation === 'stream', request);
    const needs = needsOf(request);
    if (needs.length > 0) assertCarried(chain, targets, needs);
    const call = calls.make(operation, chain, targets, request, needs, signal, startedAtMs);
    if (resolved.log.logPrompts) logger.debug({ callId: call.id, chain, messages: request.messages }, `${operation} call`);
    return call;
  }

  function chat(request: ChatRequest): Promise<ChatResult> {
    let call: Call<ChatRequest>;
    try {
      call = begin(request, 'chat');
    } catch (err) {
      return Promise.reject(err);
    }
    // The plain call (no idempotency key, no cache) makes no closure: it is every call's path.
    let pending: Promise<ChatResult>;
    if (request.idempotencyKey === undefined && !(cache && request.cache !== false)) pending = chatCall(rt, call);
    else {
      const fetch = request.idempotencyKey !== undefined
        ? () => idempotency.run(request.idempotencyKey!, request, call.chain, () => chatCall(rt, call))
        : () => chatCall(rt, call);
      pending = cache && request.cache !== false ? cache.chat(request, call.chain, call.startedAtMs, fetch) : fetch();
    }
    // A shadowed chain's answer is copied to its shadow targets once the caller has it (runtime/shadow-book.ts).
    const shadow = shadows.policyOf(call.chain);
    if (shadow) pending.then((result) => shadows.offer(shadow, call, result), () => undefined);
    return events.has('call') ? observeCall(rt, call, pending) : pending;
  }

  // Whether each chain may serve embed (one model, every target with an embeddings API), decided once.
  const embedRefusals = new Map([...rt.chains].map(([name, targets]) => [name, embedChainProblem(name, targets, resolved.embeddings.interchangeable)]));

  function embed(request: EmbedRequest): Promise<EmbedResult> {
    try {
      if (closed) throw new RouterError('invalid_request', 'router is closed');
      validateEmbedRequest(request, resolved.chains);
      const signal = callerAbortOf(request);
      if (signal?.aborted) throw new RouterError('aborted', 'call aborted by the caller before it started', { cause: signal.reason });
      const chain = request.chain ?? 'embeddings';
      const refusal = embedRefusals.get(chain);
      if (refusal) throw refusal.with({});
      const startedAtMs = clock.now();
      const call = calls.make('embed', chain, pools.order(rt.chains.get(chain)!, startedAtMs, embeddingsEndpoint, false, request), request, EMBED_NEEDS, signal, startedAtMs);
      const pending = embedCall(rt, call);
      return events.has('call') ? observeCall(rt, call, pending) : pending;
    } catch (err) {
      return Promise.reject(err);
    }
  }

  function stream(request: ChatRequest, options: StreamOptions = {}): AsyncIterable<StreamEvent> {
    // Bad input is refused here, at once, as a RouterError (never a TypeError, whatever was passed);
    // every failure after this is thrown from the iteration.
    if ((request as ChatRequest | undefined)?.idempotencyKey !== undefined) {
      throw new RouterError('invalid_request', 'idempotencyKey is supported by router.chat only: a stream cannot be replayed');
    }
    const call = begin(request, 'stream');
    let iterated = false;
    return {
      [Symbol.asyncIterator]: () => {
        if (iterated) return failing(new RouterError('invalid_request', 'a stream can be iterated once; call router.stream() again'));
        iterated = true;
        const keepText = options?.keepText !== false;
        const live = () => streamCall(rt, call, { keepText });
        const answered = cache && request.cache !== false ? cachedStream(cache, request, call.chain, call.startedAtMs, live, keepText) : live();
        // A stream without its text (`keepText: false`) has nothing to compare a shadow with: it is not copied.
        const shadow = keepText ? shadows.policyOf(call.chain) : undefined;
        const events$ = shadow ? shadowedStream(shadows, shadow, call, answered) : answered;
        // `raw` events come only to a request carrying pass-through bytes (src/pass-through/seam.ts): never to a caller of this type.
        return (events.has('call') ? observeStream(rt, call, events$) : events$) as AsyncIterator<StreamEvent>;
      },
    };
  }

  const router: Router & { [INTERNALS]?: RouterInternals } = {
    chat: chat as Router['chat'],
    stream,
    embed,
    on: (event, fn) => events.on(event, fn),
    breakerStates: () => breakers.states(),
    config: resolved,
    async close() {
      if (closed) return closing;
      closed = true;
      // Shadows first: those not started are dropped, running ones aborted, their events emitted.
      closing = shadows.close().then(() => shutdown(parts));
      return closing;
    },
  };
  if (options.shadowGrader) shadows.grader = options.shadowGrader(router);
  Object.defineProperty(router, INTERNALS, { value: { adapters, runtime: rt, store } satisfies RouterInternals, enumerable: false });
  return router;
}
