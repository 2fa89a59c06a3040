import type { IncomingMessage, ServerResponse } from 'node:http';
import { tooDeep } from './body-depth.js';
import { anthropicWire } from './anthropic-wire.js';
import { bedrockWire } from './bedrock-wire.js';
import { echoKeyInBody, echoKeyInFrame } from './echo-key.js';
import { embeddingsBody, embeddingTokensOf, parseEmbeddings } from './embeddings.js';
import { geminiEmbeddingsBody, parseGeminiEmbeddings } from './gemini-embeddings.js';
import { geminiWire } from './gemini-wire.js';
import { pickFault, REPLACING_FAULTS } from './faults.js';
import { openAIHeaders, openAIWire } from './openai-wire.js';
import { PROVIDER_DEFAULTS, type FaultKind, type FaultRule, type SimProviderOptions, type SimRequestEvent } from './options.js';
import { randomChars, randomHex, streamFor, type Random } from './random.js';
import { RateLimiter, type LimitSnapshot } from './rate-limiter.js';
import { sendCutJson, sendJson, sendStream } from './responder.js';
import { ResponseScope, type SimSleep } from './response-scope.js';
import { answerFor, inputTokensOf, isSimError, type CacheSplit, type SimError } from './sim-request.js';
import { PrefixCache } from './prefix-cache.js';
import { bump, type ProviderStats } from './stats.js';
import type { AnswerIds, PathRoute, Wire, WireContext } from './wire.js';

/** Each API's wire, by the provider `type` a scenario names. */
const WIRES: Readonly<Record<Wire['type'], Wire>> = { openai: openAIWire, anthropic: anthropicWire, gemini: geminiWire, bedrock: bedrockWire };

/** What a provider simulator is built from; `stats` is the live record it updates. */
export interface ProviderSimDeps {
  name: string;
  options: SimProviderOptions;
  seed: number;
  now: () => number;
  /** How latency waits (the simulator's `sleep` option); real timers when absent. */
  sleep?: SimSleep;
  startedAtMs: number;
  stats: ProviderStats;
  onRequest?: (event: SimRequestEvent) => void;
}

type Endpoint = 'chat' | 'embeddings';

/** The error a replacing fault answers with. */
function faultError(rule: FaultRule, key: string, rpm: number, model: string): SimError {
  switch (rule.fault) {
    case 'rate_limit': {
      const waitMs = rule.retryAfterMs ?? PROVIDER_DEFAULTS.rateLimitRetryAfterMs;
      return { kind: 'rate_limited', window: 'requests', tooLarge: false, waitMs, limit: rpm, used: rpm, requested: 1, model };
    }
    case 'unauthorized':
      return { kind: 'unauthorized', key };
    case 'insufficient_quota':
      return { kind: 'insufficient_quota' };
    default:
      return { kind: rule.fault as 'server_error' | 'unavailable' | 'overloaded', status: rule.status, retryAfterMs: rule.retryAfterMs };
  }
}

/** What a fault rule changes in the error it answers with: a raw `retry-after`, an echoed key. */
interface ErrorDress {
  rule?: FaultRule;
  key?: string;
}

/** One request being answered: its number, ids, timers and the ways it can end. */
interface Exchange {
  n: number;
  nowMs: number;
  ctx: WireContext;
  scope: ResponseScope;
  baseMs: number;
  answerId: string;
  event: SimRequestEvent;
  decided(status: number | undefined, fault?: FaultKind): void;
  fail(err: SimError, fault?: FaultKind, withLimits?: boolean, dress?: ErrorDress): Promise<void>;
}

/**
 * One simulated provider: checks the key, parses the request its API's way, then in order meets a
 * scheduled or random fault, its capacity, its rate limits, and finally answers (maybe slowly, maybe
 * cut short). Chat and embeddings have their own request numbers, fault draws and rate limits. Every
 * random draw comes from a stream seeded by (seed, provider, purpose).
 */
