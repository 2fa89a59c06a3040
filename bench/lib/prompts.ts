import type { Message } from '../../src/types.js';
import { srcImport } from './source.js';

// From the harness's source root (lib/source.ts): the working tree, or --ref-now's commit.
const { mulberry32 } = await srcImport<typeof import('../../src/sim/index.js')>('src/sim/index.ts');
const { promptTokens } = await srcImport<typeof import('../../providers/fake/answer.js')>('providers/fake/answer.ts');

const WORDS = ('the router sends each request down its chain and waits for an answer while budgets keep the rate ' +
  'under the limit a provider states breakers open when failures pile up and retries wait as long as the ' +
  'server asks summarise this report about quarterly sales in three short bullet points with numbers translate ' +
  'into french please explain how a token bucket refills continuously over a rolling window of one minute').split(' ');

/** Seeded uniform draws in [0, 1). */
export function rng(seed: number): () => number {
  return mulberry32(seed);
}

/** English-like text of about `tokens` tokens as the simulator counts them (4 characters a token). */
export function textOfTokens(tokens: number, random: () => number): string {
  const chars = Math.max(4, tokens * 4);
  let out = '';
  while (out.length < chars) out += (out ? ' ' : '') + WORDS[Math.floor(random() * WORDS.length)];
  return out.slice(0, chars);
}

export interface BenchRequest {
  messages: Message[];
  maxTokens: number;
  /** What the simulator charges against TPM: prompt tokens (its count) plus `maxTokens`. */
  charge: number;
}

/** One request with its simulator charge. */
export function request(content: string, maxTokens: number): BenchRequest {
  const messages: Message[] = [{ role: 'user', content }];
  return { messages, maxTokens, charge: promptTokens(messages) + maxTokens };
}

/** Prompt sizes for the rate-limit scenario: mostly short, a long tail (tokens, share). */
export const MIXED_SIZES: ReadonlyArray<[number, number]> = [[100, 0.4], [400, 0.3], [1000, 0.2], [2000, 0.1]];

/** A pool of mixed-size requests (each with `maxTokens`), drawn reproducibly from `seed`. */
export function mixedRequests(n: number, seed: number, maxTokens: number): BenchRequest[] {
  const random = rng(seed);
  const out: BenchRequest[] = [];
  for (let i = 0; i < n; i++) {
    let u = random();
    let size = MIXED_SIZES[MIXED_SIZES.length - 1]![0];
    for (const [tokens, share] of MIXED_SIZES) {
      if (u < share) {
        size = tokens;
        break;
      }
      u -= share;
    }
    // ±20% around each size, so no two prompts are alike.
    out.push(request(textOfTokens(Math.round(size * (0.8 + 0.4 * random())), random), maxTokens));
  }
  return out;
}

/** The mean simulator charge of a pool. */
export function meanCharge(requests: readonly BenchRequest[]): number {
  let s = 0;
  for (const r of requests) s += r.charge;
  return s / requests.length;
}
