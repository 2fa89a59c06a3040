import type { CallRef, TargetRef } from './events.js';

/** What an event reads of a call (a policy `Call` is one): observe sits below the policies, so it names only these. */
export interface CallFacts {
  readonly id: string;
  readonly tenant: { readonly name: string };
  readonly chain: string;
  readonly operation: CallRef['operation'];
}

/** What an event reads of a chain target (a policy `TargetRuntime` is one). */
export interface TargetFacts {
  readonly target: { readonly provider: string; readonly model: string };
}

/** The fields that tie an event to its call. */
export function callRef(call: CallFacts): CallRef {
  return { callId: call.id, tenant: call.tenant.name, chain: call.chain, operation: call.operation };
}

/** The fields that tie an event to its call and target. */
export function targetRef(call: CallFacts, target: TargetFacts): TargetRef {
  return { callId: call.id, tenant: call.tenant.name, chain: call.chain, operation: call.operation, provider: target.target.provider, model: target.target.model };
}

/**
 * An event's payload: the call and target it belongs to, then `fields`. Not `{ ...targetRef(), ...fields }`:
 * on Node 20 (V8 11.3) an object literal that starts with a spread and goes on gets a hidden class of its
 * own on every evaluation, so each payload would cost a new map (garbage that outlives young-generation
 * GC) and turn every property read of it megamorphic. Object.assign onto the fresh ref keeps one shape.
 */
export function targetEvent<F extends object>(call: CallFacts, target: TargetFacts, fields: F): TargetRef & F {
  return Object.assign(targetRef(call, target), fields);
}

/** The same for an event of a call as a whole. */
export function callEvent<F extends object>(call: CallFacts, fields: F): CallRef & F {
  return Object.assign(callRef(call), fields);
}
