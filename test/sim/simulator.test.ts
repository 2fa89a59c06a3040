import { Agent, request } from 'node:http';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { startSimulator, type SimRequestEvent, type SimulatorOptions } from '../../src/sim/index.js';
import { until } from '../support/until.js';
import { VirtualClock } from '../support/virtual-clock.js';
import { OPENAI_KEY, errorOf, manualClock, openAIClient, useSimulators, user } from './helpers.js';

const start = useSimulators();
const messages = user('hello');

/** Sends `n` requests one after another and returns what the simulator decided for each. */
async function outcomes(options: SimulatorOptions, n: number): Promise<SimRequestEvent[]> {
  const events: SimRequestEvent[] = [];
  const sim = await start({ ...options, onRequest: (e) => events.push(e) });
  // No short client timeout: on a busy machine it would give up on a request the simulator had not
  // yet seen, and the sequence of decisions would change under load.
  const client = openAIClient(sim, 'openai');
  for (let i = 0; i < n; i++) await client.chat.completions.create({ model: 'gpt-4o-mini', messages }).catch(() => undefined);
  return events;
}

describe('determinism', () => {
  const scenario = (seed: number): SimulatorOptions => ({
    seed,
    providers: { openai: { type: 'openai', faults: [{ fault: 'server_error', probability: 0.2 }, { fault: 'rate_limit', probability: 0.1 }, { fault: 'reset', probability: 0.1 }] } },
  });
  const summary = (events: SimRequestEvent[]) => events.map((e) => `${e.n}:${e.status ?? '-'}:${e.fault ?? 'ok'}:${e.requestId}`);

  it('replays a seeded scenario exactly: same faults on the same requests, same request ids', async () => {
    const first = summary(await outcomes(scenario(42), 30));
    const second = summary(await outcomes(scenario(42), 30));
    expect(second).toEqual(first);
    expect(first.some((line) => line.includes('server_error'))).toBe(true);
    expect(first.some((line) => line.endsWith(':ok') || /:ok:/.test(line))).toBe(true);
  });

  it('draws different faults from a different seed', async () => {
    const a = summary(await outcomes(scenario(1), 30)).map((line) => line.split(':').slice(0, 3).join(':'));
    const b = summary(await outcomes(scenario(2), 30)).map((line) => line.split(':').slice(0, 3).join(':'));
    expect(b).not.toEqual(a);
  });
});

describe('schedules', () => {
  it('fails exactly the Nth requests', async () => {
    const events = await outcomes({ providers: { openai: { type: 'openai', faults: [{ fault: 'unavailable', nth: [2, 4] }] } } }, 5);
    expect(events.map((e) => e.status)).toEqual([200, 503, 200, 503, 200]);
  });

  it('fails every request inside a time window on the simulator clock, and none outside it', async () => {
    const clock = manualClock();
    const events: SimRequestEvent[] = [];
    const sim = await start({ clock, onRequest: (e) => events.push(e), providers: { openai: { type: 'openai', faults: [{ fault: 'overloaded', fromMs: 10_000, untilMs: 20_000 }] } } });
    const client = openAIClient(sim);
    for (const at of [0, 9_999, 10_000, 15_000, 19_999, 20_000]) {
      clock.advance(at - (clock.now() - sim.stats().startedAtMs));
      await client.chat.completions.create({ model: 'gpt-4o-mini', messages }).catch(() => undefined);
    }
    expect(events.map((e) => e.status)).toEqual([200, 200, 503, 503, 503, 200]);
  });

  it('restricts a rule to one model, or to streams', async () => {
    const sim = await start({ providers: { openai: { type: 'openai', faults: [{ fault: 'server_error', model: 'gpt-4o' }, { fault: 'stream_error', stream: true }] } } });
    const client = openAIClient(sim);
    await expect(client.chat.completions.create({ model: 'gpt-4o-mini', messages })).resolves.toBeTruthy();
    expect((await errorOf(client.chat.completions.create({ model: 'gpt-4o', messages }))).status).toBe(500);
    const stream = await client.chat.completions.create({ model: 'gpt-4o-mini', messages, stream: true });
    expect(await errorOf((async () => { for await (const _ of stream); })())).toMatchObject({ code: 'server_error' });
  });
});

