import { beforeAll, describe, expect, it } from 'vitest';
import { drive, scheduleCalls } from '../../src/cli/demo-drive.js';
import { demoPlan } from '../../src/cli/demo-plan.js';
import { main } from '../../src/cli/main.js';
import { runDemo } from '../../src/cli/run-demo.js';
import type { SimRequestEvent } from '../../src/sim/index.js';
import { captureIO } from './io.js';

describe('the demo plan', () => {
  it('splits the run into rate limit, outage and recovery, and stages the outage on the primary in phase 2', () => {
    const plan = demoPlan({ calls: 300, seconds: 12 });
    expect(plan.phases.map((p) => [p.name, p.startMs, p.endMs])).toEqual([['rate limit', 0, 4200], ['outage', 4200, 8400], ['recovery', 8400, 12000]]);
    expect(plan.phases.reduce((n, p) => n + p.calls, 0)).toBe(300);
    expect(plan.scenario.providers!.openai!.faults).toEqual([{ fault: 'unavailable', fromMs: 4200, untilMs: 8400 }]);
    // 80% of the mean rate: phase 1 offers about twice that, phase 3 stays under it.
    expect(plan.primaryRpm).toBe(1200);
    const rps = (i: number) => plan.phases[i]!.calls / ((plan.phases[i]!.endMs - plan.phases[i]!.startMs) / 1000);
    expect(rps(0)).toBeGreaterThan(1.9 * (plan.primaryRpm / 60));
    expect(rps(2)).toBeLessThan(plan.primaryRpm / 60);
  });

  it('puts a Gemini primary first with --primary gemini: its scenario, its outage, its provider type', () => {
    const plan = demoPlan({ calls: 300, seconds: 12, primary: 'gemini' });
    expect(plan.primary).toEqual({ provider: 'gemini', model: 'gemini-2.5-flash' });
    expect(plan.scenario.providers!.gemini).toMatchObject({ type: 'gemini', faults: [{ fault: 'unavailable', fromMs: 4200, untilMs: 8400 }] });
    const config = plan.config({ baseURL: (name: string) => `http://127.0.0.1:1/${name}` } as never);
    expect(config.providers.gemini).toMatchObject({ type: 'gemini' });
    expect(config.chains.default).toEqual(['gemini:gemini-2.5-flash', 'anthropic:claude-haiku-4-5']);
  });

  it('schedules every call inside its phase and never runs more than the concurrency at once', async () => {
    const plan = demoPlan({ calls: 40, seconds: 1 });
    const calls = scheduleCalls(plan.phases);
    expect(calls).toHaveLength(40);
    expect(calls.every((c) => c.atMs >= plan.phases[c.phase]!.startMs && c.atMs < plan.phases[c.phase]!.endMs)).toBe(true);
    let inFlight = 0;
    let peak = 0;
    let ran = 0;
    // Every call is due at once (a clock that stands at the start); each holds its slot for a turn of the event loop.
    await drive(calls.map((c) => ({ ...c, atMs: 0 })), 3, 0, async () => {
      ran++;
      peak = Math.max(peak, ++inFlight);
      await new Promise((r) => setImmediate(r));
      inFlight--;
    }, () => 0);
    expect(peak).toBe(3);
    expect(ran).toBe(40);
  });
});

