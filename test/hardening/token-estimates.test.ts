import { Tiktoken } from 'js-tiktoken/lite';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { openaiEmbeddings } from '../../providers/test-support/wire.js';
import { ESTIMATE_BUDGET_CHARS, loadEncoding } from '../../src/policy/state/tokenizers.js';
import { createRouter, type Router } from '../../src/router.js';
import { captureLogger } from '../support/capture-logger.js';
import { OPENAI_PATH, openaiOk } from '../support/fixtures.js';
import { startUpstream, type Upstream } from '../support/upstream.js';

const EMBED_PATH = '/v1/embeddings';
const cjk = (i: number) => `第${i}条消息：东京都的天气预报请告诉我`;

let up: Upstream;
let router: Router;
let tokenized = 0;
beforeEach(async () => {
  await loadEncoding('o200k_base');
  await loadEncoding('cl100k_base');
  up = await startUpstream();
  up.otherwise(OPENAI_PATH, () => openaiOk());
  up.otherwise(EMBED_PATH, (req) => ({ status: 200, body: openaiEmbeddings((req.body.input as string[]).map((_t, index) => ({ index, embedding: [index, 1] }))) }));
  router = createRouter({
    providers: { openai: { type: 'openai', apiKey: 'sk-test-0123456789', baseURL: `${up.url}/v1`, limits: { tpm: 10_000_000, embeddings: { tpm: 10_000_000 } } } },
    chains: { default: ['openai:gpt-4o-mini'], embeddings: ['openai:text-embedding-3-small'] },
  }, { logger: captureLogger().logger });
  tokenized = 0;
  const encode = Tiktoken.prototype.encode;
  vi.spyOn(Tiktoken.prototype, 'encode').mockImplementation(function (this: Tiktoken, text: string, ...rest) {
    tokenized += text.length;
    return encode.call(this, text, ...rest);
  });
});
afterEach(async () => {
  vi.restoreAllMocks();
  await router.close();
  await up.close();
});

describe('a TPM budget\'s token estimate costs one sampling budget per call, whatever the message count', () => {
  it('tokenizes at most one budget of characters for a chat of 2,000 CJK messages', async () => {
    await router.chat({ messages: Array.from({ length: 2_000 }, (_, i) => ({ role: 'user' as const, content: cjk(i) })) });
    expect(up.count(OPENAI_PATH)).toBe(1);
    expect(tokenized).toBeGreaterThan(0);
    expect(tokenized).toBeLessThanOrEqual(ESTIMATE_BUDGET_CHARS);
  });

  it('tokenizes at most one budget of characters for an embed call of 2,000 CJK inputs', async () => {
    const res = await router.embed({ input: Array.from({ length: 2_000 }, (_, i) => cjk(i)) });
    expect(res.embeddings).toHaveLength(2_000);
    expect(up.count(EMBED_PATH)).toBe(1);
    expect(tokenized).toBeGreaterThan(0);
    expect(tokenized).toBeLessThanOrEqual(ESTIMATE_BUDGET_CHARS);
  });
});
