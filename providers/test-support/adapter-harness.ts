import { createServer, type AddressInfo } from 'node:net';
import { pino } from 'pino';
import { systemClock } from '../../src/clock.js';
import { resolveConfig } from '../../src/config/index.js';
import type { ProviderConfig } from '../../src/config/index.js';
import { RouterError } from '../../src/errors.js';
import { createAdapter } from '../index.js';
import type { ProviderAdapter, ProviderRequest } from '../types.js';

export const silent = pino({ level: 'silent' });

/** Builds one adapter the way the router does, from a provider config. */
export function adapterFor(name: string, provider: ProviderConfig | Record<string, unknown>): ProviderAdapter {
  const config = resolveConfig({ providers: { [name]: provider }, chains: { default: [`${name}:m`] } });
  return createAdapter({ provider: config.providers[name]!, clock: systemClock, logger: silent });
}

/** Runs one request and returns the `RouterError` it must throw. */
export async function failureOf(adapter: ProviderAdapter, request: ProviderRequest, signal: AbortSignal = new AbortController().signal): Promise<RouterError> {
  try {
    await adapter.chat(request, { signal });
  } catch (err) {
    if (err instanceof RouterError) return err;
    throw new Error(`adapter threw a non-RouterError: ${String(err)}`);
  }
  throw new Error('expected the request to fail');
}

/** A loopback port nothing listens on (bound, then released), for connection-refused cases. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
