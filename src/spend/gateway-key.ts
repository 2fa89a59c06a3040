/**
 * How the gateway tells the router which of its keys a call came with, so the key's own spend
 * budget applies: a symbol on the request (never part of the public request, never serialised).
 */
export const GATEWAY_KEY: unique symbol = Symbol.for('switchyard.gatewayKey') as never;

/** A gateway key's name in spend budgets and reports: its `keyEnv`, or the start of its `keyHash`. */
export function gatewayKeyId(key: { keyEnv?: string; keyHash?: string }): string {
  return key.keyEnv ?? key.keyHash!.slice(0, 'sha256:'.length + 12);
}
