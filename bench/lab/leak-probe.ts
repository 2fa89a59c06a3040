// Heap retained by the soak's router, by constructor: 3,000 calls, gc, heap snapshot; N more calls,
// wait past the budget window, gc, snapshot; prints what grew by more than one object per 100 calls.
// A window-bound structure shows up with WINDOW_MS longer than the run and vanishes with a short one.
//   node --expose-gc --import tsx bench/lab/leak-probe.ts        (N=20000 WINDOW_MS=1000 by default)
import { writeHeapSnapshot } from 'node:v8';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { benchRouter, chainConfig, routerCall } from '../lib/arms.js';
import { createRouter } from '../../src/router.js';
import { request } from '../lib/prompts.js';
import { startSimulator } from '../../src/sim/index.js';

const dir = mkdtempSync(join(tmpdir(), 'leak-probe-'));
const UNLIMITED = { rpm: 1e9, tpm: 1e12 };
const sim = await startSimulator({ seed: 1, providers: { fast: { type: 'openai', limits: UNLIMITED as never } } } as never);
const url = sim.baseURL('fast');
const router = benchRouter(chainConfig({ primary: url, secondary: url }, { windowMs: Number(process.env.WINDOW_MS ?? 1000) }), createRouter as never);
const req = request('Write a haiku about queues.', 64);
const gc = (globalThis as { gc?: () => void }).gc!;
async function run(n: number) { for (let i = 0; i < n; i += 20) await Promise.all(Array.from({ length: 20 }, () => routerCall(router, req))); }
function counts(file: string) {
  const snap = JSON.parse(readFileSync(file, 'utf8'));
  const f = snap.snapshot.meta.node_fields as string[]; const nf = f.length;
  const types = snap.snapshot.meta.node_types[0] as string[];
  const ti = f.indexOf('type'), ni = f.indexOf('name'), si = f.indexOf('self_size');
  const m = new Map<string, [number, number]>();
  for (let i = 0; i < snap.nodes.length; i += nf) {
    const key = `${types[snap.nodes[i + ti]]}:${snap.strings[snap.nodes[i + ni]]}`.slice(0, 80);
    const e = m.get(key) ?? [0, 0]; e[0]++; e[1] += snap.nodes[i + si]; m.set(key, e);
  }
  return m;
}
await run(3000);
gc(); gc();
const a = writeHeapSnapshot(join(dir, 'a.heapsnapshot'));
const N = Number(process.env.N ?? 20000);
await run(N);
await new Promise((r) => setTimeout(r, Number(process.env.WINDOW_MS ?? 1000) + 500));
await run(20);
gc(); gc();
const b = writeHeapSnapshot(join(dir, 'b.heapsnapshot'));
const ca = counts(a), cb = counts(b);
const rows = [...cb].map(([k, [n, s]]) => [k, n - (ca.get(k)?.[0] ?? 0), s - (ca.get(k)?.[1] ?? 0)] as const).filter((r) => r[1] > N / 100).sort((x, y) => y[2] - x[2]).slice(0, 30);
for (const r of rows) console.log(`${r[1]}\t${r[2]}\t${r[0]}`);
rmSync(dir, { recursive: true, force: true });
await router.close();
process.exit(0);
