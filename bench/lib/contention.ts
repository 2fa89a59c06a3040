import { readFileSync } from 'node:fs';

/** Busy and steal jiffies (10 ms) of one core from /proc/stat; NaN where there is no /proc. */
function coreTicks(core: string): { busy: number; steal: number } {
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n').find((l) => l.startsWith(`cpu${core} `));
    const v = line!.trim().split(/\s+/).slice(1).map(Number);
    // user nice system idle iowait irq softirq steal
    return { busy: v[0]! + v[1]! + v[2]! + v[5]! + v[6]!, steal: v[7]! };
  } catch {
    return { busy: Number.NaN, steal: Number.NaN };
  }
}

/**
 * How much of `core` (the client's, when this process is pinned to it) went to anything but this
 * process over a span: other tenants of a shared VM, a test run, a busy loop. Start it, do the work,
 * call the result. Meaningful only when this process runs on that core alone (taskset); 10 ms ticks,
 * so a span should last a second or more.
 */
export function foreignLoad(core = '1'): () => { share: number; steal: number } {
  const k0 = coreTicks(core);
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  return () => {
    const k1 = coreTicks(core);
    const c = process.cpuUsage(c0);
    const wallMs = performance.now() - t0;
    const ownMs = (c.user + c.system) / 1000;
    return { share: Math.max(0, ((k1.busy - k0.busy) * 10 - ownMs) / wallMs), steal: ((k1.steal - k0.steal) * 10) / wallMs };
  };
}
