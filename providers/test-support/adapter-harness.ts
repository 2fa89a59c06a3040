import { createServer, type AddressInfo } from 'node:net';
import { pino } from 'pino';
import { systemClock } from '../../src/time/system-clock.js';
import type { Clock } from '../../src/types.js';
import { resolveConfig } from '../../src/config/index.js';
import type { ProviderConfig, ResolvedProvider } from '../../src/config/index.js';
import { providerSecrets } from '../../src/config/secret-fields.js';
import { RouterError } from '../../src/errors.js';
import { secretRedactor } from '../../src/observe/redact.js';
import { createAdapter } from '../index.js';
import type { AdapterContext, ProviderAdapter, ProviderRequest, ProviderStreamEvent } from '../types.js';

export const silent = pino({ level: 'silent' });

/** What the router hands an adapter for this provider: the clock, a silent logger, and its secrets' redactor. */
export function adapterContext(provider: ResolvedProvider, clock: Clock = systemClock): AdapterContext {
  return { provider, clock, logger: silent, redact: secretRedactor(providerSecrets(provider)) };
}

/** Builds one adapter the way the router does, from a provider config. */
export function adapterFor(name: string, provider: ProviderConfig | Record<string, unknown>, clock: Clock = systemClock): ProviderAdapter {
  const config = resolveConfig({ providers: { [name]: provider }, chains: { default: [`${name}:m`] } });
  return createAdapter(adapterContext(config.providers[name]!, clock));
}

/**
 * Builds an adapter from a resolved provider as given, past the config schema: for settings the
 * schema does not carry yet (`query`, `azure`), which adapters read defensively.
 */
export function adapterForResolved(provider: Omit<ResolvedProvider, 'name'> & { name?: string } & Record<string, unknown>, clock: Clock = systemClock): ProviderAdapter {
  return createAdapter(adapterContext({ name: provider.type, ...provider } as ResolvedProvider, clock));
}

/** A clock whose `now` stands still at `nowMs`, for facts computed from the time (wait hints from dates). */
export function fixedClock(nowMs: number): Clock {
  return { ...systemClock, isWallClock: false, now: () => nowMs };
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

/** Runs one stream to its end: the events it yielded, and the `RouterError` it threw, if any. */
export async function drain(adapter: ProviderAdapter, request: ProviderRequest, signal: AbortSignal = new AbortController().signal, onSend?: () => void): Promise<{ events: ProviderStreamEvent[]; error?: RouterError }> {
  const events: ProviderStreamEvent[] = [];
  try {
    for await (const event of adapter.stream(request, { signal, ...(onSend ? { onSend } : {}) })) events.push(event);
  } catch (err) {
    if (err instanceof RouterError) return { events, error: err };
    throw new Error(`adapter stream threw a non-RouterError: ${String(err)}`);
  }
  return { events };
}

/** The stream's tool calls as the router assembles them: per index, id, name and the joined arguments. */
export function assembledToolCalls(events: readonly ProviderStreamEvent[]): Array<{ index: number; id: string; name: string; arguments: string; ended: boolean }> {
  const calls = new Map<number, { index: number; id: string; name: string; arguments: string; ended: boolean }>();
  for (const e of events) {
    if (e.type === 'tool_call_start') calls.set(e.index, { index: e.index, id: e.id, name: e.name, arguments: '', ended: false });
    if (e.type === 'tool_call_delta') calls.get(e.index)!.arguments += e.argumentsDelta;
    if (e.type === 'tool_call_end') calls.get(e.index)!.ended = true;
  }
  return [...calls.values()].sort((a, b) => a.index - b.index);
}

/** A loopback port nothing listens on (bound, then released), for connection-refused cases. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