export class ProviderSim {
  readonly wire: Wire;
  private readonly counts: Record<Endpoint, number> = { chat: 0, embeddings: 0 };
  private serving = 0;
  private readonly faultRandom: Record<Endpoint, Random>;
  private readonly idRandom: Random;
  private readonly latencyRandom: Random;
  private readonly limiters: Record<Endpoint, RateLimiter>;
  private readonly org: string;
  private readonly fingerprint: string;
  private readonly rpm: Record<Endpoint, number>;
  private readonly cache: CacheSplit | undefined;
  private readonly prefixCache: PrefixCache | undefined;

  constructor(private readonly deps: ProviderSimDeps) {
    const { name, options, seed } = deps;
    this.wire = WIRES[options.type];
    this.faultRandom = { chat: streamFor(seed, `${name}/faults`), embeddings: streamFor(seed, `${name}/embeddings/faults`) };
    this.idRandom = streamFor(seed, `${name}/ids`);
    this.latencyRandom = streamFor(seed, `${name}/latency`);
    const account = streamFor(seed, `${name}/account`);
    this.org = options.type === 'openai'
      ? `org-${randomChars(account, 24)}`
      : options.type === 'gemini' ? `projects/${randomChars(account, 12, '0123456789')}`
        : [8, 4, 4, 4, 12].map((length) => randomHex(account, length)).join('-');
    this.fingerprint = `fp_${randomHex(account, 10)}`;
    const limits = options.limits ?? {};
    const windowMs = limits.windowMs ?? PROVIDER_DEFAULTS.windowMs;
    const tpm = limits.tpm ?? PROVIDER_DEFAULTS.tpm;
    this.rpm = { chat: limits.rpm ?? PROVIDER_DEFAULTS.rpm, embeddings: limits.embeddings?.rpm ?? PROVIDER_DEFAULTS.rpm };
    const anthropic = options.type === 'anthropic';
    this.limiters = {
      chat: new RateLimiter({
        rpm: this.rpm.chat, tpm, windowMs, quantumMs: limits.quantumMs, startEmpty: limits.startEmpty,
        // Anthropic always reports its input and output windows; unset, they are as large as TPM.
        ...(anthropic ? { itpm: limits.itpm ?? tpm, otpm: limits.otpm ?? tpm } : {}),
      }, deps.startedAtMs),
      embeddings: new RateLimiter({ rpm: this.rpm.embeddings, tpm: limits.embeddings?.tpm ?? PROVIDER_DEFAULTS.tpm, windowMs, quantumMs: limits.quantumMs, startEmpty: limits.startEmpty }, deps.startedAtMs),
    };
    const cache = options.promptCache;
    this.cache = cache ? { readShare: cache.readShare, writeShare: cache.writeShare ?? 0, minTokens: cache.minTokens ?? 0 } : undefined;
    const prefix = options.prefixCache;
    const d = PROVIDER_DEFAULTS.prefixCache;
    this.prefixCache = prefix ? new PrefixCache({ type: options.type, minTokens: prefix.minTokens ?? d.minTokens, ttlMs: prefix.ttlMs ?? d.ttlMs }) : undefined;
  }

  get type(): Wire['type'] {
    return this.wire.type;
  }

