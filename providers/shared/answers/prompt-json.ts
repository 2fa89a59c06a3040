import type { JSONSchema } from '../../../src/types.js';
import { keyWords, type FillContext } from './field-value.js';
import type { PromptContext } from './prompt-context.js';
import { valueForSchema } from './schema-value.js';

const ASKS = /\b(?:answer|respond|reply|return|output|format(?:ted)?|write|give|produce|provide|emit|print|structured)\b[^.\n]{0,40}?\bjson\b|\bjson\b[^.\n]{0,20}?\b(?:only|format|object|output|response|answer|schema|instance)\b|\b(?:in|as|into)\s+(?:a\s+|an\s+)?(?:valid\s+|single\s+)?json\b|\bjson\s*:/i;
const FORBIDS = /\b(?:no|not|never|without|don't)\s+(?:[\w-]+\s+){0,3}?json\b/i;

/** True when the prompt (its instructions or its last question) asks for the answer as JSON and does not forbid it. */
export function asksForJson(ctx: PromptContext): boolean {
  const { lower } = ctx;
  return (lower.instructions.includes('json') && ASKS.test(ctx.instructions) && !FORBIDS.test(ctx.instructions))
    || (lower.question.includes('json') && ASKS.test(ctx.question) && !FORBIDS.test(ctx.question));
}

const isObject = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);

/** How much of a prompt's end is searched for JSON objects: a schema sits near the end, and the search is quadratic at worst. */
const SEARCHED_CHARS = 16_000;

/** Every JSON object written out in a text (balanced braces that parse), in order, within its last `SEARCHED_CHARS`. */
export function jsonObjectsIn(whole: string): Record<string, unknown>[] {
  const text = whole.length > SEARCHED_CHARS ? whole.slice(-SEARCHED_CHARS) : whole;
  const out: Record<string, unknown>[] = [];
  for (let start = text.indexOf('{'); start !== -1; start = text.indexOf('{', start + 1)) {
    let depth = 0;
    let inString = false;
    for (let i = start; i < text.length; i++) {
      const c = text[i];
      if (inString) {
        if (c === '\\') i++;
        else if (c === '"') inString = false;
      } else if (c === '"') inString = true;
      else if (c === '{') depth++;
      else if (c === '}' && --depth === 0) {
        try {
          const value: unknown = JSON.parse(text.slice(start, i + 1));
          if (isObject(value)) {
            out.push(value);
            start = i; // the objects inside it are part of it
          }
        } catch {
          // not JSON: an example in prose, a template
        }
        break;
      }
    }
  }
  return out;
}

const looksLikeSchema = (o: Record<string, unknown>) => isObject(o.properties) || o.type === 'object' || typeof o.$schema === 'string' || o.type === 'array';

/** Below this many levels an example's shape is not followed (its schema is `{}`): the prompt is anyone's text. */
const MAX_EXAMPLE_DEPTH = 8;

/** A JSON Schema for the shape of an example object: each value's type, nested the same way (to MAX_EXAMPLE_DEPTH). */
function schemaOfExample(value: unknown, depth = 0): JSONSchema {
  if (depth >= MAX_EXAMPLE_DEPTH && typeof value === 'object' && value !== null) return {};
  if (Array.isArray(value)) return { type: 'array', items: value.length > 0 ? schemaOfExample(value[0], depth + 1) : {}, ...(value.length > 1 ? { minItems: value.length } : {}) };
  if (isObject(value)) {
    return { type: 'object', properties: Object.fromEntries(Object.entries(value).map(([k, v]) => [k, schemaOfExample(v, depth + 1)])), required: Object.keys(value) };
  }
  if (typeof value === 'number') return { type: Number.isInteger(value) ? 'integer' : 'number' };
  if (typeof value === 'boolean') return { type: 'boolean' };
  if (value === null) return { type: 'null' };
  return { type: 'string' };
}

/**
 * The schema written into the prompt, as the AI SDK (`JSON schema: {...}`) and LangChain's format
 * instructions write it: the last object that looks like a JSON Schema; else the last JSON object,
 * read as an example of the shape wanted.
 */
export function promptSchema(ctx: PromptContext): JSONSchema | undefined {
  const objects = jsonObjectsIn(`${ctx.instructions}\n${ctx.question}`);
  const schema = [...objects].reverse().find(looksLikeSchema);
  if (schema) return schema as JSONSchema;
  const example = objects.at(-1);
  return example ? schemaOfExample(example) : undefined;
}

/** Splits a list at commas, `and`, `or` and `&` outside parentheses, stopping at the sentence's end. */
function listItems(text: string): string[] {
  const items: string[] = [];
  let depth = 0;
  let current = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '(') depth++;
    if (c === ')') depth = Math.max(0, depth - 1);
    if (depth === 0 && /[.;!?\n]/.test(c) && !/\d/.test(text[i + 1] ?? '')) break;
    const rest = text.slice(i);
    const sep = depth === 0 ? /^(?:,\s*(?:and|or)\s+|,\s*|\s+(?:and|or|&)\s+)/i.exec(rest) : null;
    if (sep) {
      items.push(current);
      current = '';
      i += sep[0].length - 1;
    } else current += c;
  }
  items.push(current);
  return items.map((s) => s.trim()).filter(Boolean);
}

