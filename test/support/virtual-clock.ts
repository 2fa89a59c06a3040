import type { Clock } from '../../src/clock.js';

/**
 * A clock whose sleeps return at once and move time forward by exactly the time slept, recording
 * each one, so a test can assert that a 20 s `retry-after` was honoured without waiting 20 s.
 * Aborts are still honoured: a sleep on an aborted signal rejects.
 */
export class VirtualClock implements Clock {
  readonly sleeps: number[] = [];
  constructor(private nowMs = Date.parse('2026-11-29T12:00:00Z')) {}

  now(): number {
    return this.nowMs;
  }

  advance(ms: number): void {
    this.nowMs += ms;
  }

  async sleep(ms: number, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) throw signal.reason;
    this.sleeps.push(ms);
    this.nowMs += Math.max(0, ms);
    await Promise.resolve();
    if (signal?.aborted) throw signal.reason;
  }
}
