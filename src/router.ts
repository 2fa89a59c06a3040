import { createAdapter } from '../providers/index.js';
import type { ProviderAdapter } from '../providers/types.js';
import { systemClock, type Clock } from './clock.js';
import { resolveConfig, type ResolvedConfig, type SwitchyardConfig } from './config/index.js';
import { RouterError } from './errors.js';
import { EventHub, type Listener, type RouterEventName } from './observe/events.js';
import { createLogger, type Logger } from './observe/logger.js';
import { Admission } from './policy/admission.js';
import { Breakers } from './policy/breakers.js';
import { Idempotency } from './policy/idempotency.js';
import type { BreakerState } from './policy/circuit-breaker.js';
import { runChain } from './policy/fallback.js';
import { streamCall, type StreamEvent } from './stream.js';
import { validateRequest } from './request-schema.js';
import type { Call, Runtime } from './runtime.js';
import { memoryStore } from './store/memory-store.js';
import { redisStore } from './store/redis-store.js';
import type { StateStore } from './store/state-store.js';
import type { ChatRequest, ChatResult } from './types.js';

/** Options for `createRouter`; all optional. */
export interface RouterOptions {
  /** A pino logger. @default pino at the config's `log.level`, to stderr */
  logger?: Logger;
  /** Time source for waits and cooling. @default the system clock */
  clock?: Clock;
  /** Source of jitter. @default Math.random */
  random?: () => number;
  /** Shared state (cooling, parked quota, budgets, idempotency). @default from the config's `store`: memory, or Redis */
  store?: StateStore;
  /** Where `apiKeyEnv` is read. @default process.env */
  env?: NodeJS.ProcessEnv;
}

/** A configured router: one per process is the usual shape. */
export interface Router {
  /** Sends a chat request down its chain; resolves with the first answer or throws a `RouterError`. */
  chat(request: ChatRequest): Promise<ChatResult>;
  /**
   * Streams a chat request: `start`, `text`..., then `done` or `interrupted`. Retries and fall-through
   * happen only before the first token; a failure before it is thrown from the iteration, like `chat`.
   */
  stream(request: ChatRequest): AsyncIterable<StreamEvent>;
  /** Listens to `attempt`, `retry`, `fallback`, `breaker`, `quota` or `ratelimit`; returns an unsubscribe. */
  on<E extends RouterEventName>(event: E, fn: Listener<E>): () => void;
  /** The adapter of a provider by name (the `fake` one exposes its request log). */
  adapter(provider: string): ProviderAdapter;
  /** The state of every circuit breaker used so far. */
  breakerStates(): Record<string, BreakerState>;
  /** The validated config with defaults filled in. */
  readonly config: ResolvedConfig;
  /** Stops breakers, timers and store connections. Calls made after it throw. */
  close(): Promise<void>;
}

/**
 * Builds a router from a config. Throws `RouterError` kind `config` naming every failing path.
 * @example
 * const router = createRouter(config);
 * const res = await router.chat({ messages: [{ role: 'user', content: 'Hello' }] });
 */
export function createRouter(config: SwitchyardConfig, options: RouterOptions = {}): Router {
  const resolved = resolveConfig(config, options.env);
  const logger = options.logger ?? createLogger(resolved.log.level);
  const clock = options.clock ?? systemClock;
  const events = new EventHub((event, err) => logger.warn({ event, err: String(err) }, 'event listener threw'));
  const breakers = new Breakers(resolved.breaker, (key, state) => {
    logger.warn({ breaker: key, state }, `circuit ${state === 'halfOpen' ? 'half-open' : state}`);
    events.emit('breaker', { key, state });
  });
  const adapters = new Map<string, ProviderAdapter>();
  for (const provider of Object.values(resolved.providers)) {
    adapters.set(provider.name, createAdapter({ provider, clock, logger }));
  }
  const store = options.store
    ?? (resolved.store.type === 'redis' ? redisStore(resolved.store.url, { keyPrefix: resolved.store.keyPrefix }) : memoryStore());
  const rt: Runtime = {
    config: resolved, adapters, breakers, clock, events, logger, store,
    admission: new Admission(resolved, store, clock, logger),
    random: options.random ?? Math.random,
  };
  const idempotency = new Idempotency(store, clock, resolved.idempotency.ttlMs, resolved.idempotency.pendingTtlMs);
  let closed = false;

  /** Validates a call and starts its clock; nothing is sent for a call that is invalid or already aborted. */
  function begin(request: ChatRequest, what: string): Call {
    if (closed) throw new RouterError('invalid_request', 'router is closed');
    validateRequest(request, resolved.chains);
    if (request.signal?.aborted) throw new RouterError('aborted', 'call aborted by the caller before it started', { cause: request.signal.reason });
    const startedAtMs = clock.now();
    const chain = request.chain ?? 'default';
    if (resolved.log.logPrompts) logger.debug({ chain, messages: request.messages }, `${what} call`);
    return {
      chain, request, startedAtMs, attempts: [],
      deadlineAtMs: request.timeoutMs === undefined ? undefined : startedAtMs + request.timeoutMs,
    };
  }

  async function chat(request: ChatRequest): Promise<ChatResult> {
    const call = begin(request, 'chat');
    if (request.idempotencyKey !== undefined) return idempotency.run(request.idempotencyKey, request, call.chain, () => send(call));
    return send(call);
  }

  async function send(call: Call): Promise<ChatResult> {
    const startedAtMs = call.startedAtMs;
    const { value, target } = await runChain(rt, call, (adapter, req, attempt) => adapter.chat(req, attempt));
    return {
      text: value.text,
      toolCalls: value.toolCalls,
      message: { role: 'assistant', content: value.text },
      provider: target.provider,
      model: target.model,
      finishReason: value.finishReason,
      usage: value.usage,
      attempts: call.attempts,
      latencyMs: clock.now() - startedAtMs,
      requestId: value.requestId,
    };
  }

  function stream(request: ChatRequest): AsyncIterable<StreamEvent> {
    if (request.idempotencyKey !== undefined) {
      throw new RouterError('invalid_request', 'idempotencyKey is supported by router.chat only: a stream cannot be replayed');
    }
    const call = begin(request, 'stream');
    call.streaming = true;
    let iterated = false;
    return {
      [Symbol.asyncIterator]: () => {
        if (iterated) throw new RouterError('invalid_request', 'a stream can be iterated once; call router.stream() again');
        iterated = true;
        return streamCall(rt, call);
      },
    };
  }

  return {
    chat,
    stream,
    on: (event, fn) => events.on(event, fn),
    adapter(provider) {
      const adapter = adapters.get(provider);
      if (!adapter) throw new RouterError('invalid_request', `unknown provider "${provider}"`);
      return adapter;
    },
    breakerStates: () => breakers.states(),
    config: resolved,
    async close() {
      if (closed) return;
      closed = true;
      breakers.shutdown();
      events.clear();
      await Promise.all([...adapters.values()].map((a) => a.close()));
      await rt.store.close();
    },
  };
}
