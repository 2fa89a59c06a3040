import { createHash } from 'node:crypto';
import { promptTokens, toolsTokens } from '../../providers/shared/answers/index.js';
import type { CachePoint } from './cache-points.js';
import type { SimRequest } from './sim-request.js';

/** What one request reads from and writes to the prompt cache, in prompt tokens. */
export interface CacheUse {
  read: number;
  write5m: number;
  write1h: number;
  /** The prefixes to store (or refresh) when the request is answered: key and lifetime. */
  store: Array<{ key: string; ttlMs: number }>;
}

const TTL_MS = { '5m': 300_000, '1h': 3_600_000 } as const;
/** OpenAI reports cache hits "in increments of 128 tokens" past the first 1,024 (its prompt-caching guide). */
const OPENAI_INCREMENT = 128;
/** A bound on the entries one simulated provider keeps (a long benchmark never grows without end). */
const MAX_ENTRIES = 50_000;

/** A prefix's key: the model, then the tools and messages it holds, as JSON. */
function keyOf(request: SimRequest, tools: number, messages: number): string {
  return createHash('sha256').update(JSON.stringify([request.model, request.tools?.slice(0, tools) ?? [], request.messages.slice(0, messages)])).digest('base64url');
}

function tokensOf(request: SimRequest, tools: number, messages: number): number {
  return toolsTokens(request.tools?.slice(0, tools)) + (messages > 0 ? promptTokens(request.messages.slice(0, messages)) : 0);
}

/**
 * A provider's prompt cache, on the simulator's clock. Breakpoint APIs (Anthropic, Bedrock): each
 * breakpoint's prefix of at least `minTokens` is cached for its ttl (5 minutes unless `1h`), a hit
 * refreshing it; a request reads the longest cached prefix among its breakpoints and writes the rest
 * up to its last one, each stretch under the ttl of the breakpoint that ends it (Anthropic's
 * `cache_creation` split). No breakpoint, no caching. Automatic APIs (OpenAI, Gemini): every
 * message boundary's prefix of at least `minTokens` is cached for `ttlMs`; a request reads the longest
 * cached one (OpenAI: rounded down to 128 tokens) and reports no writes (OpenAI bills none before GPT-5.6).
 */
export class PrefixCache {
  private readonly expires = new Map<string, number>();

  constructor(private readonly options: { type: 'openai' | 'anthropic' | 'gemini' | 'bedrock'; minTokens: number; ttlMs: number }) {}

  /** What `request` would read and write at `nowMs` (nothing is stored until `commit`). */
  plan(request: SimRequest, nowMs: number): CacheUse {
    const byBreakpoints = this.options.type === 'anthropic' || this.options.type === 'bedrock';
    return byBreakpoints ? this.planBreakpoints(request, request.cachePoints ?? [], nowMs) : this.planAutomatic(request, nowMs);
  }

  /** Stores the prefixes of an answered request. */
  commit(use: CacheUse, nowMs: number): void {
    if (this.expires.size + use.store.length > MAX_ENTRIES) this.expires.clear();
    for (const { key, ttlMs } of use.store) this.expires.set(key, nowMs + ttlMs);
  }

  private live(key: string, nowMs: number): boolean {
    const until = this.expires.get(key);
    return until !== undefined && until > nowMs;
  }

  private planBreakpoints(request: SimRequest, points: readonly CachePoint[], nowMs: number): CacheUse {
    const use: CacheUse = { read: 0, write5m: 0, write1h: 0, store: [] };
    const cacheable = points
      .map((p) => ({ ttl: p.ttl, key: keyOf(request, p.tools, p.messages), tokens: tokensOf(request, p.tools, p.messages) }))
      .filter((p) => p.tokens >= this.options.minTokens)
      .sort((a, b) => a.tokens - b.tokens);
    for (const p of cacheable) if (this.live(p.key, nowMs)) use.read = Math.max(use.read, p.tokens);
    let done = use.read;
    for (const p of cacheable) {
      use.store.push({ key: p.key, ttlMs: TTL_MS[p.ttl] });
      if (p.tokens <= done) continue;
      if (p.ttl === '1h') use.write1h += p.tokens - done;
      else use.write5m += p.tokens - done;
      done = p.tokens;
    }
    return use;
  }

  private planAutomatic(request: SimRequest, nowMs: number): CacheUse {
    const use: CacheUse = { read: 0, write5m: 0, write1h: 0, store: [] };
    const tools = request.tools?.length ?? 0;
    for (let n = 1; n <= request.messages.length; n++) {
      const tokens = tokensOf(request, tools, n);
      if (tokens < this.options.minTokens) continue;
      const key = keyOf(request, tools, n);
      if (this.live(key, nowMs)) use.read = tokens;
      use.store.push({ key, ttlMs: this.options.ttlMs });
    }
    if (this.options.type === 'openai') use.read -= use.read % OPENAI_INCREMENT;
    return use;
  }
}
