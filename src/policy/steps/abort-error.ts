import { RouterError } from '../../errors.js';
import type { Call } from '../state/call.js';
import type { AbortCause } from '../abort/attempt-scope.js';
import type { TargetRuntime } from '../state/target-runtime.js';

/** The error a call ends with when its caller aborted or its deadline passed, whatever the attempt saw. */
export function abortError(cause: AbortCause, call: Call, target: TargetRuntime, original: RouterError): RouterError {
  const facts = { provider: target.target.provider, model: target.target.model, attempts: call.attempts, cause: original };
  if (cause === 'caller') return new RouterError('aborted', 'call aborted by the caller', facts);
  if (cause === 'deadline') return new RouterError('timeout', `call deadline of ${call.timeoutMs} ms passed`, facts);
  if (cause === 'closed') return new RouterError('aborted', 'router closed while the call was in flight', facts);
  return original;
}
