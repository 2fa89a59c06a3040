import type { FakeAdapter } from '../../providers/fake/adapter.js';
import type { ProviderAdapter, ProviderRequest } from '../../providers/types.js';
import { RouterError } from '../errors.js';
import { INTERNALS, type Router, type RouterInternals } from '../router.js';

function internals(router: Router): RouterInternals {
  const found = (router as Router & { [INTERNALS]?: RouterInternals })[INTERNALS];
  if (!found) throw new TypeError('not a router made by createRouter');
  return found;
}

/** The adapter a router built for one of its providers. */
export function adapterOf(router: Router, provider: string): ProviderAdapter {
  const adapter = internals(router).adapters.get(provider);
  if (!adapter) throw new RouterError('invalid_request', `unknown provider "${provider}"`);
  return adapter;
}

/** Every request a `fake` provider received, in order (including ones that then failed). */
export function fakeRequests(router: Router, provider: string): ProviderRequest[] {
  const adapter = adapterOf(router, provider) as Partial<FakeAdapter>;
  if (!Array.isArray(adapter.requests)) throw new TypeError(`provider "${provider}" is not a fake provider`);
  return adapter.requests;
}

/** Calls waiting in a router's admission queues right now. */
export function queuedCalls(router: Router): number {
  return internals(router).runtime.admission.waiting();
}
