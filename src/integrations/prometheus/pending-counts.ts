import type { Counter } from 'prom-client';

/** One label set's count not yet added to its counter; its label object is made once. */
interface Leaf<L extends string> {
  readonly labels: Record<L, string>;
  pending: number;
  dirty: boolean;
}

type Node<L extends string> = Map<string, Node<L> | Leaf<L>>;

/**
 * Increments of one prom-client counter, summed per label set and added to the counter when it is
 * read (its `collect`, at each scrape). An increment is a few map lookups on the label values, with
 * no label object and no label hash (prom-client's `inc` makes both): the router's listeners count
 * every attempt and call. What a scrape shows is what `inc` on every event would have shown.
 */
export class PendingCounts<L extends string> {
  private readonly root: Node<L> = new Map();
  private readonly leaves: Leaf<L>[] = [];

  /** `labelNames`: the counter's, in its order; `add` takes the values in the same order. */
  constructor(private readonly labelNames: readonly L[]) {}

  /** Counts `by` (1 when absent, as `inc`) for the label values given in `labelNames`' order. */
  add(values: readonly string[], by?: number): void {
    const value = by ?? 1;
    // As `inc` would, at the event (a listener error), not at the scrape.
    if (!Number.isFinite(value)) throw new TypeError(`Value is not a valid number: ${String(by)}`);
    if (value < 0) throw new Error('It is not possible to decrease a counter');
    const leaf = this.leaf(values);
    leaf.pending += value;
    leaf.dirty = true;
  }

  /** Adds what was counted since the last read to `counter` (from its `collect`). */
  flush(counter: Counter<L>): void {
    for (const leaf of this.leaves) {
      if (!leaf.dirty) continue;
      counter.inc(leaf.labels, leaf.pending);
      leaf.pending = 0;
      leaf.dirty = false;
    }
  }

  private leaf(values: readonly string[]): Leaf<L> {
    let node = this.root;
    const last = this.labelNames.length - 1;
    for (let i = 0; i < last; i++) {
      let next = node.get(values[i]!) as Node<L> | undefined;
      if (!next) node.set(values[i]!, (next = new Map()));
      node = next;
    }
    let leaf = node.get(values[last]!) as Leaf<L> | undefined;
    if (!leaf) {
      const labels = {} as Record<L, string>;
      this.labelNames.forEach((name, i) => (labels[name] = values[i]!));
      node.set(values[last]!, (leaf = { labels, pending: 0, dirty: false }));
      this.leaves.push(leaf);
    }
    return leaf;
  }
}
