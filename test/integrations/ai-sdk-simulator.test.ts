import { generateObject, streamObject } from 'ai';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createSwitchyard } from '../../src/integrations/ai-sdk/index.js';
import { createRouter, type Router } from '../../src/router.js';
import { startSimulator, type Simulator } from '../../src/sim/index.js';
import { VirtualClock } from '../support/virtual-clock.js';

// The real `ai` package over chains of the simulator's OpenAI and Anthropic providers, through the
// real SDKs: what a first run with no keys does. generateObject must get an object of its schema
// back from each way a provider is asked for one: OpenAI json_schema (strict), Anthropic's native
// output_config.format, Anthropic's forced `json` tool (a model without native structured output),
// and plain JSON mode (no schema in the request, only in the prompt the AI SDK writes).

let sim: Simulator | undefined;
let router: Router | undefined;
afterEach(async () => {
  await router?.close();
  await sim?.stop();
  router = sim = undefined;
});

async function switchyardOnSimulator() {
  sim = await startSimulator({ seed: 7 });
  router = createRouter({
    providers: {
      openai: { type: 'openai', apiKey: 'sk-simulated', baseURL: sim.baseURL('openai') },
      anthropic: { type: 'anthropic', apiKey: 'sk-ant-simulated', baseURL: sim.baseURL('anthropic') },
    },
    chains: { openai: ['openai:gpt-4o-mini'], anthropic: ['anthropic:claude-haiku-4-5'], 'anthropic-tool': ['anthropic:claude-3-7-sonnet-20250219'] },
    log: { level: 'silent' },
  }, { clock: new VirtualClock() });
  return createSwitchyard(router);
}

const ticket = z.object({
  ticketId: z.string().regex(/^[A-Z]+-\d+$/),
  priority: z.enum(['low', 'medium', 'high']),
  customer: z.object({ email: z.string().email(), seats: z.number().int().min(1).max(500) }),
  tags: z.array(z.string().min(2)).min(2).max(4),
  refund: z.number().positive().optional(),
  summary: z.string().min(1).max(120),
});
const PROMPT = 'Ticket SUP-7712 from ops@acme.io (40 seats): checkout fails with a 500 for every customer. Refund 120 EUR.';
const EXPECTED = {
  ticketId: 'SUP-7712', priority: 'high', customer: { email: 'ops@acme.io', seats: 40 },
  tags: ['example tags', 'example tags 2'], refund: 120, summary: 'Checkout fails with a 500 for every customer.',
};

describe('generateObject through createSwitchyard on the simulator', () => {
  it.each([
    ['OpenAI json_schema', 'openai'],
    ['Anthropic output_config.format', 'anthropic'],
    ['Anthropic forced json tool', 'anthropic-tool'],
  ])('answers an object of a nested schema (enum, pattern, bounds, arrays, optional) over %s, its values from the prompt', async (_way, chain) => {
    const switchyard = await switchyardOnSimulator();
    const { object, finishReason, usage } = await generateObject({ model: switchyard(chain), schema: ticket, prompt: PROMPT, maxRetries: 0 });

    expect(ticket.parse(object)).toEqual(EXPECTED);
    expect(finishReason).toBe('stop');
    expect(usage.outputTokens).toBe(Math.ceil(JSON.stringify(object).length / 4));
  });

  it('answers plain JSON mode (no schema sent, only the one the AI SDK writes into the prompt) with an instance of that schema', async () => {
    const switchyard = await switchyardOnSimulator();
    const { object } = await generateObject({ model: switchyard('openai'), output: 'no-schema', prompt: `${PROMPT} Answer in JSON with keys ticketId, priority (low, medium or high) and seats (an integer).`, maxRetries: 0 });
    expect(object).toEqual({ ticketId: 'SUP-7712', priority: 'high', seats: 40 });
  });

  it('streams an object with streamObject: the partial objects end in one that parses', async () => {
    const switchyard = await switchyardOnSimulator();
    const result = streamObject({ model: switchyard('openai'), schema: ticket, prompt: PROMPT, maxRetries: 0 });
    const partials: unknown[] = [];
    for await (const partial of result.partialObjectStream) partials.push(partial);
    expect(partials.length).toBeGreaterThan(1);
    expect(ticket.parse(await result.object)).toMatchObject({ ticketId: 'SUP-7712', priority: 'high' });
  });
});
