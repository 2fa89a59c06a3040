import type { Clock } from '../types.js';
import type { Target } from '../config/index.js';
import { isRouterError } from '../errors.js';
import type { Router } from '../router.js';
import type { Attempt } from '../types.js';
import type { ChatResult, Message } from '../types.js';
import { answerKey } from './cache/cache-keys.js';
import type { DiskCache } from './cache/disk-cache.js';
import type { EvalCase, PromptVariant } from './case-types.js';
import { evalChainName } from './eval-chains.js';
import { checkAnswer } from './expectations.js';
import { gradeWithModels, type ModelGradeContext } from './graders/grade-models.js';
import { caseMessages, columnOf } from './prompts.js';
import type { Price, RunError, RunRecord } from './report-types.js';

/** One unit of work: a case on a target (under a prompt, when the run has prompts), for one repeat. */
export interface RunJob {
  evalCase: EvalCase;
  target: Target;
  repeat: number;
  prompt?: PromptVariant;
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
  /** The disk cache of answers (and graders' verdicts); undefined with `--no-cache`. */
  cache?: DiskCache;
  /** For `judge` and `similar`; undefined when no case uses them. */
  models?: ModelGradeContext;
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

/** What the run keeps of an answer in the disk cache: the result without its attempts. */
function stored(result: ChatResult): ChatResult {
  return Object.assign({}, result, { attempts: [] });
}

/** Checks an answer (a fresh or a cached one) against the case's expectations, the graders' included. */
async function graded(job: RunJob, messages: Message[], result: ChatResult, ctx: RunContext): Promise<Pick<RunRecord, 'pass' | 'checks' | 'gradeError' | 'graderCostUsd'>> {
  const { evalCase, target } = job;
  const checks = await checkAnswer(result.text, evalCase.expect, {
    case: evalCase, target: { provider: target.provider, model: target.model, key: target.key }, result,
  });
  if (!ctx.models || (!evalCase.expect.judge && !evalCase.expect.similar)) return { pass: checks.every((c) => c.pass), checks };
  const models = await gradeWithModels(evalCase, messages, answerText(result), ctx.models);
  checks.push(...models.checks);
  const graderCost = models.graderCostUsd !== null ? { graderCostUsd: models.graderCostUsd } : {};
  if (models.gradeError) {
    return Object.assign({ pass: false, checks, gradeError: { expectation: models.gradeError.expectation, message: ctx.redact(models.gradeError.message).slice(0, MAX_MESSAGE_CHARS) } }, graderCost);
  }
  return Object.assign({ pass: checks.every((c) => c.pass), checks }, graderCost);
}

/**
 * Sends one case to one target down its single-target eval chain and scores the answer. An answer
 * in the disk cache is scored without a request (`cached: true`, `requests: 0`, the latency and cost
 * of the call that got it); a fresh answer is stored there, an error never is. When the target is
 * only out of capacity for a while (cooling after a 429, a full local budget) the run waits and asks
 * again, up to `capacityWaitMs` in all. Never throws: a failed call is recorded as an errored run,
 * so one broken target cannot abort an eval; a grader that fails is recorded as `gradeError`.
 */
export async function runOnce(job: RunJob, ctx: RunContext): Promise<RunRecord> {
  const { evalCase, target, repeat, prompt } = job;
  const base: Pick<RunRecord, 'caseId' | 'target' | 'repeat' | 'column' | 'weight' | 'prompt'> = { caseId: evalCase.id, target: target.key, repeat, column: columnOf(target.key, prompt), weight: evalCase.weight };
  if (prompt) base.prompt = prompt.id;
  const messages = caseMessages(evalCase, prompt);
  const key = ctx.cache ? answerKey(target, evalCase, messages, prompt?.id, repeat) : undefined;
  const hit = ctx.cache ? await ctx.cache.get<ChatResult>(key) : undefined;
  if (hit) {
    return Object.assign({}, base, {
      ok: true, text: answerText(hit), finishReason: hit.finishReason, usage: hit.usage,
      costUsd: ctx.price ? (hit.costUsd ?? null) : null, latencyMs: hit.latencyMs, requests: 0, cached: true as const,
    }, await graded(job, messages, hit, ctx));
  }
  let waitedMs = 0;
  let sentBefore = 0;
  for (;;) {
    const startedAtMs = ctx.clock.now();
    let result: ChatResult;
    try {
      result = await ctx.router.chat({
        chain: evalChainName(target),
        messages,
        ...evalCase.options,
        ...(evalCase.tools ? { tools: evalCase.tools } : {}),
        ...(evalCase.toolChoice ? { toolChoice: evalCase.toolChoice } : {}),
        ...(evalCase.responseFormat ? { responseFormat: evalCase.responseFormat } : {}),
        ...(ctx.signal ? { signal: ctx.signal } : {}),
      });
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
      return Object.assign({}, base, {
        ok: false, pass: false,
        latencyMs: ctx.clock.now() - startedAtMs,
        requests: sentBefore + requestsSent(isRouterError(err) ? err.attempts : undefined),
        checks: [], error: runError(err, ctx.redact),
      }, waitedMs > 0 ? { capacityWaitMs: waitedMs } : {});
    }
    if (ctx.cache) await ctx.cache.put(key, stored(result));
    return Object.assign({}, base, {
      ok: true,
      text: answerText(result), finishReason: result.finishReason, usage: result.usage,
      // The router prices every answered attempt from the one table (src/spend/prices.ts).
      costUsd: ctx.price ? (result.costUsd ?? null) : null,
      latencyMs: result.latencyMs, requests: sentBefore + requestsSent(result.attempts),
    }, waitedMs > 0 ? { capacityWaitMs: waitedMs } : {}, await graded(job, messages, result, ctx));
  }
}
