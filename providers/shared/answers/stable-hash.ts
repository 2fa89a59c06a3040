/**
 * A small stable hash (32-bit FNV-1a): the same text always gives the same number, on every machine
 * and run, so the same prompt always picks the same words, ids and vectors.
 */
export function stableHash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** `stableHash` as 8 lowercase hex digits. */
export function stableHashHex(text: string): string {
  return stableHash(text).toString(16).padStart(8, '0');
}