  private open(endpoint: Endpoint, res: ServerResponse, arrivedAtMs: number, headersOf: (ctx: WireContext, s: LimitSnapshot | undefined) => Record<string, string>): Exchange {
    const { options, stats, now } = this.deps;
    const n = ++this.counts[endpoint];
    const nowMs = now();
    stats.requests++;
    stats.inFlight++;
    if (endpoint === 'embeddings') stats.embeddings.requests++;
    res.once('close', () => stats.inFlight--);
    const { requestId, answerId } = this.wire.ids(this.idRandom);
    const ctx: WireContext = { requestId, org: this.org, nowMs, retryAfter: options.retryAfter ?? true };
    const scope = new ResponseScope(res, this.deps.sleep);
    const latency = options.latency ?? {};
    const baseMs = (latency.baseMs ?? 0) + (latency.jitterMs ? this.latencyRandom() * latency.jitterMs : 0);
    const event: SimRequestEvent = { provider: this.deps.name, n, atMs: nowMs, stream: false, requestId, endpoint };
    const limiter = this.limiters[endpoint];
    const decided = (status: number | undefined, fault?: FaultKind) => {
      if (status !== undefined) bump(stats.byStatus, String(status));
      if (fault) bump(stats.byFault, fault);
      this.deps.onRequest?.({ ...event, status, fault });
    };
    const fail = (err: SimError, fault?: FaultKind, withLimits = true, dress: ErrorDress = {}) => {
      const rendered = this.wire.error(err, ctx);
      if (dress.rule?.echoKey && dress.key) rendered.body = echoKeyInBody(rendered.body, dress.key);
      if (dress.rule?.retryAfterRaw !== undefined && err.kind !== 'unauthorized' && err.kind !== 'insufficient_quota') {
        rendered.headers = { ...rendered.headers, 'retry-after': dress.rule.retryAfterRaw };
      }
      decided(rendered.status, fault);
      const mode = options.rateLimitHeaders ?? 'always';
      const limitsShown = withLimits && (mode === 'always' || (mode === 'success-and-429' && err.kind === 'rate_limited'));
      let snapshot = limitsShown ? limiter.snapshot(nowMs) : undefined;
      // A forced 429 reports the requests window as spent until the wait it advertises, like a real one.
      if (snapshot && fault === 'rate_limit' && err.kind === 'rate_limited') {
        snapshot = { ...snapshot, requests: { ...snapshot.requests, remaining: 0, resetMs: err.waitMs } };
      }
      const headers = { ...headersOf({ ...ctx, processingMs: now() - arrivedAtMs }, snapshot), ...rendered.headers };
      return sendJson(scope, rendered.status, headers, rendered.body, baseMs);
    };
    return { n, nowMs, ctx, scope, baseMs, answerId, event, decided, fail };
  }

  /** A fault that replaces the answer: a reset, a hang or an error response. */
  private replace(x: Exchange, rule: FaultRule, req: IncomingMessage, key: string | undefined, endpoint: Endpoint, model: string): Promise<void> {
    if (rule.fault === 'reset') {
      x.decided(undefined, 'reset');
      req.socket.resetAndDestroy();
      return Promise.resolve();
    }
    if (rule.fault === 'hang') {
      x.decided(undefined, 'hang');
      return Promise.resolve();
    }
    return x.fail(faultError(rule, key ?? '', this.rpm[endpoint], model), rule.fault, true, { rule, key });
  }

