import type { JSONSchema7, LanguageModelV3CallOptions, SharedV3Warning } from '@ai-sdk/provider';
import type { ChatRequest, JSONSchema, ReasoningOptions, Tool, ToolChoice } from '../../types.js';
import { PROVIDER_KEY, toMessages } from './prompt.js';

/**
 * Switchyard's own options for a model, given once (`switchyard('default', { tenant: 'web' })`) or
 * per call (`providerOptions: { switchyard: { ... } }`, which wins); all optional.
 */
export interface SwitchyardModelSettings {
  /** The tenant whose budgets and fair share the call uses. @default 'default' */
  tenant?: string;
  /** Shares one upstream request among concurrent calls with this key and replays its result (generate only). */
  idempotencyKey?: string;
  /** Deadline of the whole call, fall-throughs included. */
  timeoutMs?: number;
  /** Streams: abandon a target that shows nothing within this. */
  firstTokenTimeoutMs?: number;
  /** An opaque end-user id (OpenAI `user`, Anthropic `metadata.user_id`). */
  user?: string;
  reasoning?: ReasoningOptions;
  parallelToolCalls?: boolean;
  /** `false` bypasses the response cache. */
  cache?: boolean;
  /** Merged into a provider's request body, keyed by provider type or name (Switchyard's `providerOptions`). */
  providerOptions?: Record<string, Record<string, unknown>>;
}

const SETTING_KEYS = ['tenant', 'idempotencyKey', 'timeoutMs', 'firstTokenTimeoutMs', 'user', 'reasoning', 'parallelToolCalls', 'cache', 'providerOptions'] as const;

/** A JSON Schema as the providers take it: the draft marker the AI SDK adds is not theirs to read. */
function schemaOf(schema: JSONSchema7): JSONSchema {
  const { $schema: _, ...rest } = schema as JSONSchema7 & Record<string, unknown>;
  return rest as JSONSchema;
}

function toolsOf(options: LanguageModelV3CallOptions, warnings: SharedV3Warning[]): Tool[] | undefined {
  if (!options.tools?.length) return undefined;
  const tools: Tool[] = [];
  for (const t of options.tools) {
    if (t.type !== 'function') {
      warnings.push({ type: 'unsupported', feature: `provider-defined tool ${t.id}` });
      continue;
    }
    tools.push({ name: t.name, ...(t.description ? { description: t.description } : {}), parameters: schemaOf(t.inputSchema), ...(t.strict !== undefined ? { strict: t.strict } : {}) });
  }
  return tools.length ? tools : undefined;
}

function toolChoiceOf(choice: LanguageModelV3CallOptions['toolChoice']): ToolChoice | undefined {
  if (!choice) return undefined;
  return choice.type === 'tool' ? { name: choice.toolName } : choice.type;
}

function settingsOf(base: SwitchyardModelSettings, options: LanguageModelV3CallOptions): SwitchyardModelSettings {
  const perCall = (options.providerOptions?.[PROVIDER_KEY] ?? {}) as SwitchyardModelSettings;
  const out: Record<string, unknown> = {};
  for (const key of SETTING_KEYS) {
    const value = perCall[key] ?? base[key];
    if (value !== undefined) out[key] = value;
  }
  return out as SwitchyardModelSettings;
}

/** The AI SDK's call options as a Switchyard request on `chain`, with a warning for each setting it drops. */
export function toChatRequest(chain: string, base: SwitchyardModelSettings, options: LanguageModelV3CallOptions): { request: ChatRequest; warnings: SharedV3Warning[] } {
  const warnings: SharedV3Warning[] = [];
  for (const [feature, value] of [['topK', options.topK], ['presencePenalty', options.presencePenalty], ['frequencyPenalty', options.frequencyPenalty]] as const) {
    if (value !== undefined) warnings.push({ type: 'unsupported', feature, details: 'pass it per provider with providerOptions.switchyard.providerOptions' });
  }
  // The AI SDK always sends its user-agent; only headers the caller set are worth a warning.
  if (options.headers && Object.entries(options.headers).some(([name, v]) => v !== undefined && name.toLowerCase() !== 'user-agent')) {
    warnings.push({ type: 'unsupported', feature: 'headers', details: 'set headers per provider in router.config.ts' });
  }
  const tools = toolsOf(options, warnings);
  const format = options.responseFormat;
  const responseFormat: ChatRequest['responseFormat'] = format?.type !== 'json'
    ? undefined
    : format.schema
      ? { type: 'json_schema', schema: schemaOf(format.schema), ...(format.name && /^[a-zA-Z0-9_-]{1,64}$/.test(format.name) ? { name: format.name } : {}) }
      : { type: 'json' };
  const { idempotencyKey, ...settings } = settingsOf(base, options);
  const request: ChatRequest = {
    chain,
    messages: toMessages(options.prompt, warnings),
    ...(options.maxOutputTokens !== undefined ? { maxTokens: options.maxOutputTokens } : {}),
    ...(options.temperature !== undefined ? { temperature: options.temperature } : {}),
    ...(options.topP !== undefined ? { topP: options.topP } : {}),
    ...(options.seed !== undefined ? { seed: options.seed } : {}),
    ...(options.stopSequences?.length ? { stop: options.stopSequences } : {}),
    ...(tools ? { tools } : {}),
    ...(tools && options.toolChoice ? { toolChoice: toolChoiceOf(options.toolChoice) } : {}),
    ...(responseFormat ? { responseFormat } : {}),
    ...(options.abortSignal ? { signal: options.abortSignal } : {}),
    ...settings,
    ...(idempotencyKey !== undefined ? { idempotencyKey } : {}),
  };
  return { request, warnings };
}
