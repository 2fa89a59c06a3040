import { hashKey } from '../../../src/gateway/index.js';
import { ANTHROPIC_PATH, OPENAI_PATH } from '../../support/fixtures.js';
import { startUpstream, type Reply, type SeenRequest, type Upstream } from '../../support/upstream.js';
import { configFile, startServe, type ServeChild } from '../serve-child.js';

// The conformance suite's world: a real `switchyard serve` process in front of a loopback upstream
// that speaks the real OpenAI and Anthropic wire formats and answers like a model would in a tool
// loop: a tool call when tools are offered, a text answer once the tool's result is in the history.

/** The key every client sends (as a bearer, or as x-api-key): the gateway has keys, so it is checked. */
export const KEY = 'sk-gw-conformance-0001';
export const CITY = 'Paris';
/** What the fake model says once it has the tool's result: it quotes it, so a test sees the result went upstream. */
export const answerWith = (toolResult: string) => `The weather in ${CITY}: ${toolResult}.`;
export const HELLO = 'Hello from the upstream.';
export const STRUCTURED = { city: CITY, temperature: 22 };
export { ANTHROPIC_PATH, OPENAI_PATH };

/** Chains: `gpt` is an OpenAI target, `claude` an Anthropic one; a client of either wire may use either. */
export const GPT = 'gpt';
export const CLAUDE = 'claude';

const split = (text: string) => [text.slice(0, Math.ceil(text.length / 2)), text.slice(Math.ceil(text.length / 2))];

// ---- OpenAI Chat Completions --------------------------------------------------------------------

type Turn = { kind: 'text'; text: string } | { kind: 'tool'; name: string; args: string };

function openaiTurn(body: any): Turn {
  const messages: any[] = body.messages ?? [];
  const last = messages[messages.length - 1];
  if (last?.role === 'tool') return { kind: 'text', text: answerWith(typeof last.content === 'string' ? last.content : last.content.map((p: any) => p.text).join('')) };
  if (body.response_format?.type === 'json_schema' || body.response_format?.type === 'json_object') return { kind: 'text', text: JSON.stringify(STRUCTURED) };
  if (Array.isArray(body.tools) && body.tools.length > 0 && body.tool_choice !== 'none') {
    // A forced tool is structured output in disguise: its input is the answer.
    const forced = body.tool_choice === 'required' || typeof body.tool_choice?.function?.name === 'string';
    return { kind: 'tool', name: body.tool_choice?.function?.name ?? body.tools[0].function.name, args: JSON.stringify(forced ? STRUCTURED : { city: CITY }) };
  }
  return { kind: 'text', text: HELLO };
}

const openaiChunk = (choices: unknown[], extra: object = {}) => `data: ${JSON.stringify({ id: 'chatcmpl-conf', object: 'chat.completion.chunk', created: 1, model: 'gpt-4o-mini', choices, ...extra })}`;
const USAGE_OPENAI = { prompt_tokens: 21, completion_tokens: 9, total_tokens: 30 };

function answerOpenAI(req: SeenRequest): Reply {
  const turn = openaiTurn(req.body);
  if (req.body.stream) {
    const frames = [openaiChunk([{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }])];
    if (turn.kind === 'text') for (const piece of split(turn.text)) frames.push(openaiChunk([{ index: 0, delta: { content: piece }, finish_reason: null }]));
    else {
      frames.push(openaiChunk([{ index: 0, delta: { tool_calls: [{ index: 0, id: 'call_conf_1', type: 'function', function: { name: turn.name, arguments: '' } }] }, finish_reason: null }]));
      for (const piece of split(turn.args)) frames.push(openaiChunk([{ index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: piece } }] }, finish_reason: null }]));
    }
    frames.push(openaiChunk([{ index: 0, delta: {}, finish_reason: turn.kind === 'text' ? 'stop' : 'tool_calls' }]));
    if (req.body.stream_options?.include_usage) frames.push(openaiChunk([], { usage: USAGE_OPENAI }));
    frames.push('data: [DONE]');
    return { sse: frames };
  }
  const message = turn.kind === 'text'
    ? { role: 'assistant', content: turn.text, refusal: null }
    : { role: 'assistant', content: null, tool_calls: [{ id: 'call_conf_1', type: 'function', function: { name: turn.name, arguments: turn.args } }] };
  return {
    status: 200, headers: { 'x-request-id': 'req_conf_openai' },
    body: { id: 'chatcmpl-conf', object: 'chat.completion', created: 1, model: 'gpt-4o-mini', choices: [{ index: 0, message, logprobs: null, finish_reason: turn.kind === 'text' ? 'stop' : 'tool_calls' }], usage: USAGE_OPENAI },
  };
}

// ---- Anthropic Messages -------------------------------------------------------------------------

