/** What a prompt mentions that an answer may repeat: identifiers, money, numbers, addresses, names. */
export interface Entities {
  /** Identifiers, with the noun before them when there is one: `order A-1043` → `{ noun: 'order', value: 'A-1043' }`. */
  ids: Array<{ noun?: string; value: string }>;
  /** Sums of money: `25.50 EUR`, `$12` → `{ value: 25.5, currency: 'EUR' }`. */
  amounts: Array<{ value: number; currency: string }>;
  /** Every other number, in order. */
  numbers: number[];
  emails: string[];
  /** Capitalised names after a preposition: `in Lisbon`, `capital of New Zealand`. */
  places: string[];
  /** Runs of two or more capitalised words that start no sentence: `John Smith`. */
  names: string[];
  /** ISO dates: `2026-03-14`. */
  dates: string[];
}

const CURRENCY_CODES = 'USD|EUR|GBP|JPY|CHF|CAD|AUD|NZD|CNY|INR|SEK|NOK|DKK|PLN|CZK|BRL|MXN|ZAR|SGD|HKD|KRW';
const CURRENCY_WORDS: Readonly<Record<string, string>> = { euro: 'EUR', euros: 'EUR', dollar: 'USD', dollars: 'USD', pound: 'GBP', pounds: 'GBP', yen: 'JPY' };
const CURRENCY_SIGNS: Readonly<Record<string, string>> = { '€': 'EUR', $: 'USD', '£': 'GBP', '¥': 'JPY' };
const NUMBER = String.raw`\d[\d,]*(?:[.,]\d+)?`;
const AMOUNT = new RegExp(
  String.raw`([€$£¥])\s?(${NUMBER})|\b(${CURRENCY_CODES})\s?(${NUMBER})|(${NUMBER})\s?(${CURRENCY_CODES}|euros?|dollars?|pounds?|yen)\b`,
  'gi',
);
const EMAIL = /[\w.+-]+@[\w-]+(?:\.[\w-]+)+/g;
const DATE = /\b\d{4}-\d{2}-\d{2}\b/g;
const TIME = /\b\d{1,2}:\d{2}(?::\d{2})?\b/g;
/** A code such as `A-1043` or `INV-2024-07`, or `#1043`. */
const CODE = /(?:\b([a-z]{3,})\s+)?(\b[A-Z]{1,5}-?\d{2,}(?:-\d+)*\b|#\d+\b)/g;
/** A number of three or more digits right after a noun, and not before a counted noun: `order 1043`, not `where 5000 people`. */
const NOUN_NUMBER = /\b([a-z]{3,})\s+(\d{3,})\b(?![.,]\d)(?!\s+(?:people|persons|staff|[a-z]+s)\b)/g;
const PLACE = /\b(?:in|at|to|from|of|near|for|visit|visiting)\s+([A-Z][a-z\u00df-\u00ff'-]+(?:\s+[A-Z][a-z\u00df-\u00ff'-]+)*)/g;
const CAPITALISED_RUN = /\b[A-Z][a-z\u00df-\u00ff'-]+(?:\s+[A-Z][a-z\u00df-\u00ff'-]+)+/g;
/** Words that start sentences and questions, never a name. */
const NOT_NAMES = new Set([
  'The', 'A', 'An', 'What', 'Which', 'Who', 'Where', 'When', 'Why', 'How', 'Please', 'Give', 'Write', 'Answer', 'Reply', 'Say',
  'Tell', 'Extract', 'Classify', 'Summarise', 'Summarize', 'Explain', 'Is', 'Are', 'Do', 'Does', 'Can', 'Could', 'Would', 'Should',
  'I', 'We', 'You', 'My', 'Our', 'Your', 'Dear', 'Hi', 'Hello', 'Return', 'List', 'Find', 'Get', 'Use', 'Call', 'Make', 'This', 'That',
]);
/** Words before an identifier that are no noun of it. */
const NOT_NOUNS = new Set([
  'for', 'with', 'from', 'than', 'about', 'around', 'over', 'under', 'and', 'the', 'into', 'onto', 'since', 'until', 'after', 'before',
  'was', 'were', 'has', 'have', 'had', 'are', 'his', 'her', 'its', 'our', 'your', 'their', 'where', 'when', 'which', 'what', 'nearly',
  'almost', 'only', 'just', 'all', 'some', 'costs', 'cost', 'pay', 'paid', 'year',
]);

/** A number as written: `25,50` is a decimal comma, `1,250` a thousands separator. */
export function parseNumber(text: string): number {
  const decimalComma = /^\d+,\d{1,2}$/.test(text);
  return Number(decimalComma ? text.replace(',', '.') : text.replace(/,/g, ''));
}

function currencyOf(raw: string): string {
  return CURRENCY_SIGNS[raw] ?? CURRENCY_WORDS[raw.toLowerCase()] ?? raw.toUpperCase();
}

const unique = <T>(xs: T[]): T[] => [...new Set(xs)];

/**
 * The entities of a text, found by their shape alone (no model, no dictionary of names): codes and
 * numbered nouns, money with a currency code, sign or word, email addresses, ISO dates, capitalised
 * places after a preposition, capitalised name runs, and the numbers left over once those are taken.
 */
export function extractEntities(text: string): Entities {
  const amounts: Entities['amounts'] = [];
  for (const m of text.matchAll(AMOUNT)) {
    const [sign, n1, code, n2, n3, word] = m.slice(1);
    amounts.push({ value: parseNumber((n1 ?? n2 ?? n3)!), currency: currencyOf((sign ?? code ?? word)!) });
  }
  const ids: Entities['ids'] = [];
  const seen = new Set<string>();
  const addId = (noun: string | undefined, value: string) => {
    if (seen.has(value)) return;
    seen.add(value);
    ids.push(noun && !NOT_NOUNS.has(noun) ? { noun, value } : { value });
  };
  for (const m of text.matchAll(CODE)) addId(m[1], m[2]!.startsWith('#') ? m[2]!.slice(1) : m[2]!);
  for (const m of text.matchAll(NOUN_NUMBER)) if (!NOT_NOUNS.has(m[1]!)) addId(m[1], m[2]!);

  const emails = unique(text.match(EMAIL) ?? []);
  const dates = unique(text.match(DATE) ?? []);
  const places = unique([...text.matchAll(PLACE)].map((m) => m[1]!).filter((p) => !NOT_NAMES.has(p.split(/\s+/)[0]!)));
  const names = unique([...text.matchAll(CAPITALISED_RUN)].map((m) => {
    const words = m[0].split(/\s+/);
    while (words.length > 0 && NOT_NAMES.has(words[0]!)) words.shift();
    return words.join(' ');
  }).filter((n) => n.includes(' ')));

  // What is left once every other entity is taken out: the plain numbers.
  const rest = text.replace(EMAIL, ' ').replace(DATE, ' ').replace(TIME, ' ').replace(AMOUNT, ' ').replace(CODE, ' ')
    .replace(NOUN_NUMBER, (all, noun: string) => (NOT_NOUNS.has(noun) ? all : `${noun} `));
  const numbers = [...rest.matchAll(/(?<![\w.-])-?\d+(?:\.\d+)?(?![\w.]\d|\w)/g)].map((m) => Number(m[0]));
  return { ids, amounts, numbers, emails, places, names, dates };
}
