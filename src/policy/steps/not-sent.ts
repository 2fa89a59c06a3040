import { RouterError, errorFacts, isRouterError } from '../../errors.js';
import type { Call } from '../state/call.js';
import type { TargetRuntime } from '../state/target-runtime.js';

/** Which step before the wire failed: building the request (schema conversion), estimating its tokens, or the adapter's mapping and serialising. */
export type PreSendStep = 'build' | 'estimate' | 'send';

const WHAT: Readonly<Record<PreSendStep, string>> = {
  build: 'could not be built',
  estimate: 'could not be measured for its token budget',
  send: 'could not be encoded for the provider',
};

/**
 * A failure before a request left the process, as the caller's error: nothing reached the provider,
 * so it is no transport or server failure and no breaker or cooling may hear of it. A `RouterError`
 * that already blames the request (or says the target cannot carry it) stands as it is; anything
 * else (a RangeError from a body nested too deep, a schema the converter rejects, a throwing
 * `toJSON`) is `invalid_request` naming the parameter, when one part of the request is to blame.
 */
export function notSentError(
  err: unknown, step: PreSendStep, call: Call, target: TargetRuntime,
  paramOf: ((call: Call) => string | undefined) | undefined, redact: (text: string) => string,
): RouterError {
  if (isRouterError(err) && (errorFacts(err.kind).callerFault || err.kind === 'unsupported')) return err;
  const { provider, model } = target.target;
  const param = (isRouterError(err) ? err.param : undefined) ?? paramOf?.(call);
  const detail = redact(err instanceof Error ? err.message : String(err));
  return new RouterError('invalid_request', `${target.target.key}: the request ${WHAT[step]}, so nothing was sent${param ? `; check ${param}` : ''} (${detail})`, {
    provider, model, param, cause: err, attempts: call.attempts,
  });
}
