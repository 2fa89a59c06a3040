/**
 * Runs `worker` over every job with at most `concurrency` in flight; results keep the jobs' order
 * whatever order they finish in. Stops starting new jobs once `signal` aborts.
 */
export async function runPool<J, R>(jobs: readonly J[], concurrency: number, worker: (job: J, index: number) => Promise<R>, signal?: AbortSignal): Promise<R[]> {
  const results = new Array<R>(jobs.length);
  let next = 0;
  async function lane(): Promise<void> {
    while (next < jobs.length && !signal?.aborted) {
      const index = next++;
      results[index] = await worker(jobs[index]!, index);
    }
  }
  const lanes = Math.max(1, Math.min(Math.floor(concurrency), jobs.length));
  await Promise.all(Array.from({ length: lanes }, lane));
  return results;
}
