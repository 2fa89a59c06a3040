import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { captureIO } from './io.js';

describe('switchyard embed', () => {
  it('rides out the first provider\'s outage on the same model elsewhere, with every vector from one model and no failed call', async () => {
    const c = captureIO();
    const code = await main(['embed', '--calls', '12', '--inputs', '4', '--outage', '3-8'], c.io);
    expect(code).toBe(0);
    const out = c.out();
    expect(out).toMatch(/openai's embeddings requests 3-8 answer 503/);
    expect(out).toMatch(/^azure\s+\d+\s+\d+\s+0\s+0$/m);
    expect(out).toMatch(/vectors returned: 48, all from text-embedding-3-small; calls failed for the user: 0/);
  });

  it('refuses a malformed --outage as a usage error', async () => {
    const c = captureIO();
    expect(await main(['embed', '--outage', '9-2'], c.io)).toBe(2);
    expect(c.err()).toMatch(/--outage expects A-B/);
  });
});
