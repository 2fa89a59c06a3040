import { randomBytes } from 'node:crypto';
import type { AbortSignalLike } from '../../providers/types.js';
import type { Call } from '../policy/state/call.js';
import type { Capability } from '../policy/state/capabilities.js';
import type { TargetRuntime } from '../policy/state/target-runtime.js';
import type { Tenants } from '../policy/state/tenants.js';
import { GATEWAY_KEY } from '../spend/gateway-key.js';

/** What chat, stream and embed requests share of what a call is made from. */
interface CallRequest {
  tenant?: string;
  timeoutMs?: number;
}

/**
 * Makes a router's calls, in one place: each call's id (unique per process: a random prefix per
 * router, then a counter, cheap to make) and the one `Call` literal every call kind starts from.
 */
export class NewCall {
  private readonly prefix = `${randomBytes(3).toString('hex')}-`;
  private seq = 0;

  constructor(private readonly tenants: Tenants) {}

  make<R extends CallRequest>(
    operation: Call['operation'], chain: string, targets: readonly TargetRuntime[], request: R,
    needs: readonly Capability[], signal: AbortSignalLike | undefined, startedAtMs: number,
  ): Call<R> {
    return {
      id: this.prefix + ++this.seq, operation, chain, targets, request, tenant: this.tenants.resolve(request.tenant), needs, cost: {},
      gatewayKey: (request as { [GATEWAY_KEY]?: string })[GATEWAY_KEY],
      signal, timeoutMs: request.timeoutMs, startedAtMs, attempts: [],
      deadlineAtMs: request.timeoutMs === undefined ? undefined : startedAtMs + request.timeoutMs,
    };
  }

}
