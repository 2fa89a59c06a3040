// Child process: the plain node:http upstream of lib/plain-upstream.ts on an event loop (and, pinned,
// a core) of its own. Driven over IPC.
import { startPlainUpstream, type PlainUpstream } from './plain-upstream.js';

let upstream: PlainUpstream | undefined;

process.on('message', (msg: any) => {
  void (async () => {
    try {
      if (msg.type === 'start') {
        upstream = await startPlainUpstream({ headers: msg.headers });
        process.send?.({ type: 'ready', url: upstream.url });
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
