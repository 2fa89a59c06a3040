import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SwitchyardConfig } from '../../src/config/index.js';
import { createGateway, hashKey, type Gateway } from '../../src/gateway/index.js';
import { createRouter, type Router } from '../../src/router.js';
import { captureLogger } from '../support/capture-logger.js';
import type { SeenRequest, Upstream } from '../support/upstream.js';

/**
 * Replays coding agents' recorded traffic (test/agents/fixtures/, one JSON file per agent and turn,
 * its public sources in `_source`) through a real gateway in front of a loopback upstream that
 * speaks the providers' wire formats, and records what the upstream received and what the client got.
 */

export const FIXTURES = join(import.meta.dirname, 'fixtures');

/** The gateway key the fixtures' `<gateway key>` placeholder stands for. */
export const GATEWAY_KEY = 'sk-gw-agents-0123456789abcdef';
export const ANTHROPIC_KEY = 'sk-ant-api03-AGENTSanthropic0123456789abcdef';
export const OPENAI_KEY = 'sk-proj-AGENTSopenai0123456789abcdefXYZ';

/** One recorded request of an agent: method, path (with its query), headers and body, as the agent sends them. */
export interface Fixture {
  _source: string[];
  /** Parts main refuses today and another helper of issue 37 makes accepted (JSON paths into the fixture). */
  _pending?: Array<{ path: Array<string | number>; owner: string; why: string }>;
  agent: 'claude-code' | 'codex' | 'cursor';
  turn: number;
  method: 'POST';
  path: string;
  headers: Record<string, string>;
  body: any;
}

export function loadFixture(name: string): Fixture {
  return JSON.parse(readFileSync(join(FIXTURES, `${name}.json`), 'utf8')) as Fixture;
}

/** A copy of the fixture without its `_pending` parts: what the agent sends, less what main cannot take yet. */
export function withoutPending(f: Fixture): Fixture {
  const copy = structuredClone(f);
  for (const { path } of f._pending ?? []) {
    let at: any = copy;
    for (const key of path.slice(0, -1)) at = at[key];
    const last = path[path.length - 1]!;
    if (Array.isArray(at) && typeof last === 'number') at.splice(last, 1);
    else delete at[last];
  }
  return copy;
}

/** The chains the fixtures name: each agent's model name is a chain (docs/agents.md). */
export const AGENT_CHAINS: SwitchyardConfig['chains'] = {
  // Claude Code's model names: an Anthropic chain, and one that falls through to OpenAI.
  'claude-opus-4-8': ['anthropic:claude-opus-4-8'],
  'claude-opus-4-8-openai-first': ['openai:gpt-4.1', 'anthropic:claude-opus-4-8'],
  // Codex on a Responses target, and the same name on a Chat Completions target.
  'gpt-5-codex': ['responses:gpt-5-codex'],
  'gpt-5-codex-chat': ['openai:gpt-4.1'],
  // Cursor's model name on an OpenAI target.
  'gpt-4.1': ['openai:gpt-4.1'],
};

export interface AgentGateway {
  router: Router;
  gateway: Gateway;
  url: string;
  close(): Promise<void>;
}

/** A gateway (the one `switchyard serve` runs) on loopback, its providers talking to `up`, one key. */
export async function startAgentGateway(up: Upstream, chains: Partial<SwitchyardConfig['chains']> = {}): Promise<AgentGateway> {
  const log = captureLogger('warn');
  const config = {
    providers: {
      anthropic: { type: 'anthropic', apiKey: ANTHROPIC_KEY, baseURL: up.url, timeoutMs: 10_000 },
      openai: { type: 'openai', apiKey: OPENAI_KEY, baseURL: `${up.url}/v1`, timeoutMs: 10_000 },
      responses: { type: 'openai', api: 'responses', apiKey: OPENAI_KEY, baseURL: `${up.url}/v1`, timeoutMs: 10_000 },
    },
    chains: Object.assign({}, AGENT_CHAINS, chains),
    gateway: { keys: [{ keyHash: hashKey(GATEWAY_KEY), tenant: 'agents' }] },
    retry: { baseDelayMs: 1, maxDelayMs: 2 },
  } as SwitchyardConfig;
  const router = createRouter(config, { logger: log.logger, random: () => 0.5 });
  const gateway = createGateway(router, { logger: log.logger });
  const url = await gateway.listen({ port: 0, host: '127.0.0.1' });
  return { router, gateway, url, async close() { await gateway.close(); await router.close(); } };
}

/** One server-sent event as the client read it: its `event:` name (if any) and parsed `data:`. */
export interface ClientEvent { event?: string; data: any }

export interface Replayed {
  status: number;
  headers: Headers;
  /** The reply's bytes as text. */
  text: string;
  /** The reply's events when it streamed (`data: [DONE]` kept as the string). */
  events: ClientEvent[];
  /** What the upstream received while this request ran, in order. */
  upstream: SeenRequest[];
}

/** The fixture's headers with the gateway key in place of its placeholder. */
export const headersOf = (f: Fixture) => Object.fromEntries(Object.entries(f.headers).map(([k, v]) => [k, v.replace('<gateway key>', GATEWAY_KEY)]));

/** Sends the fixture's bytes and headers to the gateway as the agent does (raw HTTP), and records both ends. */
export async function replay(gw: { url: string }, up: Upstream, f: Fixture): Promise<Replayed> {
  const before = up.requests.length;
  const res = await fetch(`${gw.url}${f.path}`, { method: f.method, headers: headersOf(f), body: JSON.stringify(f.body) });
  const text = await res.text();
  const events = /^text\/event-stream/.test(res.headers.get('content-type') ?? '') ? parseSse(text) : [];
  return { status: res.status, headers: res.headers, text, events, upstream: up.requests.slice(before) };
}

export function parseSse(text: string): ClientEvent[] {
  return text.split('\n\n').filter((b) => b.trim() !== '').map((block) => {
    const event = /^event: (.*)$/m.exec(block)?.[1];
    const data = block.split('\n').filter((l) => l.startsWith('data: ')).map((l) => l.slice(6)).join('\n');
    const parsed: ClientEvent = { data: data === "[DONE]" ? data : JSON.parse(data) };
    if (event) parsed.event = event;
    return parsed;
  });
}
