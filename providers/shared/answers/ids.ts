import { randomFor } from './prng.js';

/** Base62, the alphabet of OpenAI's `call_...` ids. */
export const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** Base58 (no 0, O, I, l), the alphabet of Anthropic's `toolu_01...` and `msg_01...` ids. */
export const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

/** `length` characters of `alphabet` derived from `key` alone: the same key, the same id. */
export function idFromKey(key: string, length: number, alphabet = BASE62): string {
  const random = randomFor(key);
  let out = '';
  for (let i = 0; i < length; i++) out += alphabet[Math.floor(random() * alphabet.length)];
  return out;
}

/** How a tool-call id looks on each API: `call_` + 24 base62 (OpenAI, the fake), `toolu_01` + 22 base58 (Anthropic). */
export function toolCallId(key: string, style: 'openai' | 'anthropic'): string {
  return style === 'openai' ? `call_${idFromKey(key, 24)}` : `toolu_01${idFromKey(key, 22, BASE58)}`;
}
