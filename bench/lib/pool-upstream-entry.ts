// Child process: the routing scenario's pool upstream (lib/pool-upstream.ts) on an event loop (and,
// pinned, a core) of its own. Driven over IPC.
import { startPoolUpstream } from './pool-upstream.js';

let upstream: Awaited<ReturnType<typeof startPoolUpstream>> | undefined;

process.on('message', (msg: any) => {
  void (async () => {
    try {
      if (msg.type === 'start') {
        upstream = await startPoolUpstream();
        process.send?.({ type: 'ready', url: upstream.url });
      } else if (msg.type === 'reset') {
        upstream!.reset(msg.profile);
        process.send?.({ type: 'reset', id: msg.id });
      } else if (msg.type === 'stats') {
        process.send?.({ type: 'stats', id: msg.id, stats: upstream!.stats() });
      } else if (msg.type === 'exit') {
        await upstream?.close();
        process.exit(0);
      }
    } catch (err) {
      process.send?.({ type: 'error', message: (err as Error)?.stack ?? String(err) });
    }
  })();
});
process.on('disconnect', () => process.exit(0));
process.send?.({ type: 'booted' });
