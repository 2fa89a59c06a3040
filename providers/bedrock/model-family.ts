import type { ThinkingTraits } from '../types.js';

/** What the adapter needs to know about a Bedrock model id, read from the id itself. */
export interface BedrockModelTraits {
  /** The model's provider prefix: `anthropic`, `amazon`, `meta`, `mistral`, `cohere`, ... ('' when the id says none). */
  vendor: string;
  /** Claude's version as major × 10 + minor (Sonnet 4.5 → 45); undefined for other models or a version-less name. */
  claudeVersion?: number;
  /**
   * Thinking for an Anthropic model through `additionalModelRequestFields`: `adaptive` (4.6 and
   * newer), `budget` (3.7 to 4.5, `budget_tokens`), or `none`.
   */
  thinking: 'adaptive' | 'budget' | 'none';
  /** Converse's `outputConfig.textFormat` JSON schema: Claude 4.5 and newer and the open-weight families the docs list. */
  nativeJsonSchema: boolean;
  /**
   * Prompt caching (`cachePoint` blocks): Claude 3.5 Haiku, 3.7 and newer, and Amazon Nova, as the
   * Bedrock prompt-caching guide lists them (https://docs.aws.amazon.com/bedrock/latest/userguide/prompt-caching.html).
   */
  promptCache: boolean;
}

// Cross-region inference profiles prefix the model id with a geography (`us.`, `eu.`, `apac.`, `global.`...).
const GEO = /^(?:us|eu|apac|ap|jp|au|ca|us-gov|global)\./;
const FAMILY_FIRST = /claude-[a-z]+-(\d+)(?:-(\d{1,2}))?(?=$|[-@:.])/;
const VERSION_FIRST = /claude-(\d+)(?:-(\d))?-[a-z]+/;
/** Open-weight vendors whose Bedrock models take `outputConfig.textFormat` (the structured-output guide). */
const NATIVE_JSON_VENDORS = new Set(['qwen', 'deepseek', 'mistral', 'google', 'nvidia', 'minimax', 'moonshot', 'moonshotai', 'openai']);

/**
 * The model id under an ARN (`arn:aws:bedrock:...:inference-profile/us.anthropic.claude-...`,
 * `...:foundation-model/anthropic.claude-...`) and without its geography prefix. A provisioned or
 * custom model ARN names no family: its id is the opaque resource id.
 */
export function baseModelId(model: string): string {
  const resource = model.startsWith('arn:') ? model.slice(model.lastIndexOf('/') + 1) : model;
  return resource.replace(GEO, '');
}

function claudeVersion(id: string): number | undefined {
  const match = FAMILY_FIRST.exec(id) ?? VERSION_FIRST.exec(id);
  return match ? Number(match[1]) * 10 + Number(match[2] ?? 0) : undefined;
}

/**
 * The traits of a Bedrock model id, cross-region profile ids and ARNs included (the Bedrock guides
 * on adaptive and extended thinking and on structured output; see README.md). An Anthropic id
 * without a version (a new name) is taken for a current model.
 */
export function bedrockModelTraits(model: string): BedrockModelTraits {
  const id = baseModelId(model);
  const dot = id.indexOf('.');
  const vendor = dot > 0 ? id.slice(0, dot) : '';
  if (vendor === 'anthropic') {
    const version = claudeVersion(id);
    const current = version === undefined || version >= 46;
    return {
      vendor, ...(version !== undefined ? { claudeVersion: version } : {}),
      thinking: current ? 'adaptive' : version >= 37 ? 'budget' : 'none',
      nativeJsonSchema: current || version >= 45,
      promptCache: current || version >= 37 || id.includes('claude-3-5-haiku'),
    };
  }
  return { vendor, thinking: 'none', nativeJsonSchema: NATIVE_JSON_VENDORS.has(vendor), promptCache: vendor === 'amazon' && id.startsWith('amazon.nova') };
}

// Claude on Bedrock thinks as on Anthropic's API, only when asked: 3.7 to 4.5 with `budget_tokens`
// (at least 1024), 4.6 and newer adaptively (an effort, no budget). Other vendors' thinking is not mapped.
const BUDGET_THINKING: ThinkingTraits = Object.freeze({ style: 'claude-budget', byDefault: false, minBudget: 1024, canDisable: true });
const ADAPTIVE_THINKING: ThinkingTraits = Object.freeze({ style: 'claude-adaptive', byDefault: false, minBudget: 0, canDisable: true });

/** How a Bedrock model thinks, for the router's thinking budget (src/decide/thinking-budget.ts); undefined when its reasoning is not mapped. */
export function bedrockThinkingTraits(model: string): ThinkingTraits | undefined {
  const { thinking } = bedrockModelTraits(model);
  return thinking === 'adaptive' ? ADAPTIVE_THINKING : thinking === 'budget' ? BUDGET_THINKING : undefined;
}
