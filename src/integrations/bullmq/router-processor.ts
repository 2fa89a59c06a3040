import { DelayedError, UnrecoverableError, type Job } from 'bullmq';
import { jobVerdict, type JobVerdict } from './job-verdict.js';

/** A BullMQ processor as `new Worker(name, processor)` takes it. */
export type JobProcessor<T = any, R = any, N extends string = string> = (job: Job<T, R, N>, token?: string, signal?: AbortSignal) => Promise<R>;

/** Options of `routerProcessor`; all optional. */
export interface RouterProcessorOptions {
  /**
   * Called before a job is snoozed or cancelled (to log it, count it); what it throws is ignored.
   * @default none
   */
  onVerdict?: (job: Job, verdict: Exclude<JobVerdict, { action: 'retry' }>, err: unknown) => void;
}

/**
 * Wraps a BullMQ processor that calls the router, so each failure gets the fate the router's error
 * calls for: a chain exhausted (or a target rate limited) with `retryAfterMs` moves the job to
 * delayed until then without spending an attempt (`job.moveToDelayed` + `DelayedError`), and so
 * is one refused by a full spend budget, until its UTC day or month turns; quota,
 * billing and caller faults fail it at once (`UnrecoverableError`, the RouterError as its `cause`);
 * anything else is rethrown, so the queue's own `attempts` and `backoff` apply.
 * @example
 * new Worker('summaries', routerProcessor(async (job) => (await router.chat({ messages: job.data.messages })).text), { connection });
 */
export function routerProcessor<T = any, R = any, N extends string = string>(fn: JobProcessor<T, R, N>, options: RouterProcessorOptions = {}): JobProcessor<T, R, N> {
  const wrapped: JobProcessor<T, R, N> = async (job, token, signal) => {
    try {
      return await fn(job, token, signal);
    } catch (err) {
      const verdict = jobVerdict(err);
      if (verdict.action === 'retry') throw err;
      try {
        options.onVerdict?.(job as Job, verdict, err);
      } catch {
        // a reporting hook must not change the job's fate
      }
      if (verdict.action === 'cancel') throw Object.assign(new UnrecoverableError((err as Error).message), { cause: err });
      await job.moveToDelayed(Date.now() + verdict.delayMs, token);
      throw new DelayedError(`snoozed for ${Math.round(verdict.delayMs)} ms: ${(err as Error).message}`);
    }
  };
  // BullMQ hands a processor an AbortSignal only when it declares a third parameter: keep fn's arity.
  Object.defineProperty(wrapped, 'length', { value: fn.length });
  return wrapped;
}
