import type { ShadowEvent } from '../observe/events.js';
import { percentile } from './stats.js';

/** One shadow target of one chain, summarised from its `shadow` events. */
export interface ShadowSummary {
  chain: string;
  /** The shadow target, `provider:model`. */
  target: string;
  /** Shadows that answered (the rest of the counts: `errors`, `dropped`). */
  n: number;
  errors: number;
  dropped: number;
  /** Share of answers equal to the real one once normalised, and the mean token Jaccard similarity. */
  equalShare?: number;
  similarity?: number;
  /** Answers checked against `shadow.expect`, and the share that passed. */
  expectN: number;
  passRate?: number;
  /** Answers the judge scored, and their mean score. */
  judgeN: number;
  judgeMean?: number;
  /** p50 latency of the shadow and of the real answer, over the answered shadows. */
  latencyP50Ms?: number;
  realLatencyP50Ms?: number;
  /** USD of the shadows' answers and of the real answers they copied (priced ones only). */
  costUsd: number;
  realCostUsd: number;
}

const mean = (xs: readonly number[]) => (xs.length === 0 ? undefined : xs.reduce((a, b) => a + b, 0) / xs.length);

/** Reads JSON lines (a gateway's `gateway.shadowLog`), keeping the `shadow` events; other lines are skipped. */
export function parseShadowLog(text: string): ShadowEvent[] {
  const out: ShadowEvent[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      continue;
    }
    const e = value as Partial<ShadowEvent> & { event?: string };
    if (e.event === 'shadow' && typeof e.chain === 'string' && typeof e.provider === 'string' && typeof e.outcome === 'string' && e.real) out.push(e as ShadowEvent);
  }
  return out;
}

/** Per chain and shadow target: counts, agreement, pass rate, judge mean, latency and cost against the real answers. */
export function summariseShadows(events: readonly ShadowEvent[]): ShadowSummary[] {
  const groups = new Map<string, ShadowEvent[]>();
  for (const e of events) {
    const key = `${e.chain}\u0000${e.provider}:${e.model}`;
    groups.set(key, [...(groups.get(key) ?? []), e]);
  }
  return [...groups].map(([key, group]) => {
    const [chain, target] = key.split('\u0000') as [string, string];
    const ok = group.filter((e) => e.outcome === 'ok');
    const agreed = ok.filter((e) => e.agreement);
    const checked = ok.filter((e) => e.expect);
    const judged = ok.filter((e) => e.judge);
    const summary: ShadowSummary = {
      chain, target, n: ok.length,
      errors: group.filter((e) => e.outcome === 'error').length,
      dropped: group.filter((e) => e.outcome === 'dropped').length,
      expectN: checked.length, judgeN: judged.length,
      costUsd: ok.reduce((s, e) => s + (e.costUsd ?? 0), 0),
      realCostUsd: ok.reduce((s, e) => s + (e.real.costUsd ?? 0), 0),
    };
    if (agreed.length > 0) {
      summary.equalShare = agreed.filter((e) => e.agreement!.equal).length / agreed.length;
      summary.similarity = mean(agreed.map((e) => e.agreement!.similarity));
    }
    if (checked.length > 0) summary.passRate = checked.filter((e) => e.expect!.pass).length / checked.length;
    if (judged.length > 0) summary.judgeMean = mean(judged.map((e) => e.judge!.score));
    const latencies = ok.filter((e) => e.latencyMs !== undefined);
    if (latencies.length > 0) {
      summary.latencyP50Ms = percentile(latencies.map((e) => e.latencyMs!), 50);
      summary.realLatencyP50Ms = percentile(latencies.map((e) => e.real.latencyMs), 50);
    }
    return summary;
  });
}

const pct = (x: number | undefined) => (x === undefined ? '-' : `${Math.round(x * 100)}%`);
const num = (x: number | undefined, digits = 2) => (x === undefined ? '-' : x.toFixed(digits));
const ratio = (a: number | undefined, b: number | undefined) => (a === undefined || b === undefined || b === 0 ? '-' : `${(a / b).toFixed(2)}x`);

/** The report `switchyard eval --shadow-report` prints: one line per chain and shadow target. */
export function renderShadowReport(summaries: readonly ShadowSummary[]): string {
  if (summaries.length === 0) return 'no shadow events in the file\n';
  const head = ['chain', 'candidate', 'n', 'errors', 'dropped', 'equal', 'similarity', 'pass', 'judge', 'p50 ms (real)', 'latency vs real', 'cost USD (real)', 'cost vs real'];
  const rows = summaries.map((s) => [
    s.chain, s.target, String(s.n), String(s.errors), String(s.dropped), pct(s.equalShare), num(s.similarity),
    s.expectN === 0 ? '-' : `${pct(s.passRate)} of ${s.expectN}`, s.judgeN === 0 ? '-' : `${num(s.judgeMean)} of ${s.judgeN}`,
    s.latencyP50Ms === undefined ? '-' : `${Math.round(s.latencyP50Ms)} (${Math.round(s.realLatencyP50Ms!)})`, ratio(s.latencyP50Ms, s.realLatencyP50Ms),
    `${s.costUsd.toFixed(4)} (${s.realCostUsd.toFixed(4)})`, ratio(s.costUsd, s.realCostUsd),
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join('  ').trimEnd();
  return `${[line(head), ...rows.map(line)].join('\n')}\n`;
}
