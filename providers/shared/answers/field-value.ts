import { labelsForField } from './lexicon.js';
import { pickOption } from './pick-option.js';
import type { PromptContext } from './prompt-context.js';
import { summarySentence } from './summary.js';

/** The prompt a structured answer is filled from, and the text the model would have answered. */
export interface FillContext {
  prompt: PromptContext;
  /** The plain-text answer, for a field that holds the answer itself (`answer`, `response`). */
  answerText(): string;
}

/** The JSON types a field can be filled with from a prompt. */
export type FieldType = 'string' | 'number' | 'integer';

/** The words of a property name: `orderId` → `order id`, `ship_to_city` → `ship to city`. */
export function keyWords(key: string): string[] {
  return key.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/[^A-Za-z0-9]+/g, ' ').trim().toLowerCase().split(' ').filter(Boolean);
}

const has = (words: readonly string[], set: ReadonlySet<string>) => words.some((w) => set.has(w));
const set = (...words: string[]): ReadonlySet<string> => new Set(words);

const ID_WORDS = set('id', 'ids', 'number', 'no', 'code', 'ref', 'reference', 'sku');
const NOT_IDS = set('phone', 'tel', 'zip', 'postal');
const EMAIL_WORDS = set('email', 'mail');
const PLACE_WORDS = set('city', 'location', 'place', 'destination', 'town', 'country', 'region', 'origin');
const NAME_WORDS = set('name', 'fullname', 'customer', 'person', 'author', 'contact', 'recipient', 'sender');
const DATE_WORDS = set('date', 'day', 'when');
const SUMMARY_WORDS = set('summary', 'description', 'text', 'message', 'reason', 'explanation', 'content', 'details', 'issue', 'problem', 'note', 'notes', 'comment');
const ANSWER_WORDS = set('answer', 'response', 'reply', 'result', 'output');
const MONEY_WORDS = set('amount', 'price', 'total', 'cost', 'sum', 'fee', 'balance', 'refund', 'payment', 'charge', 'subtotal');
const COUNT_WORDS = set('quantity', 'qty', 'count', 'seats', 'items', 'units', 'people', 'guests', 'nights', 'days', 'age', 'year', 'number', 'size', 'population');

function stringField(words: string[], ctx: FillContext): string | undefined {
  const { entities } = ctx.prompt;
  const last = words.at(-1)!;
  if (ID_WORDS.has(last) && !has(words, NOT_IDS)) {
    const nouns = new Set(words.slice(0, -1));
    return (entities.ids.find((id) => id.noun !== undefined && nouns.has(id.noun)) ?? entities.ids[0])?.value;
  }
  if (has(words, EMAIL_WORDS)) return entities.emails[0];
  if (last === 'currency') return entities.amounts[0]?.currency;
  if (has(words, PLACE_WORDS)) return entities.places[0];
  if (has(words, DATE_WORDS)) return entities.dates[0];
  if (has(words, NAME_WORDS)) return entities.names[0];
  if (has(words, ANSWER_WORDS)) return ctx.answerText();
  const labels = labelsForField(words);
  if (labels) return pickOption(labels, ctx.prompt.subject);
  if (has(words, SUMMARY_WORDS)) return summarySentence(ctx.prompt);
  return undefined;
}

function numberField(words: string[], integer: boolean, ctx: FillContext): number | undefined {
  const { entities } = ctx.prompt;
  const fits = (n: number | undefined) => (n !== undefined && (!integer || Number.isInteger(n)) ? n : undefined);
  if (has(words, MONEY_WORDS)) return fits(entities.amounts[0]?.value ?? entities.numbers[0]);
  if (has(words, COUNT_WORDS)) return fits(entities.numbers.find((n) => !integer || Number.isInteger(n)));
  return undefined;
}

/**
 * The value a model would give the field `key` from what the prompt says, by the field's name:
 * an identifier for `orderId` (`order A-1043`, the one after the matching noun first), the email,
 * currency, place, date or person named, the label its cues suggest for `priority`, `sentiment` or
 * `team`, a one-sentence summary for `summary` or `description`, the plain answer for `answer`; for
 * numbers, the sum of money for `amount` or `price` and the count for `quantity` or `seats`.
 * Undefined when the prompt has nothing that fits: the schema's own rule fills it then.
 */
export function fieldValue(key: string, type: FieldType, ctx: FillContext): string | number | undefined {
  const words = keyWords(key);
  if (words.length === 0) return undefined;
  return type === 'string' ? stringField(words, ctx) : numberField(words, type === 'integer', ctx);
}
