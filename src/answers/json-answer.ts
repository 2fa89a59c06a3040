import type { JSONSchema } from '../types.js';
import { valueForSchema } from './schema-value.js';

/** What an answer must be: any JSON object (OpenAI `json_object`), or JSON matching a schema. */
export type AnswerFormat = { type: 'json' } | { type: 'json_schema'; schema: JSONSchema; name?: string };

/**
 * The JSON text a structured-output request is answered with: `valueForSchema(schema)` for a schema,
 * `{"answer": <the text answer>}` for plain JSON mode.
 */
export function jsonAnswerText(format: AnswerFormat, textAnswer: string): string {
  return JSON.stringify(format.type === 'json_schema' ? valueForSchema(format.schema) : { answer: textAnswer });
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
