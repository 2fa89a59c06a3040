import type { ChildProcess } from 'node:child_process';
import { findRedisServer, freePort, RedisStartError, spawnRedis } from '../support/redis-server.js';

/** A throwaway redis-server a test can kill (as a crash would) and start again on the same port, empty. */
export interface RestartableRedis {
  url: string;
  port: number;
  /** SIGKILL: the server dies at once, mid-command, with nothing saved. */
  kill(): Promise<void>;
  /** A fresh, empty server on the same port; resolves once it answers PING. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

export async function startRestartableRedis(): Promise<RestartableRedis> {
  const binary = findRedisServer();
  const port = await freePort();
  let child: ChildProcess | undefined = await serve(binary, port);
  const kill = async () => {
    const c = child;
    child = undefined;
    if (!c || c.exitCode !== null || c.signalCode !== null) return;
    await new Promise<void>((resolve) => {
      c.once('exit', () => resolve());
      c.kill('SIGKILL');
    });
  };
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    kill,
    async restart() {
      await kill();
      child = await serve(binary, port);
    },
    stop: kill,
  };
}

async function serve(binary: string, port: number): Promise<ChildProcess> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await spawnRedis(binary, port);
    } catch (err) {
      // The port of a server just killed can take a moment to be free again.
      if (attempt >= 20 || !(err instanceof RedisStartError && err.addressInUse)) throw err;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}
