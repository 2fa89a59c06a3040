import { spawn, type ChildProcess } from 'node:child_process';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { findRedisServer, freePort } from '../support/redis-server.js';

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
    const child = spawn(binary, ['--save', '', '--appendonly', 'no', '--port', String(port), '--bind', '127.0.0.1', '--dir', tmpdir()], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
    // A start-up guard, not a timing assertion: a server that never answers fails the test with its output.
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline && child.exitCode === null && child.signalCode === null) {
      if (await ping(port)) return child;
      await new Promise((r) => setTimeout(r, 20));
    }
    child.kill('SIGKILL');
    // The port of a server just killed can take a moment to be free again.
    if (attempt >= 20 || !/Address already in use/.test(output)) throw new Error(`redis-server did not start on port ${port}:\n${output}`);
    await new Promise((r) => setTimeout(r, 100));
  }
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
