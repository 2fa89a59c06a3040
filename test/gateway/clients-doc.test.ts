import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startUpstream, type Upstream } from '../support/upstream.js';
import { startHarness, type Harness } from './gateway-harness.js';

// docs/gateway-clients.md's "Accepted and ignored" tables, row by row: each example is posted to its
// route and must be answered 200 with one upstream call, so the list cannot promise what the gateway refuses.

const doc = readFileSync(new URL('../../docs/gateway-clients.md', import.meta.url), 'utf8');

/** The examples (the second column's JSON) of the table after `heading`. */
function examples(heading: string): Array<[string, Record<string, unknown>]> {
  const start = doc.indexOf(heading);
  const lines = doc.slice(start).split('\n');
  const header = lines.findIndex((l) => l.startsWith('| field |'));
  const out: Array<[string, Record<string, unknown>]> = [];
  for (const line of lines.slice(header + 2)) {
    if (!line.startsWith('|')) break;
    const [field, example] = line.split(' | ').map((c) => c.replace(/^\| /, ''));
    out.push([field!, JSON.parse(/^`(.*)`$/.exec(example!)![1]!)]);
  }
  return out;
}

let up: Upstream;
let h: Harness;
beforeAll(async () => {
  up = await startUpstream();
  h = await startHarness(up);
});
afterAll(async () => {
  await h.close();
  await up.close();
});

async function post(path: string, body: unknown): Promise<number> {
  const res = await fetch(`${h.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  await res.arrayBuffer();
  return res.status;
}

describe('docs/gateway-clients.md: every field it says is accepted, is', () => {
  const chat = examples('**`POST /v1/chat/completions`**');
  const messages = examples('**`POST /v1/messages`**');

  it('lists rows for both routes', () => {
    expect(chat.length).toBeGreaterThan(5);
    expect(messages.length).toBeGreaterThan(3);
  });

  it.each(chat)('chat completions: %s', async (_field, example) => {
    const before = up.count();
    expect(await post('/v1/chat/completions', { model: 'openai-only', messages: [{ role: 'user', content: 'hi' }], ...example })).toBe(200);
    expect(up.count() - before).toBe(1);
  });

  it.each(messages)('messages: %s', async (_field, example) => {
    const before = up.count();
    expect(await post('/v1/messages', { model: 'openai-only', max_tokens: 64, messages: [{ role: 'user', content: 'hi' }], ...example })).toBe(200);
    expect(up.count() - before).toBe(1);
  });
});
