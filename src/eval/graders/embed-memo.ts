import type { Router } from '../../router.js';
import type { DiskCache } from '../cache/disk-cache.js';
import { chainIdentity } from '../cache/cache-keys.js';
import { GraderError } from './grader-error.js';

/** Vectors of some texts, and what this call cost (null: nothing priced, or nothing sent). */
export interface Embedded {
  vectors: number[][];
  costUsd: number | null;
}

/**
 * Embeds texts on a chain once per eval run: a text already embedded (or being embedded) in this run
 * is not sent again, nor one found in the disk cache. The texts missing go in one `router.embed`
 * call, whose cost goes to the caller that sent it. A failure is a GraderError and is not kept.
 */
export class EmbedMemo {
  private readonly memo = new Map<string, Promise<number[]>>();

  constructor(private readonly router: Router, private readonly cache: DiskCache | undefined, private readonly signal?: AbortSignal) {}

  async embed(chain: string, texts: readonly string[]): Promise<Embedded> {
    const missing = [...new Set(texts.filter((t) => !this.memo.has(`${chain}\n${t}`)))];
    let batch: Promise<{ byText: Map<string, number[]>; costUsd: number | null }> | undefined;
    if (missing.length > 0) {
      batch = this.fetch(chain, missing);
      for (const text of missing) {
        const key = `${chain}\n${text}`;
        const one = batch.then((b) => b.byText.get(text)!);
        // A failure is not remembered: the next run that needs the text asks again.
        one.catch(() => this.memo.delete(key));
        this.memo.set(key, one);
      }
    }
    const costUsd = batch ? (await batch).costUsd : null;
    return { vectors: await Promise.all(texts.map((t) => this.memo.get(`${chain}\n${t}`)!)), costUsd };
  }

  private async fetch(chain: string, texts: readonly string[]): Promise<{ byText: Map<string, number[]>; costUsd: number | null }> {
    const byText = new Map<string, number[]>();
    const identity = chainIdentity(this.router.config.chains, chain);
    const keyOf = (text: string) => ({ kind: 'embedding', chain: identity, text });
    const toSend: string[] = [];
    for (const text of texts) {
      const hit = this.cache ? await this.cache.get<number[]>(keyOf(text)) : undefined;
      if (hit) byText.set(text, hit);
      else toSend.push(text);
    }
    if (toSend.length === 0) return { byText, costUsd: null };
    let result;
    try {
      result = await this.router.embed({ chain, input: toSend, signal: this.signal });
    } catch (err) {
      throw new GraderError('similar', `the embeddings chain "${chain}" did not answer: ${err instanceof Error ? err.message : String(err)}`.slice(0, 400), null, { cause: err });
    }
    await Promise.all(toSend.map((text, i) => {
      byText.set(text, result.embeddings[i]!);
      return this.cache?.put(keyOf(text), result.embeddings[i]);
    }));
    return { byText, costUsd: result.costUsd ?? null };
  }
}
