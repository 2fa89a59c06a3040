import OpenAI from 'openai';
import type { Clock } from '../../src/types.js';
import type { SwitchyardConfig } from '../../src/config/index.js';
import { createGateway, type Gateway, type GatewayOptions } from '../../src/gateway/index.js';
import { createRouter, type Router } from '../../src/router.js';
import { captureLogger } from '../support/capture-logger.js';
import { ANTHROPIC_PATH, OPENAI_PATH, anthropicOk, openaiOk } from '../support/fixtures.js';
import type { SeenRequest, Upstream } from '../support/upstream.js';
import { ANTHROPIC_KEY, OPENAI_KEY } from '../support/wire-router.js';

export const EMBED_PATH = '/v1/embeddings';
export const EMBED_MODEL = 'text-embedding-3-small';

/** A deterministic vector of `dims` floats for an input, exact in float32 (multiples of 1/1024). */
export const vectorOf = (text: string, dims: number) => Array.from({ length: dims }, (_, i) => ((text.length * 31 + i) % 1024) / 1024);

/** The upstream's embeddings answer, encoded as the router's SDK asked (base64 by default). */
export function answerEmbeddings(dims = 1024) {
  return (req: SeenRequest) => {
    const input: string[] = Array.isArray(req.body.input) ? req.body.input : [req.body.input];
    const data = input.map((t, index) => {
      const v = vectorOf(t, dims);
      return { object: 'embedding', index, embedding: req.body.encoding_format === 'float' ? v : Buffer.from(new Float32Array(v).buffer).toString('base64') };
    });
    return { status: 200, headers: { 'x-request-id': 'req_emb' }, body: { object: 'list', data, model: req.body.model, usage: { prompt_tokens: input.length * 3, total_tokens: input.length * 3 } } };
  };
}

/**
 * The gateway's two paths for a request an OpenAI-compatible target takes as it is: the client's
 * bytes (pass-through, the default) and the router's own translation (`passThrough: false`). The
 * conformance and gateway suites run on both (`describe.each(GATEWAY_PATHS)`).
 */
export const GATEWAY_PATHS = [
  { path: 'pass-through', passThrough: true },
  { path: 'translated', passThrough: false },
] as const;

/** A gateway on loopback in front of a router whose providers talk to `up`; the real openai SDK as its client. */
export interface Harness {
  router: Router;
  gateway: Gateway;
  url: string;
  log: ReturnType<typeof captureLogger>;
  /** An openai client for the gateway (maxRetries 0 unless asked), with `apiKey` as its bearer key. */
  client(apiKey?: string, options?: { maxRetries?: number; root?: boolean }): OpenAI;
  close(): Promise<void>;
}

export async function startHarness(up: Upstream, overrides: Partial<SwitchyardConfig> = {}, options: GatewayOptions = {}, clock?: Clock): Promise<Harness> {
  up.otherwise(OPENAI_PATH, () => openaiOk());
  up.otherwise(ANTHROPIC_PATH, () => anthropicOk());
  up.otherwise(EMBED_PATH, answerEmbeddings());
  const log = captureLogger('info');
  const config: SwitchyardConfig = {
    providers: {
      openai: { type: 'openai', apiKey: OPENAI_KEY, baseURL: `${up.url}/v1`, timeoutMs: 5_000 },
      anthropic: { type: 'anthropic', apiKey: ANTHROPIC_KEY, baseURL: up.url, timeoutMs: 5_000 },
    },
    chains: {
      default: ['openai:gpt-4o-mini', 'anthropic:claude-sonnet-4-6'],
      'openai-only': ['openai:gpt-4o-mini'],
      embeddings: [`openai:${EMBED_MODEL}`],
    },
    retry: { baseDelayMs: 1, maxDelayMs: 2 },
    ...overrides,
  };
  const router = createRouter(config, { logger: log.logger, random: () => 0.5, ...(clock ? { clock } : {}) });
  let gateway: Gateway;
  try {
    gateway = createGateway(router, { logger: log.logger, ...options });
  } catch (err) {
    await router.close();
    throw err;
  }
  const url = await gateway.listen({ port: 0, host: '127.0.0.1' });
  return {
    router, gateway, url, log,
    client: (apiKey = 'sk-anything-0000', o = {}) => new OpenAI({ apiKey, baseURL: o.root ? url : `${url}/v1`, maxRetries: o.maxRetries ?? 0 }),
    async close() {
      await gateway.close();
      await router.close();
    },
  };
}

/** The response headers whose names start with x-, as a plain object. */
export const xHeaders = (headers: Headers) => Object.fromEntries([...headers].filter(([k]) => k.startsWith('x-')));