describe('live statistics and lifecycle', () => {
  it('counts requests, statuses, faults and tokens, and tracks in-flight hangs until the client leaves', async () => {
    const sim = await start({ providers: { openai: { type: 'openai', faults: [{ fault: 'hang', nth: 2 }] } } });
    const client = openAIClient(sim);
    const answer = await client.chat.completions.create({ model: 'gpt-4o-mini', messages });
    const controller = new AbortController();
    const hanging = client.chat.completions.create({ model: 'gpt-4o-mini', messages }, { signal: controller.signal }).catch((e) => e);
    await until(() => sim.stats().inFlight === 1, 'the hanging request at the simulator');
    expect(sim.stats()).toMatchObject({ requests: 2, inFlight: 1, providers: { openai: { byStatus: { 200: 1 }, byFault: { hang: 1 }, inFlight: 1 } } });
    controller.abort();
    await hanging;
    await until(() => sim.stats().inFlight === 0, 'the simulator to see the client leave');
    const stats = sim.stats();
    expect(stats.inFlight).toBe(0);
    expect(stats.providers.openai!.tokens).toEqual({ input: answer.usage!.prompt_tokens, output: answer.usage!.completion_tokens });
  });

  it('stop() drops hanging connections at once and stops listening', async () => {
    const sim = await startSimulator({ providers: { openai: { type: 'openai', faults: [{ fault: 'hang' }] } } });
    const client = openAIClient(sim);
    const hanging = Array.from({ length: 5 }, () => client.chat.completions.create({ model: 'gpt-4o-mini', messages }).catch((e) => e));
    await until(() => sim.stats().inFlight === 5, 'five hanging requests at the simulator');
    // A hang never ends by itself: stop() resolving at all means it dropped them.
    await sim.stop();
    for (const err of await Promise.all(hanging)) expect(err).toBeInstanceOf(Error);
    expect(sim.stats().connections.open).toBe(0);
    expect(await errorOf(client.chat.completions.create({ model: 'gpt-4o-mini', messages }))).toBeInstanceOf(OpenAI.APIConnectionError);
  });

  it('answers overloaded beyond its capacity of answers served at once', async () => {
    // The first two answers are held for ten minutes before their first byte (the simulator's delays
    // run on real timers, it has no clock for them), so they are surely still being served when the
    // other three arrive, however slow the machine; the test lets them go once it has seen the three
    // turned away.
    const sim = await start({ providers: { openai: { type: 'openai', capacity: 2, faults: [{ fault: 'slow_first_byte', nth: [1, 2], delayMs: 600_000 }] } } });
    const client = openAIClient(sim);
    const controller = new AbortController();
    const answered: unknown[] = [];
    const calls = Array.from({ length: 5 }, () => client.chat.completions.create({ model: 'gpt-4o-mini', messages }, { signal: controller.signal })
      .catch((e) => e).then((outcome) => (answered.push(outcome), outcome)));
    await until(() => answered.length === 3, 'three answers');
    expect(answered.every((e) => e instanceof OpenAI.APIError && e.status === 503)).toBe(true);
    expect(sim.stats().providers.openai).toMatchObject({ requests: 5, inFlight: 2, overCapacity: 3, byStatus: { 503: 3 } });
    controller.abort();
    const outcomes = await Promise.all(calls);
    expect(outcomes.filter((e) => e instanceof OpenAI.APIUserAbortError)).toHaveLength(2);
  });

  it('paces a stream by its per-token latency after the base latency', async () => {
    // The simulator's waits run on a virtual clock, which records each one instead of taking it.
    const clock = new VirtualClock();
    const sim = await start({ sleep: (ms, signal) => clock.sleep(ms, signal), providers: { openai: { type: 'openai', latency: { baseMs: 80, perTokenMs: 5 } } } });
    const stream = await openAIClient(sim).chat.completions.create({ model: 'gpt-4o-mini', messages, stream: true, stream_options: { include_usage: true } });
    let outputTokens = 0;
    let textChunks = 0;
    for await (const chunk of stream) {
      if (chunk.choices[0]?.delta?.content) textChunks++;
      if (chunk.usage) outputTokens = chunk.usage.completion_tokens;
    }
    const [firstByteMs, ...chunkWaitsMs] = clock.sleeps;
    expect(firstByteMs).toBe(80);
    // A wait before each text chunk, 5 ms per token it carries (each chunk's count rounds up, so
    // the waits add up to at least the answer's usage).
    expect(outputTokens).toBeGreaterThan(1);
    expect(chunkWaitsMs).toHaveLength(textChunks);
    expect(chunkWaitsMs.every((ms) => ms > 0 && ms % 5 === 0)).toBe(true);
    expect(chunkWaitsMs.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(5 * outputTokens);
  });

  it('routes /v1/... to the first provider of each API, /{name}/v1/... by name, and anything else to a 404', async () => {
    const sim = await start({ providers: { primary: { type: 'openai' }, backup: { type: 'openai' }, claude: { type: 'anthropic' } } });
    const post = (path: string, headers: Record<string, string> = {}) => fetch(`${sim.url}${path}`, {
      method: 'POST', headers: { authorization: `Bearer ${OPENAI_KEY}`, 'anthropic-version': '2023-06-01', 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ model: 'm', max_tokens: 5, messages }),
    });
    expect((await post('/v1/chat/completions')).status).toBe(200);
    expect((await post('/backup/v1/chat/completions')).status).toBe(200);
    expect((await post('/v1/messages')).status).toBe(200);
    const wrongApi = await post('/claude/v1/chat/completions');
    expect(wrongApi.status).toBe(404);
    expect(((await wrongApi.json()) as any).error.message).toBe('Invalid URL (POST /claude/v1/chat/completions)');
    expect((await post('/nobody/v1/messages')).status).toBe(404);
    expect(sim.stats().providers).toMatchObject({ primary: { requests: 1 }, backup: { requests: 1 }, claude: { requests: 1 } });
    const stats = (await (await fetch(`${sim.url}/_sim/stats`)).json()) as { requests: number };
    expect(stats.requests).toBe(3);
    expect(sim.baseURL('backup')).toBe(`${sim.url}/backup/v1`);
    expect(sim.baseURL('claude')).toBe(`${sim.url}/claude`);
    expect(() => sim.baseURL('nobody')).toThrow(/no provider "nobody"/);
  });
});

