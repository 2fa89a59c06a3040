import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fromOpenAI, toOpenAI } from '../../src/index.js';
import { OPENAI_PATH } from '../support/fixtures.js';
import { startUpstream, type Upstream } from '../support/upstream.js';
import { wireRouter } from '../support/wire-router.js';

let up: Upstream;
beforeEach(async () => {
  up = await startUpstream();
});
afterEach(async () => {
  await up.close();
});

describe('the converters on the public entry', () => {
  it('ports an OpenAI SDK call in one line: fromOpenAI in, toOpenAI out, imported from switchyard-llm', async () => {
    const { router } = wireRouter(up);
    try {
      const completion = toOpenAI(await router.chat(fromOpenAI({ model: 'openai-only', messages: [{ role: 'user', content: 'Say hello' }], max_completion_tokens: 50 })));
      expect(completion).toMatchObject({ object: 'chat.completion', choices: [{ message: { role: 'assistant', content: 'Hello! How can I assist you today?' }, finish_reason: 'stop' }] });
      expect(up.requests.filter((r) => r.path === OPENAI_PATH).map((r) => r.body.max_completion_tokens)).toEqual([50]);
    } finally {
      await router.close();
    }
  });
});
