import type { Phase } from './demo-plan.js';

/** One call of the run: when it is due, relative to the start. */
export interface ScheduledCall {
  index: number;
  phase: number;
  atMs: number;
}

/** Every call of every phase, spread evenly across its phase. */
export function scheduleCalls(phases: readonly Phase[]): ScheduledCall[] {
  const calls: ScheduledCall[] = [];
  phases.forEach((phase, p) => {
    const gapMs = (phase.endMs - phase.startMs) / Math.max(1, phase.calls);
    for (let i = 0; i < phase.calls; i++) calls.push({ index: calls.length, phase: p, atMs: phase.startMs + (i + 0.5) * gapMs });
  });
  return calls;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Open-loop load: launches each call when it is due (late, when `concurrency` calls are already in
 * flight), never waiting for earlier answers otherwise. Resolves when every call has settled; `run`
 * must not reject.
 */
export async function drive(calls: readonly ScheduledCall[], concurrency: number, startedAtMs: number, run: (call: ScheduledCall) => Promise<void>, now: () => number = Date.now): Promise<void> {
  let inFlight = 0;
  const slots: Array<() => void> = [];
  const running: Promise<void>[] = [];
  for (const call of calls) {
    const dueInMs = startedAtMs + call.atMs - now();
    if (dueInMs > 0) await sleep(dueInMs);
    while (inFlight >= concurrency) await new Promise<void>((resolve) => slots.push(resolve));
    inFlight++;
    running.push(run(call).finally(() => {
      inFlight--;
      slots.shift()?.();
    }));
  }
  await Promise.all(running);
}
