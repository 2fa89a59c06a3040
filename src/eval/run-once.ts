import type { Clock } from '../types.js';
import type { Target } from '../config/index.js';
import { isRouterError } from '../errors.js';
import type { Router } from '../router.js';
import type { Attempt } from '../types.js';
import type { EvalCase } from './case-types.js';
import { evalChainName } from './eval-chains.js';
import { checkAnswer } from './expectations.js';
import type { Price, RunError, RunRecord } from './report-types.js';

/** One unit of work: a case on a target, for one repeat. */
export interface RunJob {
  evalCase: EvalCase;
  target: Target;
  repeat: number;
}

/** What `runOnce` needs besides the job. */
export interface RunContext {
  router: Router;
  clock: Clock;
  price: Price | undefined;
  /** Removes API keys from error messages before they reach the report. */
  redact: (text: string) => string;
  signal?: AbortSignal;
  /** The longest one run waits, in total, for its target's capacity to come back. */
  capacityWaitMs: number;
}

const MAX_MESSAGE_CHARS = 300;
/** Capacity that comes back on its own: a rate-limit cooldown, a local budget (rpm, tpm, concurrency). */
const CAPACITY_KINDS = new Set(['rate_limited', 'local_limit']);
const DEFAULT_CAPACITY_WAIT_MS = 1_000;

/**
 * How long to wait before asking the target again, when the call ended because the target is out of
 * capacity for a while (not out of quota, not broken); undefined when it is worth no wait.
 */
export function capacityWait(err: unknown): number | undefined {
  if (!isRouterError(err) || err.kind !== 'exhausted' || !isRouterError(err.cause) || !CAPACITY_KINDS.has(err.cause.kind)) return undefined;
  return Math.max(1, err.retryAfterMs ?? DEFAULT_CAPACITY_WAIT_MS);
}

/** What the report shows of an answer: its text, and its tool calls when it made any. */
function answerText(result: { text: string; toolCalls?: ReadonlyArray<{ name: string; arguments: unknown }> }): string {
  const calls = (result.toolCalls ?? []).map((c) => `→ ${c.name}(${JSON.stringify(c.arguments)})`);
  return [result.text, ...calls].filter((s) => s !== '').join('\n');
}

function requestsSent(attempts: readonly Attempt[] | undefined): number {
  return (attempts ?? []).filter((a) => !a.skipped).length;
}

/** The failure as the report shows it: a capacity failure is reported by its cause, not as `exhausted`. */
export function runError(err: unknown, redact: (text: string) => string): RunError {
  const clean = (text: string) => redact(text.replace(/\s+/g, ' ')).slice(0, MAX_MESSAGE_CHARS);
  if (!isRouterError(err)) return { kind: 'unexpected', message: clean(err instanceof Error ? err.message : String(err)) };
  const source = err.kind === 'exhausted' && isRouterError(err.cause) ? err.cause : err;
  return {
    kind: source.kind, message: clean(source.message),
    ...(source.status !== undefined ? { status: source.status } : {}),
    ...(source.code !== undefined ? { code: source.code } : {}),
  };
}

/**
 * Sends one case to one target down its single-target eval chain and scores the answer. When the
 * target is only out of capacity for a while (cooling after a 429, a full local budget) the run
 * waits and asks again, up to `capacityWaitMs` in all. Never throws: a failed call is recorded as an
 * errored run, so one broken target cannot abort an eval.
 */
export async function runOnce(job: RunJob, ctx: RunContext): Promise<RunRecord> {
  const { evalCase, target, repeat } = job;
  const base = { caseId: evalCase.id, target: target.key, repeat };
  let waitedMs = 0;
  let sentBefore = 0;
  for (;;) {
    const startedAtMs = ctx.clock.now();
    try {
      const result = await ctx.router.chat({
        chain: evalChainName(target),
        messages: evalCase.messages,
        ...evalCase.options,
        ...(evalCase.tools ? { tools: evalCase.tools } : {}),
        ...(evalCase.toolChoice ? { toolChoice: evalCase.toolChoice } : {}),
        ...(evalCase.responseFormat ? { responseFormat: evalCase.responseFormat } : {}),
        ...(ctx.signal ? { signal: ctx.signal } : {}),
      });
      const checks = await checkAnswer(result.text, evalCase.expect, {
        case: evalCase, target: { provider: target.provider, model: target.model, key: target.key }, result,
      });
      return {
        ...base, ok: true, pass: checks.every((c) => c.pass),
        text: answerText(result), finishReason: result.finishReason, usage: result.usage,
        // The router prices every answered attempt from the one table (src/spend/prices.ts).
        costUsd: ctx.price ? (result.costUsd ?? null) : null,
        latencyMs: result.latencyMs, requests: sentBefore + requestsSent(result.attempts), checks,
        ...(waitedMs > 0 ? { capacityWaitMs: waitedMs } : {}),
      };
    } catch (err) {
      // Within the target's budgets: a run waits for capacity that is coming back, instead of
      // reporting the eval's own pace as the target's failure.
      const waitMs = capacityWait(err);
      if (waitMs !== undefined && waitedMs + waitMs <= ctx.capacityWaitMs && !ctx.signal?.aborted) {
        try {
          await ctx.clock.sleep(waitMs, ctx.signal);
          waitedMs += waitMs;
          sentBefore += requestsSent(isRouterError(err) ? err.attempts : undefined);
          continue;
        } catch {
          // Aborted while waiting: recorded below with the error that made it wait.
        }
      }
      return {
        ...base, ok: false, pass: false,
        latencyMs: ctx.clock.now() - startedAtMs,
        requests: sentBefore + requestsSent(isRouterError(err) ? err.attempts : undefined),
        checks: [], error: runError(err, ctx.redact),
        ...(waitedMs > 0 ? { capacityWaitMs: waitedMs } : {}),
      };
    }
  }
}