describe('load', () => {
  // The simulator's latency runs on real timers, so a slow answer that must also finish would race
  // the arrival of the thousandth request against the wall clock. Instead each answer starts at once
  // (a 200 and the stream's head) and then pauses ten minutes before its first chunk: all 1,000 are
  // surely being served at the same moment, however slow the machine, and then the clients leave.
  it('serves 1,000 concurrent keep-alive requests with a slow answer, then holds nothing once they leave', async () => {
    const sim = await start({ providers: { openai: { type: 'openai', latency: { perTokenMs: 600_000 } } } });
    const agent = new Agent({ keepAlive: true, maxSockets: Infinity });
    const body = JSON.stringify({ model: 'gpt-4o-mini', messages, stream: true });
    const statuses: number[] = [];
    const requests = Array.from({ length: 1_000 }, () => {
      const req = request(`${sim.baseURL('openai')}/chat/completions`, {
        method: 'POST', agent, headers: { authorization: `Bearer ${OPENAI_KEY}`, 'content-type': 'application/json' },
      }, (res) => {
        statuses.push(res.statusCode ?? 0);
        res.resume();
      });
      req.on('error', () => {}); // destroyed below, on purpose
      req.end(body);
      return req;
    });
    await until(() => statuses.length === 1_000 && sim.stats().inFlight === 1_000, 'a thousand answers under way at once');
    expect(statuses.every((s) => s === 200)).toBe(true);
    expect(sim.stats()).toMatchObject({ requests: 1_000, inFlight: 1_000, providers: { openai: { byStatus: { 200: 1_000 } } } });
    for (const req of requests) req.destroy();
    await until(() => sim.stats().inFlight === 0, 'the simulator to let every answer go');
    expect(sim.stats()).toMatchObject({ requests: 1_000, inFlight: 0 });
    agent.destroy();
    await sim.stop();
    expect(sim.stats().connections.open).toBe(0);
  });
});
