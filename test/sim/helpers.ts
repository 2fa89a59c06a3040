import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterEach } from 'vitest';
import { startSimulator, type Simulator, type SimulatorOptions } from '../../src/sim/index.js';

export const OPENAI_KEY = 'sk-proj-SIMTESTkey0123456789abcdefXYZ';
export const ANTHROPIC_KEY = 'sk-ant-api03-SIMTESTkey0123456789abcdef';

/** A clock the test moves by hand, for rate-limit windows and fault schedules. */
export function manualClock(startMs = Date.parse('2026-11-29T12:00:00Z')) {
  let nowMs = startMs;
  return { now: () => nowMs, advance: (ms: number) => void (nowMs += ms) };
}

/** Starts simulators that are stopped after each test. */
export function useSimulators(): (options?: SimulatorOptions) => Promise<Simulator> {
  const running: Simulator[] = [];
  afterEach(async () => {
    await Promise.all(running.splice(0).map((sim) => sim.stop()));
  });
  return async (options) => {
    const sim = await startSimulator(options);
    running.push(sim);
    return sim;
  };
}

export function openAIClient(sim: Simulator, provider = 'openai', options: Partial<ConstructorParameters<typeof OpenAI>[0]> = {}): OpenAI {
  return new OpenAI({ apiKey: OPENAI_KEY, baseURL: sim.baseURL(provider), maxRetries: 0, ...options });
}

export function anthropicClient(sim: Simulator, provider = 'anthropic', options: Partial<ConstructorParameters<typeof Anthropic>[0]> = {}): Anthropic {
  return new Anthropic({ apiKey: ANTHROPIC_KEY, baseURL: sim.baseURL(provider), maxRetries: 0, ...options });
}

export const user = (content = 'Say hello') => [{ role: 'user' as const, content }];

/** Awaits a promise that must reject, returning the error. */
export async function errorOf(promise: Promise<unknown>): Promise<any> {
  try {
    await promise;
  } catch (err) {
    return err;
  }
  throw new Error('expected a rejection');
}

/** The raw SSE text of a streaming request, read with fetch (no SDK parsing in between). */
export async function rawStream(url: string, headers: Record<string, string>, body: unknown): Promise<{ status: number; headers: Headers; text: string }> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  return { status: res.status, headers: res.headers, text: await res.text() };
}
