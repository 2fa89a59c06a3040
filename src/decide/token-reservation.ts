/** Tokens to add to (positive) or give back from (negative) each window, for one lease. */
export interface TokenDelta {
  tokens?: number;
  inputTokens?: number;
  outputTokens?: number;
}

/** The token windows a budget keeps (a `BudgetLimits` is one). */
export interface TokenWindows {
  tpm?: number;
  itpm?: number;
  otpm?: number;
}

/** What one attempt reserves in its budgets' token windows before it is sent. */
export interface TokenReservation {
  /** TPM: the prompt plus the output reservation (what OpenAI's limiter charges up front). */
  tokens: number;
  /** ITPM: the prompt, less the share the target's prompt cache has lately served. */
  inputTokens: number;
  /** OTPM: the output reservation. */
  outputTokens: number;
}

/** What the provider billed, to reconcile the reservation (embeddings have no output tokens). */
export interface BilledUsage {
  /** Every input token, cached ones included. */
  inputTokens: number;
  outputTokens?: number;
  /** Input served from the provider's prompt cache: Anthropic does not count it toward ITPM. */
  cachedInputTokens?: number;
}

/**
 * The reservation for an estimate of `input` prompt tokens and `output` reserved output tokens.
 * `cacheShare` (0 to 1) is the share of input the target's prompt cache has lately served, which
 * Anthropic does not count toward ITPM: only ITPM reserves less for it, since the cache hit is only
 * known from the answer.
 */
export function reserveTokens(input: number, output: number, cacheShare: number | undefined): TokenReservation {
  return { tokens: input + output, inputTokens: cacheShare ? Math.ceil(input * (1 - cacheShare)) : input, outputTokens: output };
}

/**
 * What the usage billed changes in one budget's reservation: TPM is charged what the estimate missed
 * (never refunded: OpenAI's limiter counted the reservation too); ITPM and OTPM move both ways to
 * what Anthropic counts: the input less cache reads, the output actually written.
 */
export function reconcileTokens(reserved: TokenReservation, limits: TokenWindows, usage: BilledUsage): TokenDelta | undefined {
  const extra = usage.inputTokens + (usage.outputTokens ?? 0) - reserved.tokens;
  const input = limits.itpm === undefined ? 0 : usage.inputTokens - (usage.cachedInputTokens ?? 0) - reserved.inputTokens;
  const output = limits.otpm === undefined || usage.outputTokens === undefined ? 0 : usage.outputTokens - reserved.outputTokens;
  if (extra <= 0 && input === 0 && output === 0) return undefined;
  return { tokens: extra > 0 && limits.tpm !== undefined ? extra : 0, inputTokens: input, outputTokens: output };
}

/**
 * What a request the provider answered 429 gives back of its reservation: all of it. A rate limiter
 * that refuses a request charges it a request and no tokens (Anthropic and OpenAI both count tokens
 * only on admission), so a budget that kept them would hold the window shut for tokens nobody spent.
 * @example refusedTokens({ tokens: 1_000, inputTokens: 600, outputTokens: 400 }) // { tokens: -1000, inputTokens: -600, outputTokens: -400 }
 */
export function refusedTokens(reserved: TokenReservation): TokenDelta {
  return { tokens: -reserved.tokens, inputTokens: -reserved.inputTokens, outputTokens: -reserved.outputTokens };
}

/** How fast a target's learned prompt-cache share follows what its answers report. */
const CACHE_SHARE_WEIGHT = 1 / 8;

/** The prompt-cache share after one more answer (an exponential moving average), or `share` unchanged without input. */
export function nextCacheShare(share: number | undefined, usage: BilledUsage): number | undefined {
  if (usage.inputTokens <= 0) return share;
  const seen = Math.min(1, (usage.cachedInputTokens ?? 0) / usage.inputTokens);
  return share === undefined ? seen : share + (seen - share) * CACHE_SHARE_WEIGHT;
}
