import type { IncomingMessage, ServerResponse } from 'node:http';
import { approxTokens } from '../../providers/fake/answer.js';
import { anthropicWire } from './anthropic-wire.js';
import { pickFault, REPLACING_FAULTS } from './faults.js';
import { openAIWire } from './openai-wire.js';
import { PROVIDER_DEFAULTS, type FaultKind, type FaultRule, type SimProviderOptions, type SimRequestEvent } from './options.js';
import { randomChars, randomHex, streamFor, type Random } from './random.js';
import { RateLimiter } from './rate-limiter.js';
import { sendCutJson, sendJson, sendStream } from './responder.js';
import { ResponseScope } from './response-scope.js';
import { answerFor, isSimError, tokenCharge, type SimError } from './sim-request.js';
import { bump, type ProviderStats } from './stats.js';
import type { AnswerIds, Wire, WireContext } from './wire.js';

/** What a provider simulator is built from; `stats` is the live record it updates. */
export interface ProviderSimDeps {
  name: string;
  options: SimProviderOptions;
  seed: number;
  now: () => number;
  startedAtMs: number;
  stats: ProviderStats;
  onRequest?: (event: SimRequestEvent) => void;
}

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

/**
 * One simulated provider: checks the key, parses the request its API's way, then in order meets a
 * scheduled or random fault, its capacity, its RPM/TPM limits, and finally answers (maybe slowly,
 * maybe cut short). Every random draw comes from a stream seeded by (seed, provider, purpose).
 */
export class ProviderSim {
  readonly wire: Wire;
  private n = 0;
  private serving = 0;
  private readonly faultRandom: Random;
  private readonly idRandom: Random;
  private readonly latencyRandom: Random;
  private readonly limiter: RateLimiter;
  private readonly org: string;
  private readonly fingerprint: string;
  private readonly rpm: number;

  constructor(private readonly deps: ProviderSimDeps) {
    const { name, options, seed } = deps;
    this.wire = options.type === 'openai' ? openAIWire : anthropicWire;
    this.faultRandom = streamFor(seed, `${name}/faults`);
    this.idRandom = streamFor(seed, `${name}/ids`);
    this.latencyRandom = streamFor(seed, `${name}/latency`);
    const account = streamFor(seed, `${name}/account`);
    this.org = options.type === 'openai'
      ? `org-${randomChars(account, 24)}`
      : [8, 4, 4, 4, 12].map((length) => randomHex(account, length)).join('-');
    this.fingerprint = `fp_${randomHex(account, 10)}`;
    this.rpm = options.limits?.rpm ?? PROVIDER_DEFAULTS.rpm;
    this.limiter = new RateLimiter({
      rpm: this.rpm,
      tpm: options.limits?.tpm ?? PROVIDER_DEFAULTS.tpm,
      windowMs: options.limits?.windowMs ?? PROVIDER_DEFAULTS.windowMs,
      quantumMs: options.limits?.quantumMs,
    }, deps.startedAtMs);
  }

  get type(): 'openai' | 'anthropic' {
    return this.wire.type;
  }

