import type { ErrorKind } from '../errors.js';
import type { Attempt } from '../types.js';
import { ms, table } from './table.js';

/** Why a target was skipped without a request, in the words the docs use (docs/admission.md, docs/reliability.md). */
const SKIP_REASON: Partial<Record<ErrorKind, string>> = {
  circuit_open: 'circuit open', rate_limited: 'cooling', quota_exhausted: 'parked', local_limit: 'local limit',
};

/** Every attempt of a call as aligned lines: target, outcome, status, latency, the wait before it, request id. */
export function attemptLines(attempts: readonly Attempt[]): string[] {
  const rows = attempts.map((a, i) => [
    `#${i + 1}`,
    `${a.provider}:${a.model}`,
    a.skipped ? `skipped: ${SKIP_REASON[a.kind!] ?? a.kind}` : a.ok ? 'ok' : (a.kind ?? 'failed'),
    a.status === undefined ? '' : String(a.status),
    a.skipped ? '' : ms(a.latencyMs),
    a.waitedMs && a.waitedMs >= 0.5 ? `waited ${ms(a.waitedMs)}` : '',
    a.requestId ?? '',
  ]);
  return table(rows, 'rllrrll');
}
