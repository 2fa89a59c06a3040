import { mulberry32, stableHash, type Random } from '../../providers/shared/answers/index.js';

export { mulberry32, type Random };

/** An independent stream per purpose (`openai/faults`, `openai/ids`), so one never shifts another's draws. */
export function streamFor(seed: number, label: string): Random {
  return mulberry32(stableHash(`${seed}\u0000${label}`));
}

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const HEX = '0123456789abcdef';

/** `length` characters drawn from `alphabet` (base62 by default). */
export function randomChars(random: Random, length: number, alphabet = BASE62): string {
  let out = '';
  for (let i = 0; i < length; i++) out += alphabet[Math.floor(random() * alphabet.length)];
  return out;
}

/** `length` lowercase hex digits. */
export function randomHex(random: Random, length: number): string {
  return randomChars(random, length, HEX);
}
