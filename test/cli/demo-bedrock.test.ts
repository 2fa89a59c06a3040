import { describe, expect, it } from 'vitest';
import { demoPlan } from '../../src/cli/demo-plan.js';
import { main } from '../../src/cli/main.js';
import { runDemo } from '../../src/cli/run-demo.js';
import { captureIO } from './io.js';

describe('switchyard demo --secondary bedrock', () => {
  it('puts a simulated Bedrock target behind the primary', () => {
    const plan = demoPlan({ calls: 30, seconds: 1, secondary: 'bedrock' });
    expect(plan.scenario.providers!.bedrock).toMatchObject({ type: 'bedrock' });
    expect(plan.secondary).toEqual({ provider: 'bedrock', model: 'us.anthropic.claude-haiku-4-5-20251001-v1:0' });
  });

  it('rides out the outage on Bedrock through the AWS SDK, every call answered, and leaves the environment as it was', async () => {
    const before = { ...process.env };
    const result = await runDemo({ calls: 40, seconds: 2, secondary: 'bedrock' });
    expect(result.failed).toBe(0);
    const bedrock = result.tally.targets.get('bedrock:us.anthropic.claude-haiku-4-5-20251001-v1:0')!;
    expect(bedrock.requests).toBe(result.simulator.providers.bedrock!.requests);
    expect(bedrock.answered).toBeGreaterThan(0);
    expect(result.simulator.providers.bedrock!.byStatus).toEqual({ 200: bedrock.requests });
    expect(process.env).toEqual(before);
  });

  it('prints the Bedrock target in the chain and its table row', async () => {
    const { io, out } = captureIO();
    expect(await main(['demo', '--calls', '12', '--seconds', '1', '--concurrency', '4', '--secondary', 'bedrock'], io)).toBe(0);
    expect(out()).toContain('default = openai:gpt-4o-mini -> bedrock:us.anthropic.claude-haiku-4-5-20251001-v1:0');
    expect(out()).toMatch(/^bedrock:us\.anthropic\.claude-haiku-4-5-20251001-v1:0 +\d+ /m);
  });

  it('refuses a secondary it does not know with a usage error', async () => {
    const { io, err } = captureIO();
    expect(await main(['demo', '--secondary', 'watsonx'], io)).toBe(2);
    expect(err()).toContain('--secondary must be one of anthropic, bedrock');
  });
});
