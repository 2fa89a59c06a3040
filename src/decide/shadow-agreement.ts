/**
 * How far a shadow target's answer agrees with the real one (docs/routing.md, "Shadow traffic"):
 * `equal` when both texts are the same once normalised (Unicode NFKC, lower case, runs of white space
 * as one space, trimmed), and `similarity`, the token Jaccard share: the distinct word tokens (runs of
 * letters and digits) both answers hold over those either holds, 1 when both hold none.
 */
export interface ShadowAgreement {
  equal: boolean;
  /** 0..1, rounded to 3 decimals. */
  similarity: number;
}

/** The text a comparison reads: NFKC, lower case, white space collapsed, trimmed. */
export function normaliseAnswer(text: string): string {
  return text.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim();
}

function tokens(normalised: string): Set<string> {
  return new Set(normalised.match(/[\p{L}\p{N}]+/gu) ?? []);
}

/** The agreement of a shadow answer with the real answer. */
export function shadowAgreement(real: string, shadow: string): ShadowAgreement {
  const a = normaliseAnswer(real);
  const b = normaliseAnswer(shadow);
  const ta = tokens(a);
  const tb = tokens(b);
  let both = 0;
  for (const t of ta) if (tb.has(t)) both++;
  const either = ta.size + tb.size - both;
  const similarity = either === 0 ? 1 : Math.round((both / either) * 1000) / 1000;
  return { equal: a === b, similarity };
}
