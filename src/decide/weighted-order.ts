/**
 * Weighted splits of a pool (`pick: 'weighted'`): a weighted draw for calls without a sticky key,
 * and rendezvous hashing for calls with one (highest random weight, Thaler and Ravishankar, in its
 * weighted form `-w / ln(u)` as in Resche's "weighted rendezvous hashing"): every (key, member) pair
 * has a fixed score, the key goes to the member with the highest, and across keys each member wins
 * its weight's share. Changing one member's weight moves only the keys that member gains or loses;
 * a member that cannot be sent to is passed over and its keys go to their next-highest member,
 * which is again weight-proportional.
 */

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

/** FNV-1a over `text`, continuing from `seed` (so two strings hash as one without joining them). */
export function fnv1a(text: string, seed = FNV_OFFSET): number {
  let h = seed >>> 0;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, FNV_PRIME) >>> 0;
  }
  return h;
}

/** A hash in (0, 1), spread by murmur3's finalizer. */
export function unitHash(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return ((h >>> 0) + 0.5) / 4_294_967_296;
}

/** The rendezvous score of a (key, member) pair whose hash is `u` in (0, 1), for a member of weight `w`: higher wins. */
export function rendezvousScore(u: number, weight: number): number {
  return weight <= 0 ? 0 : -weight / Math.log(u);
}

/**
 * The position in `members[0..n)` a weighted draw `r` in [0, 1) lands on, by `weights[members[i]]`;
 * -1 when no member has weight.
 */
export function weightedDraw(weights: ArrayLike<number>, members: ArrayLike<number>, n: number, r: number): number {
  let total = 0;
  for (let i = 0; i < n; i++) total += weights[members[i]!]!;
  if (total <= 0) return -1;
  let at = r * total;
  let last = -1;
  for (let i = 0; i < n; i++) {
    const w = weights[members[i]!]!;
    if (w <= 0) continue;
    last = i;
    if (at < w) return i;
    at -= w;
  }
  return last;
}
