import Anthropic from '@anthropic-ai/sdk';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { ROOT, captureIO } from './io.js';

describe('switchyard simulate', () => {
  it('serves a scenario file, describes its providers and faults, and stops by itself with --for', async () => {
    const { io, out } = captureIO();
    const running = main(['simulate', '--port', '0', '--scenario', join(ROOT, 'scenarios/outage.json'), '--for', '1'], io);
    while (!/listening on/.test(out())) await new Promise((r) => setTimeout(r, 10));
    const url = /listening on (http:\/\/\S+)/.exec(out())![1]!;
    expect(out()).toMatch(/^ {2}openai +openai +http:\/\/\S+\/openai\/v1 +default limits +unavailable 5s-35s$/m);
    expect(out()).toMatch(/^ {2}anthropic +anthropic +http:\/\/\S+\/anthropic +default limits +overloaded 10%$/m);
    const client = new Anthropic({ apiKey: 'sk-ant-anything', baseURL: `${url}/anthropic`, maxRetries: 0 });
    await client.messages.create({ model: 'claude-haiku-4-5', max_tokens: 20, messages: [{ role: 'user', content: 'hi' }] }).catch(() => undefined);
    expect(await running).toBe(0);
    expect(out()).toMatch(/simulator stopped \(time is up\) after 1\.\d s/);
    expect(out()).toMatch(/^anthropic +1 +(200|529)×1 /m);
  });

  it('refuses an invalid scenario on one line, naming the path', async () => {
    const { io, err } = captureIO();
    expect(await main(['simulate', '--scenario', join(ROOT, 'package.json')], io)).toBe(2);
    expect(err()).toMatch(/^switchyard: .*package\.json: \(root\): Unrecognized keys: /);
    expect(err().trimEnd().split('\n')).toHaveLength(1);
  });
});
