import { stableHash } from '../../providers/fake/answer.js';

/** A source of uniform numbers in [0, 1), like `Math.random`, but replayable. */
export type Random = () => number;

/**
 * mulberry32: a tiny, fast 32-bit PRNG. Good enough to pick faults and ids, and the same seed always
 * yields the same sequence, so a scenario replays exactly.
 * @example const random = mulberry32(42); random(); // 0.6011037519201636, every time
 */
export function mulberry32(seed: number): Random {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

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
