import type { TargetRuntime } from '../policy/target-runtime.js';
import type { Call } from '../runtime/call.js';
import type { CallRef, TargetRef } from './events.js';

/** The fields that tie an event to its call. */
export function callRef(call: Call): CallRef {
  return { callId: call.id, tenant: call.tenant.name, chain: call.chain, operation: call.operation };
}

/** The fields that tie an event to its call and target. */
export function targetRef(call: Call, target: TargetRuntime): TargetRef {
  return { callId: call.id, tenant: call.tenant.name, chain: call.chain, operation: call.operation, provider: target.target.provider, model: target.target.model };
}
