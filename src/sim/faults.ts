import type { FaultKind, FaultRule } from './options.js';

/** What a rule can be matched against. */
export interface FaultContext {
  /** 1-based number of this request at its provider's endpoint. */
  n: number;
  /** Milliseconds since the simulator started, on its clock. */
  elapsedMs: number;
  model: string;
  stream: boolean;
  /** @default 'chat' */
  endpoint?: 'chat' | 'embeddings';
}

/** Faults that replace the answer and never reach the rate limiter. */
export const REPLACING_FAULTS: ReadonlySet<FaultKind> = new Set<FaultKind>([
  'server_error', 'unavailable', 'overloaded', 'insufficient_quota', 'rate_limit', 'unauthorized', 'reset', 'hang',
]);

/** True when every condition the rule names holds for this request. */
export function applies(rule: FaultRule, ctx: FaultContext): boolean {
  if (rule.fromMs !== undefined && ctx.elapsedMs < rule.fromMs) return false;
  if (rule.untilMs !== undefined && ctx.elapsedMs >= rule.untilMs) return false;
  if (rule.nth !== undefined && !(Array.isArray(rule.nth) ? rule.nth.includes(ctx.n) : rule.nth === ctx.n)) return false;
  if (rule.model !== undefined && rule.model !== ctx.model) return false;
  if (rule.stream !== undefined && rule.stream !== ctx.stream) return false;
  if (rule.endpoint !== undefined && rule.endpoint !== (ctx.endpoint ?? 'chat')) return false;
  return true;
}

/**
 * The fault this request meets, if any: the first applicable rule that fires. `u` is one uniform draw
 * per request; the probabilities of applicable rules stack along [0, 1), so rules at 0.1 and 0.2 fail
 * 10% and 20% of requests, and a request never meets two. Pure: the caller owns the draw.
 */
export function pickFault(rules: readonly FaultRule[], ctx: FaultContext, u: number): FaultRule | undefined {
  let below = 0;
  for (const rule of rules) {
    if (!applies(rule, ctx)) continue;
    if (rule.probability === undefined) return rule;
    below += rule.probability;
    if (u < below) return rule;
  }
  return undefined;
}