  /**
   * Answers one chat request whose body has been read, in `wire`'s format (OpenAI's Responses API
   * shares a provider with Chat Completions); `route` is the model and streaming a URL names (Gemini, Bedrock).
   */
  handle(req: IncomingMessage, res: ServerResponse, raw: string, arrivedAtMs: number, wire: Wire = this.wire, route?: PathRoute): Promise<void> {
    const { options, stats, now } = this.deps;
    const x = this.open('chat', res, arrivedAtMs, (ctx, s) => wire.headers(ctx, s));
    const key = wire.keyOf(req.headers);
    if (!key && options.requireKey !== false) return x.fail({ kind: 'missing_key' }, undefined, false);
    const request = tooDeep(raw) ?? wire.parse(raw, req.headers, route);
    if (isSimError(request)) return x.fail(request);
    x.event.model = request.model;
    x.event.stream = request.stream;
    if (request.stream) stats.streams++;
    if (options.models && !options.models.includes(request.model)) return x.fail({ kind: 'model_not_found', model: request.model });

    const contextTokens = options.contextTokens ?? PROVIDER_DEFAULTS.contextTokens[this.type];
    const promptTokens = inputTokensOf(request);
    if (promptTokens > contextTokens) return x.fail({ kind: 'context_length', limit: contextTokens, tokens: promptTokens });

    const u = this.faultRandom.chat();
    const rule = pickFault(options.faults ?? [], { n: x.n, elapsedMs: x.nowMs - this.deps.startedAtMs, model: request.model, stream: request.stream, endpoint: 'chat' }, u);
    const answer = answerFor(request, { invalidJson: rule?.fault === 'invalid_json', textBeforeToolCalls: wire.textBeforeToolCalls(request), cache: this.cache });
    const cacheUse = this.prefixCache?.plan(request, x.nowMs);
    if (cacheUse) {
      answer.cachedInputTokens = cacheUse.read;
      answer.cacheWriteTokens = cacheUse.write5m + cacheUse.write1h;
      answer.cacheWrite1hTokens = cacheUse.write1h;
    }
    if (rule && REPLACING_FAULTS.has(rule.fault)) return this.replace(x, rule, req, key, 'chat', request.model);
    if (options.capacity !== undefined && this.serving >= options.capacity) {
      stats.overCapacity++;
      return x.fail({ kind: 'overloaded' });
    }
    const reserved = request.maxTokens ?? answer.outputTokens;
    const limiter = this.limiters.chat;
    const admitted = limiter.admit({
      // Gemini's token quota counts input tokens only (`GenerateContentInputTokensPerModelPerMinute`).
      tokens: this.type === 'gemini' ? answer.inputTokens : answer.inputTokens + reserved,
      inputTokens: answer.inputTokens - answer.cachedInputTokens,
      outputTokens: reserved,
    }, x.nowMs);
    if (!admitted.admitted) {
      stats.rateLimited++;
      const { window, tooLarge, waitMs, used, requested, snapshot } = admitted;
      const limit = window === 'requests' ? snapshot.requests.limit : window === 'tokens' ? snapshot.tokens.limit
        : (window === 'input_tokens' ? snapshot.inputTokens : snapshot.outputTokens)!.limit;
      return x.fail({ kind: 'rate_limited', window, tooLarge, waitMs, limit, used, requested, model: request.model });
    }
    // OTPM is estimated from max_tokens and adjusted to what the answer used (the simulator knows it at once).
    limiter.refund('output_tokens', reserved - answer.outputTokens);

    // Admitted: an answer goes out, perhaps slowly or cut short; what it wrote to the cache is there for the next.
    if (cacheUse) this.prefixCache!.commit(cacheUse, x.nowMs);
    this.serving++;
    res.once('close', () => this.serving--);
    stats.tokens.input += answer.inputTokens;
    stats.tokens.output += answer.outputTokens;
    const slowMs = rule?.fault === 'slow_first_byte' ? rule.delayMs ?? PROVIDER_DEFAULTS.slowFirstByteMs : 0;
    // Only Anthropic's output window changed since admission (the refund); OpenAI's snapshot stands.
    const snapshot = this.type === 'anthropic' ? limiter.snapshot(x.nowMs) : admitted.snapshot;
    const headers = wire.headers({ ...x.ctx, processingMs: now() - arrivedAtMs + x.baseMs }, snapshot);
    const ids: AnswerIds = { id: x.answerId, createdS: Math.floor(x.nowMs / 1000), fingerprint: this.fingerprint };
    const perTokenMs = options.latency?.perTokenMs ?? 0;

    if (!request.stream) {
      // A plain request has no stream to break: the error frame becomes the status the API would send instead.
      if (rule?.fault === 'stream_error') return x.fail({ kind: this.type === 'openai' ? 'server_error' : this.type === 'bedrock' ? 'unavailable' : 'overloaded' }, 'stream_error', true, { rule, key });
      x.decided(200, rule?.fault);
      const delayMs = x.baseMs + slowMs + perTokenMs * answer.outputTokens;
      const body = wire.completion(request, answer, ids);
      return rule?.fault === 'stream_cut' ? sendCutJson(x.scope, 200, headers, body, delayMs) : sendJson(x.scope, 200, headers, body, delayMs);
    }
    x.decided(200, rule?.fault);
    let frames = wire.stream(request, answer, ids);
    if (rule?.fault === 'stream_error' && rule.echoKey && key) frames = { ...frames, error: echoKeyInFrame(frames.error, key) };
    const afterChunks = Math.min(rule?.afterChunks ?? PROVIDER_DEFAULTS.afterChunks, frames.chunks.length);
    return sendStream(x.scope, headers, frames, {
      firstByteMs: x.baseMs + slowMs,
      chunkDelaysMs: perTokenMs > 0 ? frames.chunks.map((c) => perTokenMs * c.tokens) : [],
      cutAfter: rule?.fault === 'stream_cut' ? afterChunks : undefined,
      errorAfter: rule?.fault === 'stream_error' ? afterChunks : undefined,
    });
  }

