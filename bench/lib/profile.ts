import { Session } from 'node:inspector';
import { fileURLToPath } from 'node:url';

/** The repository root, to tell our code from everyone else's in a profile. */
export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Other folders holding our code: git refs materialised by lib/refs.ts for a "before" arm. */
const OTHER_ROOTS: string[] = [];

/** Counts code under `root` (a materialised ref) as ours in profiles, like this checkout's. */
export function registerSourceRoot(root: string): void {
  const r = root.endsWith('/') ? root : `${root}/`;
  if (r !== REPO_ROOT && !OTHER_ROOTS.includes(r)) OTHER_ROOTS.push(r);
}

function ownRoot(path: string): string | undefined {
  if (path.startsWith(REPO_ROOT)) return REPO_ROOT;
  return OTHER_ROOTS.find((r) => path.startsWith(r));
}

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}

/** Which part of the stack a sampled frame belongs to. */
export function category(frame: CallFrame): string {
  const { url, functionName } = frame;
  if (!url) {
    if (functionName === '(garbage collector)') return 'GC';
    if (functionName === '(idle)') return 'idle';
    if (functionName === '(program)') return 'V8/native (program)';
    return 'V8/native';
  }
  const path = url.startsWith('file://') ? fileURLToPath(url) : url;
  if (path.startsWith('node:')) {
    if (/undici|fetch|web\/|streams|blob|url|buffer/.test(path)) return 'node: fetch/undici/web streams';
    if (/net|stream|http|timers|events|process/.test(path)) return 'node: net/streams/timers/events';
    return 'node: other internals';
  }
  const nm = path.lastIndexOf('node_modules/');
  if (nm >= 0) {
    const rest = path.slice(nm + 'node_modules/'.length);
    const pkg = rest.startsWith('@') ? rest.split('/').slice(0, 2).join('/') : rest.split('/')[0]!;
    return pkg === 'openai' ? 'openai SDK' : pkg;
  }
  const root = ownRoot(path);
  if (root) {
    const rel = path.slice(root.length);
    if (rel.startsWith('src/')) return 'switchyard src/';
    if (rel.startsWith('providers/')) return 'switchyard providers/';
    if (rel.startsWith('bench/')) return 'bench harness';
    return 'switchyard other';
  }
  return 'other';
}

function where(frame: CallFrame): string {
  const path = frame.url.startsWith('file://') ? fileURLToPath(frame.url) : frame.url;
  const root = ownRoot(path);
  const rel = root ? `${root === REPO_ROOT ? '' : '(ref) '}${path.slice(root.length)}` : path.replace(/^.*node_modules\//, '');
  return `${frame.functionName || '(anonymous)'} ${rel}:${frame.lineNumber + 1}`;
}

function post<T>(session: Session, method: string, params?: object): Promise<T> {
  return new Promise((resolve, reject) => {
    session.post(method as any, params as any, (err: Error | null, result: any) => (err ? reject(err) : resolve(result as T)));
  });
}

export interface Breakdown {
  /** Per call, by category (µs for CPU, bytes for allocations). */
  byCategory: Record<string, number>;
  /** The heaviest functions of our own code (src/, providers/), per call. */
  topOwn: Array<{ fn: string; perCall: number }>;
  /** The heaviest functions anywhere, per call. */
  topAll: Array<{ fn: string; perCall: number }>;
}

function summarise(entries: Array<{ frame: CallFrame; value: number }>, calls: number): Breakdown {
  const byCategory: Record<string, number> = {};
  const byFn = new Map<string, { value: number; own: boolean }>();
  for (const { frame, value } of entries) {
    if (value === 0) continue;
    const cat = category(frame);
    byCategory[cat] = (byCategory[cat] ?? 0) + value / calls;
    const key = where(frame);
    const cur = byFn.get(key) ?? { value: 0, own: cat.startsWith('switchyard') };
    cur.value += value;
    byFn.set(key, cur);
  }
  const sorted = [...byFn].sort((a, b) => b[1].value - a[1].value);
  return {
    byCategory,
    topOwn: sorted.filter(([, v]) => v.own).slice(0, 15).map(([fn, v]) => ({ fn, perCall: v.value / calls })),
    topAll: sorted.slice(0, 15).map(([fn, v]) => ({ fn, perCall: v.value / calls })),
  };
}

/** CPU profile of `run` (which makes `calls` calls): self time per call by category and by function, µs. */
export async function cpuProfile(calls: number, run: () => Promise<void>, intervalUs = 50): Promise<Breakdown & { profile: unknown }> {
  const session = new Session();
  session.connect();
  await post(session, 'Profiler.enable');
  await post(session, 'Profiler.setSamplingInterval', { interval: intervalUs });
  await post(session, 'Profiler.start');
  await run();
  const { profile } = await post<{ profile: { nodes: Array<{ id: number; callFrame: CallFrame }>; samples: number[]; timeDeltas: number[] } }>(session, 'Profiler.stop');
  session.disconnect();
  const selfUs = new Map<number, number>();
  for (let i = 0; i < profile.samples.length; i++) {
    const id = profile.samples[i]!;
    selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i + 1] ?? profile.timeDeltas[i] ?? 0));
  }
  const entries = profile.nodes.map((n) => ({ frame: n.callFrame, value: selfUs.get(n.id) ?? 0 }));
  return { ...summarise(entries, calls), profile };
}

interface SamplingNode {
  callFrame: CallFrame;
  selfSize: number;
  children: SamplingNode[];
}

/** Sampled heap allocations (collected ones included) of `run`: bytes per call by category and function. */
export async function allocationProfile(calls: number, run: () => Promise<void>, samplingInterval = 128): Promise<Breakdown> {
  const session = new Session();
  session.connect();
  await post(session, 'HeapProfiler.enable');
  await post(session, 'HeapProfiler.startSampling', {
    samplingInterval, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true,
  });
  await run();
  const { profile } = await post<{ profile: { head: SamplingNode } }>(session, 'HeapProfiler.stopSampling');
  session.disconnect();
  const entries: Array<{ frame: CallFrame; value: number }> = [];
  const walk = (n: SamplingNode) => {
    entries.push({ frame: n.callFrame, value: n.selfSize });
    for (const c of n.children) walk(c);
  };
  walk(profile.head);
  return summarise(entries, calls);
}
