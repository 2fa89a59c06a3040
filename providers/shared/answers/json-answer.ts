import type { JSONSchema } from '../../../src/types.js';
import type { FillContext } from './field-value.js';
import { promptJsonValue } from './prompt-json.js';
import { valueForSchema } from './schema-value.js';

/** What an answer must be: any JSON object (OpenAI `json_object`), or JSON matching a schema. */
export type AnswerFormat = { type: 'json' } | { type: 'json_schema'; schema: JSONSchema; name?: string };

/**
 * The JSON text a structured-output request is answered with: an instance of the schema
 * (`valueForSchema`) for `json_schema`; for plain JSON mode, what the prompt asks for
 * (`promptJsonValue`: the schema or fields it writes out, the entities it mentions), or
 * `{"answer": <the text answer>}`. With `fill`, values come from the prompt where it has them;
 * without it, from the schema alone.
 */
export function jsonAnswerText(format: AnswerFormat, textAnswer: string, fill?: FillContext): string {
  if (format.type === 'json_schema') return JSON.stringify(valueForSchema(format.schema, 'value', fill));
  return JSON.stringify(fill ? promptJsonValue(fill) : { answer: textAnswer });
}

/**
 * JSON made invalid the way a model breaks it when it stops early: an object, array or string loses
 * its closing character; a bare number, boolean or null gets a stray `}`. Text that is not JSON
 * comes back unchanged (it already does not parse).
 */
export function breakJson(text: string): string {
  try {
    JSON.parse(text);
  } catch {
    return text;
  }
  const trimmed = text.trimEnd();
  return /[}\]"]$/.test(trimmed) ? trimmed.slice(0, -1) : `${trimmed}}`;
}
