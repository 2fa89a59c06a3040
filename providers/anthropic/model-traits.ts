import type { ThinkingTraits } from '../types.js';

/** What an Anthropic model takes that depends on its generation. */
export interface AnthropicModelTraits {
  /**
   * How it thinks: `adaptive` (`thinking: {type: 'adaptive'}` with `output_config.effort`; Claude
   * 4.6 and newer, where `budget_tokens` is refused or deprecated), `budget`
   * (`{type: 'enabled', budget_tokens}`, the only form before 4.6, from Claude 3.7), or `none`.
   */
  thinking: 'adaptive' | 'budget' | 'none';
  /** Native structured output (`output_config.format`): Opus 4.1, Sonnet 4.5, Haiku 4.5 and newer. */
  structuredOutput: boolean;
}

const CURRENT: AnthropicModelTraits = Object.freeze({ thinking: 'adaptive', structuredOutput: true });

// `claude-opus-4-8`, `claude-sonnet-4-5-20250929`, `claude-opus-4-20250514` (4.0: a dated snapshot is
// no minor version), `claude-sonnet-4-5@20250929` (Vertex), `anthropic.claude-haiku-4-5-...` (Bedrock).
const FAMILY_FIRST = /claude-[a-z]+-(\d+)(?:-(\d{1,2}))?(?=$|[-@:.])/;
// The Claude 3 names: `claude-3-7-sonnet-20250219`, `claude-3-5-haiku-latest`, `claude-3-opus-20240229`.
const VERSION_FIRST = /claude-(\d+)(?:-(\d))?-[a-z]+/;

/** The model's version as major × 10 + minor (Claude 4.5 → 45), or undefined for a name that says none. */
function versionOf(model: string): number | undefined {
  const match = FAMILY_FIRST.exec(model) ?? VERSION_FIRST.exec(model);
  if (!match) return undefined;
  return Number(match[1]) * 10 + Number(match[2] ?? 0);
}

/**
 * The traits of an Anthropic model, read from its name (per Anthropic's thinking-effort guide and the
 * structured-output model list; see reference/provider-wire-formats-wave2.md §3.2, §5.1). A name
 * that carries no Claude version (an alias behind a proxy) is taken for a current model.
 */
export function anthropicModelTraits(model: string): AnthropicModelTraits {
  const version = versionOf(model);
  if (version === undefined || version >= 46) return CURRENT;
  return { thinking: version >= 37 ? 'budget' : 'none', structuredOutput: version >= 41 };
}

// Claude thinks only when asked: 3.7 to 4.5 with `budget_tokens` (at least 1024; no ceiling but the
// model's output limit), 4.6 and newer adaptively, with an effort and no budget.
const BUDGET_THINKING: ThinkingTraits = Object.freeze({ style: 'claude-budget', byDefault: false, minBudget: 1024, canDisable: true });
const ADAPTIVE_THINKING: ThinkingTraits = Object.freeze({ style: 'claude-adaptive', byDefault: false, minBudget: 0, canDisable: true });

/** How a Claude model thinks, for the router's thinking budget (src/decide/thinking-budget.ts); undefined before 3.7. */
export function claudeThinkingTraits(thinking: AnthropicModelTraits['thinking']): ThinkingTraits | undefined {
  return thinking === 'adaptive' ? ADAPTIVE_THINKING : thinking === 'budget' ? BUDGET_THINKING : undefined;
}
