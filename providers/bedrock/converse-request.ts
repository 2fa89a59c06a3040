import type { ConverseCommandInput, InferenceConfiguration, OutputConfig } from '@aws-sdk/client-bedrock-runtime';
import { closedObjectSchema } from '../shared/json-schema.js';
import type { ProviderRequest } from '../types.js';
import { converseHistory, type ConverseHistory } from './messages.js';
import { bedrockModelTraits } from './model-family.js';
import { converseToolConfig, forcesToolUse } from './tools.js';

/** Added to `system` for `responseFormat: {type: 'json'}`: Converse has no schema-less JSON mode. */
export const JSON_INSTRUCTION = 'Respond with a single JSON object only: no prose before or after it, and no code fences.';

/** `budget_tokens` for Claude 3.7 to 4.5 by effort (the Anthropic adapter's figures); the floor is 1024. */
const BUDGET: Readonly<Record<string, number>> = { minimal: 1024, low: 1024, medium: 2048, high: 4096 };
const MIN_BUDGET = 1024;
const EFFORT: Readonly<Record<string, string>> = { minimal: 'low', low: 'low', medium: 'medium', high: 'high' };
/** Converse's `requestMetadata` values: what the API's pattern allows (`[a-zA-Z0-9\s:_@$#=/+,-.]`, 256 at most). */
const METADATA_VALUE = /^[a-zA-Z0-9\s:_@$#=/+,.-]{1,256}$/;

/** True when this request's JSON schema goes as the forced `json` tool (a model without `outputConfig.textFormat`). */
export function usesJsonTool(request: ProviderRequest): boolean {
  return request.responseFormat?.type === 'json_schema' && !bedrockModelTraits(request.model).nativeJsonSchema;
}

interface Thinking {
  fields?: Record<string, unknown>;
  effort?: string;
}

/**
 * Reasoning as Claude on Bedrock takes it, in `additionalModelRequestFields`: `thinking: {type:
 * 'adaptive'}` with `outputConfig.effort` from 4.6, `{type: 'enabled', budget_tokens}` on 3.7 to 4.5
 * (the router's budget, added to `maxTokens`; without one the effort's or `budgetTokens`, kept below
 * `maxTokens`; off when that leaves less than 1024), nothing before. Off when a tool is
 * forced (Claude refuses both) or the last tool-calling turn has no reasoning blocks (it came from
 * another API; Claude wants that turn to open with one). Other models' reasoning is not mapped.
 */
function thinkingOf(request: ProviderRequest, history: ConverseHistory, jsonTool: boolean): Thinking {
  if (!request.reasoning || history.toolTurnWithoutReasoning || forcesToolUse(request) || jsonTool) return {};
  const { thinking } = bedrockModelTraits(request.model);
  const effort = request.thinking?.effort ?? request.reasoning.effort ?? 'medium';
  if (thinking === 'adaptive') return { fields: { thinking: { type: 'adaptive' } }, effort: EFFORT[effort] ?? 'medium' };
  if (thinking === 'none') return {};
  const wanted = request.thinking?.budgetTokens ?? request.reasoning.budgetTokens ?? BUDGET[request.reasoning.effort ?? 'low'] ?? MIN_BUDGET;
  if (wanted === 0) return {};
  // With the router's plan, maxTokens gets the budget on top (inferenceConfig); it still fits below.
  const budget = Math.min(wanted, (request.maxTokens === undefined ? Infinity : request.maxTokens + (request.thinking?.addTokens ?? 0)) - 1);
  return budget >= MIN_BUDGET ? { fields: { thinking: { type: 'enabled', budget_tokens: budget } } } : {};
}

function inferenceConfig(request: ProviderRequest, thinking: boolean): InferenceConfiguration | undefined {
  const config: InferenceConfiguration = {};
  // The visible answer's budget, plus the thinking room the router sized when Claude thinks.
  if (request.maxTokens !== undefined) config.maxTokens = request.maxTokens + (thinking && request.thinking ? request.thinking.addTokens : 0);
  // Claude takes no sampling settings while it thinks (temperature must stay 1).
  if (!thinking && request.temperature !== undefined) config.temperature = request.temperature;
  if (!thinking && request.topP !== undefined) config.topP = request.topP;
  const stops = (request.stop ?? []).filter((s) => s !== '');
  if (stops.length > 0) config.stopSequences = stops;
  return Object.keys(config).length > 0 ? config : undefined;
}

/**
 * The Converse (and ConverseStream) input for one request: history and `system`, `inferenceConfig`
 * (maxTokens, temperature, topP, stopSequences), `toolConfig`, structured output as
 * `outputConfig.textFormat` (`json_schema`, the schema as a JSON string, objects closed) or, on a
 * model without it, the forced `json` tool; reasoning in `additionalModelRequestFields`; `user` as
 * `requestMetadata.user` (it filters invocation logs) when its characters are allowed there.
 * `seed` and `parallelToolCalls` have no Converse field and are dropped. `extraBody`
 * (`providerOptions.bedrock`) is merged last, so it wins.
 */
export function converseInput(request: ProviderRequest, provider = 'bedrock'): ConverseCommandInput {
  const where = { provider, model: request.model };
  const history = converseHistory(request.messages, where);
  const jsonTool = usesJsonTool(request);
  const thinking = thinkingOf(request, history, jsonTool);
  const format = request.responseFormat;
  const system = format?.type === 'json' ? [...history.system, { text: JSON_INSTRUCTION }] : history.system;
  const outputConfig: OutputConfig = {};
  if (format?.type === 'json_schema' && !jsonTool) {
    outputConfig.textFormat = {
      type: 'json_schema',
      structure: { jsonSchema: { schema: JSON.stringify(closedObjectSchema(format.schema)), name: format.name } },
    };
  }
  if (thinking.effort) outputConfig.effort = thinking.effort;
  const toolConfig = converseToolConfig(request, history, jsonTool, where);
  const inference = inferenceConfig(request, thinking.fields !== undefined);
  const beta = anthropicBetaField(request);
  const input: ConverseCommandInput = {
    modelId: request.model,
    messages: history.messages,
    ...(system.length > 0 ? { system } : {}),
    ...(inference ? { inferenceConfig: inference } : {}),
    ...(toolConfig ? { toolConfig } : {}),
    ...(Object.keys(outputConfig).length > 0 ? { outputConfig } : {}),
    ...(thinking.fields || beta ? { additionalModelRequestFields: Object.assign({}, thinking.fields, beta) as never } : {}),
    ...(request.user !== undefined && METADATA_VALUE.test(request.user) ? { requestMetadata: { user: request.user } } : {}),
  };
  return request.extraBody ? Object.assign({}, input, (request.extraBody as Partial<ConverseCommandInput>)) : input;
}

/**
 * The gateway client's `anthropic-beta` header as Claude's InvokeModel body takes it, `anthropic_beta:
 * [...]`, which Converse passes on through `additionalModelRequestFields` (AWS: "Anthropic Claude
 * Messages API request and response", https://docs.aws.amazon.com/bedrock/latest/userguide/model-parameters-anthropic-claude-messages-request-response.html,
 * and the computer-use guide, which sends `anthropic_beta` so on Converse). Claude models only.
 */
function anthropicBetaField(request: ProviderRequest): { anthropic_beta: string[] } | undefined {
  if (request.anthropicBeta === undefined || bedrockModelTraits(request.model).vendor !== 'anthropic') return undefined;
  const betas = request.anthropicBeta.split(',').map((b) => b.trim()).filter((b) => b !== '');
  return betas.length > 0 ? { anthropic_beta: betas } : undefined;
}

