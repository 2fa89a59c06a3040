import { describe, expect, it } from 'vitest';
import { fakeAnswer } from '../../providers/fake/answer.js';
import { main } from '../../src/cli/main.js';
import { SIMULATOR_URL_ENV } from '../../src/cli/offline.js';
import { captureIO } from './io.js';

// One test in this file on purpose: router.config.ts reads the environment when it is imported, and a
// test file imports a module once.
describe('switchyard chat with no API key', () => {
  it('answers through the default config\'s openai provider on the built-in simulator, and says so once', async () => {
    const { io, out, err } = captureIO({ env: {} });
    expect(await main(['chat', '--verbose', 'Hello offline world'], io)).toBe(0);
    expect(out()).toBe(`${fakeAnswer([{ role: 'user', content: 'Hello offline world' }], 'gpt-4o-mini')}\n`);
    expect(err().match(/offline/g)).toHaveLength(1);
    expect(err()).toMatch(/^switchyard: offline: no OPENAI_API_KEY or ANTHROPIC_API_KEY is set, so the built-in simulator answers/);
    // The real SDK went over the wire: the answer carries the simulator's OpenAI request id.
    expect(err()).toMatch(/#1 +openai:gpt-4o-mini +ok +\d+ ms +(waited \d+ ms +)?req_[0-9a-f]{32}/);
    expect(process.env[SIMULATOR_URL_ENV]).toBeUndefined();
  });
});
