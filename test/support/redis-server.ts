import { spawn, type ChildProcess } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { connect, createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';

/** A throwaway redis-server on loopback. */
export interface RedisServer {
  url: string;
  port: number;
  /** Kills the server and resolves once it has exited. */
  stop(): Promise<void>;
}

const NOT_FOUND = 'redis-server not found: install it (apt-get install redis-server); CI installs it in .ci/run';

/**
 * Starts a real redis-server on a free loopback port, without persistence, and resolves once it
 * answers PING. Throws (never skips) when redis-server is not installed: tests that need Redis fail.
 */
export async function startRedisServer(): Promise<RedisServer> {
  const binary = findRedisServer();
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    try {
      const child = await spawnRedis(binary, port);
      return { url: `redis://127.0.0.1:${port}`, port, stop: () => stop(child) };
    } catch (err) {
      // Another process may have taken the port between our probe and redis binding it.
      if (attempt >= 3 || !(err instanceof RedisStartError && err.addressInUse)) throw err;
    }
  }
}

/** redis-server did not come up; `addressInUse` when its port was taken (worth another try). */
export class RedisStartError extends Error {
  constructor(message: string, readonly addressInUse: boolean) {
    super(message);
  }
}

/**
 * Spawns redis-server on `port`, without persistence, and resolves once it answers PING; a server
 * that exits or never answers is stopped and rejects with a `RedisStartError` carrying its output.
 */
export async function spawnRedis(binary: string, port: number): Promise<ChildProcess> {
  const child = spawn(binary, ['--save', '', '--appendonly', 'no', '--port', String(port), '--bind', '127.0.0.1', '--dir', tmpdir()], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  try {
    await waitForPing(port, child, () => output);
    return child;
  } catch (err) {
    await stop(child);
    throw new RedisStartError((err as Error).message, /Address already in use/.test(output));
  }
}

/** A loopback port nothing listens on (for "unreachable server" tests). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** The redis-server binary: Debian's in /usr/bin first, then the PATH. */
export function findRedisServer(dirs = ['/usr/bin', ...(process.env.PATH ?? '').split(delimiter).filter(Boolean)]): string {
  for (const dir of dirs) {
    const candidate = join(dir, 'redis-server');
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  throw new Error(NOT_FOUND);
}

async function waitForPing(port: number, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`redis-server exited at start:\n${output()}`);
    if (await ping(port)) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`redis-server did not answer PING on port ${port} within 10 s:\n${output()}`);
}

function ping(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let reply = '';
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(500, () => done(false));
    socket.on('error', () => done(false));
    socket.on('connect', () => socket.write('PING\r\n'));
    socket.on('data', (d) => {
      reply += d.toString();
      if (reply.includes('\r\n')) done(reply.startsWith('+PONG'));
    });
  });
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const force = setTimeout(() => child.kill('SIGKILL'), 3_000);
    child.once('exit', () => {
      clearTimeout(force);
      resolve();
    });
    child.kill('SIGTERM');
  });
}
