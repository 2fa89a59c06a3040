import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { SIMULATOR_URL_ENV } from '../../src/cli/offline.js';
import { startSimulator, type Simulator } from '../../src/sim/index.js';
import { captureIO } from './io.js';

let sim: Simulator;
beforeAll(async () => {
  sim = await startSimulator({ providers: { claude: { type: 'anthropic' }, gpt: { type: 'openai', faults: [{ fault: 'overloaded' }] } } });
  process.env[SIMULATOR_URL_ENV] = sim.url;
});
afterAll(async () => {
  delete process.env[SIMULATOR_URL_ENV];
  await sim.stop();
});

describe(`switchyard chat with ${SIMULATOR_URL_ENV} set`, () => {
  it('uses that simulator (started elsewhere) through the default config, falling through its faults', async () => {
    const { io, out, err } = captureIO({ env: { [SIMULATOR_URL_ENV]: sim.url } });
    expect(await main(['chat', 'Hello'], io)).toBe(0);
    expect(out()).toMatch(/claude-haiku-4-5/);
    expect(err()).toMatch(new RegExp(`^switchyard: offline: answering through the simulator at ${sim.url}\\n`));
    expect(err()).toMatch(/^-- anthropic:claude-haiku-4-5 · .* · 4 attempts · /m);
    expect(sim.stats().providers).toMatchObject({ gpt: { requests: 3, byStatus: { 503: 3 } }, claude: { requests: 1 } });
  });
});
