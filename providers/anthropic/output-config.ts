import type Anthropic from '@anthropic-ai/sdk';
import { closedObjectSchema } from '../shared/json-schema.js';
import type { ProviderRequest } from '../types.js';
import { usesJsonTool } from './json-tool.js';
import { anthropicModelTraits } from './model-traits.js';

/** Appended to `system` for `responseFormat: {type: 'json'}`: Anthropic has no schema-less JSON mode. */
export const JSON_INSTRUCTION = 'Respond with a single JSON object only: no prose before or after it, and no code fences.';

const EFFORT: Readonly<Record<string, NonNullable<Anthropic.OutputConfig['effort']>>> = {
  minimal: 'low', low: 'low', medium: 'medium', high: 'high',
};

/**
 * `output_config`: the native structured output (`format: {type: 'json_schema', schema}`, every
 * object closed as the API requires; no name, no strict flag) merged with the reasoning `effort`
 * (`minimal` becomes `low`, Anthropic's lowest) on models that think adaptively (4.6 and newer).
 * `json` without a schema puts no constraint on the answer and asks for JSON in the system prompt
 * instead (`instruction`).
 */
export function anthropicOutputConfig(request: ProviderRequest): { output_config?: Anthropic.OutputConfig; instruction?: string } {
  const config: Anthropic.OutputConfig = {};
  let instruction: string | undefined;
  const format = request.responseFormat;
  // Models without native structured output get the schema as a forced tool instead (json-tool.ts).
  if (format?.type === 'json_schema') {
    if (!usesJsonTool(request)) config.format = { type: 'json_schema', schema: closedObjectSchema(format.schema) };
  }
  else if (format?.type === 'json') instruction = JSON_INSTRUCTION;
  // Before 4.6 the effort is the thinking budget (parameters.ts); `effort` is for adaptive models.
  if (request.reasoning && anthropicModelTraits(request.model).thinking === 'adaptive') config.effort = EFFORT[request.thinking?.effort ?? request.reasoning.effort ?? 'medium'] ?? 'medium';
  return Object.assign({}, (Object.keys(config).length > 0 ? { output_config: config } : {}), (instruction ? { instruction } : {}));
}