const IDENTIFIER = /^[`"']?([A-Za-z_][A-Za-z0-9_]*)[`"']?(?:\s*\(([^)]*)\))?$/;
const LEADING_IDENTIFIER = /^[`"']?([A-Za-z_][A-Za-z0-9_]*)[`"']?(?:\s*\(([^)]*)\))?(?=\s*:|\s+(?:for|from|in|of|about|based|using|with|to|that|which)\b)/;

/**
 * The field names (and hints) a list item by item: each is one identifier, optionally with a hint in
 * parentheses; the list ends early at an item that runs on into the sentence ("score for this
 * review: ..."). Undefined when an item is not a name.
 */
function namedFields(items: readonly string[]): Array<[string, string | undefined]> | undefined {
  const fields: Array<[string, string | undefined]> = [];
  for (const item of items) {
    const whole = IDENTIFIER.exec(item);
    const leading = whole ?? LEADING_IDENTIFIER.exec(item);
    if (!leading) return undefined;
    fields.push([leading[1]!, leading[2]]);
    if (!whole) break;
  }
  return fields;
}
const MONEY = /^(?:amount|price|total|cost|sum|fee|balance|refund|payment|charge|subtotal)$/;
const COUNT = /^(?:quantity|qty|count|seats|items|units|people|guests|nights|days|age|year|population)$/;

/** A field's schema from the hint the prompt gives it ("(a number)", "(low, medium or high)") or, without one, from its name. */
function fieldSchema(name: string, hint: string | undefined): JSONSchema {
  if (hint !== undefined) {
    if (/\b(?:integer|int|whole number)\b/i.test(hint)) return { type: 'integer' };
    if (/\b(?:number|numeric|float|decimal)\b/i.test(hint)) return { type: 'number' };
    if (/\b(?:boolean|bool|true\s*\/\s*false|yes\s*\/\s*no)\b/i.test(hint)) return { type: 'boolean' };
    if (/\b(?:list|array)\b/i.test(hint)) return { type: 'array', items: { type: 'string' } };
    const options = listItems(hint.replace(/^(?:one of|either)\s+/i, '')).flatMap((o) => o.split('/')).map((o) => o.trim()).filter((o) => /^[\p{L}\p{N}_ -]+$/u.test(o));
    if (options.length >= 2) return { type: 'string', enum: options };
    return { type: 'string' };
  }
  const last = keyWords(name).at(-1) ?? '';
  if (MONEY.test(last)) return { type: 'number' };
  if (COUNT.test(last)) return { type: 'integer' };
  if (/^(?:is|has|can)[A-Z_]/.test(name)) return { type: 'boolean' };
  return { type: 'string' };
}

const LIST_AFTER = [
  /\bjson\b[^:\n]{0,40}:\s*([\s\S]+)$/i,
  /\b(?:with|containing|include|including|having)\s+(?:the\s+|these\s+)?(?:keys?|fields?|properties|attributes)\s*:?\s*([\s\S]+)$/i,
  /\b(?:keys?|fields?|properties)\s*:\s*([\s\S]+)$/i,
  /^(?:please\s+)?(?:give|return|provide|extract|output|list|include)\s+(?:me\s+)?(?:the\s+)?([\s\S]+)$/i,
];

/**
 * The fields the prompt names for its JSON answer, as an object schema: "Answer with JSON: priority
 * (low, medium or high), team, summary", "Return a JSON object with keys name and email", "Give
 * orderId, amount (a number) and currency". Each field is one identifier, typed by its hint or name.
 */
export function requestedFields(ctx: PromptContext): JSONSchema | undefined {
  const sentences = `${ctx.instructions}\n${ctx.question}`.split(/(?<=[.!?])\s+(?=[A-Z])|\n+/);
  for (const sentence of sentences) {
    for (const [i, pattern] of LIST_AFTER.entries()) {
      const list = pattern.exec(sentence.trim())?.[1];
      if (!list) continue;
      const fields = namedFields(listItems(list));
      if (!fields || fields.length < (i < 3 ? 1 : 2)) continue;
      const properties = Object.fromEntries(fields.map(([name, hint]) => [name, fieldSchema(name, hint)]));
      return { type: 'object', properties, required: Object.keys(properties), additionalProperties: false };
    }
  }
  return undefined;
}

/** camelCase of a noun and a suffix: `order` + `Id` → `orderId`. */
const camel = (noun: string, suffix: string) => `${noun.toLowerCase()}${suffix}`;

/**
 * The entities of the prompt as an object, for a JSON answer whose fields nobody named: each
 * identifier under its noun (`orderId`), then `amount` and `currency`, `email`, `name`, `location`,
 * `date`. Undefined when the prompt mentions none.
 */
export function entityObject(ctx: PromptContext): Record<string, unknown> | undefined {
  const e = ctx.entities;
  const out: Record<string, unknown> = {};
  for (const id of e.ids) {
    const key = id.noun ? camel(id.noun, 'Id') : 'id';
    if (!(key in out)) out[key] = id.value;
  }
  if (e.amounts[0]) Object.assign(out, { amount: e.amounts[0].value, currency: e.amounts[0].currency });
  if (e.emails[0]) out.email = e.emails[0];
  if (e.names[0]) out.name = e.names[0];
  if (e.places[0]) out.location = e.places[0];
  if (e.dates[0]) out.date = e.dates[0];
  return Object.keys(out).length > 0 ? out : undefined;
}

/**
 * The JSON a prompt that asks for JSON gets, without a schema in the request: an instance of the
 * schema or example written into the prompt, else an object of the fields it names, else of the
 * entities it mentions, else `{"answer": <the text answer>}`. Values come from the prompt where
 * it has them (`fieldValue` in field-value.ts).
 */
export function promptJsonValue(fill: FillContext): unknown {
  const ctx = fill.prompt;
  const schema = promptSchema(ctx) ?? requestedFields(ctx);
  if (schema) return valueForSchema(schema, 'value', fill);
  return entityObject(ctx) ?? { answer: fill.answerText() };
}

