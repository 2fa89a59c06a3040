/**
 * The storage of a budget's rolling window: what each counted request (or later token charge)
 * holds of the window, oldest first, in columns of typed arrays. A window counts every request of
 * its last `windowMs` (60 s by default), so at thousands of requests a second it holds hundreds of
 * thousands of them: as objects (with their boxed numbers, seven heap objects a request) they filled
 * the heap and every GC had to trace them; as columns they cost 33 bytes each outside the traced
 * heap, plus the lease id a later release may name (a string the request made anyway).
 *
 * A slot is named by an index that only grows (`push` returns it), so a lease can keep its slot
 * while the ring wraps, grows or shrinks: `live(slot)` says whether it is still in the window.
 */
const REQUEST = 1;
const DEAD = 2;
const MIN_CAPACITY = 16;

export class WindowRing {
  private at = new Float64Array(MIN_CAPACITY);
  private tokens = new Float64Array(MIN_CAPACITY);
  private input = new Float64Array(MIN_CAPACITY);
  private output = new Float64Array(MIN_CAPACITY);
  private flags = new Uint8Array(MIN_CAPACITY);
  /** The lease id of each request slot (a later token charge has none): `findLive` looks a lease up by it. */
  private ids: Array<string | undefined> = new Array<string | undefined>(MIN_CAPACITY).fill(undefined);
  private mask = MIN_CAPACITY - 1;
  /** Index of the oldest slot kept. */
  head = 0;
  /** One past the newest slot's index. */
  tail = 0;

  get size(): number {
    return this.tail - this.head;
  }

  /** Appends a slot; returns its index. */
  push(at: number, id: string | undefined, tokens: number, input: number, output: number, request: boolean): number {
    if (this.size > this.mask) this.resize((this.mask + 1) * 2);
    const i = this.tail & this.mask;
    this.at[i] = at;
    this.tokens[i] = tokens;
    this.input[i] = input;
    this.output[i] = output;
    this.flags[i] = request ? REQUEST : 0;
    this.ids[i] = id;
    return this.tail++;
  }

  /** Kept and not given back: still counted. */
  live(slot: number): boolean {
    return slot >= this.head && slot < this.tail && (this.flags[slot & this.mask]! & DEAD) === 0;
  }

  atOf(slot: number): number {
    return this.at[slot & this.mask]!;
  }

  isRequest(slot: number): boolean {
    return (this.flags[slot & this.mask]! & REQUEST) !== 0;
  }

  /** What the slot holds of window `d`: 0 requests, 1 tokens, 2 input, 3 output. */
  amountOf(slot: number, d: number): number {
    const i = slot & this.mask;
    return d === 0 ? (this.flags[i]! & REQUEST ? 1 : 0) : d === 1 ? this.tokens[i]! : d === 2 ? this.input[i]! : this.output[i]!;
  }

  /** Takes `amount` of window `d` (1, 2 or 3) off the slot. */
  subtract(slot: number, d: number, amount: number): void {
    const i = slot & this.mask;
    if (d === 1) this.tokens[i]! -= amount;
    else if (d === 2) this.input[i]! -= amount;
    else this.output[i]! -= amount;
  }

  kill(slot: number): void {
    this.flags[slot & this.mask]! |= DEAD;
  }

  /** The newest live slot of lease `id`, or -1. */
  findLive(id: string): number {
    for (let s = this.tail - 1; s >= this.head; s--) {
      const i = s & this.mask;
      if (this.ids[i] === id && (this.flags[i]! & DEAD) === 0) return s;
    }
    return -1;
  }

  /** Drops the oldest slot (the caller has stopped counting it). */
  shift(): void {
    this.ids[this.head & this.mask] = undefined;
    this.head++;
    // Most of the ring empty after a burst: give the memory back, keeping room to double again.
    if (this.mask + 1 > 1024 && this.size * 4 < this.mask + 1) this.resize((this.mask + 1) / 2);
  }

  private resize(capacity: number): void {
    const mask = capacity - 1;
    const at = new Float64Array(capacity);
    const tokens = new Float64Array(capacity);
    const input = new Float64Array(capacity);
    const output = new Float64Array(capacity);
    const flags = new Uint8Array(capacity);
    const ids = new Array<string | undefined>(capacity).fill(undefined);
    for (let s = this.head; s < this.tail; s++) {
      const from = s & this.mask;
      const to = s & mask;
      at[to] = this.at[from]!;
      tokens[to] = this.tokens[from]!;
      input[to] = this.input[from]!;
      output[to] = this.output[from]!;
      flags[to] = this.flags[from]!;
      ids[to] = this.ids[from];
    }
    this.at = at;
    this.tokens = tokens;
    this.input = input;
    this.output = output;
    this.flags = flags;
    this.ids = ids;
    this.mask = mask;
  }
}
