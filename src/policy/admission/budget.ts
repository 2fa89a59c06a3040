import type { BudgetLimits } from '../../store/state-store.js';

// The words admission shares with the targets, tenants and call kinds that feed it. They sit
// below all of those files (this one imports only the store's limits), so none of them imports
// another in a circle to name a budget or an estimate.

/** One budget an attempt must fit in: a tenant's, or a target endpoint's. */
export interface Budget {
  key: string;
  limits: BudgetLimits;
}

/** What an attempt is expected to cost a provider's token limits, before it is sent. */
export interface TokenEstimate {
  /** Prompt tokens as the provider's limiter counts them. */
  input: number;
  /** The output reservation: `maxTokens`, or the target's default (0 for embeddings). */
  output: number;
}

/**
 * Why admission refused an attempt: the budget limit that was full, `too_large` (it can never fit),
 * `deadline` (the call's own deadline passed while it waited) or `aborted` (the caller gave up).
 */
export type RefusalReason = 'rpm' | 'tpm' | 'itpm' | 'otpm' | 'concurrency' | 'provider' | 'too_large' | 'deadline' | 'aborted';
