import { stableHash } from './stable-hash.js';

/** A source of uniform numbers in [0, 1), like `Math.random`, but replayable. */
export type Random = () => number;

/**
 * mulberry32: a tiny, fast 32-bit PRNG. The same seed always yields the same sequence.
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

/** A stream seeded by a text (its stable hash). */
export function randomFor(text: string): Random {
  return mulberry32(stableHash(text));
}
