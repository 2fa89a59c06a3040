/** The one thing the header readers need from a response's headers: a case-insensitive lookup. */
export interface HeaderBag {
  get(name: string): string | null | undefined;
}

/** Wraps a plain record (any case) as a `HeaderBag`; a Web `Headers` already is one. */
export function headerBag(record: Record<string, string | undefined> | HeaderBag | undefined): HeaderBag | undefined {
  if (!record) return undefined;
  if (typeof (record as HeaderBag).get === 'function') return record as HeaderBag;
  const lower = new Map<string, string>();
  for (const [k, v] of Object.entries(record as Record<string, string | undefined>)) {
    if (v !== undefined) lower.set(k.toLowerCase(), v);
  }
  return { get: (name) => lower.get(name.toLowerCase()) };
}
