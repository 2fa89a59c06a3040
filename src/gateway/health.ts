import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Router } from '../router.js';
import { baseHeaders } from './context.js';
import type { GatewayState } from './state.js';

/** What `/readyz` answers. */
export interface ReadyReport {
  status: 'ready' | 'draining' | 'store_unavailable';
  /** `memory`: state of this process only; otherwise whether the shared (Redis) store answers. */
  store: 'memory' | 'available' | 'unavailable';
  /** Why a ready gateway is not all it could be. */
  degraded?: string;
}

/**
 * Readiness, from the router's `store` events and the drain: not ready while draining, nor while
 * the shared store is down and calls fail without it (`store.onUnavailable: 'fail'`). With
 * `onUnavailable: 'local'` calls keep succeeding on process-local state, so the gateway stays ready
 * (taking it out of rotation would turn a Redis outage into an outage of every gateway at once) and
 * says it is degraded. The store's state is what the router last saw: it connects to Redis on first
 * use and counts it up until an operation fails, so before the first call the store reads available
 * (the router offers no probe to ask sooner).
 */
export class Readiness {
  private storeUp = true;
  private readonly off: () => void;

  constructor(private readonly router: Router) {
    this.off = router.on('store', (e) => {
      this.storeUp = e.state === 'available';
    });
  }

  report(draining: boolean): ReadyReport {
    const store = this.router.config.store;
    const storeState = store.type === 'memory' ? 'memory' : this.storeUp ? 'available' : 'unavailable';
    if (draining) return { status: 'draining', store: storeState };
    if (storeState !== 'unavailable') return { status: 'ready', store: storeState };
    if (store.type === 'redis' && store.onUnavailable === 'fail') return { status: 'store_unavailable', store: storeState };
    return { status: 'ready', store: storeState, degraded: 'the shared store is unavailable: budgets and cooling hold for this process only until it is back' };
  }

  stop(): void {
    this.off();
  }
}

/** `GET /healthz`: the process answers. `GET /readyz`: 200 when it should get traffic, else 503. */
export function healthRoutes(state: GatewayState, readiness: Readiness) {
  return {
    healthz: async (request: FastifyRequest, reply: FastifyReply) => reply.headers(baseHeaders(request, state.draining)).send({ status: 'ok' }),
    readyz: async (request: FastifyRequest, reply: FastifyReply) => {
      const report = readiness.report(state.draining);
      if (report.status === 'ready') return reply.headers(baseHeaders(request, state.draining)).send(report);
      // The envelope too, so a client SDK that probes it says why instead of "no body".
      const why = report.status === 'draining' ? 'the gateway is shutting down' : 'the shared store is unavailable and store.onUnavailable is "fail"';
      return reply.code(503).headers(baseHeaders(request, state.draining)).send(Object.assign({}, report, { error: { message: why, type: 'server_error', param: null, code: report.status } }));
    },
  };
}
