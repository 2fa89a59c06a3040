import OpenAI from 'openai';
import type { Reply, SeenRequest, Upstream } from '../../support/upstream.js';
import { configFile, startServe, type ServeChild } from '../serve-child.js';

/** Where the gateway's chains send their calls: the loopback upstream's Chat Completions. */
export const CHAT_PATH = '/v1/chat/completions';
/** Where the `reasoning` chain's target sends its calls (the Responses API upstream). */
export const UPSTREAM_RESPONSES_PATH = '/v1/responses';
/** Where the `fallback` chain's second target sends its calls. */
export const MESSAGES_PATH = '/v1/messages';

/** The two keys the gateway is started with, and the tenant each maps to. */
export const KEYS = { a: 'sk-gw-tenant-a-0123456789', b: 'sk-gw-tenant-b-0123456789' } as const;

/** An upstream answer: text, tool calls, or both, with the finish OpenAI would give. */
export interface Answer {
  text?: string;
  toolCalls?: Array<{ id: string; name: string; arguments: Record<string, unknown> }>;
  finish?: 'stop' | 'length' | 'tool_calls';
  usage?: { prompt_tokens: number; completion_tokens: number };
}

const USAGE = { prompt_tokens: 21, completion_tokens: 9 };

/** An answer as the upstream sends it: a chat completion, or its SSE chunks when the request streams. */
export function chatReply(req: SeenRequest, answer: Answer): Reply {
  const toolCalls = answer.toolCalls ?? [];
  const finish = answer.finish ?? (toolCalls.length > 0 ? 'tool_calls' : 'stop');
  const usage = { ...(answer.usage ?? USAGE), total_tokens: (answer.usage ?? USAGE).prompt_tokens + (answer.usage ?? USAGE).completion_tokens, prompt_tokens_details: { cached_tokens: 4 } };
  const head = { id: 'chatcmpl-responses-test', created: 1_767_000_000, model: req.body.model };
  if (req.body.stream !== true) {
    const message = {
      role: 'assistant', content: answer.text ?? null, refusal: null,
      ...(toolCalls.length > 0 ? { tool_calls: toolCalls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: JSON.stringify(c.arguments) } })) } : {}),
    };
    return { status: 200, headers: { 'x-request-id': 'req_up_1' }, body: { ...head, object: 'chat.completion', choices: [{ index: 0, message, logprobs: null, finish_reason: finish }], usage } };
  }
  const chunk = (delta: unknown, finishReason: string | null = null) => `data: ${JSON.stringify({ ...head, object: 'chat.completion.chunk', choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }] })}`;
  const sse = [chunk({ role: 'assistant', content: '' })];
  // The text in two pieces, as a model streams it.
  if (answer.text) {
    const cut = Math.ceil(answer.text.length / 2);
    sse.push(chunk({ content: answer.text.slice(0, cut) }), chunk({ content: answer.text.slice(cut) }));
  }
  toolCalls.forEach((c, index) => {
    const args = JSON.stringify(c.arguments);
    const cut = Math.ceil(args.length / 2);
    sse.push(chunk({ tool_calls: [{ index, id: c.id, type: 'function', function: { name: c.name, arguments: '' } }] }));
    sse.push(chunk({ tool_calls: [{ index, function: { arguments: args.slice(0, cut) } }] }), chunk({ tool_calls: [{ index, function: { arguments: args.slice(cut) } }] }));
  });
  sse.push(chunk({}, finish), `data: ${JSON.stringify({ ...head, object: 'chat.completion.chunk', choices: [], usage })}`, 'data: [DONE]');
  return { status: 200, headers: { 'x-request-id': 'req_up_1' }, sse };
}

/** Scripts the upstream's next answers, in order; each answers JSON or SSE as its request asks. */
export function answerWith(up: Upstream, ...answers: Answer[]): void {
  const queue = [...answers];
  up.otherwise(CHAT_PATH, (req) => {
    const next = queue.shift();
    if (!next) return { status: 500, body: { error: { message: 'the test scripted no more answers', type: 'server_error', param: null, code: null } } };
    return chatReply(req, next);
  });
}

/** The bodies the upstream received, in order. */
export const upstreamBodies = (up: Upstream) => up.requests.filter((r) => r.path === CHAT_PATH).map((r) => r.body);

/**
 * A config for `switchyard serve` in front of `up`: chain `default` (one openai target), chain
 * `fallback` (openai, then anthropic), chain `reasoning` (an OpenAI reasoning model on the Responses
 * API upstream), two keys (tenants a and b).
 */
export function gatewayConfig(upstreamUrl: string, extra: Record<string, unknown> = {}) {
  return {
    providers: {
      openai: { type: 'openai', apiKey: 'sk-proj-responses-test-0123456789', baseURL: `${upstreamUrl}/v1`, timeoutMs: 10_000 },
      anthropic: { type: 'anthropic', apiKey: 'sk-ant-responses-test-0123456789', baseURL: upstreamUrl, timeoutMs: 10_000 },
      reasoner: { type: 'openai', api: 'responses', apiKey: 'sk-proj-responses-test-0123456789', baseURL: `${upstreamUrl}/v1`, timeoutMs: 10_000 },
    },
    chains: { default: ['openai:gpt-4o-mini'], fallback: ['openai:gpt-4o-mini', 'anthropic:claude-sonnet-4-6'], reasoning: ['reasoner:o4-mini'] },
    gateway: { keys: [{ keyEnv: 'GW_KEY_A', tenant: 'a' }, { keyEnv: 'GW_KEY_B', tenant: 'b' }] },
    retry: { baseDelayMs: 1, maxDelayMs: 2 },
    log: { level: 'warn' },
    ...extra,
  };
}

/** A real `switchyard serve` process (its own OS process) in front of the loopback upstream. */
export interface ServedGateway {
  serve: ServeChild;
  /** The gateway's OpenAI base URL (`…/v1`). */
  baseURL: string;
  /** The openai SDK on the gateway, with tenant a's key unless told. */
  openai(key?: string): OpenAI;
  stop(): Promise<void>;
}

/** Starts `switchyard serve --port 0` with `config`; stop it in `afterAll`/`afterEach`. */
export async function startGateway(config: unknown): Promise<ServedGateway> {
  const file = configFile(config);
  const serve = startServe(['--config', file.path, '--port', '0'], { GW_KEY_A: KEYS.a, GW_KEY_B: KEYS.b });
  let url: string;
  try {
    url = await serve.url;
  } catch (err) {
    file.cleanup();
    throw err;
  }
  const baseURL = `${url}/v1`;
  return {
    serve, baseURL,
    openai: (key = KEYS.a) => new OpenAI({ apiKey: key, baseURL, maxRetries: 0 }),
    async stop() {
      if (serve.child.exitCode === null && serve.child.signalCode === null) serve.child.kill('SIGTERM');
      await serve.exited;
      file.cleanup();
    },
  };
}
