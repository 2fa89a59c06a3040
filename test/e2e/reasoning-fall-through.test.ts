import { afterEach, describe, expect, it } from 'vitest';
import type { SwitchyardConfig } from '../../src/config/index.js';
import { createRouter } from '../../src/router.js';
import { startSimulator } from '../../src/sim/index.js';
import type { ChatResult, Message } from '../../src/types.js';
import { captureLogger } from '../support/capture-logger.js';
import { recordingProxy, type ProxiedExchange } from '../support/recording-proxy.js';
import { VirtualClock } from '../support/virtual-clock.js';

// Reasoning across a fall-through, every ordered pair of families (issue 37 item 2). A tool turn
// made by family A's real answer (thinking on: Claude's signed thinking, OpenAI's encrypted
// reasoning item, Gemini's thought signature), then the tool loop's next call to the chain
// [A -> B] with A rate-limited: B's upstream gets A's parts verbatim (its own family), translated
// (Claude on the other API), or not at all, and never answers 400. The upstreams are the
// simulator through the real SDKs, behind a proxy that keeps the bytes each one received; the
// simulator refuses reasoning another family made (test/sim/foreign-reasoning.test.ts).

type Family = 'anthropic' | 'bedrock-claude' | 'bedrock-other' | 'openai-chat' | 'openai-responses' | 'gemini';
const SOURCES: Family[] = ['anthropic', 'bedrock-claude', 'openai-responses', 'gemini'];
const TARGETS: Family[] = ['anthropic', 'bedrock-claude', 'bedrock-other', 'openai-chat', 'openai-responses', 'gemini'];

const SIM: Record<Family, { type: 'anthropic' | 'bedrock' | 'openai' | 'gemini'; model: string }> = {
  'anthropic': { type: 'anthropic', model: 'claude-sonnet-4-5-20250929' },
  'bedrock-claude': { type: 'bedrock', model: 'us.anthropic.claude-sonnet-4-5-20250929-v1:0' },
  'bedrock-other': { type: 'bedrock', model: 'amazon.nova-pro-v1:0' },
  'openai-chat': { type: 'openai', model: 'gpt-5-mini' },
  'openai-responses': { type: 'openai', model: 'gpt-5-mini' },
  'gemini': { type: 'gemini', model: 'gemini-3-flash-preview' },
};
const name = (f: Family) => f.replace('-', '_');
const WEATHER = { name: 'get_weather', description: 'Weather in a city', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } };
const ASK: Message = { role: 'user', content: 'What is the weather in Paris? Use get_weather.' };

let cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const fn of cleanup.reverse()) await fn();
  cleanup = [];
});

function providerConfig(family: Family, baseURL: string) {
  switch (SIM[family].type) {
    case 'anthropic':
      return { type: 'anthropic' as const, apiKey: 'sk-ant-api03-SIMTESTkey0123456789abcdef', baseURL, timeoutMs: 60_000 };
    case 'bedrock':
      return { type: 'bedrock' as const, region: 'us-east-1', baseURL, timeoutMs: 60_000 };
    case 'gemini':
      return { type: 'gemini' as const, apiKey: 'AIzaSySIMTESTkey0123456789abcdefghij', baseURL, timeoutMs: 60_000 };
    case 'openai':
      return { type: 'openai' as const, apiKey: 'sk-sim-openai', baseURL, timeoutMs: 60_000, ...(family === 'openai-responses' ? { api: 'responses' as const } : {}) };
  }
}

/** A simulator with one provider per family (A rate-limited from its second request on), each behind a recording proxy. */
async function setup(source: Family, target: Family) {
  const clock = new VirtualClock();
  const families = [...new Set([source, target])];
  const providers = Object.fromEntries(families.map((f) => [name(f), {
    type: SIM[f].type, ...(f === source && target !== source ? { faults: [{ fault: 'rate_limit' as const, nth: 2 }] } : {}),
  }]));
  const sim = await startSimulator({ clock, providers });
  cleanup.push(() => sim.stop());
  const seen: Partial<Record<Family, ProxiedExchange[]>> = {};
  const config: SwitchyardConfig = { providers: {}, chains: { first: [`${name(source)}:${SIM[source].model}`], next: [...new Set([source, target])].map((f) => `${name(f)}:${SIM[f].model}`) }, retry: { maxAttempts: 1 } };
  for (const f of families) {
    const base = sim.baseURL(name(f));
    const origin = new URL(base).origin;
    const proxy = await recordingProxy(origin);
    cleanup.push(() => proxy.close());
    seen[f] = proxy.exchanges;
    config.providers[name(f)] = providerConfig(f, base.replace(origin, proxy.url));
  }
  const router = createRouter(config, { logger: captureLogger().logger, clock, random: () => 1 });
  cleanup.push(() => router.close());
  const ask = (messages: Message[], chain: string) => router.chat({ chain, messages, tools: [WEATHER], reasoning: { effort: 'low' } });
  return { router, seen: (f: Family) => seen[f]!, ask };
}

