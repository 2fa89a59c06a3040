import type { ErrorKind } from '../errors.js';
import type { DemoProgress, DemoResult } from './run-demo.js';
import type { DemoPlan } from './demo-plan.js';
import type { BreakerChange } from './demo-tally.js';
import { counts } from './sim-report.js';
import { ms, percentile, table } from './table.js';

const SKIPS: ReadonlyArray<[ErrorKind, string]> = [
  ['circuit_open', 'circuit open'], ['rate_limited', 'cooling'], ['quota_exhausted', 'parked'], ['local_limit', 'local limit'],
];
const seconds = (atMs: number) => `${(atMs / 1000).toFixed(1)} s`;

/** The lines printed before the run. */
export function demoIntro(plan: DemoPlan, url: string): string[] {
  return [
    `Switchyard demo: ${plan.calls} calls, at most ${plan.concurrency} at a time, over ${seconds(plan.durationMs)}, through the chain`,
    `  default = ${plan.primary.provider}:${plan.primary.model} -> ${plan.secondary.provider}:${plan.secondary.model},`,
    `  both simulated at ${url} (their real wire formats, fake keys, no network).`,
  ];
}

/** The line printed as a phase begins. */
export function phaseLine(index: number, plan: DemoPlan): string {
  const p = plan.phases[index]!;
  return `phase ${index + 1}/${plan.phases.length} ${p.name} (${seconds(p.startMs)}-${seconds(p.endMs)}, ${p.calls} calls): ${p.caption}`;
}

/** The live status line. */
export function progressLine(p: DemoProgress, plan: DemoPlan): string {
  const breakers = Object.entries(p.breakers).map(([key, state]) => `${key} ${state}`).join(', ') || 'none yet';
  return `[${p.phase + 1}/${plan.phases.length} ${plan.phases[p.phase]!.name}] ${p.launched}/${plan.calls} calls · ${p.answered} answered · ${p.failed} failed · breakers: ${breakers} · ${seconds(p.elapsedMs)}`;
}

function breakerStory(changes: readonly BreakerChange[]): string {
  return ['closed', ...changes.map((c) => `${c.state} ${seconds(c.atMs)}`)].join(' -> ');
}

/** The summary: a table per target, then the calls, latency, breakers and what the simulator counted. */
export function demoSummary(r: DemoResult): string[] {
  const header = ['target', 'requests', 'ok', '429', '5xx', 'skipped', 'fall-throughs', 'breaker', 'p50', 'p95', 'answered'];
  const rows = [...r.tally.targets.values()].map((t) => {
    const skipped = SKIPS.reduce((n, [kind]) => n + (t.skipped[kind] ?? 0), 0);
    return [
      t.target, String(t.requests), String(t.ok), String(t.rateLimited), String(t.serverErrors), String(skipped),
      String(t.fallThroughs), String(r.tally.transitionsOf(t.target).length),
      ms(percentile(t.latenciesMs, 50)), ms(percentile(t.latenciesMs, 95)), String(t.answered),
    ];
  });
  const lines = ['', ...table([header, ...rows], 'lrrrrrrrrrr'), ''];
  for (const t of r.tally.targets.values()) {
    const why = SKIPS.filter(([kind]) => t.skipped[kind]).map(([kind, label]) => `${t.skipped[kind]} ${label}`);
    if (why.length > 0) lines.push(`skipped ${t.target} without a request: ${why.join(', ')}`);
    if (t.otherErrors > 0) lines.push(`other failed attempts on ${t.target}: ${t.otherErrors}`);
    const changes = r.tally.transitionsOf(t.target);
    if (changes.length > 0) lines.push(`breaker ${t.target.split(':')[0]}: ${breakerStory(changes)}`);
  }
  const answeredBy = [...r.tally.targets.values()].map((t) => `${t.target.split(':')[0]} ${t.answered}`).join(', ');
  lines.push(
    `calls: ${r.plan.calls} in ${seconds(r.elapsedMs)}; answered ${r.answered} (${answeredBy}); end-to-end p50 ${ms(percentile(r.latenciesMs, 50))}, p95 ${ms(percentile(r.latenciesMs, 95))}`,
    `simulator counted: ${Object.entries(r.simulator.providers).map(([name, p]) => `${name} ${p.requests} requests (${counts(p.byStatus)})`).join('; ')}`,
    '',
    `failed for the user: ${r.failed}${r.failed > 0 ? ` (${counts(r.failures)})` : ''}`,
  );
  return lines;
}
