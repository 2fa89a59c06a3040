import type OpenAI from 'openai';
import { messageText } from '../../src/types.js';
import type { Message } from '../../src/types.js';
import { bareSchema, strictObjectSchema } from '../shared/json-schema.js';
import type { ProviderResponseFormat } from '../types.js';

/** Added when a JSON-mode request never says "JSON": the API refuses json_object without the word. */
export const JSON_INSTRUCTION = 'Respond with a single JSON object.';

/**
 * `response_format` for a normalised `responseFormat`: `json` is JSON mode (`json_object`), and
 * `json_schema` carries the schema, normalised to what strict mode requires when strict (sent with
 * `strict: false` when strict mode cannot take it without changing its meaning). JSON mode
 * needs the word "JSON" somewhere in the messages, so `instruction` is set when none has it.
 */
export function openAIResponseFormat(format: ProviderResponseFormat | undefined, messages: readonly Message[]): {
  response_format?: OpenAI.ChatCompletionCreateParamsNonStreaming['response_format'];
  instruction?: string;
} {
  if (!format) return {};
  if (format.type === 'json') {
    const mentionsJSON = messages.some((m) => /json/i.test(messageText(m)));
    return { response_format: { type: 'json_object' }, ...(mentionsJSON ? {} : { instruction: JSON_INSTRUCTION }) };
  }
  // A schema strict mode cannot take as it means it (a record, a non-object root) goes as written, not strict.
  const strict = format.strict ? strictObjectSchema(format.schema) : undefined;
  return {
    response_format: {
      type: 'json_schema',
      json_schema: { name: format.name, schema: strict ?? bareSchema(format.schema), strict: strict !== undefined },
    },
  };
}
