import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configFile, startServe, type ServeChild } from '../gateway/serve-child.js';
import { startUpstream, type Upstream } from '../support/upstream.js';
import { chatToolCallSse, claudeTurn1Sse, codexTurn1Sse } from './answers.js';
import { AGENT_CHAINS, ANTHROPIC_KEY, GATEWAY_KEY, OPENAI_KEY, loadFixture, replay, withoutPending } from './replay.js';

// One turn of each agent through `switchyard serve` as its own OS process (the CLI, its config file,
// its key from the environment), to the same loopback upstream: the in-process suites' gateway is
// the one the CLI runs, and this holds that the CLI's defaults change none of it.

let up: Upstream;
let serve: ServeChild;
let file: { path: string; cleanup: () => void };
let url: string;

beforeAll(async () => {
  up = await startUpstream();
  file = configFile({
    providers: {
      anthropic: { type: 'anthropic', apiKey: ANTHROPIC_KEY, baseURL: up.url, timeoutMs: 10_000 },
      openai: { type: 'openai', apiKey: OPENAI_KEY, baseURL: `${up.url}/v1`, timeoutMs: 10_000 },
      responses: { type: 'openai', api: 'responses', apiKey: OPENAI_KEY, baseURL: `${up.url}/v1`, timeoutMs: 10_000 },
    },
    chains: AGENT_CHAINS,
    gateway: { keys: [{ keyEnv: 'SWITCHYARD_KEY_AGENTS', tenant: 'agents' }] },
    retry: { baseDelayMs: 1, maxDelayMs: 2 },
    log: { level: 'warn' },
  });
  serve = startServe(['--config', file.path, '--port', '0'], { SWITCHYARD_KEY_AGENTS: GATEWAY_KEY });
  url = await serve.url;
}, 60_000);

afterAll(async () => {
  if (serve && serve.child.exitCode === null && serve.child.signalCode === null) serve.child.kill('SIGTERM');
  await serve?.exited;
  file?.cleanup();
  await up?.close();
});

describe('the agents\' turns through switchyard serve', () => {
  it('Claude Code turn 1 (less its pending parts) streams back from the Anthropic target, its blocks carried', async () => {
    up.script('/v1/messages', claudeTurn1Sse());
    const f = withoutPending(loadFixture('claude-code.turn-1'));
    const r = await replay({ url }, up, f);
    expect(r.status).toBe(200);
    expect(r.upstream.map((u) => u.path)).toEqual(['/v1/messages']);
    expect(r.upstream[0]!.body.system).toEqual(f.body.system);
    expect(r.events.map((e) => e.event).at(-1)).toBe('message_stop');
  });

  it('Codex turn 1 (less its pending parts) reaches the Responses target as sent', async () => {
    up.script('/v1/responses', codexTurn1Sse());
    const f = withoutPending(loadFixture('codex.turn-1'));
    const r = await replay({ url }, up, f);
    expect(r.status).toBe(200);
    expect(r.upstream.map((u) => u.path)).toEqual(['/v1/responses']);
    expect(r.upstream[0]!.body).toEqual(f.body);
    expect(r.events.at(-1)!.data.type).toBe('response.completed');
  });

  it('Cursor turn 2 reaches the OpenAI target with its tool-call turn\'s content as null', async () => {
    up.script('/v1/chat/completions', chatToolCallSse('call_2', 'read_file', '{"target_file":"a.ts"}'));
    const f = loadFixture('cursor.turn-2');
    const r = await replay({ url }, up, f);
    expect(r.status).toBe(200);
    expect(r.upstream.map((u) => u.path)).toEqual(['/v1/chat/completions']);
    expect(r.upstream[0]!.body.messages[2].content).toBeNull();
    expect(r.events.at(-1)!.data).toBe('[DONE]');
  });
});