/** The reasoning secrets of A's answer: the strings no other family may receive. */
function secretsOf(result: ChatResult): string[] {
  const parts = result.message.providerParts!;
  const json = JSON.stringify(parts);
  const found = [...json.matchAll(/"(?:signature|thoughtSignature|encrypted_content)":"([^"]+)"/g)].map((m) => m[1]!);
  expect(found.length).toBeGreaterThan(0);
  return found;
}

/** A's answer as its upstream sent it (the turn's blocks, items or parts), and the same turn in the next request A's family received. */
function answeredTurn(family: Family, exchange: ProxiedExchange): unknown {
  const answer = JSON.parse(exchange.answer);
  if (family === 'anthropic') return answer.content;
  if (family === 'bedrock-claude') return answer.output.message.content;
  if (family === 'openai-responses') return answer.output;
  return answer.candidates[0].content.parts;
}

function sentTurn(family: Family, body: any): unknown {
  if (family === 'anthropic' || family === 'bedrock-claude') return body.messages[1].content;
  if (family === 'openai-responses') return body.input.slice(1, -1);
  return body.contents[1].parts;
}

/** The tool call B received and the tool result answering it, in B's own wire shape. */
function toolPair(family: Family, body: any): { call: string; result: string } {
  switch (family) {
    case 'anthropic': {
      const call = body.messages[1].content.find((b: any) => b.type === 'tool_use');
      return { call: call.id, result: body.messages[2].content[0].tool_use_id };
    }
    case 'bedrock-claude':
    case 'bedrock-other': {
      const call = body.messages[1].content.find((b: any) => b.toolUse).toolUse;
      return { call: call.toolUseId, result: body.messages[2].content[0].toolResult.toolUseId };
    }
    case 'openai-chat':
      return { call: body.messages[1].tool_calls[0].id, result: body.messages[2].tool_call_id };
    case 'openai-responses': {
      const call = body.input.find((i: any) => i.type === 'function_call');
      return { call: call.call_id, result: body.input.find((i: any) => i.type === 'function_call_output').call_id };
    }
    case 'gemini': {
      const call = body.contents[1].parts.find((p: any) => p.functionCall).functionCall;
      return { call: call.name, result: body.contents[2].parts[0].functionResponse.name };
    }
  }
}

const claude = (f: Family) => f === 'anthropic' || f === 'bedrock-claude';

describe('reasoning across a fall-through, every ordered pair of families', () => {
  for (const source of SOURCES) {
    for (const target of TARGETS) {
      const kept = source === target ? 'verbatim' : claude(source) && claude(target) ? 'translated' : 'dropped';
      it(`${source} -> ${target}: the reasoning is ${kept}, and ${target} answers the tool loop`, async () => {
        const { seen, ask } = await setup(source, target);
        const first = await ask([ASK], 'first');
        expect(first).toMatchObject({ finishReason: 'tool_calls', toolCalls: [{ name: 'get_weather' }] });
        expect(first.message.providerParts).toBeDefined();
        const secrets = secretsOf(first);
        const history: Message[] = [ASK, first.message, { role: 'tool', toolCallId: first.toolCalls[0]!.id, content: '{"tempC":21}' }];

        const second = await ask(history, 'next');
        expect(second.provider).toBe(name(target));
        expect(second.attempts.map((a) => [a.provider, a.ok, a.status])).toEqual(source === target
          ? [[name(target), true, undefined]]
          : [[name(source), false, 429], [name(target), true, undefined]]);
        const sent = seen(target).at(-1)!;
        expect(seen(target).map((e) => e.status)).toEqual(source === target ? [200, 200] : [200]);
        const pair = toolPair(target, sent.body);
        expect(pair.call).toBe(pair.result);

        if (kept === 'verbatim') {
          // A's own second turn: the answer's bytes, exactly as A's upstream sent them.
          expect(JSON.stringify(sentTurn(target, sent.body))).toBe(JSON.stringify(answeredTurn(source, seen(source)[0]!)));
        } else if (kept === 'translated') {
          // The same thinking, text and signature unchanged, first in the turn as it was.
          for (const secret of secrets) expect(sent.raw).toContain(secret);
          const turn = sentTurn(target, sent.body) as any[];
          expect(target === 'anthropic' ? turn[0].type : Object.keys(turn[0])[0]).toBe(target === 'anthropic' ? 'thinking' : 'reasoningContent');
        } else {
          for (const secret of secrets) expect(sent.raw).not.toContain(secret);
          expect(sent.raw).not.toMatch(/"type":"(thinking|redacted_thinking|reasoning)"|"reasoningContent"|"encrypted_content"/);
          if (target === 'gemini') expect(sent.body.contents[1].parts.find((p: any) => p.functionCall).thoughtSignature).toBe('skip_thought_signature_validator');
        }
      });
    }
  }
});
