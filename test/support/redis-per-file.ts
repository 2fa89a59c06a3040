import { afterAll, beforeAll } from 'vitest';
import { startRedisServer, type RedisServer } from './redis-server.js';

/**
 * One redis-server for the tests of this file (or of the `describe` block it is called in): started
 * before the first test, stopped after the last. Read `url` and `port` in tests and hooks, not at
 * load time (the server is not up yet then).
 */
export function redisPerFile(): Omit<RedisServer, 'stop'> {
  let server: RedisServer | undefined;
  beforeAll(async () => {
    server = await startRedisServer();
  });
  afterAll(async () => {
    await server?.stop();
  });
  const started = (): RedisServer => {
    if (!server) throw new Error('redisPerFile(): the server starts in beforeAll; read it in a test or a hook');
    return server;
  };
  return {
    get url() {
      return started().url;
    },
    get port() {
      return started().port;
    },
  };
}
