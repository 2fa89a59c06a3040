import type { ProviderResponse } from '../../providers/types.js';
import { RouterError } from '../errors.js';
import { parseJsonAnswer } from './parse-json-answer.js';
import { firstIssue, validatorFor } from '../convert/schema-input.js';
import type { AssistantMessage, ResponseFormat } from '../types.js';

/**
 * Reads an answer against the call's `responseFormat`: the parsed (and, with a schema, validated)
 * object, or a RouterError `invalid_output` carrying the raw text. One fence around the whole answer
 * is tolerated; prose around the JSON is not (an application's JSON.parse would fail on it too).
 */
export function parseOutput(text: string, format: ResponseFormat, where: { provider: string; model: string }): unknown {
  const json = parseJsonAnswer(text);
  if (!json.ok) throw new RouterError('invalid_output', `${where.provider}:${where.model} answered ${json.reason}`, Object.assign({}, where, { code: 'not_json', raw: text }));
  if (format.type === 'json') return json.value;
  const checked = validatorFor(format.schema).safeParse(json.value);
  if (!checked.success) {
    throw new RouterError('invalid_output', `${where.provider}:${where.model} answered JSON that does not match the schema: ${firstIssue(checked.error)}`, Object.assign({}, where, { code: 'schema_mismatch', raw: text }));
  }
  return checked.data;
}

/** The assistant turn of an answer, ready to append to the history and replay on any provider. */
export function assistantMessage(response: Pick<ProviderResponse, 'text' | 'toolCalls' | 'providerParts'>): AssistantMessage {
  const hasCalls = response.toolCalls.length > 0;
  const message: AssistantMessage = { role: 'assistant', content: hasCalls && response.text === '' ? null : response.text };
  if (hasCalls) message.toolCalls = response.toolCalls;
  if (response.providerParts) message.providerParts = response.providerParts;
  return message;
}
