/** Reasoning (thinking) tokens a simulated model spends per effort; they count within the output tokens. */
export const REASONING_TOKENS: Readonly<Record<string, number>> = Object.freeze({
  none: 0, minimal: 8, low: 32, medium: 128, high: 512, xhigh: 1024, max: 2048,
});

/** Reasoning tokens for an effort (OpenAI `reasoning_effort`, Anthropic `output_config.effort`); 0 without one. */
export function reasoningTokensFor(effort: string | undefined): number {
  return effort === undefined ? 0 : REASONING_TOKENS[effort] ?? REASONING_TOKENS.medium!;
}
