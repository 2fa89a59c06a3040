import { PROVIDER_DEFAULTS, type FaultRule, type Scenario, type Simulator, type SimulatorStats } from '../sim/index.js';
import { table } from './table.js';

const seconds = (ms: number) => `${+(ms / 1000).toFixed(3)}s`;

/** One fault rule in a few words: `unavailable 50% 10s-40s`, `hang #3`, `stream_cut after 2`. */
export function describeFault(rule: FaultRule): string {
  const parts: string[] = [rule.fault];
  if (rule.status !== undefined) parts.push(String(rule.status));
  if (rule.probability !== undefined) parts.push(`${+(rule.probability * 100).toFixed(2)}%`);
  if (rule.fromMs !== undefined || rule.untilMs !== undefined) parts.push(`${seconds(rule.fromMs ?? 0)}-${rule.untilMs === undefined ? '' : seconds(rule.untilMs)}`);
  if (rule.nth !== undefined) parts.push(`#${[rule.nth].flat().join(',#')}`);
  if (rule.model !== undefined) parts.push(`model ${rule.model}`);
  if (rule.stream !== undefined) parts.push(rule.stream ? 'streams' : 'plain');
  if (rule.fault === 'slow_first_byte') parts.push(`${rule.delayMs ?? PROVIDER_DEFAULTS.slowFirstByteMs} ms`);
  if (rule.fault === 'stream_cut' || rule.fault === 'stream_error') parts.push(`after ${rule.afterChunks ?? PROVIDER_DEFAULTS.afterChunks}`);
  return parts.join(' ');
}

/** What `switchyard simulate` prints when it starts: one line a provider, with its base URL, limits and faults. */
export function describeSimulator(sim: Simulator, scenario: Scenario): string[] {
  const rows = sim.providers.map((name) => {
    const p = scenario.providers?.[name];
    const limits = p?.limits ? `${p.limits.rpm ?? PROVIDER_DEFAULTS.rpm} rpm, ${p.limits.tpm ?? PROVIDER_DEFAULTS.tpm} tpm` : 'default limits';
    const faults = p?.faults?.length ? p.faults.map(describeFault).join('; ') : 'no faults';
    return [name, p?.type ?? name, sim.baseURL(name), limits, faults];
  });
  return table([['provider', 'api', 'baseURL', 'limits', 'faults'], ...rows], 'lllll');
}

/** Counts of a map as `200×12 429×3`, or `-`. */
export function counts(record: Partial<Record<string, number>>): string {
  const parts = Object.entries(record).filter(([, n]) => n).map(([k, n]) => `${k}×${n}`);
  return parts.length > 0 ? parts.join(' ') : '-';
}

/** One live line: uptime, requests, in flight, and statuses per provider. */
export function statsLine(stats: SimulatorStats): string {
  const per = Object.entries(stats.providers).map(([name, p]) => `${name} ${counts(p.byStatus)}`).join(' · ');
  return `${(stats.uptimeMs / 1000).toFixed(1)} s · ${stats.requests} requests · ${stats.inFlight} in flight · ${per}`;
}

/** The table printed when the simulator stops. */
export function statsTable(stats: SimulatorStats): string[] {
  const rows = Object.entries(stats.providers).map(([name, p]) => [
    name, String(p.requests), counts(p.byStatus), String(p.rateLimited), counts(p.byFault), String(p.streams),
    `${p.tokens.input} / ${p.tokens.output}`,
  ]);
  return table([['provider', 'requests', 'statuses', 'rate limited', 'faults', 'streams', 'tokens in / out'], ...rows], 'lrlrlrr');
}