// The demo runs on the wall clock by design (runDemo takes no clock: its simulator's latency, fault
// schedule, the call schedule and the SDKs' own sockets are all real time, and with calls in flight
// at once a virtual clock would serialise their latencies and change the run), so its phases are real
// seconds and how many calls land in each depends on how busy the machine is. The assertions are
// therefore the ones that hold whatever the timing: the accounting matches the simulator's request
// by request, the outage is exactly the requests that arrived during it, and the breaker moves through
// its states in order (where the run leaves it is a matter of timing). A short run first still takes
// module loading out of the phases, so the story (a 429, a 503, a probe) usually plays in full.
describe('switchyard demo', () => {
  beforeAll(async () => {
    await runDemo({ calls: 10, seconds: 0.5 });
  });

  it('rides out the rate limit and the outage with no call failing for the user, and its counts match the simulator\'s', async () => {
    const phases: number[] = [];
    const arrivals: SimRequestEvent[] = [];
    const result = await runDemo({ calls: 100, seconds: 4 }, { onPhase: (i) => phases.push(i), onRequest: (e) => arrivals.push(e) });
    expect(phases).toEqual([0, 1, 2]);
    expect(result.failed).toBe(0);
    expect(result.answered).toBe(100);
    const primary = result.tally.targets.get('openai:gpt-4o-mini')!;
    const secondary = result.tally.targets.get('anthropic:claude-haiku-4-5')!;
    const sim = result.simulator.providers;
    // Every request the router says it sent, the simulator received: nothing hidden, nothing extra.
    expect(primary.requests).toBe(sim.openai!.requests);
    expect(secondary.requests).toBe(sim.anthropic!.requests);
    expect(primary.ok).toBe(sim.openai!.byStatus['200'] ?? 0);
    // Every 429 the primary sent reached the router's count (whether phase 1 outruns the limit depends on the machine).
    expect(primary.rateLimited).toBe(sim.openai!.byStatus['429'] ?? 0);
    // The outage is exactly the primary's requests that arrived during it: each one a 503, counted.
    const outage = result.plan.phases[1]!;
    const at = (e: SimRequestEvent) => e.atMs - result.simulator.startedAtMs;
    const toPrimary = arrivals.filter((e) => e.provider === 'openai');
    expect(toPrimary).toHaveLength(primary.requests);
    const duringOutage = toPrimary.filter((e) => at(e) >= outage.startMs && at(e) < outage.endMs);
    expect(toPrimary.filter((e) => e.status === 503)).toEqual(duringOutage);
    expect(primary.serverErrors).toBe(duringOutage.length);
    // The secondary was healthy throughout.
    expect(arrivals.filter((e) => e.provider === 'anthropic').every((e) => e.status === 200)).toBe(true);
    // Whatever the breaker did, it went through its states in order: opened when closed or on a failed
    // probe, half-open only after open, closed only by a probe (where the run ends in it depends on timing).
    const NEXT: Record<string, string[]> = { closed: ['open'], open: ['halfOpen'], halfOpen: ['open', 'closed'] };
    let state = 'closed';
    for (const t of result.tally.transitionsOf('openai:gpt-4o-mini')) {
      expect(NEXT[state], `${state} -> ${t.state} at ${t.atMs} ms`).toContain(t.state);
      state = t.state;
    }
    // Outside the outage the primary answers: its first request there finds a full or refilled bucket.
    if (toPrimary.some((e) => at(e) < outage.startMs || at(e) >= outage.endMs)) expect(primary.answered).toBeGreaterThan(0);
    expect(primary.answered + secondary.answered).toBe(100);
    expect(secondary.fallThroughs).toBe(0);
  });

  it('rides out a Gemini primary\'s 429s and 503s the same way, its counts matching the simulator\'s', async () => {
    const arrivals: SimRequestEvent[] = [];
    const result = await runDemo({ calls: 40, seconds: 2, primary: 'gemini' }, { onRequest: (e) => arrivals.push(e) });
    expect(result.failed).toBe(0);
    const primary = result.tally.targets.get('gemini:gemini-2.5-flash')!;
    const sim = result.simulator.providers.gemini!;
    expect(primary.requests).toBe(sim.requests);
    expect(primary.rateLimited).toBe(sim.byStatus['429'] ?? 0);
    expect(primary.serverErrors).toBe(arrivals.filter((e) => e.provider === 'gemini' && e.status === 503).length);
    expect(primary.answered + result.tally.targets.get('anthropic:claude-haiku-4-5')!.answered).toBe(40);
  });

  it('refuses a --primary it has no API for, as a usage error', async () => {
    const { io, err } = captureIO();
    expect(await main(['demo', '--primary', 'bedrock'], io)).toBe(2);
    expect(err()).toContain('--primary must be openai or gemini');
  });

  it('prints the phases, a table per target and the number of calls that failed for the user', async () => {
    const { io, out } = captureIO();
    expect(await main(['demo', '--calls', '24', '--seconds', '1', '--concurrency', '4'], io)).toBe(0);
    const text = out();
    expect(text).toMatch(/^Switchyard demo: 24 calls, at most 4 at a time/);
    expect(text.match(/^phase \d\/3 /gm)).toHaveLength(3);
    expect(text).toMatch(/^target +requests +ok +429 +5xx +skipped +fall-throughs +breaker +p50 +p95 +answered$/m);
    expect(text).toMatch(/^openai:gpt-4o-mini +\d+ +\d+ +\d+ +\d+ +\d+ +\d+ +\d+ +\d+ ms +\d+ ms +\d+$/m);
    expect(text).toMatch(/^anthropic:claude-haiku-4-5 +\d+ /m);
    expect(text).toMatch(/^simulator counted: openai \d+ requests/m);
    expect(text).toMatch(/\nfailed for the user: 0\n$/);
    expect(text).not.toContain('\x1b');
  });
});
