import { pino } from 'pino';
import type { Price, RunRecord } from '../../src/eval/report-types.js';
import type { ExpectationResult } from '../../src/eval/expectations.js';
import type { ChatResult } from '../../src/types.js';

/** A logger that drops everything: eval tests assert on the report, not on log lines. */
export const silentLogger = pino({ level: 'silent' });

/** A ChatResult for scoring tests. */
export function chatResult(text: string): ChatResult {
  return { text, toolCalls: [], message: { role: 'assistant', content: text }, provider: 'p', model: 'm', finishReason: 'stop', usage: { inputTokens: 10, outputTokens: 5 }, attempts: [], latencyMs: 1 };
}

/** An answered run, with only the facts a test cares about set. */
export function answered(caseId: string, target: string, text: string, more: Partial<RunRecord> & { failed?: ExpectationResult['name'][] } = {}): RunRecord {
  const checks: ExpectationResult[] = (more.failed ?? []).map((name) => ({ name, pass: false, reason: `${name} failed` }));
  const { failed: _failed, ...rest } = more;
  return {
    caseId, target, column: target, weight: 1, repeat: 0, ok: true, pass: checks.length === 0, text,
    finishReason: 'stop', usage: { inputTokens: 100, outputTokens: 20 }, costUsd: null,
    latencyMs: 10, requests: 1, checks, ...rest,
  };
}

/** A run that ended in an error of `kind`. */
export function errored(caseId: string, target: string, kind: 'quota_exhausted' | 'server' | 'timeout' | 'auth', more: Partial<RunRecord> = {}): RunRecord {
  return { caseId, target, column: target, weight: 1, repeat: 0, ok: false, pass: false, latencyMs: 3, requests: 1, checks: [], error: { kind, message: `${kind}!` }, ...more };
}

export const PRICE: Price = { inputPerMTok: 2, outputPerMTok: 10 };
