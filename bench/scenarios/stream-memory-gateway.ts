// Child process of the stream-memory scenario (started with --expose-gc): a gateway (router +
// createGateway) in front of the parent's upstream, answering memory readings over IPC. Its RSS is
// what the scenario measures; the upstream and the clients live in the parent.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { pino } from 'pino';
import { REPO_ROOT } from '../lib/profile.js';

export interface StreamMemoryInput {
  /** The router source: this checkout, or a materialised git ref. */
  root?: string;
  upstreamURL: string;
}

export interface StreamMem {
  rss: number;
  heapUsed: number;
  external: number;
  arrayBuffers: number;
  /** The highest RSS sampled (every 10 ms) since the last `reset-peak`. */
  peakRss: number;
}

type Msg = { type: 'mem'; id: number } | { type: 'reset-peak'; id: number } | { type: 'close'; id: number };

const gc = (globalThis as { gc?: () => void }).gc!;
let peakRss = 0;
const sampler = setInterval(() => {
  peakRss = Math.max(peakRss, process.memoryUsage.rss());
}, 10);

async function settled(): Promise<StreamMem> {
  gc();
  await sleep(50);
  gc();
  const m = process.memoryUsage();
  peakRss = Math.max(peakRss, m.rss);
  return { rss: m.rss, heapUsed: m.heapUsed, external: m.external, arrayBuffers: m.arrayBuffers, peakRss };
}

process.once('message', async (input: StreamMemoryInput) => {
  try {
    const root = input.root ?? REPO_ROOT;
    const { createRouter } = await import(pathToFileURL(join(root, 'src', 'router.ts')).href);
    const { createGateway } = await import(pathToFileURL(join(root, 'src', 'gateway', 'index.ts')).href);
    const silent = pino({ level: 'silent' });
    const router = createRouter({
      providers: { up: { type: 'openai', apiKey: 'sk-bench-0000000000000000', baseURL: `${input.upstreamURL}/v1`, timeoutMs: 600_000 } },
      chains: { default: ['up:gpt-4o-mini'] },
      log: { level: 'silent' },
    }, { logger: silent });
    const gateway = createGateway(router, { logger: false, metrics: false });
    const url: string = await gateway.listen({ port: 0, host: '127.0.0.1' });
    process.on('message', async (msg: Msg) => {
      if (msg.type === 'mem') process.send!({ type: 'mem', id: msg.id, mem: await settled() });
      else if (msg.type === 'reset-peak') {
        await settled();
        peakRss = process.memoryUsage.rss();
        process.send!({ type: 'ok', id: msg.id });
      } else if (msg.type === 'close') {
        clearInterval(sampler);
        await gateway.close();
        await router.close();
        process.send!({ type: 'ok', id: msg.id }, () => process.exit(0));
      }
    });
    process.send!({ type: 'ready', url });
  } catch (err) {
    process.send!({ type: 'error', message: (err as Error)?.stack ?? String(err) }, () => process.exit(1));
  }
});