  /** Answers one request whose body has been read. */
  handle(req: IncomingMessage, res: ServerResponse, raw: string, arrivedAtMs: number): Promise<void> {
    const { options, stats, now } = this.deps;
    const n = ++this.n;
    const nowMs = now();
    stats.requests++;
    stats.inFlight++;
    res.once('close', () => stats.inFlight--);
    const { requestId, answerId } = this.wire.ids(this.idRandom);
    const ctx: WireContext = { requestId, org: this.org, nowMs, retryAfter: options.retryAfter ?? true };
    const scope = new ResponseScope(res);
    const latency = options.latency ?? {};
    const baseMs = (latency.baseMs ?? 0) + (latency.jitterMs ? this.latencyRandom() * latency.jitterMs : 0);
    const event: SimRequestEvent = { provider: this.deps.name, n, atMs: nowMs, stream: false, requestId };
    const decided = (status: number | undefined, fault?: FaultKind) => {
      if (status !== undefined) bump(stats.byStatus, String(status));
      if (fault) bump(stats.byFault, fault);
      this.deps.onRequest?.({ ...event, status, fault });
    };
    const fail = (err: SimError, fault?: FaultKind, withLimits = true) => {
      const rendered = this.wire.error(err, ctx);
      decided(rendered.status, fault);
      const mode = options.rateLimitHeaders ?? 'always';
      const limitsShown = withLimits && (mode === 'always' || (mode === 'success-and-429' && err.kind === 'rate_limited'));
      let snapshot = limitsShown ? this.limiter.snapshot(nowMs) : undefined;
      // A forced 429 reports the requests window as spent until the wait it advertises, like a real one.
      if (snapshot && fault === 'rate_limit' && err.kind === 'rate_limited') {
        snapshot = { ...snapshot, requests: { ...snapshot.requests, remaining: 0, resetMs: err.waitMs } };
      }
      const headers = { ...this.wire.headers({ ...ctx, processingMs: now() - arrivedAtMs }, snapshot), ...rendered.headers };
      return sendJson(scope, rendered.status, headers, rendered.body, baseMs);
    };

    const key = this.wire.keyOf(req.headers);
    if (!key && options.requireKey !== false) return fail({ kind: 'missing_key' }, undefined, false);
    const request = this.wire.parse(raw, req.headers);
    if (isSimError(request)) return fail(request);
    event.model = request.model;
    event.stream = request.stream;
    if (request.stream) stats.streams++;
    if (options.models && !options.models.includes(request.model)) return fail({ kind: 'model_not_found', model: request.model });
    const answer = answerFor(request);
    const contextTokens = options.contextTokens ?? PROVIDER_DEFAULTS.contextTokens[this.type];
    if (answer.inputTokens > contextTokens) return fail({ kind: 'context_length', limit: contextTokens, tokens: answer.inputTokens });

    const u = this.faultRandom();
    const rule = pickFault(options.faults ?? [], { n, elapsedMs: nowMs - this.deps.startedAtMs, model: request.model, stream: request.stream }, u);
    if (rule && REPLACING_FAULTS.has(rule.fault)) {
      if (rule.fault === 'reset') {
        decided(undefined, 'reset');
        req.socket.resetAndDestroy();
        return Promise.resolve();
      }
      if (rule.fault === 'hang') {
        decided(undefined, 'hang');
        return Promise.resolve();
      }
      return fail(faultError(rule, key ?? '', this.rpm, request.model), rule.fault);
    }
    if (options.capacity !== undefined && this.serving >= options.capacity) {
      stats.overCapacity++;
      return fail({ kind: 'overloaded' });
    }
    const admitted = this.limiter.admit(tokenCharge(request, answer), nowMs);
    if (!admitted.admitted) {
      stats.rateLimited++;
      const { window, tooLarge, waitMs, used, requested, snapshot } = admitted;
      return fail({ kind: 'rate_limited', window, tooLarge, waitMs, limit: snapshot[window].limit, used, requested, model: request.model });
    }

    // Admitted: an answer goes out, perhaps slowly or cut short.
    this.serving++;
    res.once('close', () => this.serving--);
    stats.tokens.input += answer.inputTokens;
    stats.tokens.output += answer.outputTokens;
    const slowMs = rule?.fault === 'slow_first_byte' ? rule.delayMs ?? PROVIDER_DEFAULTS.slowFirstByteMs : 0;
    const afterChunks = Math.min(rule?.afterChunks ?? PROVIDER_DEFAULTS.afterChunks, answer.pieces.length);
    const headers = this.wire.headers({ ...ctx, processingMs: now() - arrivedAtMs + baseMs }, admitted.snapshot);
    const ids: AnswerIds = { id: answerId, createdS: Math.floor(nowMs / 1000), fingerprint: this.fingerprint };
    const perTokenMs = latency.perTokenMs ?? 0;

    if (!request.stream) {
      // A plain request has no stream to break: the error frame becomes the status the API would send instead.
      if (rule?.fault === 'stream_error') return fail({ kind: this.type === 'openai' ? 'server_error' : 'overloaded' }, 'stream_error');
      decided(200, rule?.fault);
      const delayMs = baseMs + slowMs + perTokenMs * answer.outputTokens;
      const body = this.wire.completion(request, answer, ids);
      return rule?.fault === 'stream_cut' ? sendCutJson(scope, 200, headers, body, delayMs) : sendJson(scope, 200, headers, body, delayMs);
    }
    decided(200, rule?.fault);
    return sendStream(scope, headers, this.wire.stream(request, answer, ids), {
      firstByteMs: baseMs + slowMs,
      pieceDelaysMs: perTokenMs > 0 ? answer.pieces.map((piece) => perTokenMs * approxTokens(piece)) : [],
      cutAfter: rule?.fault === 'stream_cut' ? afterChunks : undefined,
      errorAfter: rule?.fault === 'stream_error' ? afterChunks : undefined,
    });
  }
}