function anthropicTurn(body: any): Turn {
  const messages: any[] = body.messages ?? [];
  const last = messages[messages.length - 1];
  const result = Array.isArray(last?.content) ? last.content.find((b: any) => b.type === 'tool_result') : undefined;
  if (result) return { kind: 'text', text: answerWith(typeof result.content === 'string' ? result.content : (result.content ?? []).map((b: any) => b.text).join('')) };
  if (body.output_config?.format?.type === 'json_schema') return { kind: 'text', text: JSON.stringify(STRUCTURED) };
  if (Array.isArray(body.tools) && body.tools.length > 0 && body.tool_choice?.type !== 'none') {
    // A forced tool is structured output in disguise: its input is the answer.
    const forced = body.tool_choice?.type === 'tool' || body.tool_choice?.type === 'any';
    return { kind: 'tool', name: body.tool_choice?.type === 'tool' ? body.tool_choice.name : body.tools[0].name, args: JSON.stringify(forced ? STRUCTURED : { city: CITY }) };
  }
  return { kind: 'text', text: HELLO };
}

const ev = (data: Record<string, unknown>) => `event: ${String(data.type)}\ndata: ${JSON.stringify(data)}`;

function answerAnthropic(req: SeenRequest): Reply {
  const turn = anthropicTurn(req.body);
  const stop = turn.kind === 'text' ? 'end_turn' : 'tool_use';
  if (req.body.stream) {
    const frames = [
      ev({ type: 'message_start', message: { id: 'msg_conf', type: 'message', role: 'assistant', model: 'claude-sonnet-4-6', content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 25, output_tokens: 1 } } }),
      ev({ type: 'ping' }),
    ];
    if (turn.kind === 'text') {
      frames.push(ev({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }));
      for (const piece of split(turn.text)) frames.push(ev({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: piece } }));
    } else {
      frames.push(ev({ type: 'content_block_start', index: 0, content_block: { type: 'tool_use', id: 'toolu_conf_1', name: turn.name, input: {} } }));
      for (const piece of ['', ...split(turn.args)]) frames.push(ev({ type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: piece } }));
    }
    frames.push(
      ev({ type: 'content_block_stop', index: 0 }),
      ev({ type: 'message_delta', delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: 12 } }),
      ev({ type: 'message_stop' }),
    );
    return { sse: frames };
  }
  const content = turn.kind === 'text'
    ? [{ type: 'text', text: turn.text }]
    : [{ type: 'tool_use', id: 'toolu_conf_1', name: turn.name, input: JSON.parse(turn.args) }];
  return {
    status: 200, headers: { 'request-id': 'req_conf_anthropic' },
    body: { id: 'msg_conf', type: 'message', role: 'assistant', model: 'claude-sonnet-4-6', content, stop_reason: stop, stop_sequence: null, usage: { input_tokens: 25, output_tokens: 12 } },
  };
}

// ---- the gateway process ------------------------------------------------------------------------

/** A running `switchyard serve` in front of the answering upstream. */
export interface Conformance {
  up: Upstream;
  /** The gateway's root URL (`http://127.0.0.1:PORT`); OpenAI clients take `${url}/v1`. */
  url: string;
  serve: ServeChild;
  /** The upstream requests on one path, bodies only. */
  bodies(path: string): any[];
  close(): Promise<void>;
}

export { GATEWAY_PATHS } from '../gateway-harness.js';

/** Starts the upstream and `switchyard serve` (with `--no-pass-through` when `passThrough` is false). */
export async function startConformance({ passThrough = true }: { passThrough?: boolean } = {}): Promise<Conformance> {
  const up = await startUpstream();
  up.otherwise(OPENAI_PATH, answerOpenAI);
  up.otherwise(ANTHROPIC_PATH, answerAnthropic);
  const file = configFile({
    providers: {
      openai: { type: 'openai', apiKey: 'sk-proj-conformance-upstream-0001', baseURL: `${up.url}/v1` },
      anthropic: { type: 'anthropic', apiKey: 'sk-ant-conformance-upstream-0001', baseURL: up.url },
    },
    chains: { [GPT]: ['openai:gpt-4o-mini'], [CLAUDE]: ['anthropic:claude-sonnet-4-6'] },
    gateway: { keys: [{ keyHash: hashKey(KEY), tenant: 'conformance' }] },
    retry: { maxAttempts: 1 },
    log: { level: 'warn' },
  });
  const serve = startServe(['--config', file.path, '--port', '0', ...(passThrough ? [] : ['--no-pass-through'])]);
  let url: string;
  try {
    url = await serve.url;
  } catch (err) {
    file.cleanup();
    await up.close();
    throw err;
  }
  return {
    up, url, serve,
    bodies: (path) => up.requests.filter((r) => r.path === path).map((r) => r.body),
    async close() {
      serve.child.kill('SIGTERM');
      await serve.exited;
      file.cleanup();
      await up.close();
    },
  };
}
