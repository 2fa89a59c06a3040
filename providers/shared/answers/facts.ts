/** Capitals of the most populous and most asked-about countries: the one kind of fact the simulator knows. */
const CAPITALS: Readonly<Record<string, string>> = {
  afghanistan: 'Kabul', algeria: 'Algiers', argentina: 'Buenos Aires', australia: 'Canberra', austria: 'Vienna',
  bangladesh: 'Dhaka', belgium: 'Brussels', brazil: 'Brasília', bulgaria: 'Sofia', canada: 'Ottawa', chile: 'Santiago',
  china: 'Beijing', colombia: 'Bogotá', croatia: 'Zagreb', cuba: 'Havana', 'czech republic': 'Prague', czechia: 'Prague',
  denmark: 'Copenhagen', egypt: 'Cairo', estonia: 'Tallinn', ethiopia: 'Addis Ababa', finland: 'Helsinki', france: 'Paris',
  germany: 'Berlin', ghana: 'Accra', greece: 'Athens', hungary: 'Budapest', iceland: 'Reykjavík', india: 'New Delhi',
  indonesia: 'Jakarta', iran: 'Tehran', iraq: 'Baghdad', ireland: 'Dublin', israel: 'Jerusalem', italy: 'Rome',
  japan: 'Tokyo', kenya: 'Nairobi', latvia: 'Riga', lithuania: 'Vilnius', luxembourg: 'Luxembourg', malaysia: 'Kuala Lumpur',
  mexico: 'Mexico City', morocco: 'Rabat', netherlands: 'Amsterdam', 'the netherlands': 'Amsterdam', 'new zealand': 'Wellington',
  nigeria: 'Abuja', norway: 'Oslo', pakistan: 'Islamabad', peru: 'Lima', philippines: 'Manila', 'the philippines': 'Manila',
  poland: 'Warsaw', portugal: 'Lisbon', romania: 'Bucharest', russia: 'Moscow', 'saudi arabia': 'Riyadh', serbia: 'Belgrade',
  singapore: 'Singapore', slovakia: 'Bratislava', slovenia: 'Ljubljana', 'south africa': 'Pretoria', 'south korea': 'Seoul',
  spain: 'Madrid', sweden: 'Stockholm', switzerland: 'Bern', thailand: 'Bangkok', turkey: 'Ankara', türkiye: 'Ankara',
  ukraine: 'Kyiv', 'united kingdom': 'London', uk: 'London', 'united states': 'Washington, D.C.', usa: 'Washington, D.C.',
  'united states of america': 'Washington, D.C.', vietnam: 'Hanoi',
};

/** The capital a question asks for ("capital of Australia", "Australia's capital"), when the country is one `CAPITALS` knows. */
export function capitalAsked(text: string): { country: string; capital: string } | undefined {
  const m = /\bcapital(?:\s+city)?\s+of\s+((?:the\s+)?[\p{L}][\p{L} .'-]*?)\s*(?=[?.,!;:]|$|\s+(?:is|and|in|answer|please|city)\b)/iu.exec(text)
    ?? /\b((?:the\s+)?[\p{Lu}][\p{L}]*(?:\s+[\p{Lu}][\p{L}]*)*)(?:'s|’s)\s+capital\b/u.exec(text);
  if (!m) return undefined;
  const country = m[1]!.trim();
  const capital = CAPITALS[country.toLowerCase()];
  return capital ? { country: country.replace(/^the\s+/i, ''), capital } : undefined;
}

const OPERATORS: Readonly<Record<string, (a: number, b: number) => number>> = {
  '+': (a, b) => a + b, '-': (a, b) => a - b, '*': (a, b) => a * b, x: (a, b) => a * b, '×': (a, b) => a * b, '/': (a, b) => a / b, '÷': (a, b) => a / b,
};
const WORD_OPERATORS: Readonly<Record<string, string>> = { plus: '+', minus: '-', times: '*', 'multiplied by': '*', 'divided by': '/' };

const EXPRESSION = String.raw`(-?\d+(?:\.\d+)?)\s*([+\-*x×/÷]|plus|minus|times|multiplied by|divided by)\s*(-?\d+(?:\.\d+)?)`;
const BARE_SUM = new RegExp(String.raw`^\s*${EXPRESSION}\s*=?\s*\??\s*$`, 'i');
const ASKED_SUM = new RegExp(String.raw`\b(?:what\s+is|what's|calculate|compute|how\s+much\s+is)\s+${EXPRESSION}`, 'i');

/** The result of the one arithmetic operation a question asks ("What is 12 * 7?", "17 plus 25"), as text; undefined for none. */
export function arithmeticAsked(text: string): string | undefined {
  const m = BARE_SUM.exec(text) ?? ASKED_SUM.exec(text);
  if (!m) return undefined;
  const op = OPERATORS[WORD_OPERATORS[m[2]!.toLowerCase()] ?? m[2]!.toLowerCase()];
  const value = op?.(Number(m[1]), Number(m[3]));
  if (value === undefined || !Number.isFinite(value)) return undefined;
  return String(Number(value.toPrecision(12)));
}
