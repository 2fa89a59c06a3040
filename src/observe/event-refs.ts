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

/**
 * An event's payload: the call and target it belongs to, then `fields`. Not `{ ...targetRef(), ...fields }`:
 * on Node 20 (V8 11.3) an object literal that starts with a spread and goes on gets a hidden class of its
 * own on every evaluation, so each payload would cost a new map (garbage that outlives young-generation
 * GC) and turn every property read of it megamorphic. Object.assign onto the fresh ref keeps one shape.
 */
export function targetEvent<F extends object>(call: Call, target: TargetRuntime, fields: F): TargetRef & F {
  return Object.assign(targetRef(call, target), fields);
}

/** The same for an event of a call as a whole. */
export function callEvent<F extends object>(call: Call, fields: F): CallRef & F {
  return Object.assign(callRef(call), fields);
}
