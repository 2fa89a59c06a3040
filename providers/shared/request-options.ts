import type { ProviderCallOptions } from '../types.js';

/**
 * Per-request options for either SDK. Both reject `timeout: undefined` and fractional timeouts
 * ("timeout must be an integer"), so the key is only there when set, and whole.
 */
export function sdkRequestOptions(options: ProviderCallOptions): { signal?: AbortSignal; timeout?: number } {
  if (options.timeoutMs === undefined) return { signal: options.signal };
  return { signal: options.signal, timeout: Math.max(1, Math.ceil(options.timeoutMs)) };
}
