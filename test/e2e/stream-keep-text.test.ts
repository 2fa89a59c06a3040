import { afterEach, describe, expect, it } from 'vitest';
import { STREAM_CACHE_MAX_CHARS } from '../../src/cache/cached-stream.js';
import type { StreamEvent } from '../../src/calls/stream.js';
import type { SwitchyardConfig } from '../../src/config/index.js';
import { createRouter, type Router } from '../../src/router.js';
import { fakeRequests, VirtualClock } from '../../src/testing/index.js';
import { captureLogger } from '../support/capture-logger.js';

let routers: Router[] = [];
afterEach(async () => {
  for (const r of routers) await r.close();
  routers = [];
});

function fake(script: unknown[], extra: Partial<SwitchyardConfig> = {}) {
  const log = captureLogger();
  const router = createRouter({
    providers: { p: { type: 'fake', latencyMs: 0, script: script as never } },
    chains: { default: ['p:m'] },
    ...extra,
  }, { logger: log.logger, clock: new VirtualClock() });
  routers.push(router);
  return { router, log, sent: () => fakeRequests(router, 'p').length };
}

const ask = (content = 'Tell me about switchyards') => ({ messages: [{ role: 'user' as const, content }] });
const TEXT = 'A switchyard sorts railway cars onto the tracks of their trains. '.repeat(20).trim();

async function collect(events: AsyncIterable<StreamEvent>): Promise<StreamEvent[]> {
  const out: StreamEvent[] = [];
  for await (const ev of events) out.push(ev);
  return out;
}
const deltas = (events: StreamEvent[]) => events.flatMap((e) => (e.type === 'text' ? [e.delta] : [])).join('');
const last = <T extends StreamEvent['type']>(events: StreamEvent[], type: T) => {
  const ev = events.at(-1)!;
  expect(ev.type).toBe(type);
  return ev as Extract<StreamEvent, { type: T }>;
};

describe('router.stream keepText', () => {
  it('keeps the whole text on done by default (the contract), and none of it with keepText: false', async () => {
    const { router } = fake([{ text: TEXT }, { text: TEXT }]);
    const kept = await collect(router.stream(ask()));
    expect(deltas(kept)).toBe(TEXT);
    expect(last(kept, 'done').result).toMatchObject({ text: TEXT, message: { role: 'assistant', content: TEXT } });

    const relayed = await collect(router.stream(ask(), { keepText: false }));
    expect(deltas(relayed)).toBe(TEXT);
    expect(relayed.filter((e) => e.type === 'text').length).toBeGreaterThan(5);
    const { result } = last(relayed, 'done');
    expect(result).toMatchObject({ text: '', message: { role: 'assistant', content: '' }, finishReason: 'stop', provider: 'p' });
    expect(result.usage?.outputTokens).toBeGreaterThan(0);
  });

  it('interrupted carries no text with keepText: false, and the log line still counts what was shown', async () => {
    const { router, log } = fake([{ text: TEXT, cutAfterChunks: 3 }]);
    const events = await collect(router.stream(ask(), { keepText: false }));
    const cut = last(events, 'interrupted');
    expect(cut.text).toBe('');
    const shown = deltas(events);
    expect(shown.length).toBeGreaterThan(0);
    expect(log.records().find((l) => /stream interrupted/.test(String(l.msg)))?.chars).toBe(shown.length);
  });

  it('still reads a responseFormat answer whole to parse it, and returns the object', async () => {
    const { router } = fake(['ok']);
    const events = await collect(router.stream({ ...ask('Give me a JSON object'), responseFormat: { type: 'json_schema', schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } } }, { keepText: false }));
    const { result } = last(events, 'done');
    expect(result.text).toBe('');
    expect(result.object).toEqual(JSON.parse(deltas(events)));
    expect(result.object).toHaveProperty('city');
  });
});

describe('a keepText: false stream through the response cache', () => {
  it('stores the whole answer, gathered from the deltas: a later chat is a hit with the full text', async () => {
    const { router, sent } = fake([{ text: TEXT }], { cache: { ttlMs: 60_000 } });
    const relayed = await collect(router.stream(ask(), { keepText: false }));
    expect(last(relayed, 'done').result.text).toBe('');
    const hit = await router.chat(ask());
    expect(hit).toMatchObject({ cached: true, text: TEXT, message: { content: TEXT } });
    const replayed = await collect(router.stream(ask(), { keepText: false }));
    expect([deltas(replayed), last(replayed, 'done').result.text]).toEqual([TEXT, '']);
    expect(sent()).toBe(1);
  });

  it(`streams but does not store an answer longer than ${STREAM_CACHE_MAX_CHARS} characters (it would have to be held whole)`, async () => {
    const long = 'x'.repeat(STREAM_CACHE_MAX_CHARS + 1);
    const { router, sent } = fake([{ text: long }, { text: 'short' }], { cache: { ttlMs: 60_000 } });
    expect(deltas(await collect(router.stream(ask(), { keepText: false })))).toHaveLength(long.length);
    expect((await router.chat(ask())).cached).toBeUndefined();
    expect(sent()).toBe(2);
  });
});
