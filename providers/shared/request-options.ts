import type { ProviderCallOptions } from '../types.js';
import { withSendHook } from './send-hook.js';

/**
 * Per-request options for either SDK, and its body tagged for the send hook (`withSendHook`). Both
 * SDKs reject `timeout: undefined` and fractional timeouts ("timeout must be an integer"), so the
 * key is only there when set, and whole; so is `signal`, as every member costs: the SDKs copy the
 * options object several times a request.
 */
export function sdkRequestOptions(options: ProviderCallOptions, body: object): { signal?: AbortSignal; timeout?: number } {
  withSendHook(body, options);
  const { signal, timeoutMs } = options;
  if (timeoutMs === undefined) return signal ? { signal } : {};
  const timeout = Math.max(1, Math.ceil(timeoutMs));
  return signal ? { signal, timeout } : { timeout };
}