  /**
   * Answers one embeddings request: OpenAI's `POST /v1/embeddings`, Gemini's
   * `models/{model}:batchEmbedContents` or the API's own (Bedrock's InvokeModel), `route.model` from
   * the URL where it names one; the simulator routes Anthropic's to a 404.
   */
  handleEmbeddings(req: IncomingMessage, res: ServerResponse, raw: string, arrivedAtMs: number, route?: PathRoute): Promise<void> {
    const { options, stats, now } = this.deps;
    const gemini = this.type === 'gemini';
    const own = this.wire.embeddings;
    const headersOf = gemini ? geminiWire.headers : own ? (ctx: WireContext) => this.wire.headers(ctx, undefined) : openAIHeaders;
    const x = this.open('embeddings', res, arrivedAtMs, headersOf);
    const key = this.wire.keyOf(req.headers);
    if (!key && options.requireKey !== false) return x.fail({ kind: 'missing_key' }, undefined, false);
    const request = tooDeep(raw) ?? (gemini ? parseGeminiEmbeddings(raw, route?.model ?? '') : own ? own.parse(raw, route) : parseEmbeddings(raw));
    if (isSimError(request)) return x.fail(request);
    x.event.model = request.model;
    if (options.models && !options.models.includes(request.model)) return x.fail({ kind: 'model_not_found', model: request.model });
    const u = this.faultRandom.embeddings();
    const rule = pickFault(options.faults ?? [], { n: x.n, elapsedMs: x.nowMs - this.deps.startedAtMs, model: request.model, stream: false, endpoint: 'embeddings' }, u);
    if (rule && REPLACING_FAULTS.has(rule.fault)) return this.replace(x, rule, req, key, 'embeddings', request.model);
    if (options.capacity !== undefined && this.serving >= options.capacity) {
      stats.overCapacity++;
      return x.fail({ kind: 'overloaded' });
    }
    const tokens = embeddingTokensOf(request);
    const limiter = this.limiters.embeddings;
    const admitted = limiter.admit(tokens, x.nowMs);
    if (!admitted.admitted) {
      stats.rateLimited++;
      const { window, tooLarge, waitMs, used, requested, snapshot } = admitted;
      const limit = window === 'requests' ? snapshot.requests.limit : snapshot.tokens.limit;
      return x.fail({ kind: 'rate_limited', window, tooLarge, waitMs, limit, used, requested, model: request.model });
    }
    if (rule?.fault === 'stream_error') return x.fail({ kind: 'server_error' }, 'stream_error', true, { rule, key });
    this.serving++;
    res.once('close', () => this.serving--);
    stats.embeddings.tokens += tokens;
    x.decided(200, rule?.fault);
    const slowMs = rule?.fault === 'slow_first_byte' ? rule.delayMs ?? PROVIDER_DEFAULTS.slowFirstByteMs : 0;
    const ctx = { ...x.ctx, processingMs: now() - arrivedAtMs + x.baseMs };
    const headers = own ? own.headers(ctx, tokens) : headersOf(ctx, admitted.snapshot);
    const body = gemini ? geminiEmbeddingsBody(request) : own ? own.body(request) : embeddingsBody(request);
    const delayMs = x.baseMs + slowMs;
    return rule?.fault === 'stream_cut' ? sendCutJson(x.scope, 200, headers, body, delayMs) : sendJson(x.scope, 200, headers, body, delayMs);
  }
}
