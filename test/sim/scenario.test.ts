import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { ScenarioError, loadScenario, parseScenario } from '../../src/sim/index.js';
import { useSimulators } from './helpers.js';

const SCENARIOS = resolve(import.meta.dirname, '../../scenarios');
const start = useSimulators();

describe('scenario files', () => {
  it.each(readdirSync(SCENARIOS).filter((f) => f.endsWith('.json')))('ships %s as a valid scenario a simulator starts from', async (file) => {
    const scenario = await loadScenario(join(SCENARIOS, file));
    expect(scenario.description).toBeTruthy();
    const sim = await start(scenario);
    expect(sim.providers.length).toBeGreaterThan(0);
  });

  it.each([
    ['an unknown fault', { providers: { a: { type: 'openai', faults: [{ fault: 'explode' }] } } }, /providers\.a\.faults\[0\]\.fault: /],
    ['a probability above 1', { providers: { a: { type: 'openai', faults: [{ fault: 'reset', probability: 2 }] } } }, /providers\.a\.faults\[0\]\.probability/],
    ['a window that ends before it starts', { providers: { a: { type: 'openai', faults: [{ fault: 'hang', fromMs: 10, untilMs: 5 }] } } }, /untilMs must be after fromMs/],
    ['a misspelt option', { providers: { a: { type: 'openai', limit: { rpm: 5 } } } }, /providers\.a: Unrecognized key: "limit"/],
    ['an unknown API type', { providers: { a: { type: 'cohere' } } }, /providers\.a\.type/],
    ['a reserved provider name', { providers: { v1: { type: 'openai' } } }, /providers\.v1/],
    ['an unknown endpoint on a fault rule', { providers: { a: { type: 'openai', faults: [{ fault: 'reset', endpoint: 'files' }] } } }, /providers\.a\.faults\[0\]\.endpoint/],
    ['cache shares above 1 together', { providers: { a: { type: 'openai', promptCache: { readShare: 0.8, writeShare: 0.3 } } } }, /readShare \+ writeShare must be at most 1/],
    ['a misspelt embeddings limit', { providers: { a: { type: 'openai', limits: { embeddings: { rmp: 5 } } } } }, /providers\.a\.limits\.embeddings: Unrecognized key: "rmp"/],
  ])('rejects %s on one line naming the path', (_what, input, message) => {
    const err = (() => {
      try {
        parseScenario(input, 'x.json');
      } catch (e) {
        return e as Error;
      }
      throw new Error('expected a throw');
    })();
    expect(err).toBeInstanceOf(ScenarioError);
    expect(err.message).toMatch(/^x\.json: /);
    expect(err.message).toMatch(message);
    expect(err.message).not.toContain('\n');
  });

  it('says clearly when a file is missing or not JSON', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'switchyard-scenario-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    await expect(loadScenario('nope.json', dir)).rejects.toThrow(/^scenario file not found: .*nope\.json$/);
    writeFileSync(join(dir, 'bad.json'), '{ "seed": ');
    await expect(loadScenario('bad.json', dir)).rejects.toThrow(/bad\.json is not valid JSON/);
  });

  it('refuses to start from invalid options', async () => {
    await expect(start({ providers: { a: { type: 'openai', capacity: 0 } } })).rejects.toThrow(ScenarioError);
  });
});
